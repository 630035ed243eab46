"""The searches of grids keep one record per question: what is known of a grid's puzzles.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28

``grid_searches`` is keyed on (grid, clues, minimal): one record per question asked of a grid,
holding the most that was learned: a complete search's count, else the largest count a search
cut by a limit found (it found at least that many). A later search replaces the record when it
knows more (``catalog/grid_searches.py``). Before, the key held ``complete`` too and a record was
never replaced, so a second limited search that found more left the first one's count. Rows
migrated from 0010: where a complete and a limited record of one question were both kept, the
complete one stays.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)
COLUMNS = "grid, clues, minimal, complete, found, automorphism_count, seconds, computed_at"


def _table(name: str, key: list[str]) -> None:
    op.create_table(
        name,
        sa.Column("grid", sa.String(81), nullable=False),
        sa.Column("clues", sa.SmallInteger(), nullable=False),
        sa.Column("minimal", sa.Boolean(), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("found", BigInt, nullable=False),
        sa.Column("automorphism_count", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("computed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint(*key, name="pk_grid_searches"),
        sa.CheckConstraint("clues >= 0 AND clues <= 81", name="ck_grid_searches_clues_range"),
    )


def _rekey(key: list[str]) -> None:
    """The table again with primary key ``key``: a copy on SQLite (which cannot change a key in
    place), the constraint replaced on PostgreSQL."""
    if op.get_bind().dialect.name == "sqlite":
        op.rename_table("grid_searches", "grid_searches_before")
        _table("grid_searches", key)
        op.execute(f"INSERT INTO grid_searches ({COLUMNS}) SELECT {COLUMNS} FROM grid_searches_before")
        op.drop_table("grid_searches_before")
    else:
        op.drop_constraint("pk_grid_searches", "grid_searches", type_="primary")
        op.create_primary_key("pk_grid_searches", "grid_searches", key)


def upgrade() -> None:
    # one record per (grid, clues, minimal): a limited record goes where a complete one exists
    op.execute("DELETE FROM grid_searches WHERE NOT complete AND EXISTS (SELECT 1 FROM grid_searches AS h "
               "WHERE h.grid = grid_searches.grid AND h.clues = grid_searches.clues "
               "AND h.minimal = grid_searches.minimal AND h.complete)")
    _rekey(["grid", "clues", "minimal"])


def downgrade() -> None:
    _rekey(["grid", "clues", "minimal", "complete"])
