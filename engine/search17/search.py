"""The 17-clue search over the entry: every 17-clue puzzle of a band-1 slice, pass by pass.

A *pass* fixes how the 17 clues fall on the bands of the entry's grids (band 1 rows 1-3, band 2
rows 4-6, band 3 rows 7-9, as ``entry`` writes them):

* **A** (entry variant A): 5-6-6 or 6-5-6, no stack above 6 clues (so band 3 holds 6);
* **B** (entry variant B: A's grids with bands 2 and 3 exchanged, so band 2 has the higher
  rank): 6-5-6, no stack above 6, which is A's 6-6-5 read in B's frame: the issue's "6-6-5
  searched as 6-5-6 via variant B". A grid whose three bands all have band 1's index is not in
  B (exchanged, its pair may be another of the list): pass A searches its 6-6-5 too;
* **C** (entry variant C, band 3 free): band 3 holds 7 or more clues, any stacks. In entry C every
  band and stack of every ED grid is band 3 once, so this is every puzzle with a chute of 7+.

A puzzle with all chutes at most 6 has the clue counts 5, 6, 6 in some order on the bands of its
grid's entry representation, so it is in exactly one of A and B, at its grid's band-1 rank; a
puzzle with a chute of 7+ is in C at the rank of each such chute's parallel pair (a puzzle with two
such chutes comes out twice: compare finds as sets of canonical forms). Puzzles of a grid with
automorphisms come out once per image: the same class several times, again a set.

The method (GPenet's, issue 25): per pair of bands 1+2, the pair's unavoidable sets (UAs: cells
of rows 1-6 whose digits can be permuted so every band 3 still completes them), the valid clue
sets of band 1 and of band 2 of the pass's sizes, joined into the candidates that meet every
mixed UA ("XY"); then per band 3 only the band-3 clue sets that meet what each candidate leaves,
and the solver's uniqueness check on those (``_search_kernels``, where the math is). A failed
check gives a UA (the cells where the other solution differs, shrunk to a minimal one) that prunes
the rest of the pair: learned UAs inside bands 1+2 rule candidates out for every later band 3,
the others apply to every later band 3 with the same digits on their band-3 cells.

    >>> from sudoku_symmetry.engine.search17 import search_slice
    >>> s = search_slice("A", 0, 0, 8)                       # doctest: +SKIP
    >>> s.puzzles.shape, s.bands3                            # doctest: +SKIP
"""
from __future__ import annotations

import threading
import time
from collections import namedtuple
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Iterator

import numpy as np

from .._bits import FACT
from .._cache import stored_tables
from ..bands import N_BANDS, band_tables
from ..core.bandkey import band_key
from ..solve import SOLVER_DEPTH, SOLVER_WORDS
from . import _search_kernels as K
from .entry import SLICE, band1, bands2, check_rank, entry_slice
from .order import band_order, fixing_sets

