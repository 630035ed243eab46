"""Where the catalog is, how to connect, and migrations applied when it is opened.

Location (first that is set):

1. the ``--db`` option of a command (``db`` argument here): a file path or any SQLAlchemy URL
   (``postgresql+psycopg://user@host/dbname``, ``sqlite:////abs/path.sqlite``);
2. the environment variable ``SUDOKU_CATALOG`` (same forms);
3. the default SQLite file ``catalog.sqlite`` in the user's data folder for ``sudoku-symmetry``
   as platformdirs names it: ``~/.local/share/sudoku-symmetry/`` on Linux (``$XDG_DATA_HOME``
   respected), ``~/Library/Application Support/sudoku-symmetry/`` on macOS,
   ``%LOCALAPPDATA%\\sudoku-symmetry\\`` on Windows.

A plain path is a SQLite file (its folder is created, except by read-only commands, which open
with ``create=False`` and are refused a catalog that does not exist). SQLite connections get a 30 s busy
timeout, ``journal_mode=WAL``, ``synchronous=NORMAL``, ``foreign_keys=ON``, and real transactions
that include DDL (SQLAlchemy's pysqlite recipe: the driver's own transaction handling is off and
``BEGIN`` is emitted by SQLAlchemy), so a migration or a chunk-plus-checkpoint commit is all or
nothing. :func:`write_transaction` begins with ``BEGIN IMMEDIATE`` on SQLite (the write lock is
taken first, waiting up to the busy timeout, so a read-then-write transaction can never fail with
``database is locked`` half way); claims, run creation and migrations use it.

Opening (:func:`open_catalog`) reads ``alembic_version`` with one raw query; only when that is
not :data:`HEAD_REVISION` is Alembic imported and ``upgrade head`` run, in one write transaction
that re-reads the revision first (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: a transaction-scoped
advisory lock), so any number of processes may create or upgrade the same catalog at once: one
migrates, the others find it done. Opening an up-to-date catalog costs a few milliseconds.

Faults are :class:`CatalogError` with a one-line message naming the catalog (never the SQL or its
parameters; the commands print it as ``PROG: error: ...`` and exit 2): a URL that SQLAlchemy
cannot parse or whose scheme/driver is unknown, a folder that cannot be created, a file that is
not a database, a read-only catalog written to, a locked one (after the busy timeout), a server
that cannot be reached, a revision this code does not know (a newer catalog), and a non-empty
database that is not a catalog (tables but no ``alembic_version``): it is refused rather than
having our tables added to it, unless ``open_catalog(..., adopt=True)`` (``populate --adopt``).
An SQLite file is looked at read-only before the first connection (which switches it to WAL
mode), so a file that is refused stays byte-identical.

    >>> engine = open_catalog("/tmp/example.sqlite")          # doctest: +SKIP
    >>> with session_scope(engine) as s: ...                   # doctest: +SKIP
"""
from __future__ import annotations

import os
import re
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session

HEAD_REVISION = "0014"
"""The newest migration in ``migrations/versions``; bump it with every new migration
(a test checks it against Alembic's own head)."""

_REVISION_BEFORE: "weakref.WeakKeyDictionary[Engine, str | None]" = weakref.WeakKeyDictionary()


from .errors import CatalogError, ConnectionLost  # noqa: E402  (re-exported: catalog.db.CatalogError)
from .files import ENV_VAR, default_location  # noqa: E402,F811  (one home for where the catalog is by default)


def default_path() -> Path:
    """``$XDG_DATA_HOME/sudoku-symmetry/catalog.sqlite`` (``~/.local/share`` if unset)."""
    return Path(default_location())


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
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: the next pragma may wait for a lock
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("sqlite_immediate") else "BEGIN")


BUSY_TIMEOUT_MS = 30_000

# SQLite's messages for the faults a user can meet, and what to say instead (one line each)
_SQLITE_FAULTS = (
    ("attempt to write a readonly database", "the catalog {where} is read-only (cannot write to it): check the "
                                             "permissions of the file and its folder, or choose another with --db"),
    ("file is not a database", "{where} is not an SQLite database (file is not a database): "
                               "is --db pointing at the right file?"),
    ("unable to open database file", "cannot open the catalog {where} (unable to open database file): "
                                     "check the path and its permissions"),
    ("database is locked", "the catalog {where} is locked by another process (busy timeout 30 s): try again later"),
    ("database or disk is full", "cannot write the catalog {where}: the disk is full"),
    ("disk i/o error", "cannot read or write the catalog {where}: disk I/O error"),
    ("database disk image is malformed", "the catalog {where} is damaged (database disk image is malformed)"),
)


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0].strip() if lines else type(exc).__name__


