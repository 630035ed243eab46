"""The search of one pair of bands 1+2 and its bands 3 (:class:`PairSearcher`), the step every
pass and the grid search (``grid``) share.

Per pair (rows 1-6 fixed), the stages in the order they run, each a private module of kernels:

1. **the pair's UAs** (``_pair_uas``): sets of cells of rows 1-6 whose digits can be refilled so
   that every column keeps its digit set there, so every band 3 of the pair completes the
   refilled rows too and a puzzle needs a clue in each;
2. **the bands' valid clue sets** (``_valid``): band 1's of the split's sizes, once per band 1;
3. **XY** (``_xy``): per valid band-1 set X, the band-2 sets Y that meet what X leaves of the
   pair's UAs and band 2's fixing sets, checked for rows 1-6 (``_check``);
4. **band 3** (``_band3``, with the sockets and their log, ``_sockets``): per band 3 and
   candidate, the band-3 clue sets that meet what it leaves, and the uniqueness check of each
   (``_check``); a failed check teaches a UA that prunes the rest of the pair.

Stages 2-4 walk the one hitting-set search (``_hitting``).
"""
from __future__ import annotations

from collections import namedtuple
from functools import lru_cache, partial
from typing import Iterator

import numpy as np

from .._bits import FACT
from .._cache import stored_tables
from ..bands import N_BANDS, band_tables
from ..core.bandkey import band_key
from ..solve import SOLVER_DEPTH, SOLVER_WORDS
from . import _band3, _pair_uas, _sockets, _valid, _xy
from .counters import N_STATS
from .order import band_order, fixing_sets
from .passes import K12, PASSES, fitting

KG = 4
"""Digits per refilling for a socket's UAs (the socket's 2-3 digits and up to 2 more)."""
MAX_UA = 20
"""Largest UA collected (cells)."""
MAX_SETS = 256
"""Pair UAs a band-1 set misses that its band-2 sets must meet in the XY step (smallest first;
the rest are left to the band-3 step and the solver)."""
LEARNED_UAS = 1024
"""UAs of a pair learned by the XY step's checks kept for its later band-1 sets (each band-1 set
takes those it misses first, newest first)."""
XY_CHECK_ALL = 8
"""Bands 3 from which a pair's XY step checks every candidate for rows 1-6 (check from 0, not
``_xy.XY_CHECK_FROM``): the candidates left are then valid for every band 3, where the band-3
step would learn the same UAs from failed checks once per band 3. With fewer bands 3 the checks
cost more than they save (a pair with one band 3 took 2.5x as long)."""
MAX_CANDIDATES = 1 << 23
"""Candidates (X, Y) of a pair held at once (64 MB, and about 60 bytes each through the band-3
step's buffers): more are expanded and searched in parts (whole band-1 sets), so a pair's memory
is bounded."""

FixTables = namedtuple("FixTables", "row2_rank_to_id fact table maps_rows maps_cols fix fix_offsets")
PairWork = namedtuple("PairWork", "grid alive msk sid_of_key lg12 lghi lgsid lgnot ua12 ua3 notcell pool12 pool3 "
                                  "poolsig sets zbuf puzzle S ctl sols relabel fix3")


def _fixing_arrays() -> dict:
    sets = [fixing_sets(i) for i in range(N_BANDS)]
    offsets = np.zeros(N_BANDS + 1, np.int64)
    offsets[1:] = np.cumsum([len(s) for s in sets])
    return {"fix": np.concatenate(sets).astype(np.int64), "offsets": offsets}


@lru_cache(maxsize=None)
def fix_tables() -> FixTables:
    """The band tables plus every minlex band's minimal fixing sets (flat, by index; stored once
    per version of the engine's sources)."""
    T = band_tables()
    F = stored_tables("s17-fixing", None, _fixing_arrays)
    return FixTables(T.row2_rank_to_id, FACT, T.table, T.maps_rows.astype(np.int64), T.maps_cols.astype(np.int64),
                     F["fix"], F["offsets"])


