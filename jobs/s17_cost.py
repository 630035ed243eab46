"""Cost planning of the 17-clue search: how long a band 1 of a pass takes, from measured samples,
and a band 1's bands 2 cut into ranges of about a given cost.

* :func:`estimate`: CPU seconds per band 1 from samples at some ranks (CPU seconds per band 3,
  interpolated in log scale between the sampled ranks), times each band 1's bands 3;
* :func:`cost_ranges`: consecutive ranges of bands 2 of at most a budget each (``s17-search
  --shard-seconds``);
* :func:`per_band3`, :func:`estimate_sampled`: the same from the package data
  (``catalog/data/s17_search_rates.json``, random samples over the whole order);
* :func:`estimate_search`: what ``s17-search --table`` prints, the whole search from those
  samples with the measured bands 1 of a catalog in place of the estimate where they were
  measured (each measured rank stands for itself), and from the measured bands 1 alone only where
  they cover the order (a few ranks at one end of the order say nothing of the rest: the cost
  per band 3 grows a thousandfold from rank 0 to rank 415).
"""
from __future__ import annotations

import numpy as np

from sudoku_symmetry.catalog.search17 import load_shipped_rates
from sudoku_symmetry.engine.search17 import PASSES, counted_variant

__all__ = ["estimate", "cost_ranges", "per_band3", "covers", "estimate_search", "estimate_sampled"]


def estimate(samples: dict[int, tuple[float, int]], bands3: dict[int, int]) -> dict[int, float]:
    """CPU seconds of one pass per band 1, from measured samples: ``samples`` maps a band-1 rank
    to (CPU seconds, bands 3 searched) of what was measured there (a whole band 1 or slices of
    it); the CPU seconds per band 3 are interpolated between the sampled ranks in log scale (held
    flat beyond the first and last) and multiplied by each band 1's bands 3 in ``bands3`` (the
    entry's counts: A's for passes A and B, C's for C). Ranks whose samples searched no band 3
    are left out of the interpolation."""
    pts = sorted((r, cpu / n) for r, (cpu, n) in samples.items() if n > 0 and cpu > 0)
    if not pts:
        return {}
    xs = np.array([p[0] for p in pts], float)
    ys = np.log(np.array([p[1] for p in pts]))
    return {r: float(np.exp(np.interp(r, xs, ys)) * n) for r, n in bands3.items()}


def cost_ranges(costs: np.ndarray, budget: float, start: int = 0) -> list[tuple[int, int]]:
    """Consecutive ranges of bands 2 ``(a, b)`` covering ``start .. start + len(costs)``, each of
    estimated cost at most ``budget`` (``costs[j]``: the estimate of band 2 ``start + j``, e.g. its
    bands 3 times the CPU seconds per band 3); a band 2 costlier alone is a range of its own. Cut
    greedily: a range ends at the last band 2 that keeps it within the budget, so every range but
    the last costs more than ``budget`` minus its next band 2."""
    if budget <= 0:
        raise ValueError(f"the budget must be positive, got {budget}")
    c = np.concatenate([[0.0], np.cumsum(np.asarray(costs, float))])
    n = len(c) - 1
    out = []
    a = 0
    while a < n:
        b = int(np.searchsorted(c, c[a] + budget, side="right")) - 1  # last b with c[b] - c[a] <= budget
        b = max(b, a + 1)
        out.append((start + a, start + b))
        a = b
    return out


def per_band3(pass_: str, ranks) -> dict[int, float]:
    """Band-1 rank -> the estimated CPU seconds per band 3 of ``pass_`` there, interpolated (log
    scale, :func:`estimate`) between the ranks of the package data's random samples, so a plan
    is the same at every start of a run of one version; {} when the package has none."""
    rates = load_shipped_rates().get(pass_, {})
    return estimate({r: (v, 1) for r, v in rates.items()}, {int(r): 1 for r in ranks})


COVER_GAP = 64
"""Measured ranks cover the order when no stretch of the 416 ranks longer than this (counting the
two ends) holds none of them."""


def covers(ranks) -> bool:
    """Do measured band-1 ranks cover the order (:data:`COVER_GAP`)?"""
    r = sorted(set(int(x) for x in ranks))
    if not r:
        return False
    gaps = [r[0], 415 - r[-1]] + [b - a for a, b in zip(r, r[1:])]
    return max(gaps) <= COVER_GAP


def estimate_search(rows: dict[tuple[str, int], dict], entry: dict[str, dict[int, tuple[int, int, int]]],
                    rates: dict[str, dict[int, float]] | None = None) -> dict:
    """Per pass, the estimates ``s17-search --table`` prints, from the measured bands 1 ``rows``
    ((pass, rank) -> ``s17_search_bands`` row) and the entry's counts ``entry`` (variant -> {rank:
    (index, bands 2, bands 3)}): ``measured`` (CPU seconds of the rows, and the share of the pass's
    bands 3 they searched), ``combined`` (CPU seconds per band 1: the package's sampled rates,
    ``rates`` or :func:`load_shipped_rates`, interpolated, but each measured band 1 at its own
    rate: measured CPU plus its own CPU per band 3 times its bands 3 not yet searched), and
    ``alone`` (per band 1 from the measured ranks interpolated: only when they cover the order,
    else None), with ``bands2`` per band 1 and the measured ``ranks``."""
    rates = load_shipped_rates() if rates is None else rates
    out = {}
    for p in PASSES:
        mine = {r: row for (q, r), row in rows.items() if q == p and row["bands3"] > 0 and row["cpu_seconds"] > 0}
        counts = {r: n3 for r, (_i, _n2, n3) in entry.get(counted_variant(p), {}).items()}
        total3 = sum(counts.values())
        sampled = estimate({r: (v, 1) for r, v in rates.get(p, {}).items()}, counts)
        combined = dict(sampled) if sampled else {}
        for r, row in mine.items():
            if r in counts:
                left = max(0, counts[r] - row["bands3"])
                combined[r] = row["cpu_seconds"] + row["cpu_seconds"] / row["bands3"] * left
        alone = None
        if covers(mine):
            alone = estimate({r: (row["cpu_seconds"], row["bands3"]) for r, row in mine.items()}, counts)
        out[p] = {"measured": {"cpu": sum(row["cpu_seconds"] for (q, _r), row in rows.items() if q == p),
                               "bands3": sum(row["bands3"] for row in mine.values()),
                               "share": sum(row["bands3"] for row in mine.values()) / total3 if total3 else 0.0},
                  "ranks": sorted(mine), "combined": combined if (sampled or mine) else {}, "alone": alone,
                  "bands2": {r: n2 for r, (_i, n2, _n3) in entry.get(counted_variant(p), {}).items()}}
    return out


def estimate_sampled(entry: dict[str, dict[int, tuple[int, int, int]]]) -> dict[str, dict[int, float]]:
    """Per pass: the estimated CPU seconds of each band 1 from the package data's random samples
    (CPU per band 3 at the sampled ranks, :func:`estimate`, times the entry's bands 3); a pass
    without samples is left out."""
    rates = load_shipped_rates()
    return {p: estimate({r: (v, 1) for r, v in rates[p].items()},
                        {r: n3 for r, (_i, _n2, n3) in entry.get(counted_variant(p), {}).items()})
            for p in PASSES if p in rates}