PASSES = ("A", "B", "C")
K12 = 5
"""Digits per refilling for the pair's UAs, cell by cell (2..5: 150-300 minimal UAs per pair in
about 30 ms; 6 digits this way costs 0.4-0.6 s per pair, so 6 and 7 digits come from the solver:
``solver_diffs``, 2,000-2,300 UAs in 50 ms, about 1.7x fewer candidates at rank 4). Where the
solver is used (``SOLVER_DIGITS``) it gives the 5-digit UAs too: pass A at rank 64, his slice 0,
the pair's UAs 2.45 -> 1.78 CPU-s (20 ms a pair cell by cell, 5 by the solver), the search 20.0 ->
19.1 with the same candidates within 0.1 %; B's slice 2.19 -> 1.55; rank 410 alike."""
SOLVER_DIGITS = {"A": (K12, 6, 7), "B": (K12, 6, 7), "C": (K12,)}
"""Digits per refilling of the pair's UAs that come from the solver (the rest cell by cell), per
pass. Pass C's splits put 10 clues or fewer in bands 1+2, so its XY step meets few UAs: on the 22
sampled C pairs (ranks 0-400) the 6- and 7-digit UAs (27 ms a pair) leave the same candidates
and the search 7.15 -> 6.08 CPU-s without them (6.07 with none from the solver); his slice 0 of
rank 64, 29 pairs, 3.20 -> 2.07."""
KG = 4
"""Digits per refilling for a socket's UAs (the socket's 2-3 digits and up to 2 more)."""
MAX_UA = 20
"""Largest UA collected (cells)."""
MAX_SETS = 256
"""Pair UAs a band-1 set misses that its band-2 sets must meet in ``xy_expand`` (smallest first;
the rest are left to the band-3 step and the solver)."""
STACK_CAP = 6
NO_CAP = 99
LEARNED_UAS = 1024
"""UAs of a pair learned by ``xy_expand``'s validity checks kept for its later band-1 sets (each
band-1 set takes those it misses first, newest first)."""
XY_CHECK_ALL = 8
"""Bands 3 from which a pair's XY step checks every candidate for rows 1-6 (``xy_expand``'s
``check_from`` 0, not ``XY_CHECK_FROM``): the candidates left are then valid for every band 3,
where the band-3 step would learn the same UAs inside bands 1+2 from failed checks. Pass A at
band-1 rank 64, bands 2 10070-10089 (7-27 bands 3 a pair): 1.01-1.41x faster a pair (1.29x in
the median); pass C at rank 64 1.45-1.76x; but the sampled pass-A pairs of ranks 128-240 with
4-7 bands 3 0.80-0.99x, with 8-9 1.03-1.14x; a pair with one band 3 0.78x (A:411: 6.6 against
16.7 CPU-s)."""
MAX_CANDIDATES = 1 << 23
"""Candidates (X, Y) of a pair held at once (64 MB, and about 60 bytes each through the band-3
step's buffers): more are expanded and searched in parts (whole band-1 sets), so a pair's memory
is bounded. Before, a pass-B pair at band-1 rank 384 grew past the 24 GB of this machine and was
killed."""

FixTables = namedtuple("FixTables", "row2_rank_to_id fact table maps_rows maps_cols fix fix_offsets")
PairWork = namedtuple("PairWork", "grid alive msk sid_of_key lg12 lghi lgsid lgnot ua12 ua3 notcell pool12 pool3 "
                                  "poolsig sets zbuf puzzle S ctl sols relabel fix3")


def check_pass(pass_: str) -> str:
    p = str(pass_).upper()
    if p not in PASSES:
        raise ValueError(f"pass must be one of {', '.join(PASSES)}, got {pass_!r}")
    return p


def entry_variant(pass_: str) -> str:
    """The entry whose grids a pass searches: the pass's own (B's pairs are the middle loop's,
    its bands 3 those of lower rank: A's grids with bands 2 and 3 exchanged)."""
    return check_pass(pass_)


def counted_variant(pass_: str) -> str:
    """The entry whose per-band-1 counts size a pass (the shipped table has A and C): A's for A
    and B (B holds A's grids but those whose three bands all have band 1's index, a few per
    band 1: pass A searches their 6-6-5), C's for C."""
    return "C" if check_pass(pass_) == "C" else "A"


def _fixing_arrays() -> dict:
    sets = [fixing_sets(i) for i in range(N_BANDS)]
    offsets = np.zeros(N_BANDS + 1, np.int64)
    offsets[1:] = np.cumsum([len(s) for s in sets])
    return {"fix": np.concatenate(sets).astype(np.int64), "offsets": offsets}


@lru_cache(maxsize=None)
def fix_tables() -> FixTables:
    """The band tables plus every minlex band's minimal fixing sets (flat, by index; stored once
    per version of the engine's sources: 0.5 s to compute)."""
    T = band_tables()
    F = stored_tables("s17-fixing", None, _fixing_arrays)
    return FixTables(T.row2_rank_to_id, FACT, T.table, T.maps_rows.astype(np.int64), T.maps_cols.astype(np.int64),
                     F["fix"], F["offsets"])


