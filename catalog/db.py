"""Where the catalog is, how to connect, and migrations applied when it is opened.

Location (first that is set):

1. the ``--db`` option of a command (``db`` argument here): a file path or any SQLAlchemy URL
   (``postgresql+psycopg://user@host/dbname``, ``sqlite:////abs/path.sqlite``);
2. the environment variable ``SUDOKU_CATALOG`` (same forms);
3. the default SQLite file ``$XDG_DATA_HOME/sudoku-symmetry/catalog.sqlite``, i.e.
   ``~/.local/share/sudoku-symmetry/catalog.sqlite`` when ``XDG_DATA_HOME`` is unset.

A plain path is a SQLite file (its folder is created). SQLite connections get
``journal_mode=WAL``, ``synchronous=NORMAL``, ``foreign_keys=ON`` and a 30 s busy timeout,
and real transactions that include DDL (SQLAlchemy's pysqlite recipe: the driver's own
transaction handling is off and ``BEGIN`` is emitted by SQLAlchemy), so a migration or a
chunk-plus-checkpoint commit is all or nothing.

Opening (:func:`open_catalog`) reads ``alembic_version`` with one raw query; only when that is
not :data:`HEAD_REVISION` is Alembic imported and ``upgrade head`` run on the open connection
(``migrations/``), so opening an up-to-date catalog costs a few milliseconds.

    >>> engine = open_catalog("/tmp/example.sqlite")          # doctest: +SKIP
    >>> with session_scope(engine) as s: ...                   # doctest: +SKIP
"""
from __future__ import annotations

import os
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

HEAD_REVISION = "0002"
"""The newest migration in ``migrations/versions``; bump it with every new migration
(a test checks it against Alembic's own head)."""

ENV_VAR = "SUDOKU_CATALOG"

_REVISION_BEFORE: "weakref.WeakKeyDictionary[Engine, str | None]" = weakref.WeakKeyDictionary()


from .errors import CatalogError  # noqa: E402  (re-exported: catalog.db.CatalogError)


def default_path() -> Path:
    """``$XDG_DATA_HOME/sudoku-symmetry/catalog.sqlite`` (``~/.local/share`` if unset)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "sudoku-symmetry" / "catalog.sqlite"


def resolve_url(db: str | None = None) -> str:
    """The catalog URL from ``db``, else ``$SUDOKU_CATALOG``, else :func:`default_path`."""
    value = db or os.environ.get(ENV_VAR) or str(default_path())
    if "://" in value:
        return value
    path = Path(value).expanduser().resolve()
    return f"sqlite:///{path}"


def describe(url: str) -> str:
    """A printable location: the file path for SQLite files, else the URL without its password."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
        return u.database
    return u.render_as_string(hide_password=True)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        conn.exec_driver_sql("BEGIN")


def create_catalog_engine(url: str, **kwargs) -> Engine:
    """An Engine for ``url`` (already resolved) with the SQLite settings above; no migrations."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
        Path(u.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
    return engine


def current_revision(engine_or_conn) -> str | None:
    """The catalog's Alembic revision by a raw query (None for an empty database)."""
    def read(conn):
        try:
            with conn.begin_nested() if conn.in_transaction() else _null():
                rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").fetchall()
        except DBAPIError:
            return None
        return rows[0][0] if rows else None

    if isinstance(engine_or_conn, Engine):
        with engine_or_conn.connect() as conn:
            value = read(conn)
            conn.rollback()
            return value
    return read(engine_or_conn)


@contextmanager
def _null():
    yield


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` on ``engine`` (imports Alembic)."""
    from alembic import command
    from alembic.config import Config

    from sudoku_symmetry import migrations

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def open_catalog(db: str | None = None, *, migrate: bool = True, **engine_kwargs) -> Engine:
    """An Engine on the catalog (see the module docstring for ``db``), migrated to the head.

    Fast path: one ``SELECT version_num FROM alembic_version``; Alembic is imported only when
    the catalog is new or older than this code. A catalog newer than the code raises
    :class:`CatalogError` rather than guessing.
    """
    url = resolve_url(db)
    engine = create_catalog_engine(url, **engine_kwargs)
    before = _REVISION_BEFORE[engine] = current_revision(engine)
    if migrate and before != HEAD_REVISION:
        try:
            upgrade(engine)
        except Exception as exc:
            now = current_revision(engine)
            if now == HEAD_REVISION:  # another process migrated it at the same moment
                return engine
            if "Can't locate revision" in str(exc):
                raise CatalogError(
                    f"the catalog {describe(url)} is at revision {now!r}, which this code does not "
                    f"know (its newest is {HEAD_REVISION}); update the code"
                ) from exc
            raise
    return engine


def migrated_from(engine: Engine) -> str | None:
    """The revision the catalog had before :func:`open_catalog` (None: it was empty)."""
    return _REVISION_BEFORE.get(engine)


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """A Session in one transaction: committed on success, rolled back on an exception."""
    with Session(engine) as session, session.begin():
        yield session
