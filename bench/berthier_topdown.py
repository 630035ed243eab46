"""Berthier's top-down statistics reproduced: the clue counts of 1,000,000 minimal puzzles made
top-down from exactly uniform grids, against the two top-down collections of 1,000,000 on his
classification page ("The Hidden Logic of Sudoku", online supplements, Classification): suexg's
(mean 24.38, sd 1.12, skewness 0.08, kurtosis 0.007) and Allan Barker's (24.38, 1.116, 0.11,
0.014).

    python bench/berthier_topdown.py --run [--puzzles 1000000] [--shard 20000] [--seed 2026]
    python bench/berthier_topdown.py                 # the summary of the shards done so far
    python bench/berthier_topdown.py --run --grids fill [--puzzles 1000000]
    python bench/berthier_topdown.py --run --grids ranks --puzzles 200000
    python bench/berthier_topdown.py --save          # the three summaries into the committed SUMMARY.txt

The work is cut into shards of ``--shard`` attempts (attempt i = grid i of the seed's uniform
draw, its givens removed in a random order: ``engine.generate``); each finished shard writes its
compact result (puzzles per clue count, the removal counters, CPU seconds) to
``bench/data/berthier_topdown/`` and a rerun skips the shards already there, so a killed run
loses at most one shard. The summary pools the shards: the mean, standard deviation and skewness
and excess kurtosis of the clue count, each with its standard error, and their distance from
each published figure in standard errors of the difference (the published sample's and ours),
as printed and beyond the figure's rounding (half a unit of its last digit).

``--grids`` says where the grids come from: ``uniform`` (the default: ``engine.grids.uniform``),
``ranks`` (also exactly uniform, by the catalog: a uniform rank, the grid at that rank, kept with
probability 1 / |Aut|, a random element of the group; a rank lookup per grid) or ``fill`` (the
randomised backtracking fill of ``engine.grids.random``, not uniform: the kind of grid generator
suexg has). The removal orders are the same streams in all three.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "data" / "berthier_topdown"
SAVED = OUT / "SUMMARY.txt"
BERTHIER = {"n": 1_000_000, "mean": 24.38, "sd": 1.12, "skewness": 0.08}
"""suexg's top-down collection (sudogen0_1M) on Berthier's classification page."""
PUBLISHED = {"suexg": dict(BERTHIER, kurtosis=0.007),
             "Barker": {"n": 1_000_000, "mean": 24.38, "sd": 1.116, "skewness": 0.11, "kurtosis": 0.014}}
"""The page's two top-down collections of 1,000,000 minimal puzzles (suexg's; Allan Barker's
rabrnd_1M), as printed there: their rounding is half a unit of the last digit shown."""
HALF_UNIT = {"suexg": {"mean": 0.005, "sd": 0.005, "skewness": 0.005, "kurtosis": 0.0005},
             "Barker": {"mean": 0.005, "sd": 0.0005, "skewness": 0.005, "kurtosis": 0.0005}}


def _prefix(grids: str, seed: int) -> str:
    return f"seed{seed}" if grids == "uniform" else f"{grids}-seed{seed}"


def _shard_path(grids: str, seed: int, first: int, size: int) -> Path:
    return OUT / f"{_prefix(grids, seed)}_{first:09d}_{size}.json"


def _puzzles_from(grids: np.ndarray, seed: int, first: int, stats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Top-down on given grids, the orders from the seed's order streams (one per shard): the
    puzzles and their clue counts."""
    from sudoku_symmetry.engine.core.rng import STATE_WORDS, seed_stream
    from sudoku_symmetry.engine.generate import _kernels as K
    from sudoku_symmetry.engine.generate.topdown import ORDER_DOMAIN, _orbits
    from sudoku_symmetry.engine.grids.uniform import stream_id

    cells, sizes = _orbits("none")
    state = np.zeros(STATE_WORDS, np.uint64)
    seed_stream(state, seed, stream_id(first, ORDER_DOMAIN))
    clues = np.zeros(len(grids), np.int64)
    puzzles = np.zeros_like(grids)
    K.top_down(grids, state, cells, sizes, puzzles, clues, stats)
    return puzzles, clues


def _clues_from(grids: np.ndarray, seed: int, first: int, stats: np.ndarray) -> np.ndarray:
    return _puzzles_from(grids, seed, first, stats)[1]


