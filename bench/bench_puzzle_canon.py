"""Puzzles/s per core of the puzzle canonical forms, both conventions, next to the targets and,
with ``--native``, side by side with the native tools.

Inputs: the 49,158 17-clue puzzles and the 7,034-puzzle 20-29-clue sample
(``sudoku3m_sample7034.txt``), each puzzle randomly transformed (fixed seed), canonicalized
through the batch API ``canon_puzzles`` in one call per run: form, transformation and
automorphism count, single thread.  Figures are medians over ``--pairs`` runs of CPU time
(process time), so other load on the machine matters less.

With ``--native PATH`` (the harness of /work/native, see the README's benchmark section) each
run of the project alternates with a run of the native tool on the same transformed puzzles,
written to a temporary file: dobrichev's patminlex for pattern-first (it also counts the
automorphisms), gridchecker's subcanon for pure minlex (form only).  The ratio printed is the
median of the per-pair ratios project / tool.  Usage:

    NUMBA_NUM_THREADS=1 .venv/bin/python bench/bench_puzzle_canon.py [--pairs 6] [--native PATH]
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from _common import DATA, print_side_by_side, side_by_side, write_lines
from sudoku_symmetry.engine.canon.puzzle import canon_puzzles
from sudoku_symmetry.engine.group.transform import apply_batch, random_transforms
from sudoku_symmetry.engine.text import parse_lines

TARGETS = {False: 600_000, True: 1_100_000}  # issue 12: 1.5x subcanon / patminlex measured side by side
NATIVE_MODE = {False: "subcanon", True: "patminlex"}
FILES = ("17clue_49158.txt", "sudoku3m_sample7034.txt")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=6, help="runs (pairs of runs with --native)")
    ap.add_argument("--native", help="path of the native harness (canon_harness)")
    ap.add_argument("--files", default=",".join(FILES), help="comma-separated files of the shared data")
    args = ap.parse_args(argv)
    canon_puzzles(np.zeros((1, 81), np.uint8))
    canon_puzzles(np.zeros((1, 81), np.uint8), pattern_first=True)  # compile / load the cache outside the timing
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.files.split(","):
            puzzles = parse_lines((DATA / name).read_text().splitlines()).sudokus
            moved = apply_batch(random_transforms(len(puzzles), np.random.default_rng(2024)), puzzles)
            path = Path(tmp) / name
            write_lines(moved, path)
            for pf in (True, False):
                res = side_by_side(lambda: canon_puzzles(moved, pattern_first=pf), len(moved), args.native,
                                   NATIVE_MODE[pf], path, args.pairs)
                conv = "pattern-first" if pf else "pure minlex"
                tool = f" vs {NATIVE_MODE[pf]}" if args.native else ""
                rows.append((f"{name.split('_')[0]} morphed, {conv}{tool}", len(moved), res, TARGETS[pf]))
    print(f"one thread, CPU time, median of {args.pairs} {'pairs' if args.native else 'runs'}")
    print_side_by_side(rows)


if __name__ == "__main__":
    main()
