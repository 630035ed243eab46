"""17-clue search entry throughput (per core, count only): bands 3 per CPU-second.

    NUMBA_NUM_THREADS=1 python bench/bench_s17.py [--ranks 0] [--variants A,C] [--bands2 N] [--repeats 3]

For each band-1 rank (default 0, the search's first band 1) and variant: the middle loop (every
band 2 under band 1, kept or not) and the bands 3 of all kept bands 2 (or the first N), timed
apart and together, median of the repeats. The rate that counts is bands 3 per second with the
middle loop included ("total"); the target is 400,000/s on band-1 rank 0, aiming at 1,000,000/s
(GPenet's Sk_S17VB generator: 119 CPU-s for the 16,962,075 bands 3 of that band).
"""
import argparse
import statistics
import time

import numpy as np

from _common import print_table
from sudoku_symmetry.engine.search17 import entry as E

TARGET = 400_000


def middle(rank: int):
    S = E.band1(rank)
    W = E.workspace()
    out = np.zeros((len(E.bands2(rank)), 27), np.uint8)  # the exact size (a short buffer gives -1)
    t0 = time.process_time()
    n = E.K.bands2(S, E._tables(), W, out)
    assert n == len(out), n
    return out, time.process_time() - t0, W.stats.copy()


def inner(variant: str, rank: int, b2s, stop: int):
    S = E.band1(rank)
    W = E.workspace()
    counts = np.zeros(stop, np.int64)
    kv = E.K.VARIANT_C if variant == "C" else E.K.VARIANT_A
    t0 = time.process_time()
    E.K.bands3(S, E._tables(), W, kv, b2s, 0, stop, False, counts, np.zeros(0, np.int64), np.zeros((0, 27), np.uint8))
    return int(counts.sum()), time.process_time() - t0, W.stats.copy()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", default="0")
    ap.add_argument("--variants", default="A,C")
    ap.add_argument("--bands2", type=int, default=None, help="only the first N bands 2 (default: all)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    ranks = [int(x) for x in args.ranks.split(",")]
    variants = [v.strip().upper() for v in args.variants.split(",")]
    b2s, _, _ = middle(ranks[0])  # compile
    for v in variants:
        inner(v, ranks[0], b2s, min(64, len(b2s)))
    rows = []
    for rank in ranks:
        mids = [middle(rank) for _ in range(args.repeats)]
        b2s, _, mstats = mids[0]
        t_mid = statistics.median(m[1] for m in mids)
        stop = len(b2s) if args.bands2 is None else min(args.bands2, len(b2s))
        print(f"rank {rank} (band {int(E.band1(rank).index)}): bands 2 met {mstats[0]:,}, kept {len(b2s):,} "
              f"(middle loop {t_mid:.2f} CPU-s, median of {args.repeats})")
        for v in variants:
            runs = [inner(v, rank, b2s, stop) for _ in range(args.repeats)]
            n3, _, stats = runs[0]
            t_in = statistics.median(r[1] for r in runs)
            share = stop / len(b2s) if len(b2s) else 1.0
            print(f"  {v}: bands 3 met {stats[2]:,}, kept {n3:,}, by the representation walk {stats[4]:,}; "
                  f"inner loop {t_in:.2f} CPU-s")
            rows.append((f"rank {rank} {v}: bands 3, inner loop only", n3, t_in, None))
            rows.append((f"rank {rank} {v}: bands 3, total (middle loop share incl.)", n3, t_in + t_mid * share,
                         TARGET if rank == 0 and v == "A" else None))
    print_table("17-clue search entry, count only, CPU time, one thread", rows)


if __name__ == "__main__":
    main()