def run(puzzles: int, shard: int, seed: int, grids: str = "uniform") -> None:
    from sudoku_symmetry.engine.generate import top_down_range
    from sudoku_symmetry.engine.generate.topdown import STAT_NAMES
    from sudoku_symmetry.engine.grids.random import random_grids

    OUT.mkdir(parents=True, exist_ok=True)
    for first in range(0, puzzles, shard):
        size = min(shard, puzzles - first)
        path = _shard_path(grids, seed, first, size)
        if path.exists():
            continue
        stats = np.zeros(len(STAT_NAMES), np.int64)
        t0 = time.process_time()
        if grids == "uniform":
            _, _, clues = top_down_range(seed, first, size, "none", stats)
        elif grids == "fill":
            clues = _clues_from(random_grids(size, seed=seed * 100_000 + first // shard), seed, first, stats)
        else:
            from bench_uniform import _by_rank

            clues = _clues_from(_by_rank(size, seed * 100_000 + first // shard), seed, first, stats)
        cpu = time.process_time() - t0
        hist = np.bincount(clues, minlength=82).tolist()
        path.write_text(json.dumps({"seed": seed, "first": first, "n": size, "hist": hist, "cpu_seconds": round(cpu, 3),
                                    "counters": dict(zip(STAT_NAMES, stats.tolist()))}) + "\n")
        print(f"shard {first:,}-{first + size:,}: {size / cpu:,.0f} puzzles/CPU-s", flush=True)


def _moments(hist: np.ndarray) -> dict:
    n = int(hist.sum())
    k = np.arange(len(hist))
    mean = float((hist * k).sum() / n)
    var = float((hist * (k - mean) ** 2).sum() / (n - 1))
    m3 = float((hist * (k - mean) ** 3).sum() / n)
    m4 = float((hist * (k - mean) ** 4).sum() / n)
    sd = var ** 0.5
    return {"n": n, "mean": mean, "sd": sd, "skewness": m3 / sd ** 3, "kurtosis": m4 / var ** 2 - 3,
            "se_mean": sd / n ** 0.5, "se_sd": sd / (2 * (n - 1)) ** 0.5, "se_skewness": (6 / n) ** 0.5,
            "se_kurtosis": (24 / n) ** 0.5}


def summary(seed: int, grids: str = "uniform") -> list[str]:
    """The summary's lines: the pooled moments, their standard errors, and the distance from each
    published collection's figures in standard errors of the difference, as printed (``/ s.e.``)
    and beyond the figure's rounding (``beyond``: from the nearest point of x +- half a unit)."""
    files = sorted(OUT.glob(f"{_prefix(grids, seed)}_*.json"))
    if not files:
        return [f"no {grids} shard done yet: python bench/berthier_topdown.py --run --grids {grids}"]
    shards = [json.loads(p.read_text()) for p in files]
    hist = np.sum([s["hist"] for s in shards], axis=0)
    cpu = sum(s["cpu_seconds"] for s in shards)
    m = _moments(hist)
    title = (f"seed {seed}: {m['n']:,} minimal puzzles top-down from {grids} grids ({len(shards)} shards, "
             f"{m['n'] / cpu:,.0f} puzzles per CPU-second)")
    return [title] + comparison(m, hist, PUBLISHED, HALF_UNIT)


def comparison(m: dict, hist: np.ndarray, published: dict, half_unit: dict) -> list[str]:
    """A row per moment: ours, its standard error, and per published collection its figure and
    the distance in standard errors of the difference, as printed and beyond the figure's
    rounding (``half_unit[name][moment]``); then the clue counts' shares."""
    lines = [f"{'':10s} {'ours':>8s} {'s.e.':>7s}" + "".join(f" {name:>8s} {'/ s.e.':>7s} {'beyond':>7s}"
                                                          for name in published)]
    for key in ("mean", "sd", "skewness", "kurtosis"):
        se = m["se_" + key]
        row = f"{key:10s} {m[key]:8.4f} {se:7.4f}"
        for name, pub in published.items():
            if key not in pub:
                continue
            both = math.hypot(se, se * math.sqrt(m["n"] / pub["n"]))  # its sample's error, at its size
            gap = m[key] - pub[key]
            beyond = math.copysign(max(abs(gap) - half_unit[name][key], 0.0), gap)
            row += f" {pub[key]:8g} {gap / both:+7.2f} {beyond / both:+7.2f}"
        lines.append(row)
    lines.append("clues: " + ", ".join(f"{k}: {int(hist[k]) / m['n']:.4%}" for k in np.flatnonzero(hist)))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", action="store_true", help="make the shards not done yet")
    ap.add_argument("--puzzles", type=int, default=1_000_000)
    ap.add_argument("--shard", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--grids", choices=("uniform", "ranks", "fill"), default="uniform")
    ap.add_argument("--save", action="store_true", help=f"write the three kinds' summaries to {SAVED.name}")
    args = ap.parse_args()
    if args.run:
        run(args.puzzles, args.shard, args.seed, args.grids)
    if args.save:
        text = "\n\n".join("\n".join(summary(args.seed, g)) for g in ("uniform", "fill", "ranks"))
        SAVED.write_text(f"# python bench/berthier_topdown.py --save (from the shards beside this file)\n{text}\n")
    print("\n".join(summary(args.seed, args.grids)))


if __name__ == "__main__":
    main()
