"""Every puzzle on a clue pattern, and the walks of the {-n+m} neighbourhood.

Revision ID: 0014
Revises: 0011
Create Date: 2026-11-28

``pattern_searches``: one row per search of a clue pattern (the pattern as given, ``x`` a clue;
the fixed digits or ``''``; ``minimal``): the pattern's automorphisms (those keeping the fixed
digits), the classes of puzzles found (once per class under them), the puzzles on the pattern
up to relabelling, whether the search was complete, its CPU seconds. The puzzles themselves go
to ``configurations`` (minlex). ``vicinity_walks``: the classes a walk reached, one row per
(walk, canonical form) with the step that reached it first (0: the walk's own puzzles); a walk
is the run of its first step.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0012"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "pattern_searches",
        sa.Column("pattern", sa.String(81), nullable=False),
        sa.Column("fixed", sa.String(81), nullable=False),
        sa.Column("minimal", sa.Boolean(), nullable=False),
        sa.Column("cells", sa.SmallInteger(), nullable=False),
        sa.Column("automorphism_count", BigInt, nullable=False),
        sa.Column("classes", BigInt, nullable=False),
        sa.Column("on_pattern", BigInt, nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("cpu_seconds", sa.Float(), nullable=False),
        sa.Column("computed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("pattern", "fixed", "minimal", name="pk_pattern_searches"),
        sa.CheckConstraint("cells >= 0 AND cells <= 81", name="ck_pattern_searches_cells_range"),
    )
    op.create_table(
        "vicinity_walks",
        sa.Column("walk", BigInt, nullable=False, autoincrement=False),
        sa.Column("canonical", sa.String(81), nullable=False),
        sa.Column("step", sa.SmallInteger(), nullable=False),
        sa.PrimaryKeyConstraint("walk", "canonical", name="pk_vicinity_walks"),
        sa.CheckConstraint("step >= 0", name="ck_vicinity_walks_step_range"),
    )
    op.create_index("ix_vicinity_walks_walk_step", "vicinity_walks", ["walk", "step"])


def downgrade() -> None:
    op.drop_index("ix_vicinity_walks_walk_step", table_name="vicinity_walks")
    op.drop_table("vicinity_walks")
    op.drop_table("pattern_searches")
