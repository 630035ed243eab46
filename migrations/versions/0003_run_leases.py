"""Run leases: which worker holds which shard of a run, until when.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

One row per (run, shard) that a worker ever claimed (``jobs/leases.py``): ``worker_id``
(``host:pid:random``; NULL when released), ``expires_at`` (renewed with every committed chunk),
``claimed_at``. A claim succeeds only on a free, expired or dead-holder lease; a chunk commits
only while its worker still holds the lease (checked in the chunk's own transaction).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "run_leases",
        sa.Column("run_id", BigInt, nullable=False, autoincrement=False),
        sa.Column("shard", sa.String(200), nullable=False),
        sa.Column("worker_id", sa.String(200), nullable=True),
        sa.Column("expires_at", TS, nullable=True),
        sa.Column("claimed_at", TS, nullable=True),
        sa.PrimaryKeyConstraint("run_id", "shard", name="pk_run_leases"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], ondelete="CASCADE", name="fk_run_leases_run_id_runs"),
    )


def downgrade() -> None:
    op.drop_table("run_leases")
