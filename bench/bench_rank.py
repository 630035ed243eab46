"""Rank <-> grid latency over the shipped counts (package data: coarse + fine), one thread.

    NUMBA_NUM_THREADS=1 python bench/bench_rank.py [--n 400] [--repeats 5] [--coarse 20]

Random ranks (uniform over the grids of the bands 1 whose fine counts are shipped) -> grid,
and random grids (uniform solution grids, not minlex, whose band 1 is covered) -> rank: the
median time of one lookup called alone (what ``bin/rank`` does per line) and the mean per
lookup of a batch (one compiled call), each a median over ``--repeats``; CPU time (the machine
is shared: wall time would count other processes' time slices). ``--coarse N`` also
times N lookups without fine counts (the fallback: a whole row-4 prefix enumerated).
Target (issue "Every essentially different grid"): at most 1 ms on average, aiming at 0.1 ms;
the best native virtual catalog takes 12-17 ms per lookup here.
"""
import argparse
import statistics
import time

import numpy as np

from _common import median_seconds
from sudoku_symmetry.catalog.fine import load_fine_package
from sudoku_symmetry.catalog.shipped import ED_GRID_COUNTS as COARSE
from sudoku_symmetry.engine.bands import band_index
from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.grids import RankIndex
from sudoku_symmetry.engine.grids.random import random_grids


def indexes():
    with np.load(COARSE) as c:
        totals = dict(zip(c["band1"].tolist(), c["grids"].tolist()))
        start = np.concatenate([[0], np.cumsum(c["prefixes"])])
        grids = c["prefix_grids"]
        counts = {b: grids[start[k] : start[k + 1]] for k, b in enumerate(c["band1"].tolist())}
    fine = load_fine_package()
    return totals, RankIndex(totals, counts.get, fine.get), RankIndex(totals, counts.get), sorted(fine)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--coarse", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    totals, fine, coarse, covered = indexes()
    rng = np.random.default_rng(args.seed)
    before = np.concatenate([[0], np.cumsum([totals[b] for b in range(416)])])
    weights = np.array([totals[b] for b in covered], float)
    bands = rng.choice(covered, size=args.n, p=weights / weights.sum())
    ranks = np.array([rng.integers(before[b] + 1, before[b + 1] + 1) for b in bands], np.int64)
    pool = random_grids(200 * args.n, seed=args.seed)
    pool_bands = band_index(canon_grids(pool).forms[:, :27])[0]
    grids = pool[np.isin(pool_bands, covered)][: args.n]
    fine.grids_at(ranks[:2]), fine.ranks_of(grids[:2]), coarse.grids_at(ranks[:1])  # compile, load the bands
    for b in set(bands.tolist()) | set(band_index(canon_grids(grids).forms[:, :27])[0].tolist()):
        fine.band(int(b))
    print(f"fine counts shipped for {len(covered)} bands 1 ({weights.sum():,.0f} grids); {len(ranks)} ranks, "
          f"{len(grids)} grids (not minlex)")

    def single(fn, items):
        times = []
        for x in items:
            t0 = time.process_time()
            fn(x)
            times.append(time.process_time() - t0)
        return statistics.median(times), statistics.mean(times)

    rows = []
    for name, fn, items in [("rank -> grid", lambda x: fine.grids_at([x]), ranks),
                            ("grid -> rank", lambda x: fine.ranks_of(x), grids)]:
        med, mean = single(fn, items)
        rows.append((name, med, mean))
    batch_r = median_seconds(lambda: fine.grids_at(ranks), args.repeats, time.process_time) / len(ranks)
    batch_g = median_seconds(lambda: fine.ranks_of(grids), args.repeats, time.process_time) / len(grids)
    assert np.array_equal(fine.ranks_of(fine.grids_at(ranks))[0], ranks)
    print(f"\n{'lookup (fine counts)':24s} {'median alone':>14s} {'mean alone':>12s} {'batch, per lookup':>18s}")
    for (name, med, mean), b in zip(rows, (batch_r, batch_g)):
        print(f"{name:24s} {med * 1e3:11.3f} ms {mean * 1e3:9.3f} ms {b * 1e3:15.3f} ms")
    if args.coarse:
        cr = rng.integers(1, before[-1] + 1, size=args.coarse)
        med, mean = single(lambda x: coarse.grids_at([x]), cr)
        print(f"{'rank -> grid, coarse':24s} {med * 1e3:11.3f} ms {mean * 1e3:9.3f} ms   (whole prefixes, any band)")


if __name__ == "__main__":
    main()
