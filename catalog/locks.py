"""A lock one process at a time holds on a catalog, for work that must not interleave with the
same work of another process (``bin/populate``: two populates of a new catalog at once, each in
its own transactions, made the second fail with 'database is locked').

:func:`exclusive` waits for the lock (as long as it takes, calling ``on_wait`` once when it must)
and holds it until the block ends; the operating system or the server frees it when the holder
dies, however it dies. SQLite file: an advisory ``flock`` on the catalog's folder (no file is
added beside the catalog, and SQLite's own locks on the file are untouched). PostgreSQL: a
session advisory lock on a connection of its own. Other catalogs (in memory, a ``file:`` URI):
no lock.
"""
from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from typing import Callable, Iterator

from .db import _sqlite_path, create_catalog_engine, describe, resolve_url
from .errors import CatalogError


def _key(name: str) -> int:
    """A 63-bit advisory lock key for ``name`` (PostgreSQL's keys are bigints)."""
    return int.from_bytes(hashlib.sha256(f"sudoku-symmetry:{name}".encode()).digest()[:8], "big") >> 1


@contextmanager
def exclusive(db: str | None, name: str, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock ``name`` on the catalog ``db`` (see the module docstring) for the block."""
    url = resolve_url(db)
    path = _sqlite_path(url)
    if path is not None:
        with _folder_lock(os.path.dirname(os.path.abspath(path)), on_wait, describe(url)):
            yield
    elif url.startswith("postgresql"):
        with _advisory_lock(url, _key(name), on_wait):
            yield
    else:
        yield


@contextmanager
def _folder_lock(folder: str, on_wait, where: str) -> Iterator[None]:
    import fcntl

    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise CatalogError(f"cannot open the folder of the catalog {where}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # frees the lock


@contextmanager
def _advisory_lock(url: str, key: int, on_wait) -> Iterator[None]:
    from sqlalchemy import text

    engine = create_catalog_engine(url)
    try:
        with engine.connect() as conn:
            if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar():
                if on_wait is not None:
                    on_wait()
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                conn.commit()
    finally:
        engine.dispose()
