"""The searches of grids for their puzzles of n clues (``find-puzzles --store``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25

``grid_searches``: one row per (grid, clues, minimal, complete): the grid's minlex form, the
clue count searched, whether only minimal puzzles were kept, ``found`` (puzzles of the grid
itself: copies that an automorphism of the grid maps onto each other count apart, as the search
lists them), ``complete`` (no ``--limit`` cut the search), the grid's ``automorphism_count``,
the search's ``seconds`` and ``computed_at``. The puzzles themselves go to ``configurations``
(kind ``puzzle``, minlex).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "grid_searches",
        sa.Column("grid", sa.String(81), nullable=False),
        sa.Column("clues", sa.SmallInteger(), nullable=False),
        sa.Column("minimal", sa.Boolean(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("found", BigInt, nullable=False),
        sa.Column("automorphism_count", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("computed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("grid", "clues", "minimal", "complete", name="pk_grid_searches"),
        sa.CheckConstraint("clues >= 0 AND clues <= 81", name="ck_grid_searches_clues_range"),
    )


def downgrade() -> None:
    op.drop_table("grid_searches")
