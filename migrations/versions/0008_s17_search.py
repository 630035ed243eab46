"""The 17-clue search: its finds and its progress per pass and band 1.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25

``s17_search_finds``: one row per (pass, band-1 rank, canonical form) the search found, with the
puzzle as the search wrote it (the entry's presentation); the canonical form also goes to
``configurations`` (kind ``puzzle``). ``s17_search_bands``: per (pass, band-1 rank), how far the
search went (bands 2 done of the entry's, pairs with bands 3, bands 3, 17s found, CPU seconds)
and whether it is complete; written in the transaction of each checkpoint.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "s17_search_finds",
        sa.Column("pass", sa.String(1), nullable=False),
        sa.Column("band1_rank", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("canonical", sa.String(81), nullable=False),
        sa.Column("puzzle", sa.String(81), nullable=False),
        sa.Column("found_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("pass", "band1_rank", "canonical", name="pk_s17_search_finds"),
        sa.CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="ck_s17_search_finds_band1_rank_range"),
        sa.CheckConstraint("pass IN ('A', 'B', 'C')", name="ck_s17_search_finds_pass_known"),
    )
    op.create_index("ix_s17_search_finds_canonical", "s17_search_finds", ["canonical"])
    op.create_table(
        "s17_search_bands",
        sa.Column("pass", sa.String(1), nullable=False),
        sa.Column("band1_rank", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("band1", sa.SmallInteger(), nullable=False),
        sa.Column("bands2_total", BigInt, nullable=False),
        sa.Column("bands2_done", BigInt, nullable=False),
        sa.Column("pairs", BigInt, nullable=False),
        sa.Column("bands3", BigInt, nullable=False),
        sa.Column("found", sa.Integer(), nullable=False),
        sa.Column("cpu_seconds", sa.Float(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("pass", "band1_rank", name="pk_s17_search_bands"),
        sa.CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="ck_s17_search_bands_band1_rank_range"),
        sa.CheckConstraint("pass IN ('A', 'B', 'C')", name="ck_s17_search_bands_pass_known"),
    )


def downgrade() -> None:
    op.drop_table("s17_search_bands")
    op.drop_index("ix_s17_search_finds_canonical", table_name="s17_search_finds")
    op.drop_table("s17_search_finds")