ALL_X_SPLITS = ((6, 5, 6),)
"""Pass A's extra search on the grids whose three bands all have band 1's index (variant B
leaves them out: exchanged, their pair may be another of the list): their 6-6-5, each grid
(band 1, band 2, band 3) searched as the pair (band 1, band 3) with band 2 as its one band 3,
6-5-6, written back in A's layout (as 6-6-5 on A's own pair, 6+6 clues into the XY step, A:411's
one grid took 44 CPU-s instead of 7.6)."""
EXCHANGE_FROM = 8
"""From this band-1 rank on, pass C's splits with more clues in band 1 than in band 2 are
searched on the pair (band 2, band 1), the others as they come: a split's cost grows with band
1's count (its valid clue sets, each expanded into band 2). Below it band 1 has the fewest valid
sets (162-3,786 of 6 clues, none of 5) and the exchange costs more than it saves (a second
pair's UAs per pair). Per slice: rank 2 (5 pairs) 1.9 -> 2.4; ranks 32 and 128 1.3 -> 1.2-1.3;
rank 304 4.0 -> 1.8; 336 10.1 -> 5.0; 384 8.6 -> 3.5; 415 (2 pairs) 52 -> 5.9.

(Pass B exchanged bands 2 and 3 grid by grid, one pair per band 3, from this rank on, until
variant B's own entry gave it whole pairs: its 6-5-6 then expands 6+5 clues once per pair.)
"""

STAT_NAMES = ("found", "learned", "checks", "survivors", "band3_sets", "socket_searches", "candidates",
              "xy_checks", "xy_learned")
"""Names of the pair kernels' counters (``_search_kernels.N_STATS`` of them, in order)."""

PASS_SPLITS = {
    "A": ((5, 6, 6), (6, 5, 6)),
    "B": ((6, 5, 6),),
    "C": tuple((x, 17 - z - x, z) for z in range(7, 18) for x in range(0, 18 - z)),
}
"""Clue counts (band 1, band 2, band 3) of each pass, before the bands' fewest fixing clues cut
them (:func:`pass_splits`)."""


def fitting(splits, min1: int, min2: int) -> list[tuple[int, int, int]]:
    """The splits whose bands 1 and 2 get at least their fewest fixing clues (fewer can meet no
    band's fixing sets, so they cannot fix it)."""
    return [(x, y, z) for x, y, z in splits if x >= min1 and y >= min2]


def pass_splits(pass_: str, min1: int, min2: int) -> list[tuple[int, int, int]]:
    """Clue counts (band 1, band 2, band 3) a pass searches, given the fewest clues that fix
    bands 1 and 2 (fewer can meet no band's fixing sets)."""
    return fitting(PASS_SPLITS[check_pass(pass_)], min1, min2)


