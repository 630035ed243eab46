"""Alembic environment. Normally run from code (``catalog.db.upgrade``), which passes the open
connection in ``config.attributes["connection"]``; offline mode (``--sql``) writes the SQL for a
URL given as ``sqlalchemy.url`` (e.g. ``postgresql://`` to review the PostgreSQL DDL).

From a shell (the repository root)::

    alembic -x db=PATH_OR_URL upgrade head        # same catalog resolution as the commands
    alembic -c /dev/null ...                      # no alembic.ini is needed; see catalog.db
"""
from __future__ import annotations

from alembic import context

from catalog.models import Base

config = context.config
target_metadata = Base.metadata


def _render_as_batch(dialect_name: str) -> bool:
    # SQLite cannot ALTER most constraints in place; batch mode rebuilds the table instead.
    return dialect_name == "sqlite"


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url") or "postgresql://"
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # invoked by the alembic CLI: open the catalog the commands would
        from catalog.db import create_catalog_engine, resolve_url

        db = context.get_x_argument(as_dictionary=True).get("db")
        engine = create_catalog_engine(resolve_url(db))
        with engine.begin() as connection:
            _run(connection)
        return
    _run(connection)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=_render_as_batch(connection.dialect.name))
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
