"""browse: the catalog in a web browser, served by Datasette (the ``browse`` extra), with the
docs' queries as named, described canned queries.

    browse [--db PATH] [--port P] [--host 127.0.0.1] [--metadata-out FILE]

Datasette serves SQLite files, so ``--db`` must be a catalog file (a PostgreSQL catalog is
refused with a clear line). The canned queries are :data:`catalog.queries.QUERIES` (grids per
band 1, the 17-clue entry table, the 44 gangster classes, stored puzzles with automorphisms, the
runs, ...), the same SQL the docs show and the tests run. Pages are served on loopback
(127.0.0.1) unless ``--host`` says otherwise; stop with Ctrl-C. ``--metadata-out FILE`` writes
the Datasette metadata and exits (for ``datasette serve CATALOG --metadata FILE`` by hand).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from sudoku_symmetry.catalog.db import describe, resolve_url, sqlite_file
from sudoku_symmetry.catalog.queries import QUERIES
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_db_argument,
                                              add_version_argument, count_argument, run, writes_file)

INSTALL_HINT = "pip install 'sudoku-symmetry[browse]' (or: pip install datasette)"


def metadata(database: str) -> dict:
    """Datasette metadata: a title, and every named query of the catalog as a canned query of
    ``database`` (the file's stem, Datasette's name for it)."""
    queries = {q.name: {"sql": q.sql, "title": q.title,
                        "description": f"{q.description} (filled by {q.needs})"} for q in QUERIES}
    return {"title": "Sudoku symmetry catalog",
            "description": "The catalog of sudoku-symmetry: bands, ED-grid counts, the 17-clue search, "
                           "stored canonical forms and runs.",
            "databases": {database: {"queries": queries}}}


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="browse", description="Serve the catalog with Datasette, with the docs' "
                      "queries as canned queries (needs datasette).",
                      epilog="example: bin/populate && bin/browse --port 8001, then open "
                      "http://127.0.0.1:8001/")
    add_db_argument(p)
    p.add_argument("--port", type=count_argument(0, 65535), default=8001, help="port (default 8001; 0: any free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback only)")
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
    meta = metadata(path.stem)
    if args.metadata_out:
        Path(args.metadata_out).write_text(json.dumps(meta, indent=2) + "\n")
        return EXIT_OK
    if importlib.util.find_spec("datasette") is None:
        raise CommandError(f"browse needs Datasette: {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="sudoku-browse-") as tmp:
        meta_file = Path(tmp) / "metadata.json"
        meta_file.write_text(json.dumps(meta))
        cmd = [sys.executable, "-m", "datasette", "serve", str(path), "--metadata", str(meta_file),
               "--host", args.host, "--port", str(args.port), "--setting", "sql_time_limit_ms", "20000"]
        print(f"browse: serving {path} on http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr, flush=True)
        try:
            return subprocess.call(cmd, env=dict(os.environ))
        except KeyboardInterrupt:
            return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "browse")


if __name__ == "__main__":
    sys.exit(main())
