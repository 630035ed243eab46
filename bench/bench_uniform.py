"""Uniform random grids per CPU-second, beside the two other ways the engine has to draw grids.

    NUMBA_NUM_THREADS=1 python bench/bench_uniform.py [--grids 200000] [--repeats 5]
    python bench/bench_uniform.py --compare-fill 200000      # how far the randomised fill is from uniform

Rows: the exactly uniform sampler (``engine.grids.uniform``: sorted completions of the 416 bands
by exact rejections, then a random element of the group), with its work counters; the catalog's
way (a uniform rank, the grid at that rank by the rank index, kept with probability 1 / |Aut|,
then a random element of the group: also exact, a rank lookup per grid); the randomised fill
(``engine.grids.random``: not uniform). Target (issue "Making puzzles"): 100,000 uniform grids per
second per core.

``--compare-fill N``: N grids of each sampler, the minlex band 1 of each against the law the
catalog's shipped counts give (each ED grid weighted by 1 / |Aut|): total variation distance,
chi-square and its degrees of freedom (bands expected at least 5 times; the rest pooled), how
often the five likeliest bands come out against their expectation, and the share of grids with
an automorphism against the catalog's.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from _common import median_seconds, print_table
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.grids.uniform import uniform_grids

TARGET = 100_000


def _by_rank(n: int, seed: int) -> np.ndarray:
    """The catalog's exact way: uniform ranks, the grid at each, kept with probability 1 / |Aut|,
    then a uniformly random position map and relabelling."""
    from sudoku_symmetry.engine.canon import canon_grids
    from sudoku_symmetry.engine.grids import N_ED_GRIDS
    from sudoku_symmetry.engine.group.transform import apply_batch, random_transforms
    from sudoku_symmetry.shipped import rank_index

    rng = np.random.default_rng(seed)
    index = rank_index()
    out = []
    while sum(map(len, out)) < n:
        grids = index.grids_at(rng.integers(1, N_ED_GRIDS + 1, n - sum(map(len, out))))
        auts = canon_grids(grids).automorphisms
        kept = grids[rng.random(len(grids)) < 1 / auts]
        out.append(apply_batch(random_transforms(len(kept), rng), kept))
    return np.concatenate(out)


def speed(n: int, repeats: int) -> None:
    uniform_grids(10, seed=0)  # tables and compilation
    random_grids(10, seed=0)
    stats = np.zeros(4, np.int64)
    s_uni = median_seconds(lambda: uniform_grids(n, seed=1, stats=stats), repeats, time.process_time)
    st = stats / (repeats * n)
    s_fill = median_seconds(lambda: random_grids(n, seed=1), repeats, time.process_time)
    m = max(n // 200, 100)
    _by_rank(10, 0)
    s_rank = median_seconds(lambda: _by_rank(m, 1), 3, time.process_time)
    print(f"uniform sampler per grid: {st[0]:.2f} trials, {st[1]:.2f} band 2s built, {st[2]:.2f} band 3s drawn, "
          f"{st[3]:.2f} grids to the 6/A test")
    print_table("random solution grids, CPU time, one thread", [
        ("exactly uniform (sorted completions, rejection)", n, s_uni, TARGET),
        ("exactly uniform by catalog ranks (a rank lookup per grid)", m, s_rank, None),
        ("randomised fill (not uniform)", n, s_fill, None),
    ])


def compare_fill(n: int) -> None:
    from sudoku_symmetry.catalog.shipped import ED_GRID_COUNTS
    from sudoku_symmetry.engine.bands import band_index
    from sudoku_symmetry.engine.canon import canon_grids

    a = np.load(ED_GRID_COUNTS)
    w = np.zeros(416)
    np.add.at(w, a["hist_band"], a["hist_grids"] / a["hist_count"])
    p = w / w.sum()
    share = float((a["hist_grids"] / a["hist_count"] * (a["hist_count"] > 1)).sum() / w.sum())
    print(f"the catalog's law: grids with an automorphism {share:.3e} of all; {n:,} draws each")
    for name, grids in (("uniform", uniform_grids(n, seed=11)), ("fill", random_grids(n, seed=11))):
        c = canon_grids(grids)
        obs = np.bincount(band_index(c.forms[:, :27])[0], minlength=416)
        e = p * n
        big = e >= 5
        chi = ((obs[big] - e[big]) ** 2 / e[big]).sum() + (obs[~big].sum() - e[~big].sum()) ** 2 / e[~big].sum()
        top = np.argsort(-e)[:5]
        print(f"{name:8s} TV {0.5 * np.abs(obs / n - p).sum():.4f}  chi-square {chi:,.1f} on {int(big.sum())} dof  "
              f"top bands observed/expected {', '.join(f'{obs[k] / e[k]:.2f}' for k in top)}  "
              f"automorphic {(c.automorphisms > 1).mean():.2e}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grids", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--compare-fill", type=int, default=None, metavar="N")
    args = ap.parse_args()
    if args.compare_fill:
        compare_fill(args.compare_fill)
    else:
        speed(args.grids, args.repeats)


if __name__ == "__main__":
    main()
