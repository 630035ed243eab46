"""The files a catalog lives in, and the one check made before a command writes any file of its
own (an ``--out``, an ``--export``, an ``--svg``, a metadata file): never over a catalog.

An SQLite catalog is its file plus the ``-wal``, ``-shm`` and ``-journal`` files beside it
(SQLite's write-ahead log, its index and the rollback journal); writing over any of them destroys
the catalog. :func:`check_write_target` refuses, with a :class:`WriteRefused` (a
:class:`CatalogError`: one line, exit status 2 in the commands), a path that

* is, once symbolic links and ``..`` are resolved, one of those files of the catalog the command
  uses (``--db``) or of the default catalog (``$SUDOKU_CATALOG``, else the default file), whether
  or not it exists yet (a ``-wal`` file comes and goes with connections);
* is the same file as one of them under another name (a hard link);
* is an existing SQLite database (its first 16 bytes are SQLite's header), or one's ``-wal``,
  ``-shm`` or ``-journal`` file: no command writes SQLite files, so such a path is a mistake;
* is a directory, or lies in a folder that does not exist.

Streams (``-``, ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``) and other paths that are not
regular files (a FIFO, a terminal) pass: writing there destroys nothing. Plain paths are read
without SQLAlchemy, so a command that only draws a picture pays nothing for the check.
"""
from __future__ import annotations

import os
import stat

from .errors import CatalogError

ENV_VAR = "SUDOKU_CATALOG"
COMPANIONS = ("", "-wal", "-shm", "-journal")
"""The suffixes of an SQLite database's files: the database, its write-ahead log and its index,
its rollback journal."""
SQLITE_HEADER = b"SQLite format 3\x00"
STREAMS = ("-", "/dev/stdout", "/dev/stderr")
STREAM_PREFIXES = ("/dev/fd/", "/proc/self/fd/")


class WriteRefused(CatalogError):
    """A file a command was asked to write would destroy a catalog (or cannot be a file)."""


def default_location() -> str:
    """``catalog.sqlite`` in the user's data folder (``$XDG_DATA_HOME/sudoku-symmetry``, else
    ``~/.local/share/sudoku-symmetry`` on Linux; the platform's own place elsewhere): the catalog
    used when neither ``--db`` nor ``$SUDOKU_CATALOG`` names one (``catalog.db``)."""
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("sudoku-symmetry", appauthor=False), "catalog.sqlite")


def sqlite_location(db: str | None) -> str | None:
    """The SQLite file of the catalog ``db`` names (a path or a URL; None: ``$SUDOKU_CATALOG``,
    else the default file), resolved; None for another database, an in-memory one or a URL that
    cannot be read."""
    value = db or os.environ.get(ENV_VAR) or default_location()
    if "://" not in value:
        return os.path.realpath(os.path.expanduser(value))
    try:
        from sqlalchemy.engine import make_url  # only for URLs: a plain path costs no SQLAlchemy import

        u = make_url(value)
    except Exception:  # a URL SQLAlchemy cannot read: the command that opens it says so
        return None
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:" or u.database.startswith("file:"):
        return None
    return os.path.realpath(os.path.expanduser(u.database))


def catalog_files(db: str | None = None) -> list[str]:
    """The resolved paths of the files of the catalog ``db`` names and of the default catalog
    (each SQLite file with its companions), existing or not."""
    files: list[str] = []
    for location in (sqlite_location(db), sqlite_location(None)):
        if location is not None:
            files += [location + suffix for suffix in COMPANIONS if location + suffix not in files]
    return files


def is_stream(path: str) -> bool:
    """Standard output or error, a file descriptor's path."""
    return path in STREAMS or path.startswith(STREAM_PREFIXES)


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _same_file(a: os.stat_result, path: str) -> bool:
    try:
        b = os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def check_write_target(option: str, path: str, db: str | None = None) -> None:
    """Raise :class:`WriteRefused` when writing ``path`` (the value of ``option``, as the user
    wrote it) could destroy a catalog or cannot work (see the module docstring); ``db`` is the
    command's ``--db`` (None: the catalog it uses by default)."""
    if is_stream(path):
        return
    shown = f"{option} {path}" if option else path
    real = os.path.realpath(os.path.expanduser(path))
    for protected in catalog_files(db):
        if real == protected:
            return _refuse_catalog(shown, protected)
    try:
        st = os.stat(real)
    except OSError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise WriteRefused(f"{shown}: is a directory, not a file")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return  # a FIFO, a terminal, a device: a stream
    if st is not None:
        for protected in catalog_files(db):
            if _same_file(st, protected):
                return _refuse_catalog(shown, protected)
        if _is_sqlite(real):
            raise WriteRefused(f"{shown} is an SQLite database (a catalog?): writing there would destroy it; "
                               "choose another file")
    for suffix in COMPANIONS[1:]:
        if real.endswith(suffix) and _is_sqlite(real[: -len(suffix)]):
            raise WriteRefused(f"{shown} is the {suffix[1:]} file of the SQLite database {real[: -len(suffix)]}: "
                               "writing there would destroy it; choose another file")
    parent = os.path.dirname(real)
    if not os.path.isdir(parent):
        raise WriteRefused(f"{shown}: no such folder {os.path.dirname(os.path.abspath(path))}")


def _refuse_catalog(shown: str, protected: str) -> None:
    suffix = next((s for s in COMPANIONS[1:] if protected.endswith(s)), "")
    which = f"the {suffix} file of {protected[: -len(suffix)]}" if suffix else protected
    raise WriteRefused(f"{shown} is the catalog's own file ({which}): writing there would destroy the catalog; "
                       "choose another file")