def _fault_message(where: str, dialect_name: str, orig: BaseException) -> str | None:
    """A one-line :class:`CatalogError` message for an environmental database fault, else None
    (programming errors, and "no such table", which :func:`current_revision` expects, pass)."""
    text = _one_line(orig)
    low = text.lower()
    if dialect_name == "sqlite":
        for needle, message in _SQLITE_FAULTS:
            if needle in low:
                return message.format(where=where)
        return None
    if _is_operational(orig):  # PostgreSQL drivers: connection and server faults
        return f"cannot use the catalog {where}: {text}"
    return None


def _is_operational(orig: BaseException) -> bool:
    """psycopg's OperationalError or a subclass (AdminShutdown, SerializationFailure, ...)."""
    return any(k.__name__ == "OperationalError" for k in type(orig).__mro__)


def _install_error_translation(engine: Engine, where: str) -> None:
    @event.listens_for(engine, "handle_error")
    def _on_error(context):
        orig = context.original_exception
        message = _fault_message(where, engine.dialect.name, orig)
        if message is not None:
            lost = engine.dialect.name == "postgresql" and (context.is_disconnect or _is_operational(orig))
            raise (ConnectionLost if lost else CatalogError)(message) from orig


def _sqlite_path(url: str) -> str | None:
    """The file of an SQLite catalog URL (None for another database, memory, a ``file:`` URI, or
    a URL that cannot be parsed)."""
    try:
        u = make_url(url)
    except (ArgumentError, ValueError):
        return None
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:" \
            and not u.database.startswith("file:"):
        return u.database
    return None


def sqlite_file(db: str | None = None) -> Path | None:
    """The file of the catalog named by ``db`` (as :func:`resolve_url` reads it) when it is an
    SQLite file, else None (another database, memory, a URI): for tools that read the file
    itself, such as Datasette (``bin/browse``)."""
    path = _sqlite_path(resolve_url(db))
    return Path(path) if path is not None else None


def create_catalog_engine(url: str, **kwargs) -> Engine:
    """An Engine for ``url`` (already resolved) with the SQLite settings above; no migrations.
    Raises :class:`CatalogError` for a URL it cannot use or a folder it cannot create."""
    try:
        u = make_url(url)
    except (ArgumentError, ValueError) as exc:
        shown = re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", url)  # never print a password
        raise CatalogError(f"cannot parse the catalog URL {shown!r}: use a file path or an SQLAlchemy URL "
                           f"such as sqlite:////abs/path.sqlite or postgresql+psycopg://user@host/db") from exc
    where = describe(url)
    if _sqlite_path(url) is not None:
        folder = Path(u.database).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError as exc:
            raise CatalogError(f"cannot create the catalog folder {folder}: a file of that name is in the way") from exc
        except OSError as exc:
            raise CatalogError(f"cannot create the catalog folder {folder}: {exc.strerror or exc}") from exc
        if not folder.is_dir():
            raise CatalogError(f"cannot create the catalog folder {folder}: not a directory")
    if u.get_backend_name() == "postgresql":
        kwargs.setdefault("pool_pre_ping", True)  # a pooled connection the server dropped is replaced, not used
    try:
        engine = create_engine(url, **kwargs)
    except NoSuchModuleError as exc:
        raise CatalogError(f"unknown catalog URL scheme {u.drivername!r} in {where}: use a file path, "
                           f"sqlite:///PATH or postgresql+psycopg://user@host/db") from exc
    except ImportError as exc:
        hint = ": pip install 'sudoku-symmetry[postgres]'" if u.get_backend_name() == "postgresql" else ""
        raise CatalogError(f"the database driver for {where} is not installed ({exc.name or exc}){hint}") from exc
    except ArgumentError as exc:
        raise CatalogError(f"cannot use the catalog URL {where}: {_one_line(exc)}") from exc
    if engine.dialect.name not in ("sqlite", "postgresql"):
        engine.dispose()
        raise CatalogError(f"the catalog supports SQLite and PostgreSQL, not {engine.dialect.name} ({where})")
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
    _install_error_translation(engine, where)
    return engine


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """``engine.begin()`` that holds the write lock from its first statement on SQLite
    (``BEGIN IMMEDIATE``, waiting up to the busy timeout for other writers); a plain transaction
    elsewhere. Use it for read-then-write transactions (claims, run creation, migrations)."""
    if engine.dialect.name == "sqlite":
        engine = engine.execution_options(sqlite_immediate=True)
    with engine.begin() as conn:
        yield conn


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


_MIGRATION_LOCK = 0x5D0C0  # PostgreSQL advisory lock key: one migrating process at a time


def _alembic_config():
    from alembic.config import Config

    from sudoku_symmetry import migrations

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    return cfg


