"""Catalog throughput: store_configurations rows/s (new rows, then the same rows again: all known),
and the open of an up-to-date catalog, on SQLite and, given a URL, on PostgreSQL. Prints a table;
asserts nothing.

    NUMBA_CACHE_DIR=.numba_cache .venv/bin/python bench/bench_catalog.py [N] [POSTGRESQL_URL]

POSTGRESQL_URL: a scratch database (``postgresql+psycopg://user@host/db``); its public schema is
dropped and created again first. Both use the same bulk path: ``INSERT ... ON CONFLICT DO
NOTHING RETURNING`` with SQLAlchemy's multi-row VALUES batches of 1,000 rows.
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from sudoku_symmetry.catalog.configurations import make_row, store_configurations
from sudoku_symmetry.catalog.db import open_catalog


def _reset(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()


def main(n: int = 100_000, pg_url: str | None = None) -> None:
    rng = random.Random(1)
    rows = []
    for _ in range(n):
        cells = ["."] * 81
        for pos in rng.sample(range(81), 17):
            cells[pos] = str(rng.randint(1, 9))
        rows.append(make_row("".join(cells), automorphism_count=1, source="bench"))
    print(f"{'job':40s} {'rows':>9s} {'seconds':>8s} {'rows/s':>9s}")
    with tempfile.TemporaryDirectory() as d:
        for name, path in (("SQLite", str(Path(d) / "bench.sqlite")), ("PostgreSQL", pg_url)):
            if path is None:
                continue
            if name == "PostgreSQL":
                _reset(path)
            _one(name, path, rows, n)


def _one(name: str, path: str, rows, n: int) -> None:
    t = time.perf_counter()
    open_catalog(path).dispose()
    t_create = time.perf_counter() - t
    t = time.perf_counter()
    engine = open_catalog(path)
    t_open = time.perf_counter() - t
    print(f"{f'create + migrate ({name})':40s} {'':>9s} {t_create:8.3f}")
    print(f"{f'open up-to-date catalog ({name})':40s} {'':>9s} {t_open:8.3f}")
    for label in (f"store_configurations, all new ({name})", f"store_configurations, all known ({name})"):
        t = time.perf_counter()
        new, known = store_configurations(engine, rows)
        dt = time.perf_counter() - t
        print(f"{label:40s} {n:9d} {dt:8.3f} {n / dt:9.0f}   (new {new}, known {known})")
    engine.dispose()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000, sys.argv[2] if len(sys.argv) > 2 else None)
