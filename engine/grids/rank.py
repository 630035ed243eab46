"""Catalog rank <-> grid: the position of an ED grid in the minlex catalog (1-based).

The catalog orders the 5,472,730,538 ED grids (Russell and Jarvis) by their minlex string,
which is band 1's index first, then the row-4 prefix, then the enumeration order under it. So

    rank(G) = sum of totals of bands 1 < b + sum of counts of prefixes < p + position under p

with b, p the band 1 and prefix of G's minlex form; the position comes from enumerating that
one prefix (a few hundred grids on average). The counts are the enumeration's own output
(``enumerate_band1``), stored by the caller (the catalog); this module takes them as plain
numbers: ``totals`` maps each complete band 1 to its grid count, ``prefix_counts(b)`` gives
band 1 ``b``'s counts per prefix. A band whose counts are missing raises :class:`MissingBand`.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np

from ..bands import N_BANDS, band_index
from ..canon import canon_grids
from .enumeration import enumerate_band1, prefixes

N_ED_GRIDS = 5_472_730_538
"""Essentially different grids (Russell and Jarvis 2006): the ranks are 1..N_ED_GRIDS."""


class MissingBand(LookupError):
    """The counts of a band 1 needed for this rank are not computed yet."""

    def __init__(self, band1: int):
        self.band1 = band1
        super().__init__(f"band 1 = {band1} is not counted yet: run `bin/enumerate --band1 {band1} --count-only`")


def _prefix_counts(band1: int, prefix_counts: Callable[[int], Sequence[int]]) -> np.ndarray:
    counts = np.asarray(prefix_counts(band1), np.int64)
    if len(counts) != len(prefixes(band1)):
        raise MissingBand(band1)
    return counts


def rank_of(grid, totals: Mapping[int, int], prefix_counts: Callable[[int], Sequence[int]]) -> tuple[int, np.ndarray]:
    """(rank, minlex form) of any valid grid (minlex or not)."""
    form = canon_grids(grid).forms[0]
    b = int(band_index(form[:27])[0][0])
    before = 0
    for x in range(b):
        if x not in totals:
            raise MissingBand(x)
        before += int(totals[x])
    counts = _prefix_counts(b, prefix_counts)
    p = int(np.flatnonzero((prefixes(b) == form[27:36]).all(axis=1))[0])
    before += int(counts[:p].sum())
    under = enumerate_band1(b, p, p + 1, emit=True).grids
    hit = np.flatnonzero((under == form).all(axis=1))
    if len(hit) != 1:  # cannot happen for a valid grid: its form is enumerated once
        raise RuntimeError(f"internal error: minlex form not found once under band 1 {b}, prefix {p}")
    return before + int(hit[0]) + 1, form


def grid_at(rank: int, totals: Mapping[int, int], prefix_counts: Callable[[int], Sequence[int]]) -> np.ndarray:
    """The grid (81,) with this catalog rank."""
    rank = int(rank)
    if not 1 <= rank <= N_ED_GRIDS:
        raise ValueError(f"rank must be between 1 and {N_ED_GRIDS:,}, got {rank}")
    before = 0
    for b in range(N_BANDS):
        if b not in totals:
            raise MissingBand(b)
        if before + int(totals[b]) >= rank:
            break
        before += int(totals[b])
    else:
        raise ValueError(f"the counted bands hold only {before:,} grids, fewer than rank {rank:,}")
    counts = _prefix_counts(b, prefix_counts)
    cum = np.cumsum(counts)
    p = int(np.searchsorted(cum, rank - before))  # first prefix whose cumulative count reaches it
    start = before + (int(cum[p - 1]) if p else 0)
    under = enumerate_band1(b, p, p + 1, emit=True).grids
    return under[rank - start - 1].copy()
