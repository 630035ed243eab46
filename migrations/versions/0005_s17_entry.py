"""The 17-clue search entry: the band order in ``bands`` and the per-band-1 entry counts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23

``bands`` gains ``valid6`` and ``valid5`` (valid 6- and 5-clue sub-puzzles: with the gangster
they fix the band), ``min_clues`` (fewest clues that fix the band) and ``s17_rank`` (position
in the search's order: ascending ``valid6``, ties by index); nullable, filled by ``populate`` or
``s17-entry``. ``s17_entry_bands``: one row per (variant, band-1 rank) whose entry is complete:
band 1's index, the bands 2 kept by the middle loop and the bands 3 generated.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("bands") as batch:
        batch.add_column(sa.Column("valid6", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("valid5", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("min_clues", sa.SmallInteger(), nullable=True))
        batch.add_column(sa.Column("s17_rank", sa.SmallInteger(), nullable=True))
    op.create_table(
        "s17_entry_bands",
        sa.Column("variant", sa.String(1), nullable=False),
        sa.Column("band1_rank", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("band1", sa.SmallInteger(), nullable=False),
        sa.Column("bands2", BigInt, nullable=False),
        sa.Column("bands3", BigInt, nullable=False),
        sa.Column("computed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("variant", "band1_rank", name="pk_s17_entry_bands"),
        sa.CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="ck_s17_entry_bands_band1_rank_range"),
        sa.CheckConstraint("variant IN ('A', 'B', 'C')", name="ck_s17_entry_bands_variant_known"),
    )


def downgrade() -> None:
    op.drop_table("s17_entry_bands")
    with op.batch_alter_table("bands") as batch:
        batch.drop_column("s17_rank")
        batch.drop_column("min_clues")
        batch.drop_column("valid5")
        batch.drop_column("valid6")
