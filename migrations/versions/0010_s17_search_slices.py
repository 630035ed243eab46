"""The 17-clue search's slices: what each checkpoint searched, so a slice is counted once.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26

``s17_search_slices``: one row per slice of bands 2 searched (pass, band-1 rank, first band 2,
past the last), with its pairs, bands 3, finds and CPU seconds. ``s17_search_bands``' counters
grow by a slice only when no stored slice of that pass and band 1 overlaps it: before, a second
run over the same bands 2 (a stdout run repeated, or a new ``--out`` file) added its counters
again (bands 2 done above the entry's, CPU seconds twice). Catalogs migrated from 0009 keep their
rows as they were; their slices are unknown, so a slice searched again after the migration is
counted once more.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "s17_search_slices",
        sa.Column("pass", sa.String(1), nullable=False),
        sa.Column("band1_rank", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("first_band2", BigInt, nullable=False, autoincrement=False),
        sa.Column("stop_band2", BigInt, nullable=False),
        sa.Column("pairs", BigInt, nullable=False),
        sa.Column("bands3", BigInt, nullable=False),
        sa.Column("found", sa.Integer(), nullable=False),
        sa.Column("cpu_seconds", sa.Float(), nullable=False),
        sa.Column("computed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("pass", "band1_rank", "first_band2", name="pk_s17_search_slices"),
        sa.CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="ck_s17_search_slices_band1_rank_range"),
        sa.CheckConstraint("pass IN ('A', 'B', 'C')", name="ck_s17_search_slices_pass_known"),
        sa.CheckConstraint("stop_band2 > first_band2", name="ck_s17_search_slices_nonempty"),
    )


def downgrade() -> None:
    op.drop_table("s17_search_slices")
