"""Scale-out: ED-grid enumeration (count only) serially, on a local Dask cluster of 1 and of 2
workers, and an estimate of the full catalog's wall time on 16, 64 and 256 cores.

    NUMBA_NUM_THREADS=1 python bench/bench_distributed.py [--bands LIST] [--repeats 3] [--db-url URL]

Part 1 (measured): ``bin/enumerate --band1 LIST --count-only`` in a fresh catalog each time
(SQLite file, or ``--db-url``: a PostgreSQL database, emptied before each run), serially and with
``--workers 1`` / ``--workers 2``. Prints the medians of the wall time (command start to exit:
cluster start and kernel loading included) and of the span (first shard claimed to run done),
grids/s for each, and the scaling efficiency rate(2 workers) / (2 x rate(1 worker)).

Part 2 (estimate): the per-band-1 seconds of the full catalog run (``bench/data/
ed_band_seconds.json``: 416 measured shard costs) and the shipped per-prefix grid counts give the
cost of every shard, whole bands 1 or pieces of ``split`` grids (a piece costs its prefixes times
the per-prefix floor plus its share of the band's remaining time, in proportion to its grids); the
shards are then scheduled longest first on P cores (what Dask does with the biggest-first order
of ``jobs.ed_grids.shard_keys``), plus a per-task overhead measured in part 1. Prints the
makespan and its efficiency (total work / P / makespan) for P = 16, 64, 256.
"""
from __future__ import annotations

import argparse
import heapq
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BANDS = "300-309"
PREFIX_FLOOR = None  # seconds per prefix with no grid: min over bands of time / prefixes (set below)


def _shipped():
    with np.load(ROOT / "catalog" / "data" / "ed_grid_counts.npz") as f:
        d = {k: f[k] for k in f.files}  # each array read once (f[k] decompresses at every access)
    start = np.concatenate([[0], np.cumsum(d["prefixes"])])
    return d["grids"], {b: d["prefix_grids"][start[k]:start[k + 1]] for k, b in enumerate(d["band1"].tolist())}


def _span(url: str) -> float:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as conn:
        first = conn.execute(text("SELECT min(claimed_at) FROM run_leases")).scalar()
        last = conn.execute(text("SELECT max(finished_at) FROM runs")).scalar()
    engine.dispose()
    if isinstance(first, str):
        from datetime import datetime

        first, last = datetime.fromisoformat(first), datetime.fromisoformat(last)
    return (last.replace(tzinfo=timezone.utc) - first.replace(tzinfo=timezone.utc)).total_seconds()


def _fresh(db_url: str | None, folder: str, k: int) -> str:
    if db_url is None:
        return f"sqlite:///{folder}/c{k}.sqlite"
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return db_url


def measure(bands: str, repeats: int, db_url: str | None) -> float:
    grids_by_band, _ = _shipped()
    lo_hi = [tuple(map(int, p.split("-"))) if "-" in p else (int(p), int(p)) for p in bands.split(",")]
    grids = int(sum(grids_by_band[b] for lo, hi in lo_hi for b in range(lo, hi + 1)))
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    print(f"bin/enumerate --band1 {bands} --count-only: {grids:,} grids; {'PostgreSQL' if db_url else 'SQLite'}; "
          f"medians of {repeats}")
    print(f"{'mode':14s} {'wall s':>8s} {'span s':>8s} {'grids/s wall':>13s} {'grids/s span':>13s}")
    rates = {}
    modes = (("serial", []), ("1 worker", ["--workers", "1"]), ("2 workers", ["--workers", "2"]))
    walls = {m: [] for m, _ in modes}
    spans = {m: [] for m, _ in modes}
    with tempfile.TemporaryDirectory() as folder:
        k = 0
        for _ in range(repeats):  # interleaved: the host's drift hits every mode alike
            for mode, extra in modes:
                k += 1
                url = _fresh(db_url, folder, k)
                t = time.perf_counter()
                subprocess.run([sys.executable, "-m", "sudoku_symmetry.commands.enumerate", "--band1", bands,
                                "--count-only", "--db", url] + extra, env=env, check=True, capture_output=True)
                walls[mode].append(time.perf_counter() - t)
                spans[mode].append(_span(url))
    for mode, _ in modes:
        w, s = statistics.median(walls[mode]), statistics.median(spans[mode])
        rates[mode] = grids / s
        print(f"{mode:14s} {w:8.2f} {s:8.2f} {grids / w:13,.0f} {grids / s:13,.0f}")
    from sudoku_symmetry.jobs.ed_grids import shard_keys

    n_tasks = len(shard_keys([b for lo, hi in lo_hi for b in range(lo, hi + 1)]))
    eff = rates["2 workers"] / (2 * rates["1 worker"])
    per_task = (grids / rates["1 worker"] - grids / rates["serial"]) / n_tasks
    print(f"scaling efficiency (span), 2 workers vs 1: {eff:.0%}; 1 worker vs serial: "
          f"{rates['1 worker'] / rates['serial']:.0%} ({per_task * 1000:+.0f} ms per task, {n_tasks} tasks)")
    return eff


