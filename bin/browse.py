"""browse: the catalog in a web browser, served by Datasette (the ``browse`` extra), with the
docs' queries as named, described canned queries.

    browse [--db PATH] [--port P] [--host 127.0.0.1] [--allow-sql] [--metadata-out FILE]

Datasette serves SQLite files, so ``--db`` must be a catalog file (a PostgreSQL catalog is
refused with a clear line); it is opened as every command opens it first, so a file that is not
a catalog (not a database, another application's database) is refused in one line, exit 2,
before anything is served. The canned queries are :data:`catalog.queries.QUERIES` (grids per
band 1, the 17-clue entry table, the 44 gangster classes, stored puzzles with automorphisms, the
runs, ...), the same SQL the docs show and the tests run. Pages are served on loopback
(127.0.0.1) unless ``--host`` says otherwise.

What a visitor can do (:func:`settings`): read, never write; the tables with filters and
sorting, :data:`PAGE_ROWS` rows a page, at most :data:`MAX_ROWS` rows an answer; the canned
queries, each stopped after :data:`TIME_LIMIT_MS` ms; their own SQL only when the server was
started with ``--allow-sql``, then :data:`SQL_TIME_LIMIT_MS` ms and :data:`SQL_MAX_ROWS` rows a
query. No value a query makes or reads may exceed :data:`MAX_VALUE_BYTES` bytes, nor a row
:data:`MAX_COLUMNS` columns (SQLite's limits on each connection: ``randomblob(999999999)`` is an
error at once), so one request takes a bounded time and memory. The database file is not
downloadable, CSV comes an answer at a time, and the pages listing the databases (which show the
file's path) are not served.

Datasette runs in this process (uvicorn): Ctrl-C or ``kill -TERM`` stops the server, and nothing
is left behind (no child process, no temporary file). ``--metadata-out FILE`` writes the
Datasette metadata and exits (for ``datasette serve CATALOG --metadata FILE`` by hand).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import socket
import sqlite3
import sys
import types
from pathlib import Path

from sudoku_symmetry.catalog.db import describe, open_catalog, resolve_url, sqlite_file
from sudoku_symmetry.catalog.queries import QUERIES
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_db_argument,
                                              add_version_argument, count_argument, run, writes_file)

INSTALL_HINT = "pip install 'sudoku-symmetry[browse]' (or: pip install datasette)"
TIME_LIMIT_MS = 5000
"""How long a query may run (the named queries take milliseconds on a full catalog)."""
MAX_ROWS = 1000
PAGE_ROWS = 100
MAX_VALUE_BYTES = 100_000
"""The longest string or blob a query may make or read (the catalog's values are at most a few KB)."""
MAX_COLUMNS = 32
"""The most columns a query may return (the catalog's tables have at most a dozen)."""
SQL_TIME_LIMIT_MS = 1000
SQL_MAX_ROWS = 100
"""With ``--allow-sql``: a visitor's own query runs 1 s at most and returns at most 100 rows of
at most :data:`MAX_COLUMNS` values of :data:`MAX_VALUE_BYTES` (320 MB at the very worst; a few KB
for real questions of the catalog)."""


def settings(allow_sql: bool) -> dict:
    """Datasette's settings for the server: see the module docstring."""
    return {"sql_time_limit_ms": SQL_TIME_LIMIT_MS if allow_sql else TIME_LIMIT_MS,
            "max_returned_rows": SQL_MAX_ROWS if allow_sql else MAX_ROWS, "default_page_size": PAGE_ROWS,
            "default_allow_sql": allow_sql, "allow_download": False, "allow_csv_stream": False,
            "num_sql_threads": 3, "facet_time_limit_ms": 200, "template_debug": False, "trace_debug": False}


PLUGIN = "sudoku_symmetry_limits"
HIDDEN = ("/-/databases",)
"""Pages not served: they list the database files with their paths on the server."""


def metadata(database: str, allow_sql: bool = False) -> dict:
    """Datasette metadata: a title, a description saying what a visitor can do, and every named
    query of the catalog as a canned query of ``database`` (the file's stem, Datasette's name)."""
    queries = {q.name: {"sql": q.sql, "title": q.title,
                        "description": f"{q.description} (filled by {q.needs})"} for q in QUERIES}
    if allow_sql:
        sql = (f"your own SQL too ({SQL_TIME_LIMIT_MS / 1000:g} s and {SQL_MAX_ROWS:,} rows a query at most); "
               f"the named queries stop after {TIME_LIMIT_MS / 1000:g} s")
        rows = SQL_MAX_ROWS
    else:
        sql = f"not your own SQL (the server runs without --allow-sql); a query stops after {TIME_LIMIT_MS / 1000:g} s"
        rows = MAX_ROWS
    return {"title": "Sudoku symmetry catalog",
            "description": "The catalog of sudoku-symmetry: bands, ED-grid counts, the 17-clue search, "
                           "stored canonical forms and runs. Read only: the tables (filters, sorting, "
                           f"{PAGE_ROWS} rows a page, at most {rows:,} an answer) and the named queries; {sql}.",
            "databases": {database: {"queries": queries}}}


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="browse", description="Serve the catalog with Datasette, with the docs' "
                      "queries as canned queries (needs datasette).",
                      epilog="example: bin/populate && bin/browse --port 8001, then open "
                      "http://127.0.0.1:8001/")
    add_db_argument(p)
    p.add_argument("--port", type=count_argument(0, 65535), default=8001, help="port (default 8001; 0: any free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback only)")
    p.add_argument("--allow-sql", action="store_true",
                   help=f"let visitors run their own SQL (read only; {SQL_TIME_LIMIT_MS / 1000:g} s and "
                   f"{SQL_MAX_ROWS:,} rows a query, values of {MAX_VALUE_BYTES:,} bytes at most); default: "
                   "the tables and the named queries only")
    writes_file(p.add_argument("--metadata-out", metavar="FILE",
                               help="write the Datasette metadata JSON to FILE and exit"))
    add_version_argument(p)
    return p


