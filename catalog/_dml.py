"""Portable "insert, skip what is already there" for SQLite and PostgreSQL (shared by the catalog)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

from sqlalchemy import Connection, Engine, Table
from sqlalchemy.orm import Session

BATCH = 1000


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
    of the rows it really inserted (``RETURNING``; SQLite >= 3.35 and PostgreSQL).
    """
    if not rows:
        return 0
    stmt = insert_new_statement(conn, table, conflict)
    new = 0
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        new += len(conn.execute(stmt, list(chunk)).all())
    return new
