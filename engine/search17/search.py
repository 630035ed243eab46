"""The 17-clue search over the entry: every 17-clue puzzle of a band-1 slice, pass by pass
(``passes``: what A, B and C search).

Per band 1 and pass, the entry's pairs (band 1, band 2) with their bands 3 are searched one by
one (``pair.PairSearcher``: the pair's UAs, the valid clue sets of bands 1 and 2 joined into the
candidates that meet every mixed UA, then per band 3 the band-3 clue sets that meet what each
candidate leaves, and the uniqueness check of each). Where a pass record says so, a pair is also
searched another way: pass A the 6-6-5 of the grids whose three bands have band 1's index (with
bands 2 and 3 exchanged), pass C from its ``exchange_from`` rank the splits with more clues in
band 1 than in band 2 on the pair (band 2, band 1).

A puzzle with a chute of 7+ is met in C once per such chute and a grid with automorphisms holds
several images of one class: compare finds as sets of canonical forms.

    >>> from sudoku_symmetry.engine.search17 import search_slice
    >>> s = search_slice("A", 0, 0, 8)                       # doctest: +SKIP
    >>> s.puzzles.shape, s.bands3                            # doctest: +SKIP
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator

import numpy as np

from .counters import STAT_NAMES
from .entry import SLICE, band1, bands2, check_rank, entry_slice
from .pair import PairSearcher, swap_bands
from .passes import PASSES, check_pass


@dataclass
class PassSlice:
    """The finds of one pass under bands 2 ``start..stop-1`` of band-1 ``rank``: ``puzzles``
    (N, 81) uint8 in the pass's presentation, ``band2`` (N,) the position of each one's band 2
    in ``bands2(rank)``; ``pairs`` bands 2 with bands 3, ``bands3`` grids searched, ``stats``
    the kernels' counters (``counters.STAT_NAMES``), ``seconds`` CPU time."""

    pass_: str
    rank: int
    start: int
    stop: int
    puzzles: np.ndarray
    band2: np.ndarray
    pairs: int = 0
    bands3: int = 0
    seconds: float = 0.0
    stats: dict = field(default_factory=dict)


class PassSearcher(PairSearcher):
    """What one band 1 of the entry and a pass need across slices: the pair search with the
    pass record's splits, stack cap and solver digits, and its other ways of searching a pair."""

    def __init__(self, pass_: str, rank: int):
        self.pass_ = PASSES[check_pass(pass_)]
        self.rank = check_rank(rank)
        self.variant = self.pass_.entry
        super().__init__(band1(rank).band, self.pass_.splits, self.pass_.stack_cap, self.pass_.solver_digits)
        self.index1 = self._index(self.b1)
        self._compile()

    def pass_pair(self, b2: np.ndarray, bands3: np.ndarray) -> list[np.ndarray]:
        """The 17s of the pass under one pair of the entry: the pair as it comes, and, as the pass
        record says, the 6-6-5 of its grids whose three bands have band 1's index, or its splits
        with more clues in band 1 than in band 2 on the exchanged pair."""
        p = self.pass_
        if p.exchange_from is not None and self.rank >= p.exchange_from:
            return self._exchanged(b2, bands3)
        out = self.pair(b2, bands3)
        if p.six_six_five and self._index(b2) == self.index1:
            for b3 in bands3:
                if self._index(b3) == self.index1:
                    # the pair (band 1, band 3) with band 2 as its one band 3: rows 1-3, 7-9, 4-6, back
                    for q in self.pair(b3, b2[None, :], p.six_six_five):
                        out.append(np.concatenate([q[:, :27], q[:, 54:], q[:, 27:54]], axis=1))
        return out

    def _exchanged(self, b2: np.ndarray, bands3: np.ndarray) -> list[np.ndarray]:
        """The splits with more clues in band 1 than in band 2 searched on the pair (band 2,
        band 1) (a split's cost grows with band 1's valid sets, each expanded into band 2), the
        others as they come; the exchanged pair's UAs are the same UAs, halves exchanged."""
        as_is = [(x, y, z) for x, y, z in self.splits if x <= y]
        swapped = [(y, x, z) for x, y, z in self.splits if x > y]
        u = self.pair_uas(b2, bands3[0])
        out = self.pair(b2, bands3, as_is, uas=u) if as_is else []
        for q in self.pair(self.b1, bands3, swapped, band1=b2, uas=swap_bands(u)) if swapped else []:
            out.append(np.concatenate([q[:, 27:54], q[:, :27], q[:, 54:]], axis=1))  # rows 4-6 first: back
        return out

    def _compile(self) -> None:
        """The kernels and band 1's entry, once, so that compiling them (tens of seconds with a
        cold cache, about one with a warm one) is not counted in a slice's CPU seconds."""
        self.warm()
        entry_slice(self.variant, self.rank, 0, 0, emit=True)


@lru_cache(maxsize=4)
def _searcher(pass_: str, rank: int, thread: int) -> PassSearcher:
    """A searcher per (pass, band 1, thread): its buffers go to kernels that release the GIL, so
    two threads never share one."""
    return PassSearcher(pass_, rank)


def search_slice(pass_: str, rank: int, start: int = 0, stop: int | None = None) -> PassSlice:
    """Every 17-clue puzzle of ``pass_`` under bands 2 ``start..stop-1`` (default: all) of
    band-1 ``rank`` (the entry's lexicographic order of bands 2)."""
    pass_ = check_pass(pass_)
    rank = check_rank(rank)
    se = _searcher(pass_, rank, threading.get_ident())  # first use: band 1's tables, kernels compiled: not counted
    b2s = bands2(rank, stop=stop)  # band 1's bands 2 up to the slice's end: the band 1's cost, not counted
    t0 = time.process_time()
    before = se.stats.copy()
    sl = entry_slice(se.variant, rank, start, stop, emit=True)  # reads the same bands 2 (cached)
    found, where = [], []
    pairs = 0
    owner = sl.owner
    for i in np.flatnonzero(sl.counts):
        pairs += 1
        got = se.pass_pair(b2s[sl.start + i], sl.bands3[owner == sl.start + i])
        for p in got:
            found.append(p)
            where.append(np.full(len(p), sl.start + i, np.int64))
    puzzles = np.concatenate(found) if found else np.zeros((0, 81), np.uint8)
    stats = dict(zip(STAT_NAMES, (int(v) for v in se.stats - before)))
    return PassSlice(pass_, rank, sl.start, sl.stop, puzzles,
                     np.concatenate(where) if where else np.zeros(0, np.int64), pairs, int(sl.total),
                     time.process_time() - t0, stats)


def search_chunks(pass_: str, rank: int, cursor: int | None, *, chunk: int = SLICE,
                  stop: int | None = None) -> Iterator[tuple[PassSlice, int, bool]]:
    """The resumable form: shard = (pass, band-1 rank), cursor = the next band 2 (None: 0).
    Yields ``(slice, next_cursor, done)`` per ``chunk`` bands 2 (the entry's slices), up to band 2
    ``stop`` (default: all)."""
    total = len(bands2(rank)) if stop is None else min(int(stop), len(bands2(rank)))
    p = 0 if cursor is None else int(cursor)
    if p >= total:
        yield search_slice(pass_, rank, total, total), total, True
        return
    while p < total:
        q = min(total, p + chunk)
        yield search_slice(pass_, rank, p, q), q, q >= total
        p = q
