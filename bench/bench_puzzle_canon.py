"""Puzzles/s per core of the puzzle canonical forms, both conventions, next to the targets.

Input: the 49,158 17-clue puzzles, each randomly transformed (fixed seed), canonicalized
through the batch API ``canon_puzzles`` in one call per run.  Single thread; the figure is
the median over ``--repeat`` runs of CPU time (process time), so other load on the machine
matters less.  Usage:

    NUMBA_CACHE_DIR=.numba_cache .venv/bin/python bench/bench_puzzle_canon.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from _common import DATA
from sudoku_symmetry.engine.canon.puzzle import canon_puzzles
from sudoku_symmetry.engine.text import parse_lines
from sudoku_symmetry.engine.group.transform import apply_batch, random_transforms

TARGETS = {False: (300_000, 219_000), True: (500_000, 378_000)}  # (target, best native tool)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--file", default=str(DATA / "17clue_49158.txt"))
    args = ap.parse_args(argv)
    puzzles = parse_lines(Path(args.file).read_text().splitlines()).sudokus
    moved = apply_batch(random_transforms(len(puzzles), np.random.default_rng(2024)), puzzles)
    canon_puzzles(moved[:10])
    canon_puzzles(moved[:10], pattern_first=True)  # compile / load the cache outside the timing
    print(f"{len(moved):,} randomly transformed puzzles from {Path(args.file).name}, median of {args.repeat} runs")
    print(f"{'convention':<14}{'puzzles/s':>12}{'target':>10}{'best native':>13}{'wall s':>9}")
    for pf in (False, True):
        cpu, wall = [], []
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            canon_puzzles(moved, pattern_first=pf)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        rate = len(moved) / float(np.median(cpu))
        target, native = TARGETS[pf]
        name = "pattern-first" if pf else "pure minlex"
        print(f"{name:<14}{rate:>12,.0f}{target:>10,}{native:>13,}{np.median(wall):>9.3f}")


if __name__ == "__main__":
    main()
