"""Fine counts of the ED grids: checkpoints inside each row-4 prefix, chunk by chunk.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-23

``ed_grid_fine``: one row per chunk of consecutive prefixes of a band 1 that a
``bin/enumerate --fine`` run counted: the first prefix, how many prefixes, the checkpoint step,
and ``data`` (zlib-compressed little-endian int32: the checkpoints per prefix, then each
checkpoint's band-2 ordinal, then the grids of its prefix before it). Rank <-> grid resumes
the enumeration at the nearest checkpoint (``engine/grids/rank.py``).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ed_grid_fine",
        sa.Column("band1", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("first_prefix", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("prefixes", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("checkpoints", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("band1", "first_prefix", name="pk_ed_grid_fine"),
        sa.CheckConstraint("band1 >= 0 AND band1 < 416", name="ck_ed_grid_fine_band1_range"),
    )


def downgrade() -> None:
    op.drop_table("ed_grid_fine")
