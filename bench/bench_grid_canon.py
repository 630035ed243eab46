"""Grid minlex throughput (per core) on random solution grids, against the numpy reference and,
with ``--native``, side by side with gridchecker's rowminlex.

Input: ``--n`` random solution grids, each randomly transformed (fixed seeds).  ``canon_grids``
gives form, transformation and automorphism count; rowminlex (dobrichev's gridchecker, through
/work/native's ``canon_harness``, see the README's benchmark section) the form.  Each project run
alternates with a rowminlex run on the same grids (a temporary file); figures are medians of CPU
time, the ratio the median of per-pair ratios project / tool.

    NUMBA_NUM_THREADS=1 python bench/bench_grid_canon.py [--n 100000] [--pairs 6] [--native PATH]
"""
import argparse
import tempfile
from pathlib import Path

import numpy as np

from _common import median_seconds, print_side_by_side, print_table, side_by_side, write_lines
from sudoku_symmetry.engine.canon.grid import canon_grids
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.group.transform import apply_batch, random_transforms
from naive_canon import naive_canon


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--pairs", type=int, default=6, help="runs (pairs of runs with --native)")
    ap.add_argument("--native", help="path of the native harness (canon_harness)")
    args = ap.parse_args()
    grids = random_grids(args.n, seed=1)
    grids = apply_batch(random_transforms(args.n, np.random.default_rng(2)), grids)
    canon_grids(grids[:10])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "grids.txt"
        write_lines(grids, path)
        res = side_by_side(lambda: canon_grids(grids), args.n, args.native, "rowminlex", path, args.pairs)
    _, _, counts = canon_grids(grids)
    slow = median_seconds(lambda: [naive_canon(g) for g in grids[:2]], 1)
    print(f"one thread, CPU time, median of {args.pairs} {'pairs' if args.native else 'runs'}")
    print_side_by_side([("canon_grids (form, transf., automorphisms)" + (" vs rowminlex" if args.native else ""),
                         args.n, res, 500_000)])
    print_table("reference", [("numpy reference over 3,359,232 position maps", 2, slow, None)])
    print(f"grids with automorphisms: {(counts > 1).sum()} of {args.n}")


if __name__ == "__main__":
    main()
