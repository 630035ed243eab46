"""Catalog throughput: store_configurations rows/s (new rows, then the same rows again: all known),
and the open of an up-to-date catalog. Prints a table; asserts nothing.

    NUMBA_CACHE_DIR=.numba_cache .venv/bin/python bench/bench_catalog.py [N]
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from sudoku_symmetry.catalog.configurations import make_row, store_configurations
from sudoku_symmetry.catalog.db import open_catalog


def main(n: int = 100_000) -> None:
    rng = random.Random(1)
    rows = []
    for _ in range(n):
        cells = ["."] * 81
        for pos in rng.sample(range(81), 17):
            cells[pos] = str(rng.randint(1, 9))
        rows.append(make_row("".join(cells), automorphism_count=1, source="bench"))
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "bench.sqlite")
        t = time.perf_counter()
        open_catalog(path).dispose()
        t_create = time.perf_counter() - t
        t = time.perf_counter()
        engine = open_catalog(path)
        t_open = time.perf_counter() - t
        print(f"{'job':40s} {'rows':>9s} {'seconds':>8s} {'rows/s':>9s}")
        print(f"{'create + migrate (SQLite)':40s} {'':>9s} {t_create:8.3f}")
        print(f"{'open up-to-date catalog':40s} {'':>9s} {t_open:8.3f}")
        for label in ("store_configurations, all new", "store_configurations, all known"):
            t = time.perf_counter()
            new, known = store_configurations(engine, rows)
            dt = time.perf_counter() - t
            print(f"{label:40s} {n:9d} {dt:8.3f} {n / dt:9.0f}   (new {new}, known {known})")
        engine.dispose()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
