"""Cost planning of the 17-clue search: how long a band 1 of a pass takes, from measured samples,
and a band 1's bands 2 cut into ranges of about a given cost.

* :func:`estimate`: CPU seconds per band 1 from samples at some ranks (CPU seconds per band 3,
  interpolated in log scale between the sampled ranks), times each band 1's bands 3;
* :func:`cost_ranges`: consecutive ranges of bands 2 of at most a budget each (``s17-search
  --shard-seconds``);
* :func:`per_band3`, :func:`estimate_search`, :func:`estimate_sampled`: the same from the
  package data (``catalog/data/s17_search_rates.json``, random samples over the whole order) and
  from the measured bands 1 of a catalog (``s17-search --table``).
"""
from __future__ import annotations

import numpy as np

from sudoku_symmetry.catalog.search17 import load_shipped_rates
from sudoku_symmetry.engine.search17 import PASSES, counted_variant

__all__ = ["estimate", "cost_ranges", "per_band3", "estimate_search", "estimate_sampled"]


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


def estimate_search(rows: dict[tuple[str, int], dict], entry: dict[str, dict[int, tuple[int, int, int]]]) -> dict:
    """Per pass: the estimated CPU seconds of each band 1 (:func:`estimate`) over the ranks whose
    entry counts are known, from measured bands 1 (``rows``: (pass, rank) -> ``s17_search_bands``
    row); with the bands 2 of each band 1, and the measured ranks."""
    out = {}
    for p in PASSES:
        samples = {r: (row["cpu_seconds"], row["bands3"]) for (q, r), row in rows.items() if q == p}
        counts = entry.get(counted_variant(p), {})
        per = estimate(samples, {r: n3 for r, (_i, _n2, n3) in counts.items()})
        out[p] = {"per_band1": per, "bands2": {r: n2 for r, (_i, n2, _n3) in counts.items()},
                  "samples": len([s for s in samples.values() if s[1] > 0])}
    return out


def estimate_sampled(entry: dict[str, dict[int, tuple[int, int, int]]]) -> dict[str, dict[int, float]]:
    """Per pass: the estimated CPU seconds of each band 1 from the package data's random samples
    (CPU per band 3 at the sampled ranks, :func:`estimate`, times the entry's bands 3); a pass
    without samples is left out."""
    rates = load_shipped_rates()
    return {p: estimate({r: (v, 1) for r, v in rates[p].items()},
                        {r: n3 for r, (_i, _n2, n3) in entry.get(counted_variant(p), {}).items()})
            for p in PASSES if p in rates}
