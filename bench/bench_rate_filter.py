"""The rating filter's cost: top-down puzzles rated in full against the same puzzles filtered by
an ER range, which rates no deeper than the range needs (``engine.rate.filter``).

    python bench/bench_rate_filter.py [--puzzles 2000] [--repeats 2]

The puzzles are top-down minimal puzzles from uniform grids (seed 2026, attempts from 30,000:
past those ``bench/berthier_rating.py`` rates). Per repeat, each way in turn: every puzzle rated
in full (``max_level`` 5), the filter for ER 7-8 (no chain past the dynamic forcing chains) and
for ER 2-4 (no chain at all); puzzles per CPU-second, the median over the repeats.
"""
from __future__ import annotations

import argparse
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    from sudoku_symmetry.engine.generate import top_down_range
    from sudoku_symmetry.engine.rate import rate
    from sudoku_symmetry.engine.rate.filter import er_within

    puzzles = top_down_range(2026, 30_000, args.puzzles, "none")[1]
    ways = {"every puzzle rated in full": lambda: rate(puzzles),
            "filter ER 7-8 (chains up to dynamic forcing chains)": lambda: er_within(puzzles, (7, 8)),
            "filter ER 2-4 (no chain)": lambda: er_within(puzzles, (2, 4))}
    rate(puzzles[:50])  # kernels loaded before timing
    er_within(puzzles[:50], (7, 8))
    rates: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.repeats):
        for name, f in ways.items():
            t0 = time.process_time()
            f()
            rates[name].append(len(puzzles) / (time.process_time() - t0))
    for name, r in rates.items():
        print(f"{name}: {statistics.median(r):,.0f} puzzles per CPU-second")


if __name__ == "__main__":
    main()
