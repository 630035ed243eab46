"""Shared by the benchmarks: timing medians, the data folder, a table printer."""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
sys.path.insert(0, str(ROOT / "tests"))  # the slow references live beside the tests


def median_seconds(fn, repeats: int = 5) -> float:
    """Median wall time of ``fn()`` over ``repeats`` runs (after the caller's warm-up)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def print_table(title: str, rows: list[tuple]) -> None:
    """rows: (job, items, seconds, target per second or None)."""
    print(f"\n{title}")
    print(f"{'job':58s} {'items':>10s} {'per second':>14s} {'target':>12s}")
    for job, items, seconds, target in rows:
        rate = items / seconds if seconds else float("inf")
        tgt = f"{target:,.0f}" if target else "-"
        print(f"{job:58s} {items:>10,d} {rate:>14,.0f} {tgt:>12s}")


def read_lines(name: str) -> list[str]:
    text = (DATA / name).read_text()
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
