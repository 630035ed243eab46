"""Band index throughput (per core) and table build time, against the pure-Python search.

    NUMBA_NUM_THREADS=1 python bench/bench_bands.py [--n 1000000] [--repeats 5]
"""
import argparse
import time

import numpy as np

from _common import median_seconds, print_table
from sudoku_symmetry.engine.bands.tables import band_compare, band_index, build_tables, random_bands
from sudoku_symmetry.engine.text import format_sudoku
from naive_bands import minlex_band


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000, help="random bands per batch")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    t0 = time.perf_counter()
    build_tables()  # first call also compiles (or loads the Numba cache)
    first = time.perf_counter() - t0
    build = median_seconds(build_tables, 3)
    print(f"tables from nothing: {build:.2f} s (median of 3; first call in this process {first:.2f} s)")

    bands = random_bands(args.n, np.random.default_rng(1))
    band_index(bands[:10])
    band_compare(bands[:10], 208)
    lookup = median_seconds(lambda: band_index(bands), args.repeats)
    compare = median_seconds(lambda: band_compare(bands, 208), args.repeats)
    sample = [format_sudoku(b) for b in bands[:20]]
    naive = median_seconds(lambda: [minlex_band(s) for s in sample], 3)
    print_table(
        "band -> index + transformation, one thread, median of runs",
        [
            ("band_index (index + transformation)", args.n, lookup, 5_000_000),
            ("band_compare (threshold 208)", args.n, compare, None),
            ("pure-Python search over 7,776 maps (reference)", len(sample), naive, None),
            ("best native tool on this machine (DESIGN.md)", 600_000, 1.0, None),
        ],
    )


if __name__ == "__main__":
    main()