def workspace(ncand: int) -> PairWork:
    """Buffers of the band-3 step for up to ``ncand`` candidates (allocated once, grown)."""
    z = np.zeros
    U = _band3.MAX_B3_UAS
    L = _sockets.LOG_UAS
    return PairWork(z(81, np.uint8), z(ncand, np.bool_), z((ncand, _sockets.SOCKET_WORDS), np.uint64),
                    z(_sockets.PAIR_SOCKET_KEYS, np.int64), z(L, np.uint64), z(L, np.int64), z(L, np.int64),
                    z((54, L // 64), np.uint64), z(U, np.uint64), z(U, np.int64), z((54, U // 64), np.uint64),
                    z(1 << 15, np.uint64), z(1 << 15, np.int64), z((1 << 15, 9), np.int64),
                    z(U + 1024, np.int64), z(1 << 18, np.int64), z(81, np.uint8),
                    z((SOLVER_DEPTH, SOLVER_WORDS), np.uint32), z(2, np.int64), z((2, 81), np.uint8),
                    z(10, np.uint8), z(256, np.int64))


def swap_bands(uas: np.ndarray) -> np.ndarray:
    """Pair UAs (54-bit masks of rows 1-6) with bands 1 and 2 exchanged: a UA of the pair (b1, b2)
    is one of (b2, b1) with its two 27-bit halves exchanged."""
    lo = uas & np.uint64((1 << 27) - 1)
    return (uas >> np.uint64(27)) | (lo << np.uint64(27))


class PairSearcher:
    """The search under one band 1 (27 digits, any form): its valid clue sets and the buffers,
    reused by every pair (band 2, bands 3) :meth:`pair` is given. ``splits``: the clue counts
    (band 1, band 2, band 3) searched (cut by the bands' fewest fixing clues); ``cap``: the most
    clues a stack may hold (``passes.STACK_CAP``, or ``passes.NO_CAP``); ``solver_digits``: the
    sizes (digits per refilling) of the pair's UAs that come from the solver, the smaller ones
    cell by cell (the 6- and 7-digit ones cost about 40 ms a pair: worth it where a pair has many
    bands 3 and splits of 11-12 clues in bands 1+2; a pair with one band 3 is searched faster
    without)."""

    def __init__(self, band: np.ndarray, splits, cap: int, solver_digits: tuple = PASSES["A"].solver_digits):
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
        self.stats = np.zeros(N_STATS, np.int64)
        self.u54 = np.zeros(1 << 14, np.uint64)
        self.u27 = np.zeros(1 << 14, np.int64)
        self.sols = np.zeros((1024, 81), np.uint8)
        self.cand = np.zeros(1 << 20, np.uint64)
        self.sets = np.zeros(_xy.XY_WORDS * 64, np.int64)
        self.found = (np.zeros(1 << 12, np.int64), np.zeros(1 << 12, np.uint64), np.zeros(1 << 12, np.int64))

    def warm(self) -> None:
        """Every kernel a pair calls, once on empty input (compiled or loaded from the cache)."""
        g = np.concatenate([self.b1, self.b1]).astype(np.int64)
        e64, eu = np.zeros(0, np.int64), np.zeros(0, np.uint64)
        _pair_uas.refill_diffs(g, 6, 0, 1, 0, MAX_UA, self.u54, self.u27, 0, 0)
        _pair_uas.solver_diffs(np.zeros(81, np.uint8), 10, 1, self.u54, 0, self.P.S, self.P.ctl, self.sols,
                               self.P.puzzle)
        _valid.valid_sets(self.fix1, len(self.fix1), 0, np.zeros(1, np.int64))
        _xy.xy_expand(e64, 0, np.zeros(1, np.int64), e64, e64, np.zeros(2, np.int64), e64, 0, 0, MAX_SETS,
                      _xy.XY_CHECK_FROM, np.concatenate([g, self.b1]).astype(np.uint8), self.P.S, self.P.ctl, self.sols,
                      self.P.puzzle, self.cand.view(np.int64), self.sets, self.stats)
        fb, f12, f3 = self.found
        _band3.pair_search(g, np.zeros((0, 27), np.int64), 0, eu, 0, 6, self.cap, KG, MAX_UA,
                           self.BT, self.P, fb, f12, f3, np.zeros(N_STATS, np.int64))
        self._index(self.b1.astype(np.uint8))

    def _fixing(self, band: np.ndarray) -> np.ndarray:
        out = np.zeros(256, np.int64)
        n = _valid.band_fixing_sets(band.astype(np.uint8), self.BT, np.zeros(10, np.uint8), out)
        return out[:n].copy()

    def _valid(self, fix: np.ndarray, k: int) -> np.ndarray:
        cap = 1 << 16
        while True:
            out = np.zeros(cap, np.int64)
            n = _valid.valid_sets(fix, len(fix), k, out)
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
        of ``solver_digits`` with the solver (9 - d digits and one band 3 given)."""
        n = 0
        for k in range(2, K12 + 1):
            if k not in self.solver_digits:
                n = _pair_uas.refill_diffs(g54, 6, 0, k, 0, MAX_UA, self.u54, self.u27, n, 0)
        if not self.solver_digits:
            return self.u54[:n]
        grid = np.concatenate([g54, b3]).astype(np.uint8)
        P = self.P
        for d in self.solver_digits:
            n = _pair_uas.solver_diffs(grid, 9 - d, self.sols.shape[0], self.u54, n, P.S, P.ctl, self.sols, P.puzzle)
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
            n = _xy.xy_expand(X, len(X), at, p1, p2, nua, fix2, len(fix2), y, MAX_SETS, check_from, grid, P.S,
                              P.ctl, self.sols, P.puzzle, self.cand.view(np.int64), self.sets, self.stats)
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
        # smallest band-2 parts first: the sets the XY step keeps per X (MAX_SETS) are then the
        # smallest
        by_size = np.argsort(np.bitwise_count(p2), kind="stable")
        p1, p2 = p1[by_size], p2[by_size]
        room = np.zeros(LEARNED_UAS, np.int64)  # the ring of UAs learned by the XY step
        uas = (np.concatenate([p1, room]), np.concatenate([p2, room]), np.array([len(p1), 0], np.int64))
        grid = np.concatenate([g54, bands3[0]]).astype(np.uint8)  # any band 3 of the pair will do
        fix2 = self._fixing(b2)
        fix2 = fix2[np.argsort(np.bitwise_count(fix2), kind="stable")]
        min2 = self._min_clues(b2)
        check_from = 0 if len(bands3) >= XY_CHECK_ALL else _xy.XY_CHECK_FROM
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
        """The band-3 step and the checks on candidates ``cand`` with z clues in band 3; the 17s
        found are appended to ``out``."""
        if len(cand) == 0:
            return
        if self.P.alive.shape[0] < len(cand):
            self.P = workspace(max(len(cand), 2 * self.P.alive.shape[0]))
        while True:
            fb, f12, f3 = self.found
            n = _band3.pair_search(g54, b3, len(b3), cand, len(cand), z, self.cap, KG, MAX_UA, self.BT, self.P,
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
