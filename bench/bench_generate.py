"""Minimal puzzles per CPU-second, top-down from uniform grids, side by side with tdoku.

    NUMBA_NUM_THREADS=1 python bench/bench_generate.py [--puzzles 5000] [--repeats 5]
        [--tdoku /work/tools/tdoku/driver/minimize_driver] [--pairs 6]

Rows (one thread, CPU time, medians): the whole generator (``engine.generate.generate``: a uniform
grid, then its givens removed in a random order while unique); the removal alone on given grids,
which is the work tdoku's ``TdokuMinimize`` does; the same with a symmetry (orbits); ``minimize``
of puzzles with redundant givens. The counters say how the removals were decided: a known
unavoidable set kept the given, singles from the givens removed it, or the solver was asked
(and how often it found another solution). Target (issue "Making puzzles"): at least 2,000 per
second, aiming at 10,000.

Side by side: tdoku's top-down minimizer (``TdokuMinimize(false, false, puzzle)``: a random
order of the 81 cells, each given removed when tdoku's SIMD solver still counts one solution,
from scratch each time) on the same grids, through a small harness built outside the project
tree from tdoku's sources (``-O3 -march=native``; see docs/benchmarks.md), alternating runs with
the project's removal on the same file. tdoku's ``generate`` command itself is a pool-based
optimizer (drop clues from the best puzzles so far, complete them, minimize, score by guesses);
its top-down step is this same ``TdokuMinimize``.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from _common import median_seconds, print_table
from sudoku_symmetry.engine.core.rng import STATE_WORDS, seed_stream
from sudoku_symmetry.engine.generate import _kernels as K
from sudoku_symmetry.engine.generate import generate, minimize
from sudoku_symmetry.engine.generate.topdown import STAT_NAMES, _orbits
from sudoku_symmetry.engine.grids.uniform import uniform_grids
from sudoku_symmetry.engine.text import format_lines

TARGET = 2_000


def removal(grids: np.ndarray, symmetry: str = "none", stats: np.ndarray | None = None) -> np.ndarray:
    cells, sizes = _orbits(symmetry)
    state = np.zeros(STATE_WORDS, np.uint64)
    seed_stream(state, 1, 1)
    out = np.zeros_like(grids)
    K.top_down(grids, state, cells, sizes, out, np.zeros(len(grids), np.int64),
               np.zeros(K.N_STATS, np.int64) if stats is None else stats)
    return out


def tdoku_seconds(path: str, grids_file: Path) -> tuple[int, float]:
    out = subprocess.run([path, "minimize", str(grids_file), "1"], check=True, capture_output=True, text=True).stdout
    n, secs = out.split()[:2]
    return int(n), float(secs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--tdoku", default=None, help="tdoku's minimize harness (MODE FILE REPEAT)")
    ap.add_argument("--pairs", type=int, default=6)
    args = ap.parse_args()
    n = args.puzzles
    generate(5, seed=0)
    grids = uniform_grids(n, seed=3)
    removal(grids[:5])
    stats = np.zeros(K.N_STATS, np.int64)
    rows = []
    s = median_seconds(lambda: generate(n, seed=1), args.repeats, time.process_time)
    rows.append(("minimal puzzles from uniform grids (all of it)", n, s, TARGET))
    s = median_seconds(lambda: removal(grids, stats=stats), args.repeats, time.process_time)
    rows.append(("  the removal alone, on given grids", n, s, TARGET))
    per = stats / (args.repeats * n)
    for sym in ("rotate180", "dihedral"):
        removal(grids[:5], sym)
        s = median_seconds(lambda: removal(grids, sym), 3, time.process_time)
        rows.append((f"  the removal, symmetry {sym}", n, s, None))
    made = generate(min(n, 2000), seed=2)
    extra = made.puzzles.copy()
    for p, g in zip(extra, made.grids):
        empty = np.flatnonzero(p == 0)[:8]
        p[empty] = g[empty]
    minimize(extra[:5])
    s = median_seconds(lambda: minimize(extra), 3, time.process_time)
    rows.append(("minimize (minimal puzzles with 8 givens added)", len(extra), s, None))
    print("per puzzle: " + ", ".join(f"{k} {v:.2f}" for k, v in zip(STAT_NAMES, per)))
    print_table("minimal puzzles top-down, CPU time, one thread", rows)
    if args.tdoku:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "grids.txt"
            path.write_text("\n".join(format_lines(grids)) + "\n")
            ours, theirs, ratios = [], [], []
            for _ in range(args.pairs):
                k, secs = tdoku_seconds(args.tdoku, path)
                assert k == n
                theirs.append(n / secs)
                t0 = time.process_time()
                removal(grids)
                ours.append(n / (time.process_time() - t0))
                ratios.append(ours[-1] / theirs[-1])
            print(f"\nside by side, the same {n:,} uniform grids, {args.pairs} alternating pairs: project "
                  f"{statistics.median(ours):,.0f}/s, tdoku TdokuMinimize {statistics.median(theirs):,.0f}/s, "
                  f"project / tdoku {statistics.median(ratios):.2f}x (pairs {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
