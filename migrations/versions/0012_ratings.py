"""Sudoku Explainer ratings of puzzles (``bin/rate --store``).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28

``ratings``: one row per (puzzle as given, SE line, chain level limit): the exact 81-character
string (``.`` empty), its pure minlex form (``canonical``: the morphs of one puzzle share it),
givens, ER/EP/ED as ``serate`` prints them, whether they are the rating or lower bounds
(``complete``; ``lower``: which figures are bounds), the path's length, the CPU seconds it took.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("puzzle", sa.String(81), nullable=False),
        sa.Column("line", sa.String(8), nullable=False),
        sa.Column("max_level", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("canonical", sa.String(81), nullable=False),
        sa.Column("n_givens", sa.SmallInteger(), nullable=False),
        sa.Column("er", sa.Float(), nullable=False),
        sa.Column("ep", sa.Float(), nullable=False),
        sa.Column("ed", sa.Float(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("lower", sa.String(8), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("cpu_seconds", sa.Float(), nullable=False),
        sa.Column("source", sa.String(255), nullable=True),
        sa.Column("rated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("puzzle", "line", "max_level", name="pk_ratings"),
        sa.CheckConstraint("max_level >= 0 AND max_level <= 5", name="ck_ratings_max_level_range"),
        sa.CheckConstraint("line IN ('1.2.1.3', '2022')", name="ck_ratings_line_known"),
    )
    op.create_index("ix_ratings_canonical", "ratings", ["canonical"])
    op.create_index("ix_ratings_er", "ratings", ["er"])


def downgrade() -> None:
    op.drop_index("ix_ratings_er", table_name="ratings")
    op.drop_index("ix_ratings_canonical", table_name="ratings")
    op.drop_table("ratings")
