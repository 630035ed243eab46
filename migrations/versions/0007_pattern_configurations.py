"""Configurations of kind pattern / configuration in the box-first convention.

Revision ID: 0007
Revises: 0004
Create Date: 2026-11-23

The ``configurations`` table (0002) also holds the essentially different clue patterns and
configurations of ``bin/patterns``: ``kind`` may be ``pattern`` or ``configuration`` (so the
column widens to 16 characters; ``automorphism_count`` becomes 64-bit: a configuration's
count includes relabelings, up to 3,359,232 x 9!) and ``convention`` ``box_first`` (engine/patterns/canonical.py).
The check constraints are recreated (a table copy on SQLite: batch mode).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
OLD_KINDS = "kind IN ('grid', 'puzzle')"
NEW_KINDS = "kind IN ('grid', 'puzzle', 'pattern', 'configuration')"
OLD_CONVENTIONS = "convention IN ('minlex', 'pattern_first')"
NEW_CONVENTIONS = "convention IN ('minlex', 'pattern_first', 'box_first')"


def _recreate(kinds: str, conventions: str, width: int) -> None:
    with op.batch_alter_table("configurations", recreate="auto") as b:
        b.drop_constraint(op.f("ck_configurations_kind"), type_="check")
        b.drop_constraint(op.f("ck_configurations_convention"), type_="check")
        b.alter_column("kind", type_=sa.String(width), existing_nullable=False)
        b.alter_column("automorphism_count", type_=BigInt if width > 8 else sa.Integer(), existing_nullable=True)
        b.create_check_constraint(op.f("ck_configurations_kind"), kinds)
        b.create_check_constraint(op.f("ck_configurations_convention"), conventions)


def upgrade() -> None:
    _recreate(NEW_KINDS, NEW_CONVENTIONS, 16)


def downgrade() -> None:
    op.execute("DELETE FROM configurations WHERE kind IN ('pattern', 'configuration') OR convention = 'box_first'")
    _recreate(OLD_KINDS, OLD_CONVENTIONS, 8)
