"""Band index throughput (per core) and table build time, against the pure-Python search and,
with ``--native``, side by side with GPenet's Getmin.

Input: ``--n`` random bands (fixed seed).  ``band_index`` gives the index and the transformation
onto the minlex band; Getmin (GPenet's sk_minlexsol, through /work/native's ``band_harness``,
see the README's benchmark section) gives the index and its own morphing data.  Each project
run alternates with a Getmin run on the same bands (written to a temporary file); figures are
medians of CPU time, the ratio the median of per-pair ratios project / tool.

    NUMBA_NUM_THREADS=1 python bench/bench_bands.py [--n 1000000] [--pairs 6] [--native PATH]
"""
import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from _common import median_seconds, print_side_by_side, print_table, side_by_side
from sudoku_symmetry.engine.bands.tables import band_compare, band_index, build_tables, random_bands
from sudoku_symmetry.engine.text import format_lines, format_sudoku
from naive_bands import minlex_band


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000, help="random bands per batch")
    ap.add_argument("--pairs", type=int, default=6, help="runs (pairs of runs with --native)")
    ap.add_argument("--native", help="path of the native harness (band_harness)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    build_tables()  # first call also compiles (or loads the Numba cache)
    first = time.perf_counter() - t0
    build = median_seconds(build_tables, 3)
    print(f"tables from nothing: {build:.2f} s (median of 3; first call in this process {first:.2f} s)")

    bands = random_bands(args.n, np.random.default_rng(1))
    band_index(bands[:10])
    band_compare(bands[:10], 208)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bands.txt"
        path.write_text("".join(line + "\n" for line in format_lines(bands)))
        lookup = side_by_side(lambda: band_index(bands), args.n, args.native, "getmin", path, args.pairs)
    compare = side_by_side(lambda: band_compare(bands, 208), args.n, None, "", None, args.pairs)
    sample = [format_sudoku(b) for b in bands[:20]]
    naive = median_seconds(lambda: [minlex_band(s) for s in sample], 3)
    print(f"one thread, CPU time, median of {args.pairs} {'pairs' if args.native else 'runs'}")
    print_side_by_side([
        ("band_index (index + transformation)" + (" vs Getmin" if args.native else ""), args.n, lookup, 5_000_000),
        ("band_compare (threshold 208)", args.n, compare, None),
    ])
    print_table("reference", [("pure-Python search over 7,776 maps", len(sample), naive, None)])


if __name__ == "__main__":
    main()
