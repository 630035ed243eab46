"""ED-grid enumeration throughput (per core, count only), and what the pruning leaves.

    NUMBA_NUM_THREADS=1 python bench/bench_grids.py [--bands 0,208] [--prefixes N] [--repeats 3]

Prints grids per CPU-second for each band 1 (all its row-4 prefixes unless --prefixes), with
the work counters of the kernel: bands 2 met and kept, complete grids checked, grids whose
chutes all pass the index test, and grids sent to the canon kernel (another chute ties band 1).
Targets (issue "Every essentially different grid"): 626,000/s on band 0 and 348,000/s on band
208 (2x the best native enumerator measured here), aiming at 1,500,000/s on every band.
"""
import argparse
import time

import numpy as np

from _common import print_table
from sudoku_symmetry.engine.grids import _kernels as K
from sudoku_symmetry.engine.grids import enumeration as E

TARGETS = {0: 626_000, 208: 348_000}


def run(band: int, stop: int | None):
    b = E.band1(band)
    rows4 = E.prefixes(band)
    stop = len(rows4) if stop is None else min(stop, len(rows4))
    w = E.workspace(len(b.aut_cols))
    counts = np.zeros(stop, np.int64)
    hist = np.zeros(E.HIST, np.int64)
    t0 = time.process_time()
    E.K.enumerate_prefixes(E._tables(), b, rows4, 0, stop, False, np.zeros((0, 81), np.uint8),
                           np.zeros(0, np.int64), counts, hist, w, 0, np.zeros((1, 2), np.int64), np.zeros(stop, np.int64))
    return int(counts.sum()), time.process_time() - t0, w.stats.copy()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bands", default="0,208")
    ap.add_argument("--prefixes", type=int, default=None, help="only the first N row-4 prefixes of each band 1")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    bands = [int(x) for x in args.bands.split(",")]
    run(bands[0], 1)  # compile
    rows = []
    for band in bands:
        results = [run(band, args.prefixes) for _ in range(args.repeats)]
        grids, _, stats = results[0]
        seconds = sorted(r[1] for r in results)[len(results) // 2]
        rows.append((f"band 1 = {band}: {grids:,} grids (count only)", grids, seconds, TARGETS.get(band)))
        print(f"band {band}: bands 2 in the walk {stats[K.STAT_BANDS2]:,} under {stats[K.STAT_ROWS5]:,} rows 5, "
              f"{stats[K.STAT_ROWS5_PRUNED]:,} rows 5 skipped whole; bands 2 tested {stats[K.STAT_BANDS2_TESTED]:,}, "
              f"kept {stats[K.STAT_BANDS2_KEPT]:,}; grids checked {stats[K.STAT_LEAVES]:,}, passing the index "
              f"tests {stats[K.STAT_LEAVES_INDEX]:,}, by the canon kernel {stats[K.STAT_CANON]:,}")
    print_table("ED grids of one band 1, in minlex order, CPU time, one thread", rows)


if __name__ == "__main__":
    main()
