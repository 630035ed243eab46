"""Berthier's mean rating of top-down puzzles reproduced: Sudoku Explainer's ER of minimal puzzles
made top-down from exactly uniform grids, against the figures of his classification page ("The
Hidden Logic of Sudoku", online supplements, Classification) for suexg's 1,000,000 top-down
puzzles: mean ER 3.77, standard deviation 2.42, maximum 9.3.

    nice -n 19 python bench/berthier_rating.py --run [--puzzles 20000] [--shard 1000] [--seed 2026]
    python bench/berthier_rating.py                  # the summary of the shards done so far
    nice -n 19 python bench/berthier_rating.py --run --grids fill [--puzzles 20000]
    python bench/berthier_rating.py --save           # the summaries into the committed SUMMARY.txt

The puzzles are the first ``--puzzles`` of ``bench/berthier_topdown.py``'s run of the same seed
(attempt i = grid i of the seed's uniform draw, its givens removed in a random order), or, with
``--grids fill``, the same removal on grids of the randomised fill (the kind of grid suexg draws).
Each is rated in full (``engine.rate``, serate 1.2.1.3's figures, every chain level). The work is
cut into shards of ``--shard`` puzzles; each finished shard writes its compact result (the
puzzles per ER in tenths, CPU seconds) to ``bench/data/berthier_rating/``, and a rerun skips the
shards already there, so a killed run loses at most one shard. The summary pools the shards: the
mean, standard deviation and maximum ER, the mean's standard error, and its distance from
Berthier's mean in standard errors of the difference (his sample's error taken from his sd and
size; his figures are rounded to 0.01).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

OUT = Path(__file__).resolve().parent / "data" / "berthier_rating"
SAVED = OUT / "SUMMARY.txt"
BERTHIER = {"n": 1_000_000, "mean": 3.77, "sd": 2.42, "max": 9.3}
"""suexg's top-down collection (1,000,000 minimal puzzles) rated by Sudoku Explainer, on
Berthier's classification page."""
TENTHS = 201
"""ER 0.0 to 20.0 in tenths."""


def _prefix(grids: str, seed: int) -> str:
    return f"seed{seed}" if grids == "uniform" else f"{grids}-seed{seed}"


def _puzzles(grids: str, seed: int, first: int, size: int) -> np.ndarray:
    """The shard's top-down puzzles: those of berthier_topdown's run (uniform grids: attempts
    ``first`` to ``first + size``; fill: the same removal streams on the fill's grids)."""
    from sudoku_symmetry.engine.generate import top_down_range

    if grids == "uniform":
        return top_down_range(seed, first, size, "none")[1]
    from berthier_topdown import _puzzles_from

    from sudoku_symmetry.engine.generate.topdown import STAT_NAMES
    from sudoku_symmetry.engine.grids.random import random_grids

    stats = np.zeros(len(STAT_NAMES), np.int64)
    return _puzzles_from(random_grids(size, seed=seed * 100_000 + first // size), seed, first, stats)[0]


def run(puzzles: int, shard: int, seed: int, grids: str) -> None:
    from sudoku_symmetry.engine.rate import rate

    OUT.mkdir(parents=True, exist_ok=True)
    for first in range(0, puzzles, shard):
        size = min(shard, puzzles - first)
        path = OUT / f"{_prefix(grids, seed)}_{first:08d}_{size}.json"
        if path.exists():
            continue
        batch = _puzzles(grids, seed, first, size)
        t0 = time.process_time()
        ratings = rate(batch)
        cpu = time.process_time() - t0
        er = np.array([round(r.er * 10) for r in ratings], np.int64)
        unfinished = sum(not r.complete for r in ratings)
        path.write_text(json.dumps({"seed": seed, "grids": grids, "first": first, "n": size,
                                    "er_tenths": np.bincount(er, minlength=TENTHS).tolist(),
                                    "incomplete": unfinished, "cpu_seconds": round(cpu, 3)}) + "\n")
        print(f"shard {first:,}-{first + size:,}: mean ER {er.mean() / 10:.3f}, {size / cpu:,.0f} ratings/CPU-s",
              flush=True)


def summary(seed: int, grids: str) -> list[str]:
    files = sorted(OUT.glob(f"{_prefix(grids, seed)}_*.json"))
    if not files:
        return [f"no {grids} shard done yet: python bench/berthier_rating.py --run --grids {grids}"]
    shards = [json.loads(p.read_text()) for p in files]
    hist = np.sum([s["er_tenths"] for s in shards], axis=0)
    cpu = sum(s["cpu_seconds"] for s in shards)
    n = int(hist.sum())
    x = np.arange(len(hist)) / 10
    mean = float((hist * x).sum() / n)
    sd = float(((hist * (x - mean) ** 2).sum() / (n - 1)) ** 0.5)
    se = sd / n ** 0.5
    se_b = BERTHIER["sd"] / BERTHIER["n"] ** 0.5
    both = math.hypot(se, se_b)
    gap = mean - BERTHIER["mean"]
    beyond = math.copysign(max(abs(gap) - 0.005, 0.0), gap)
    top = float(x[np.flatnonzero(hist)[-1]])
    share = {lim: float(hist[int(lim * 10):].sum() / n) for lim in (6.5, 7.0, 8.0, 9.0)}
    lines = [f"seed {seed}: {n:,} minimal puzzles top-down from {grids} grids rated by the project's serate 1.2.1.3 "
             f"({len(shards)} shards, {n / cpu:,.1f} ratings per CPU-second, "
             f"{sum(s['incomplete'] for s in shards)} unfinished)",
             f"mean ER {mean:.4f} (s.e. {se:.4f}); Berthier {BERTHIER['mean']} (s.e. {se_b:.4f}): {gap / both:+.2f} s.e. "
             f"of the difference ({beyond / both:+.2f} beyond the rounding)",
             f"sd {sd:.4f} (Berthier {BERTHIER['sd']}), max {top:.1f} (Berthier {BERTHIER['max']})",
             "share with ER >= " + ", ".join(f"{k}: {v:.2%}" for k, v in share.items()),
             "ER (whole units): " + ", ".join(f"{u}: {hist[10 * u:10 * u + 10].sum() / n:.2%}"
                                               for u in range(21) if hist[10 * u:10 * u + 10].sum())]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", action="store_true", help="rate the shards not done yet")
    ap.add_argument("--puzzles", type=int, default=20_000)
    ap.add_argument("--shard", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--grids", choices=("uniform", "fill"), default="uniform")
    ap.add_argument("--save", action="store_true", help=f"write both kinds' summaries to {SAVED.name}")
    args = ap.parse_args()
    if args.run:
        run(args.puzzles, args.shard, args.seed, args.grids)
    if args.save:
        kinds = [g for g in ("uniform", "fill") if any(OUT.glob(f"{_prefix(g, args.seed)}_*.json"))]
        text = "\n\n".join("\n".join(summary(args.seed, g)) for g in kinds)
        SAVED.write_text(f"# python bench/berthier_rating.py --save (from the shards beside this file)\n{text}\n")
    print("\n".join(summary(args.seed, args.grids)))


if __name__ == "__main__":
    main()
