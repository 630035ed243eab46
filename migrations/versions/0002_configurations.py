"""Configurations: canonical forms of grids and puzzles that were seen.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "configurations",
        sa.Column("id", BigInt, nullable=False, autoincrement=True),
        sa.Column("canonical", sa.String(81), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("convention", sa.String(16), nullable=False),
        sa.Column("n_givens", sa.SmallInteger(), nullable=False),
        sa.Column("automorphism_count", sa.Integer(), nullable=True),
        sa.Column("source", sa.String(200), nullable=True),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_configurations"),
        sa.UniqueConstraint("canonical", "convention", name="uq_configurations_canonical_convention"),
        sa.CheckConstraint("kind IN ('grid', 'puzzle')", name=op.f("ck_configurations_kind")),
        sa.CheckConstraint("convention IN ('minlex', 'pattern_first')", name=op.f("ck_configurations_convention")),
    )
    op.create_index("ix_configurations_kind_n_givens_automorphism_count", "configurations",
                    ["kind", "n_givens", "automorphism_count"])


def downgrade() -> None:
    op.drop_index("ix_configurations_kind_n_givens_automorphism_count", table_name="configurations")
    op.drop_table("configurations")