def _migrate(engine: Engine, revision: str = "head", *, adopt: bool = True, check_head: bool = False) -> None:
    """Upgrade in one write transaction that re-reads the revision under the lock."""
    from alembic import command
    from alembic.script import ScriptDirectory

    cfg = _alembic_config()
    known = {s.revision for s in ScriptDirectory.from_config(cfg).walk_revisions()}
    where = describe(engine.url.render_as_string(hide_password=False))
    with write_transaction(engine) as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        now = current_revision(conn)
        if check_head and now == HEAD_REVISION:
            return  # another process migrated it while we waited for the lock
        if now is not None and now not in known:
            raise _unknown_revision(where, now)
        if now is None and not adopt:
            tables = sorted(t for t in inspect(conn).get_table_names() if t != "alembic_version")
            if tables:
                raise _not_a_catalog(where, tables)
        cfg.attributes["connection"] = conn
        try:
            command.upgrade(cfg, revision)
        except (CatalogError, DBAPIError):
            raise
        except Exception as exc:  # Alembic's own errors: one line
            raise CatalogError(f"cannot migrate the catalog {where}: {_one_line(exc)}") from exc


def _unknown_revision(where: str, now: str) -> CatalogError:
    return CatalogError(f"the catalog {where} is at revision {now!r}, which this code does not know "
                        f"(its newest is {HEAD_REVISION}): it was made by newer code, or by another "
                        f"application; update the code or choose another catalog with --db")


def _not_a_catalog(where: str, tables: list[str]) -> CatalogError:
    shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
    return CatalogError(f"{where} is not a sudoku catalog (it has {len(tables)} other tables: {shown}, "
                        f"and no alembic_version); refusing to add tables to it: choose another "
                        f"--db, or run populate --adopt to add the catalog's tables anyway")


def _missing(where: str, what: str = "does not exist") -> CatalogError:
    return CatalogError(f"the catalog {where} {what} (nothing was created): check --db, or create it "
                        f"with bin/populate --db {where}")


def _known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {s.revision for s in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}


def _inspect_sqlite_file(path: str, *, adopt: bool, create: bool) -> None:
    """Look at an SQLite catalog file read-only before anything is changed (our connections
    switch it to WAL mode; migrations add tables): raise :class:`CatalogError` for what
    :func:`open_catalog` refuses, so a refused file stays byte-identical and a missing one is
    not created when ``create`` is false."""
    import sqlite3
    from urllib.parse import quote

    if not os.path.lexists(path):
        if create:
            return
        raise _missing(path)
    if not os.path.isfile(path):
        return  # a folder, a device: the engine's connection reports it
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error:
        return  # cannot be opened read-only (permissions): the engine's connection reports it
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        now = None
        if "alembic_version" in tables:
            rows = conn.execute("SELECT version_num FROM alembic_version").fetchall()
            now = rows[0][0] if rows else None
    except sqlite3.Error as exc:
        low = str(exc).lower()
        if "not a database" in low or "malformed" in low:  # nothing to change there: say so now
            raise CatalogError(_fault_message(path, "sqlite", exc)) from exc
        return  # locked, cannot be read: the engine's connection waits or reports it
    finally:
        conn.close()
    others = sorted(tables - {"alembic_version"})
    if now == HEAD_REVISION:
        return
    if now is not None and now not in _known_revisions():
        raise _unknown_revision(path, now)
    if now is None and others and not adopt:
        raise _not_a_catalog(path, others)
    if now is None and not others and not create:
        raise _missing(path, "is empty, not a catalog yet")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` on ``engine`` (imports Alembic)."""
    _migrate(engine, revision)


def open_catalog(db: str | None = None, *, migrate: bool = True, adopt: bool = False, create: bool = True,
                 **engine_kwargs) -> Engine:
    """An Engine on the catalog (see the module docstring for ``db``), migrated to the head.

    Fast path: one ``SELECT version_num FROM alembic_version``; Alembic is imported only when
    the catalog is new or older than this code. Safe when several processes open (and create)
    the same catalog at once. Raises :class:`CatalogError` (one line) when the catalog cannot be
    used: see the module docstring; ``adopt=True`` accepts a non-empty database that is not a
    catalog yet and adds the catalog's tables to it. ``create=False`` (read-only commands): a
    catalog that does not exist, or an empty database, is refused instead of created (no file,
    no folder). An SQLite file is inspected read-only first, so one that is refused is left
    byte-identical (not switched to WAL mode, no table added).
    """
    url = resolve_url(db)
    path = _sqlite_path(url)
    if path is not None:
        _inspect_sqlite_file(path, adopt=adopt, create=create)
    engine = create_catalog_engine(url, **engine_kwargs)
    try:
        before = _REVISION_BEFORE[engine] = current_revision(engine)
        if before is None and not create:
            raise _missing(describe(url), "is empty, not a catalog yet")
        if migrate and before != HEAD_REVISION:
            _migrate(engine, adopt=adopt, check_head=True)
    except BaseException:
        engine.dispose()
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
