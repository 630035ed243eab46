"""The 17-clue search's band order: bands by their number of valid 6-clue sub-puzzles.

A k-clue sub-puzzle of a band (k cells with the band's digits) is *valid* when, together with
the band's gangster (the digit set of each column), it fixes the band: no other band with the
same gangster has those digits in those cells (see ``_order_kernels``). The search orders the
416 minlex bands by their valid 6-clue count, ascending, ties by minlex index; ``rank`` is the
position in that order (0-415). Band 0 has 729 valid 6-clue sub-puzzles and band 1 has 10,503.

Also computed: the valid 5-clue counts and the minimum number of clues that fix each band.
Everything is computed from first principles (a few seconds) and cached in memory.

    >>> from sudoku_symmetry.engine.search17 import band_order
    >>> o = band_order()
    >>> int(o.valid6[0]), int(o.valid6[1])                       # doctest: +SKIP
    (729, 10503)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._cache import stored_tables
from ..bands import N_BANDS, band_tables
from ..core.sets import minimal_sets
from . import _order_kernels as K


@dataclass(frozen=True)
class BandOrder:
    """Per band index: ``valid6``, ``valid5`` (valid 6- and 5-clue sub-puzzles), ``min_clues``
    (fewest clues that fix the band), ``rank`` (position in the search order); per rank:
    ``by_rank`` (the band index at that rank). All (416,) int64, read-only."""

    valid6: np.ndarray
    valid5: np.ndarray
    min_clues: np.ndarray
    rank: np.ndarray
    by_rank: np.ndarray


def fixing_sets(index: int) -> np.ndarray:
    """The inclusion-minimal difference sets (27-bit cell masks, bit r*9+c) of band ``index``."""
    band = band_tables().minlex[index].astype(np.int64)
    buf = np.zeros(K.MAX_SAME_GANGSTER, np.int64)
    n = K.same_gangster_diffs(band, buf)
    if n < 0:
        raise RuntimeError("more bands with one gangster than MAX_SAME_GANGSTER")
    diffs = np.unique(buf[:n])
    by_size = diffs[np.argsort(np.bitwise_count(diffs), kind="stable")]
    sets = np.zeros((len(diffs), 2), np.uint64)
    sets[:, 0] = by_size
    keep = np.zeros(len(diffs), np.int64)
    m = minimal_sets(sets, len(diffs), keep)
    return np.sort(by_size[keep[:m]])


def valid_count(index: int, k: int) -> int:
    """Number of valid k-clue sub-puzzles of band ``index``."""
    sets = fixing_sets(index)
    return int(K.count_fixing_subsets(sets, len(sets), k))


def _order_counts() -> dict:
    v6 = np.zeros(N_BANDS, np.int64)
    v5 = np.zeros(N_BANDS, np.int64)
    mins = np.zeros(N_BANDS, np.int64)
    for i in range(N_BANDS):
        sets = fixing_sets(i)
        v6[i] = K.count_fixing_subsets(sets, len(sets), 6)
        v5[i] = K.count_fixing_subsets(sets, len(sets), 5)
        k = 0
        while K.count_fixing_subsets(sets, len(sets), k) == 0:
            k += 1
        mins[i] = k
    return {"valid6": v6, "valid5": v5, "min_clues": mins}


@lru_cache(maxsize=None)
def band_order() -> BandOrder:
    """The counts and the order for all 416 bands: about 1.5 s to count, so stored once per
    version of the engine's sources (``_cache.stored_tables``)."""
    t = stored_tables("s17-order", None, _order_counts)
    v6, v5, mins = t["valid6"], t["valid5"], t["min_clues"]
    by_rank = np.lexsort((np.arange(N_BANDS), v6)).astype(np.int64)  # ascending count, ties by index
    rank = np.empty(N_BANDS, np.int64)
    rank[by_rank] = np.arange(N_BANDS)
    for a in (v6, v5, mins, rank, by_rank):
        a.setflags(write=False)
    return BandOrder(v6, v5, mins, rank, by_rank)