def workspace(ncand: int) -> PairWork:
    """Buffers of ``pair_search`` for up to ``ncand`` candidates (allocated once, grown)."""
    z = np.zeros
    U = K.MAX_B3_UAS
    L = K.LOG_UAS
    return PairWork(z(81, np.uint8), z(ncand, np.bool_), z((ncand, K.SOCKET_WORDS), np.uint64),
                    z(K.PAIR_SOCKET_KEYS, np.int64), z(L, np.uint64), z(L, np.int64), z(L, np.int64),
                    z((54, L // 64), np.uint64), z(U, np.uint64), z(U, np.int64), z((54, U // 64), np.uint64),
                    z(1 << 15, np.uint64), z(1 << 15, np.int64), z((1 << 15, 9), np.int64),
                    z(U + 1024, np.int64), z(1 << 18, np.int64), z(81, np.uint8),
                    z((SOLVER_DEPTH, SOLVER_WORDS), np.uint32), z(2, np.int64), z((2, 81), np.uint8),
                    z(10, np.uint8), z(256, np.int64))


@dataclass
class PassSlice:
    """The finds of one pass under bands 2 ``start..stop-1`` of band-1 ``rank``: ``puzzles``
    (N, 81) uint8 in the pass's presentation, ``band2`` (N,) the position of each one's band 2
    in ``bands2(rank)``; ``pairs`` bands 2 with bands 3, ``bands3`` grids searched, ``stats``
    the kernels' counters, ``seconds`` CPU time."""

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


class PairSearcher:
    """The search under one band 1 (27 digits, any form): its valid clue sets and the buffers,
    reused by every pair (band 2, bands 3) :meth:`pair` is given. ``splits``: the clue counts
    (band 1, band 2, band 3) searched (cut by the bands' fewest fixing clues); ``cap``: the most
    clues a stack may hold (:data:`STACK_CAP`, or :data:`NO_CAP`); ``solver_digits``: the sizes
    (digits per refilling) of the pair's UAs that come from the solver, the smaller ones cell by
    cell (the 6- and 7-digit ones cost about 40 ms a pair: worth it where a pair has many bands 3
    and splits of 11-12 clues in bands 1+2; a single grid's pairs have one band 3, and they cost
    its 16-clue search 16 %: none there)."""

    def __init__(self, band: np.ndarray, splits, cap: int, solver_digits: tuple = SOLVER_DIGITS["A"]):
        self.splits = tuple(tuple(int(v) for v in t) for t in splits)
        self.cap = int(cap)
        self.solver_digits = tuple(int(d) for d in solver_digits)
        self.BT = fix_tables()
        self.order = band_order()
        self.b1 = np.asarray(band, np.int64).reshape(27)
        self.min1 = self._min_clues(self.b1)
        self.fix1 = self._fixing(self.b1)
        self.X: dict[int, np.ndarray] = {}
        self.P = workspace(1 << 16)
        self.stats = np.zeros(K.N_STATS, np.int64)
        self.u54 = np.zeros(1 << 14, np.uint64)
        self.u27 = np.zeros(1 << 14, np.int64)
        self.sols = np.zeros((1024, 81), np.uint8)
        self.cand = np.zeros(1 << 20, np.uint64)
        self.sets = np.zeros(K.XY_WORDS * 64, np.int64)
        self.found = (np.zeros(1 << 12, np.int64), np.zeros(1 << 12, np.uint64), np.zeros(1 << 12, np.int64))

    def warm(self) -> None:
        """Every kernel a pair calls, once on empty input (compiled or loaded from the cache)."""
        g = np.concatenate([self.b1, self.b1]).astype(np.int64)
        e64, eu = np.zeros(0, np.int64), np.zeros(0, np.uint64)
        K.refill_diffs(g, 6, 0, 1, 0, MAX_UA, self.u54, self.u27, 0, 0)
        K.solver_diffs(np.zeros(81, np.uint8), 10, 1, self.u54, 0, self.P.S, self.P.ctl, self.sols, self.P.puzzle)
        K.valid_sets(self.fix1, len(self.fix1), 0, np.zeros(1, np.int64))
        K.xy_expand(e64, 0, np.zeros(1, np.int64), e64, e64, np.zeros(2, np.int64), e64, 0, 0, MAX_SETS,
                    K.XY_CHECK_FROM, np.concatenate([g, self.b1]).astype(np.uint8), self.P.S, self.P.ctl, self.sols,
                    self.P.puzzle, self.cand, self.sets, self.stats)
        fb, f12, f3 = self.found
        K.pair_search(g, np.zeros((0, 27), np.int64), 0, eu, 0, 6, self.cap, KG, MAX_UA,
                      self.BT, self.P, fb, f12, f3, np.zeros(K.N_STATS, np.int64))
        self._index(self.b1.astype(np.uint8))

    def _fixing(self, band: np.ndarray) -> np.ndarray:
        out = np.zeros(256, np.int64)
        n = K.band_fixing_sets(band.astype(np.uint8), self.BT, np.zeros(10, np.uint8), out)
        return out[:n].copy()

    def _valid(self, fix: np.ndarray, k: int) -> np.ndarray:
        cap = 1 << 16
        while True:
            out = np.zeros(cap, np.int64)
            n = K.valid_sets(fix, len(fix), k, out)
            if n >= 0:
                return out[:n]
            cap *= 4

    def band1_sets(self, x: int) -> np.ndarray:
        """Band 1's valid sets of ``x`` clues (27-bit masks; computed once per searcher)."""
        if x not in self.X:
            self.X[x] = self._valid(self.fix1, x)
        return self.X[x]

    def valid_count(self, band: np.ndarray, k: int) -> int:
        """How many valid k-clue sets ``band`` (any form) has: k cells with its digits that fix it
        against every band of its gangster."""
        return len(self._valid(self._fixing(np.asarray(band, np.int64).reshape(27)), k))

    def _pair_uas(self, g54: np.ndarray, b3: np.ndarray) -> np.ndarray:
        """The pair's UAs, minimal ones first: refillings of 2..K12 digits cell by cell, but those
        of ``solver_digits`` (K12, 6, 7 by default) with the solver (9 - d digits and one band 3
        given)."""
        n = 0
        for k in range(2, K12 + 1):
            if k not in self.solver_digits:
                n = K.refill_diffs(g54, 6, 0, k, 0, MAX_UA, self.u54, self.u27, n, 0)
        if not self.solver_digits:
            return self.u54[:n]
        grid = np.concatenate([g54, b3]).astype(np.uint8)
        P = self.P
        for d in self.solver_digits:
            n = K.solver_diffs(grid, 9 - d, self.sols.shape[0], self.u54, n, P.S, P.ctl, self.sols, P.puzzle)
        return self.u54[:n]

    def _expand(self, X: np.ndarray, fix2: np.ndarray, y: int, uas: tuple, grid: np.ndarray,
                check_from: int) -> Iterator[np.ndarray]:
        """The candidates (X, Y), per X the Y that meet what it leaves and make rows 1-6 valid
        (``xy_expand`` with ``check_from``; ``uas`` = (p1, p2, count): the pair's UAs, grown by
        those it learns), in parts of whole Xs, in the order of X: the kernel stops where its
        buffer is full and goes on from there (the buffer grows only when one X's candidates do
        not fit)."""
        p1, p2, nua = uas
        at = np.zeros(1, np.int64)
        while at[0] < len(X):
            a = at[0]
            P = self.P
            n = K.xy_expand(X, len(X), at, p1, p2, nua, fix2, len(fix2), y, MAX_SETS, check_from, grid, P.S,
                            P.ctl, self.sols, P.puzzle, self.cand, self.sets, self.stats)
            if n:
                yield self.cand[:n].copy()
            elif at[0] == a:
                self.cand = np.zeros(2 * len(self.cand), np.uint64)

    def pair_uas(self, b2: np.ndarray, b3: np.ndarray) -> np.ndarray:
        """The UAs :meth:`pair` collects for band 2 ``b2`` under this band 1, with band 3 ``b3``
        (rows 1-6 as 54-bit masks, band 1 on the low 27 bits; a copy, to pass as ``uas``)."""
        return self._pair_uas(np.concatenate([self.b1, np.asarray(b2, np.int64).reshape(27)]),
                              np.asarray(b3, np.int64).reshape(27)).copy()

    def pair(self, b2: np.ndarray, bands3: np.ndarray, splits=None, band1=None, uas=None) -> list[np.ndarray]:
        """The 17s of one pair and its bands 3, as (N, 81) grids of clues in the A/C layout
        (``splits``: instead of the searcher's; ``band1``: another band 1 for this pair, its valid
        sets not kept; ``uas``: the pair's UAs when known, e.g. from :meth:`pair_uas` or
        :func:`swap_bands` of the other order's)."""
        if band1 is None:
            b1, min1, sets_of = self.b1, self.min1, self.band1_sets
        else:
            b1 = np.asarray(band1, np.int64).reshape(27)
            min1, fix = self._min_clues(b1), self._fixing(b1)
            sets_of = partial(self._valid, fix)
        g54 = np.concatenate([b1, b2.astype(np.int64)])
        u = self._pair_uas(g54, bands3[0].astype(np.int64)) if uas is None else uas
        p1 = (u & np.uint64((1 << 27) - 1)).astype(np.int64)
        p2 = (u >> np.uint64(27)).astype(np.int64)
        inside2 = p1 == 0  # UAs inside band 2 are its fixing sets' business
        p1, p2 = p1[~inside2], p2[~inside2]
        # smallest band-2 parts first: the sets xy_expand keeps per X (MAX_SETS) are then the
        # smallest (A:411: 7.9 -> 7.5 M candidates)
        by_size = np.argsort(np.bitwise_count(p2), kind="stable")
        p1, p2 = p1[by_size], p2[by_size]
        room = np.zeros(LEARNED_UAS, np.int64)  # the ring of UAs learned by the XY step
        uas = (np.concatenate([p1, room]), np.concatenate([p2, room]), np.array([len(p1), 0], np.int64))
        grid = np.concatenate([g54, bands3[0]]).astype(np.uint8)  # any band 3 of the pair will do
        fix2 = self._fixing(b2)
        fix2 = fix2[np.argsort(np.bitwise_count(fix2), kind="stable")]
        min2 = self._min_clues(b2)
        check_from = 0 if len(bands3) >= XY_CHECK_ALL else K.XY_CHECK_FROM
        by_z: dict[int, list[np.ndarray]] = {}
        count: dict[int, int] = {}
        out: list[np.ndarray] = []
        b3 = np.ascontiguousarray(bands3, dtype=np.int64)
        for x, y, z in fitting(self.splits if splits is None else splits, min1, min2):
            X = sets_of(x)
            if not len(X):
                continue
            for part in self._expand(X, fix2, y, uas, grid, check_from):
                held = by_z.setdefault(z, [])
                if held and count[z] + len(part) > MAX_CANDIDATES:
                    self._search(g54, b3, np.concatenate(held), z, out)  # a full load: searched now
                    held.clear()
                    count[z] = 0
                held.append(part)
                count[z] = count.get(z, 0) + len(part)
        for z, parts in sorted(by_z.items()):
            if parts:
                self._search(g54, b3, np.concatenate(parts), z, out)
        return out

    def _search(self, g54: np.ndarray, b3: np.ndarray, cand: np.ndarray, z: int, out: list[np.ndarray]) -> None:
        """The band-3 step and the solver on candidates ``cand`` with z clues in band 3; the 17s
        found are appended to ``out``."""
        if len(cand) == 0:
            return
        if self.P.alive.shape[0] < len(cand):
            self.P = workspace(max(len(cand), 2 * self.P.alive.shape[0]))
        while True:
            fb, f12, f3 = self.found
            n = K.pair_search(g54, b3, len(b3), cand, len(cand), z, self.cap, KG, MAX_UA, self.BT, self.P,
                              fb, f12, f3, self.stats)
            if n >= 0:
                break
            self.found = tuple(np.zeros(2 * len(a), a.dtype) for a in self.found)
            self.P = workspace(self.P.alive.shape[0])  # a buffer was full: fresh ones, larger finds
        if n:
            grids = np.concatenate([np.tile(g54, (n, 1)), b3[fb[:n]]], axis=1)
            bits = np.zeros((n, 81), bool)
            bits[:, :54] = ((f12[:n, None] >> np.arange(54, dtype=np.uint64)) & np.uint64(1)).astype(bool)
            bits[:, 54:] = ((f3[:n, None] >> np.arange(27)) & 1).astype(bool)
            out.append(np.where(bits, grids, 0).astype(np.uint8))

    def _min_clues(self, band: np.ndarray) -> int:
        """The fewest clues that fix ``band`` (any form), from the band order."""
        return int(self.order.min_clues[self._index(band)])

    def _index(self, band: np.ndarray) -> int:
        key = band_key(band.astype(np.uint8), np.zeros(10, np.uint8), self.BT.row2_rank_to_id, self.BT.fact)
        return int(self.BT.table[key]) & 0xFFFF


def swap_bands(uas: np.ndarray) -> np.ndarray:
    """Pair UAs (54-bit masks of rows 1-6) with bands 1 and 2 exchanged: a UA of the pair (b1, b2)
    is one of (b2, b1) with its two 27-bit halves exchanged."""
    lo = uas & np.uint64((1 << 27) - 1)
    return (uas >> np.uint64(27)) | (lo << np.uint64(27))


class _Searcher(PairSearcher):
    """What one band 1 of the entry and a pass need across slices."""

    def __init__(self, pass_: str, rank: int):
        self.pass_ = check_pass(pass_)
        self.rank = check_rank(rank)
        self.variant = entry_variant(self.pass_)
        super().__init__(band1(rank).band, PASS_SPLITS[self.pass_], NO_CAP if self.pass_ == "C" else STACK_CAP,
                         SOLVER_DIGITS[self.pass_])
        self.index1 = self._index(self.b1)
        self._compile()

    def pair(self, b2: np.ndarray, bands3: np.ndarray) -> list[np.ndarray]:
        """Passes A and B the pair as it comes (pass A also searches the 6-6-5 of the grids whose
        three bands have band 1's index, :data:`ALL_X_SPLITS`); from band-1 rank
        :data:`EXCHANGE_FROM` on, pass C's splits with more clues in band 1 than in band 2 with
        bands 1 and 2 exchanged."""
        if self.pass_ == "A":
            out = super().pair(b2, bands3)
            if self._index(b2) == self.index1:
                for b3 in bands3:
                    if self._index(b3) == self.index1:
                        for p in super().pair(b3, b2[None, :], ALL_X_SPLITS):  # rows 1-3, 7-9, 4-6: back
                            out.append(np.concatenate([p[:, :27], p[:, 54:], p[:, 27:54]], axis=1))
            return out
        if self.rank < EXCHANGE_FROM or self.pass_ == "B":
            return super().pair(b2, bands3)
        as_is = [(x, y, z) for x, y, z in self.splits if x <= y]
        swapped = [(y, x, z) for x, y, z in self.splits if x > y]
        u = self.pair_uas(b2, bands3[0])  # the exchanged pair's are the same UAs, halves exchanged
        out = super().pair(b2, bands3, as_is, uas=u) if as_is else []
        for p in super().pair(self.b1, bands3, swapped, band1=b2, uas=swap_bands(u)) if swapped else []:
            out.append(np.concatenate([p[:, 27:54], p[:, :27], p[:, 54:]], axis=1))  # rows 4-6 first: back
        return out

    def _compile(self) -> None:
        """The kernels and band 1's entry, once, so that compiling them (tens of seconds with a
        cold cache, about one with a warm one) is not counted in a slice's CPU seconds."""
        self.warm()
        entry_slice(self.variant, self.rank, 0, 0, emit=True)


@lru_cache(maxsize=4)
def _searcher(pass_: str, rank: int, thread: int) -> _Searcher:
    """A searcher per (pass, band 1, thread): its buffers go to kernels that release the GIL, so
    two threads never share one."""
    return _Searcher(pass_, rank)


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
        got = se.pair(b2s[sl.start + i], sl.bands3[owner == sl.start + i])
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

