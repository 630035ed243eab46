"""Throughput of the fast solver, count-to-2 (uniqueness check), single thread, per core.

    NUMBA_CACHE_DIR=.numba_cache .venv/bin/python bench/bench_solver.py [--repeat 5] [--max-lines N]

Prints, per file: puzzles/s (median over the runs, CPU time of this process, one thread),
guesses per puzzle, the fraction settled by logic alone, and the reference rates of DESIGN.md.
One kernel call per run covers the whole file (compile time excluded: a warm-up call first).
``--full-counts`` also counts every solution of the count files exactly (minutes).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from _common import DATA
from sudoku_symmetry.engine.solve import solver
from sudoku_symmetry.engine.text import parse_lines

FILES = [
    ("17clue_49158.txt", "211k/s (tdoku)", "100k/s"),
    ("forum_hardest_1905_11plus.txt", "13.7k/s (tdoku)", "7k/s"),
    ("forum_hardest_1106.txt", "", ""),
    ("top1465.txt", "", ""),
    ("sudoku3m_sample7034.txt", "", ""),
    ("serg_benchmark_multisol_with_counts.txt", "", ""),
]


def load(name, max_lines):
    with open(DATA / name) as fh:
        lines = fh.read().splitlines()[:max_lines]
    return parse_lines(lines, allow_suffix=True, errors="raise", source=name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--max-lines", type=int, default=None)
    ap.add_argument("--full-counts", action="store_true")
    args = ap.parse_args()
    solver.count_solutions(parse_lines(["." * 81]).sudokus, 2)  # compile / load the cache
    print(f"{'file':42s} {'puzzles':>8s} {'puzzles/s':>11s} {'spread':>13s} {'guesses':>8s} {'logic-only':>10s}  reference / target")
    for name, ref, target in FILES:
        if not (DATA / name).exists():
            print(f"{name:42s} (missing)")
            continue
        batch = load(name, args.max_lines).sudokus
        rates = []
        for _ in range(args.repeat):
            t0 = time.process_time()
            res = solver.count_solutions(batch, 2)
            dt = time.process_time() - t0
            rates.append(len(batch) / dt)
        med = statistics.median(rates)
        print(
            f"{name:42s} {len(batch):8d} {med:11,.0f} {min(rates):6,.0f}-{max(rates):<6,.0f} "
            f"{res.guesses.mean():8.2f} {res.logic_only.mean():10.3f}  {ref} {('/ ' + target) if target else ''}"
        )
    if args.full_counts:
        print("\nexact counts (limit 1,000,000) against the files:")
        for name in ("tdoku_test_puzzles_with_counts.txt", "serg_benchmark_multisol_with_counts.txt",
                     "derived_16clue_multisol_1000.txt", "derived_18clue_nosol_1000.txt"):
            parsed = load(name, None)
            want = np.array([10**6 if s.split(":")[0].startswith(">=") else int(s.split(":")[0])
                             for s in parsed.suffixes])
            t0 = time.process_time()
            got = solver.count_solutions(parsed.sudokus, 10**6).counts
            dt = time.process_time() - t0
            print(f"{name:42s} {len(want):6d} puzzles, {int(got.sum()):12,d} solutions, "
                  f"{'all equal' if (got == want).all() else f'{int((got != want).sum())} DIFFER'}, {dt:.1f} s")
        t0 = time.process_time()
        counts, minimal = solver.check(load("17clue_49158.txt", None).sudokus)
        print(f"17clue_49158.txt: unique {int((counts == 1).sum())}, minimal {int(minimal.sum())} "
              f"of {len(counts)}, {time.process_time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