def shard_costs(split: int) -> list[float]:
    """Seconds of each shard for a split (0: whole bands 1), from the measured band seconds."""
    grids_by_band, per_prefix = _shipped()
    seconds = json.loads((ROOT / "bench" / "data" / "ed_band_seconds.json").read_text())["seconds"]
    floor = min(s / len(per_prefix[b]) for b, s in enumerate(seconds))  # a band of ~no grids: all floor
    costs = []
    for b, sec in enumerate(seconds):
        counts = per_prefix[b]
        g = int(counts.sum())
        if split <= 0 or g <= split:
            costs.append(sec)
            continue
        rest = max(0.0, sec - floor * len(counts))  # the band's time beyond the per-prefix floor
        lo, acc = 0, 0
        for p, c in enumerate(counts.tolist()):
            acc += c
            if acc >= split or p == len(counts) - 1:
                costs.append(floor * (p + 1 - lo) + rest * acc / g)
                lo, acc = p + 1, 0
    return costs


def makespan(costs: list[float], cores: int, overhead: float) -> float:
    """Longest first onto the least-loaded core (greedy LPT, as Dask runs the biggest-first queue)."""
    loads = [0.0] * cores
    heapq.heapify(loads)
    for c in sorted(costs, reverse=True):
        heapq.heappush(loads, heapq.heappop(loads) + c + overhead)
    return max(loads)


def estimate(overhead: float) -> None:
    print(f"\nfull ED catalog (5,472,730,538 grids) from 416 measured per-band-1 costs; per-task overhead "
          f"{overhead * 1000:.0f} ms")
    print(f"{'shards':26s} {'tasks':>6s} {'max task s':>10s} " + " ".join(f"{f'{p} cores':>20s}" for p in (16, 64, 256)))
    for label, split in (("whole bands 1", 0), ("pieces of 8,000,000 grids", 8_000_000),
                         ("pieces of 2,000,000 grids", 2_000_000), ("pieces of 500,000 grids", 500_000)):
        costs = shard_costs(split)
        total = sum(costs)
        cells = []
        for p in (16, 64, 256):
            m = makespan(costs, p, overhead)
            cells.append(f"{m / 60:7.1f} min ({total / p / m:4.0%})")
        print(f"{label:26s} {len(costs):6d} {max(costs):10.1f} " + " ".join(f"{c:>20s}" for c in cells))
    print(f"total work {sum(shard_costs(0)) / 3600:.2f} core-hours (the measured run's per-band seconds)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bands", default=DEFAULT_BANDS)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--db-url", default=None, help="a scratch PostgreSQL database (its schema is dropped!)")
    ap.add_argument("--overhead", type=float, default=0.05, help="seconds per task in the estimate")
    ap.add_argument("--estimate-only", action="store_true")
    args = ap.parse_args()
    if not args.estimate_only:
        measure(args.bands, args.repeats, args.db_url)
    estimate(args.overhead)


if __name__ == "__main__":
    main()