def _catalog_file(db: str | None) -> Path:
    path = sqlite_file(db)
    if path is None:
        raise CommandError(f"Datasette serves SQLite files; {describe(resolve_url(db))} is not one")
    if not path.is_file():
        raise CommandError(f"{path}: no such catalog (bin/populate creates it)")
    return path


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    path = _catalog_file(args.db)
    meta = metadata(path.stem, args.allow_sql)
    if args.metadata_out:
        text = json.dumps(meta, indent=2) + "\n"
        if args.metadata_out == "-":
            sys.stdout.write(text)
        else:
            Path(args.metadata_out).write_text(text)
        return EXIT_OK
    if importlib.util.find_spec("datasette") is None:
        raise CommandError(f"browse needs Datasette: {INSTALL_HINT}")
    open_catalog(str(path), create=False).dispose()  # not a catalog: one line, exit 2, nothing served
    sock = _listen(args.host, args.port)
    where = f"http://{'[' + args.host + ']' if ':' in args.host else args.host}:{sock.getsockname()[1]}/"
    what = "tables, named queries and any SQL" if args.allow_sql else "tables and named queries (--allow-sql: any SQL)"
    print(f"browse: serving {path} on {where}: {what}; Ctrl-C stops", file=sys.stderr, flush=True)
    try:
        _serve(path, meta, args.allow_sql, sock)
    except KeyboardInterrupt:
        pass
    return EXIT_OK


def _listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound before Datasette starts (so ``--port 0`` can say its port)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _serve(path: Path, meta: dict, allow_sql: bool, sock: socket.socket) -> None:
    """Datasette on ``sock`` in this process, with the limits of the module docstring, until a
    signal stops it."""
    import asyncio

    import uvicorn
    from datasette import hookimpl
    from datasette.app import Datasette
    from datasette.plugins import pm

    @hookimpl
    def prepare_connection(conn):
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, MAX_COLUMNS)

    @hookimpl
    def asgi_wrapper():
        def wrap(app):
            async def guarded(scope, receive, send):
                if scope.get("type") == "http" and scope.get("path", "").startswith(HIDDEN):
                    await send({"type": "http.response.start", "status": 404,
                                "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
                    await send({"type": "http.response.body", "body": b"not served here\n"})
                    return
                await app(scope, receive, send)
            return guarded
        return wrap

    if pm.get_plugin(PLUGIN) is None:  # a plugin is a module to Datasette
        plugin = types.ModuleType(PLUGIN)
        plugin.prepare_connection, plugin.asgi_wrapper = prepare_connection, asgi_wrapper
        pm.register(plugin, name=PLUGIN)
    ds = Datasette([str(path)], metadata=meta, settings=settings(allow_sql))
    asyncio.run(ds.invoke_startup())
    uvicorn.Server(uvicorn.Config(ds.app(), log_level="warning", lifespan="on")).run(sockets=[sock])


def main(argv=None) -> int:
    return run(_main, argv, "browse")


if __name__ == "__main__":
    sys.exit(main())
