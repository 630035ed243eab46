"""Alembic environment, run from code: there is no alembic.ini.

* ``catalog.db.open_catalog`` / ``catalog.db.upgrade(engine, rev)`` build a ``Config`` in code
  (``script_location`` = this folder) and pass the open connection in
  ``config.attributes["connection"]``; the whole upgrade is one transaction.
* Without a connection (e.g. the ``alembic`` CLI with an ini that names this folder), the catalog
  is resolved like the commands do: ``-x db=PATH_OR_URL``, else ``$SUDOKU_CATALOG``, else the default.
* Offline mode (``upgrade(cfg, "head", sql=True)``) writes the SQL for ``sqlalchemy.url``
  (default ``postgresql://``) to review it or run it with psql (tests/test_populate.py does).

New migration: copy the newest file in ``versions/`` (hand-written, explicit constraint names
wrapped in ``op.f``), set ``down_revision``, bump ``catalog.db.HEAD_REVISION``, mirror the change
in ``catalog/models.py``; ``tests/test_catalog.py::test_models_match_migrations`` checks both.
"""
from __future__ import annotations

from alembic import context

from sudoku_symmetry.catalog.models import Base

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
        from sudoku_symmetry.catalog.db import create_catalog_engine, resolve_url

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
