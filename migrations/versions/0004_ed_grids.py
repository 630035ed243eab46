"""Essentially different grids: counts per band 1 and per (band 1, row-4 prefix).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

``ed_grid_prefixes``: one row per (band 1, prefix) with the prefix's row 4 and the number of ED
grids under it (written by ``bin/enumerate`` chunk by chunk, with the run's checkpoint).
``ed_grid_bands``: one row per band 1 whose enumeration is complete: its total, its number of
prefixes, how many of its grids have a non-trivial automorphism, and the automorphism-count
histogram as JSON (``{"count": grids}``). Rank <-> grid reads both.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ed_grid_prefixes",
        sa.Column("band1", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("prefix", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("row4", sa.String(9), nullable=False),
        sa.Column("grids", BigInt, nullable=False),
        sa.PrimaryKeyConstraint("band1", "prefix", name="pk_ed_grid_prefixes"),
        sa.CheckConstraint("band1 >= 0 AND band1 < 416", name="ck_ed_grid_prefixes_band1_range"),
    )
    op.create_table(
        "ed_grid_bands",
        sa.Column("band1", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("grids", BigInt, nullable=False),
        sa.Column("prefixes", sa.Integer(), nullable=False),
        sa.Column("automorphic", BigInt, nullable=False),
        sa.Column("automorphism_histogram", sa.Text(), nullable=False),
        sa.Column("computed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("band1", name="pk_ed_grid_bands"),
        sa.CheckConstraint("band1 >= 0 AND band1 < 416", name="ck_ed_grid_bands_band1_range"),
    )


def downgrade() -> None:
    op.drop_table("ed_grid_bands")
    op.drop_table("ed_grid_prefixes")
