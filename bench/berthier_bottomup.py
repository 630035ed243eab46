"""Berthier's bottom-up statistics: the clue counts of minimal puzzles made bottom-up, against the
two bottom-up collections on his classification page ("The Hidden Logic of Sudoku", online
supplements, Classification): suexg14's (1,000,000: mean 23.87, sd 1.08,
skewness 0.11, kurtosis 0.026) and Mike Metcalf's (64,000: 23.89, 1.08).

    python bench/berthier_bottomup.py [--puzzles 200000] [--batch 20000] [--seed 1] [--save]

``--save`` writes the summary to ``bench/data/berthier_bottomup/SUMMARY.txt`` (committed).

A puzzle is made from an empty grid: a random clue (a cell drawn uniformly among the empty ones,
a digit uniformly among 1-9) is added when the puzzle keeps at least one solution, and drawn
again otherwise, until the puzzle has exactly one solution; its givens are then removed in a
random order while it stays unique (``engine.generate.minimize``), which makes it minimal. No
grid is drawn, so the grids' law plays no part. The page does not say how suexg14 draws a clue
(a digit among 1-9 or among the cell's candidates; retry or backtrack on a contradiction): this
is one reading. Many puzzles grow at once, one solver call per step for the whole batch
(``engine.solve.count_solutions``).

The summary: mean, standard deviation, skewness and excess kurtosis of the clue count with their
standard errors, and the distance from each published figure in standard errors of the
difference, as printed and beyond the figure's rounding. Not a test: a measurement.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from berthier_topdown import _moments, comparison

SAVED = Path(__file__).resolve().parent / "data" / "berthier_bottomup" / "SUMMARY.txt"

PUBLISHED = {"suexg14": {"n": 1_000_000, "mean": 23.87, "sd": 1.08, "skewness": 0.11, "kurtosis": 0.026},
             "Metcalf": {"n": 64_000, "mean": 23.89, "sd": 1.08}}
HALF_UNIT = {"mean": 0.005, "sd": 0.005, "skewness": 0.005, "kurtosis": 0.0005}


def bottom_up(n: int, seed: int) -> np.ndarray:
    """``n`` unique puzzles grown clue by clue from the empty grid (not yet minimal)."""
    from sudoku_symmetry.engine.solve import count_solutions

    rng = np.random.default_rng(seed)
    puzzles = np.zeros((n, 81), np.uint8)
    active = np.arange(n)
    while len(active):
        trial = puzzles[active].copy()
        empty = trial == 0
        # a uniform empty cell per puzzle: the k-th empty cell, k uniform below the count
        k = (rng.random(len(active)) * empty.sum(axis=1)).astype(np.int64)
        cell = np.argmax(np.cumsum(empty, axis=1) > k[:, None], axis=1)
        trial[np.arange(len(active)), cell] = rng.integers(1, 10, len(active), dtype=np.uint8)
        counts = count_solutions(trial, 2).counts
        keep = counts >= 1
        puzzles[active[keep]] = trial[keep]
        active = active[~(counts == 1)]
    return puzzles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=200_000)
    ap.add_argument("--batch", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", action="store_true", help=f"also write the summary to {SAVED.name}")
    args = ap.parse_args()
    from sudoku_symmetry.engine.generate import minimize

    hist = np.zeros(82, np.int64)
    t0 = time.process_time()
    for b, first in enumerate(range(0, args.puzzles, args.batch)):
        size = min(args.batch, args.puzzles - first)
        grown = bottom_up(size, args.seed * 1_000_003 + b)
        made, _ = minimize(grown, seed=args.seed, streams=np.arange(first, first + size))
        hist += np.bincount((made > 0).sum(axis=1), minlength=82)
    cpu = time.process_time() - t0
    m = _moments(hist)
    lines = [f"seed {args.seed}: {m['n']:,} minimal puzzles bottom-up ({m['n'] / cpu:,.0f} per CPU-second)"]
    lines += comparison(m, hist, PUBLISHED, {name: HALF_UNIT for name in PUBLISHED})
    print("\n".join(lines))
    if args.save:
        SAVED.parent.mkdir(parents=True, exist_ok=True)
        cmd = f"python bench/berthier_bottomup.py --puzzles {args.puzzles} --batch {args.batch} --seed {args.seed} --save"
        SAVED.write_text(f"# {cmd}\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
