"""Portable "insert, skip what is already there" for SQLite and PostgreSQL (shared by the catalog)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

from sqlalchemy import Connection, Engine, Table
from sqlalchemy.orm import Session

BATCH = 1000
COPY_MIN = 2000
"""PostgreSQL writes of at least this many rows go through COPY (see :func:`insert_new`)."""


@contextmanager
def connection_of(target) -> Iterator[Connection]:
    """A Connection for an Engine (one transaction, committed here), a Session or a Connection
    (the caller's transaction: nothing is committed here)."""
    if isinstance(target, Engine):
        with target.begin() as conn:
            yield conn
    elif isinstance(target, Session):
        yield target.connection()
    elif isinstance(target, Connection):
        yield target
    else:
        raise TypeError(f"expected an Engine, Connection or Session, got {type(target).__name__}")


def dialect_insert(conn_or_name, table: Table):
    """``INSERT`` of the connection's dialect (or a dialect name), which has ``on_conflict_do_nothing``."""
    name = conn_or_name if isinstance(conn_or_name, str) else conn_or_name.dialect.name
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    elif name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        raise NotImplementedError(f"the catalog supports SQLite and PostgreSQL, not {name}")
    return insert(table)


def insert_new_statement(conn_or_name, table: Table, conflict: Sequence[str]):
    """``INSERT ... ON CONFLICT (conflict) DO NOTHING RETURNING pk`` for this dialect."""
    pk = list(table.primary_key.columns)[0]
    return dialect_insert(conn_or_name, table).on_conflict_do_nothing(index_elements=list(conflict)).returning(pk)


def insert_new(conn: Connection, table: Table, rows: Sequence[dict], conflict: Sequence[str],
               batch: int = BATCH) -> int:
    """``INSERT ... ON CONFLICT (conflict) DO NOTHING`` in batches; returns how many rows were new.

    The count is exact and safe under concurrent writers: each batch returns the primary keys
    of the rows it really inserted (``RETURNING``; SQLite >= 3.35 and PostgreSQL). SQLite and
    small PostgreSQL writes: multi-row ``VALUES`` batches (SQLAlchemy's insertmanyvalues). From
    :data:`COPY_MIN` rows on PostgreSQL with psycopg: ``COPY`` into a temporary table, then one
    ``INSERT ... SELECT ... ON CONFLICT DO NOTHING RETURNING`` (measured 4x the rows/s of the
    batches, bench/bench_catalog.py).
    """
    if not rows:
        return 0
    if conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg" and len(rows) >= COPY_MIN:
        keys = list(rows[0])
        if all(len(r) == len(keys) and all(k in r for k in keys) for r in rows):
            return _copy_insert_new(conn, table, rows, keys, conflict)
    stmt = insert_new_statement(conn, table, conflict)
    new = 0
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        new += len(conn.execute(stmt, list(chunk)).all())
    return new


def _copy_insert_new(conn: Connection, table: Table, rows: Sequence[dict], keys: list[str],
                     conflict: Sequence[str]) -> int:
    pk = list(table.primary_key.columns)[0].name
    q = conn.dialect.identifier_preparer.quote
    cols = ", ".join(q(k) for k in keys)
    tmp = q(f"_in_{table.name}")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {tmp}")
    conn.exec_driver_sql(f"CREATE TEMPORARY TABLE {tmp} ON COMMIT DROP AS SELECT {cols} FROM {q(table.name)} WITH NO DATA")
    with conn.connection.dbapi_connection.cursor() as cur:
        with cur.copy(f"COPY {tmp} ({cols}) FROM STDIN") as copy:
            for r in rows:
                copy.write_row([r[k] for k in keys])
    new = len(conn.exec_driver_sql(
        f"INSERT INTO {q(table.name)} ({cols}) SELECT {cols} FROM {tmp} "
        f"ON CONFLICT ({', '.join(q(c) for c in conflict)}) DO NOTHING RETURNING {q(pk)}").all())
    conn.exec_driver_sql(f"DROP TABLE {tmp}")
    return new
