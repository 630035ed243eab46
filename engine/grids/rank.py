"""Catalog rank <-> grid: the position of an ED grid in the minlex catalog (1-based).

The catalog orders the 5,472,730,538 ED grids (Russell and Jarvis) by their minlex string,
which is band 1's index first, then the row-4 prefix, then the enumeration order under it. So

    rank(G) = sum of totals of bands 1 < b + sum of counts of prefixes < p + position under p

with b, p the band 1 and prefix of G's minlex form. The position comes from enumerating that
one prefix (6,561 grids on average, up to 62,887: 20-100 ms), or, with the *fine counts*, only
from the last checkpoint before it: the enumeration leaves one about every ``step`` grids
inside each prefix, at a band 2 (rows 5-6) boundary, as (the band 2's ordinal in the walk, the
grids of the prefix before it) (``enumerate_band1(..., step=)``); a lookup walks the bands 2
up to that ordinal without enumerating them (microseconds) and enumerates from there.

The counts are the enumeration's own output, stored by the caller (the catalog, the package
data); :class:`RankIndex` takes them as plain numbers: ``totals`` maps each complete band 1 to
its grid count, ``prefix_counts(b)`` gives band 1 ``b``'s counts per prefix, ``fine(b)`` its
fine counts or None (then lookups in it enumerate whole prefixes: correct, only slower). A band
whose counts are missing raises :class:`MissingBand`. A batch of lookups is one compiled call
(:meth:`RankIndex.grids_at`, :meth:`RankIndex.ranks_of`); one index may be used by many threads
at once (each has its own work buffers).

Building an index from the package data decodes 834,148 prefixes and 12.8 million checkpoints
(seconds, a gigabyte); :meth:`RankIndex.to_arrays` flattens what the lookups read into a few
arrays (about 70 MB), and :meth:`RankIndex.from_arrays` answers from them as they are, so
callers store them once memory-mapped (``_cache.stored_arrays``) and a fresh process maps them
in a millisecond and reads only the pages of the bands it looks up.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Mapping, Sequence

import numpy as np

from ..bands import N_BANDS, band_index, band_tables
from ..canon import canon_grids
from . import _kernels as K
from .._cache import stored_tables
from .enumeration import HIST, LEAF_CAP, _tables, automorphisms, prefixes, workspace

N_ED_GRIDS = 5_472_730_538
"""Essentially different grids (Russell and Jarvis 2006): the ranks are 1..N_ED_GRIDS."""

_DIGIT_WEIGHTS = 10 ** np.arange(8, -1, -1, dtype=np.int64)  # a row 4 as a 9-digit number: sorts as the row


class MissingBand(LookupError):
    """The counts of a band 1 needed for this rank are not computed yet."""

    def __init__(self, band1: int):
        self.band1 = band1
        super().__init__(f"band 1 = {band1} is not counted yet: run `bin/enumerate --band1 {band1} --count-only`")


def _build_lookup() -> dict:
    """Every band 1's automorphisms and the key -> band index table (``K.Lookup``'s arrays)."""
    parts = [automorphisms(b) for b in range(N_BANDS)]
    off = np.concatenate([[0], np.cumsum([len(p[1]) for p in parts])]).astype(np.int64)
    key_index = np.ascontiguousarray((band_tables().table & 0xFFFF).astype("<u2")).view(np.uint8)
    return {"key_index": key_index, "bands": np.array([p[0] for p in parts], np.int64), "aut_off": off,
            **{name: np.concatenate([p[k] for p in parts])
               for k, name in enumerate(("aut_cols", "aut_dig", "aut_c0", "aut_dinv2"), start=1)}}


@lru_cache(maxsize=None)
def _lookup_tables() -> K.Lookup:
    """The lookup kernels' tables: built once per version of the engine's sources (about 20 ms,
    with the band tables loaded) and kept in the cache folder."""
    t = stored_tables("grids-lookup", None, _build_lookup)
    return K.Lookup(t["key_index"], np.zeros(0, np.uint8), t["bands"], t["aut_off"], t["aut_cols"], t["aut_dig"],
                    t["aut_c0"], t["aut_dinv2"])


@dataclass
class _Scratch:
    work: tuple
    grids: np.ndarray
    auts: np.ndarray
    hist: np.ndarray


_THREAD = threading.local()


def _scratch() -> _Scratch:
    """The lookup kernels' work buffers, one set per thread (made at its first lookup, a few MB):
    the kernels release the GIL, and two lookups sharing a set would overwrite each other's."""
    s = getattr(_THREAD, "scratch", None)
    if s is None:
        L = _lookup_tables()
        s = _THREAD.scratch = _Scratch(workspace(int(np.diff(L.aut_off).max())), np.zeros((LEAF_CAP, 81), np.uint8),
                                       np.zeros(LEAF_CAP, np.int64), np.zeros(HIST, np.int64))
    return s


@dataclass
class _BandCounts:
    keys: np.ndarray  # (P,) row 4 as a number, increasing
    before: np.ndarray  # (P + 1,) grids of the band before each prefix
    cp_off: np.ndarray  # (P + 1,) prefix p's checkpoints are rows cp_off[p]:cp_off[p + 1]
    cp_ord: np.ndarray
    cp_cnt: np.ndarray

    def row4(self, p: int) -> np.ndarray:
        """Prefix ``p``'s row 4 (9,) uint8, from its key."""
        return (int(self.keys[p]) // _DIGIT_WEIGHTS % 10).astype(np.uint8)


FLAT_ARRAYS = ("totals", "prefix_off", "keys", "before", "cp_off", "cp_ord", "cp_cnt")
"""What :meth:`RankIndex.to_arrays` gives: ``totals`` (B,) grids of bands 1 0..B-1;
``prefix_off`` (B + 1,): band b's prefixes are ``prefix_off[b]:prefix_off[b + 1]`` of ``keys``
(row 4 as a number) and ``cp_off`` (their checkpoints: ``cp_off[p]:cp_off[p + 1]`` of
``cp_ord``, ``cp_cnt``, uint16: at most 1,791 and 62,540 in the shipped data); ``before``
holds each band's grids before each prefix and its total, at ``prefix_off[b] + b`` on."""


class RankIndex:
    """Rank <-> grid over the bands 1 counted (see the module docstring for the arguments)."""

    def __init__(self, totals: Mapping[int, int], prefix_counts: Callable[[int], Sequence[int]],
                 fine: Callable[[int], tuple | None] | None = None):
        self._counts = prefix_counts
        self._fine = fine
        before = [0]
        for b in range(N_BANDS):  # grids before each band 1, up to the first one not counted
            if b not in totals:
                break
            before.append(before[-1] + int(totals[b]))
        self._before = np.array(before, np.int64)
        self.first_missing = len(before) - 1
        self._bands: dict[int, _BandCounts] = {}
        self._flat: Mapping[str, np.ndarray] | None = None

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> "RankIndex":
        """The index of :meth:`to_arrays`' arrays, read as they are (memory-mapped ones stay so)."""
        totals = arrays["totals"]
        index = cls({b: int(t) for b, t in enumerate(totals.tolist())}, lambda b: ())
        index._flat = arrays
        return index

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every counted band 1's counts (bands 0 to ``first_missing - 1``) as the flat arrays of
        :data:`FLAT_ARRAYS`."""
        bands = [self.band(b) for b in range(self.first_missing)]
        prefix_off = np.concatenate([[0], np.cumsum([len(bc.keys) for bc in bands])]).astype(np.int64)
        cp_ends = [bc.cp_off[-1] for bc in bands]
        cp_base = np.concatenate([[0], np.cumsum(cp_ends)]).astype(np.int64)
        cat = lambda xs, dt: np.concatenate(xs).astype(dt) if xs else np.zeros(0, dt)  # noqa: E731
        cp_off = np.concatenate([bc.cp_off[:-1] + cp_base[k] for k, bc in enumerate(bands)] + [cp_base[-1:]])
        for name in ("cp_ord", "cp_cnt"):
            if any(len(getattr(bc, name)) and getattr(bc, name).max() > 0xFFFF for bc in bands):
                raise ValueError(f"{name} does not fit 16 bits")
        return {"totals": np.diff(self._before).astype(np.int64), "prefix_off": prefix_off,
                "keys": cat([bc.keys for bc in bands], np.int64), "before": cat([bc.before for bc in bands], np.int64),
                "cp_off": cp_off.astype(np.int64), "cp_ord": cat([bc.cp_ord for bc in bands], np.uint16),
                "cp_cnt": cat([bc.cp_cnt for bc in bands], np.uint16)}

    def _flat_band(self, b: int) -> _BandCounts:
        f = self._flat
        lo, hi = int(f["prefix_off"][b]), int(f["prefix_off"][b + 1])
        cp_off = np.asarray(f["cp_off"][lo : hi + 1], np.int64)
        a, z = int(cp_off[0]), int(cp_off[-1])
        return _BandCounts(f["keys"][lo:hi], f["before"][lo + b : hi + b + 1], cp_off - a, f["cp_ord"][a:z],
                           f["cp_cnt"][a:z])

    def band(self, b: int) -> _BandCounts:
        got = self._bands.get(b)
        if got is not None:
            return got
        if self._flat is not None:
            if b >= self.first_missing:
                raise MissingBand(b)
            got = self._bands[b] = self._flat_band(b)
            return got
        rows4 = prefixes(b)
        counts = np.asarray(self._counts(b), np.int64)
        if len(counts) != len(rows4):
            raise MissingBand(b)
        fine = self._fine(b) if self._fine is not None else None
        if fine is None:
            cp_off, cps = np.zeros(len(rows4) + 1, np.int64), np.zeros((0, 2), np.int64)
        else:
            per, cps = fine
            if len(per) != len(rows4):
                raise ValueError(f"fine counts of band 1 {b}: {len(per)} prefixes, expected {len(rows4)}")
            cp_off = np.concatenate([[0], np.cumsum(per)]).astype(np.int64)
            cps = np.asarray(cps, np.int64).reshape(-1, 2)
        got = _BandCounts(rows4.astype(np.int64) @ _DIGIT_WEIGHTS, np.concatenate([[0], np.cumsum(counts)]),
                          cp_off, np.ascontiguousarray(cps[:, 0]), np.ascontiguousarray(cps[:, 1]))
        self._bands[b] = got
        return got

    def _checkpoints(self, bands, ps):
        """Per lookup the checkpoints of its prefix, concatenated: (lo (n + 1,), ord, cnt)."""
        lo = np.zeros(len(bands) + 1, np.int64)
        ords, cnts = [], []
        for k, (b, p) in enumerate(zip(bands, ps)):
            bc = self._bands[b]
            a, z = int(bc.cp_off[p]), int(bc.cp_off[p + 1])
            ords.append(bc.cp_ord[a:z])
            cnts.append(bc.cp_cnt[a:z])
            lo[k + 1] = lo[k] + (z - a)
        cat = (lambda xs: np.concatenate(xs).astype(np.int64)) if ords else (lambda xs: np.zeros(0, np.int64))
        return lo, cat(ords), cat(cnts)

    def grids_at(self, ranks) -> np.ndarray:
        """The grids (n, 81) with these catalog ranks."""
        r = np.atleast_1d(np.asarray(ranks, np.int64))
        bad = (r < 1) | (r > N_ED_GRIDS)
        if bad.any():
            raise ValueError(f"rank must be between 1 and {N_ED_GRIDS:,}, got {int(r[bad][0])}")
        if len(r) and int(r.max()) > self._before[-1]:
            if self.first_missing < N_BANDS:
                raise MissingBand(self.first_missing)
            raise ValueError(f"the counted bands hold only {int(self._before[-1]):,} grids, fewer than rank {int(r.max()):,}")
        bands = (np.searchsorted(self._before, r - 1, side="right") - 1).tolist()
        ps, pos = [], np.zeros(len(r), np.int64)
        rows4 = np.zeros((len(r), 9), np.uint8)
        for k, b in enumerate(bands):
            bc = self.band(b)
            local = int(r[k]) - 1 - int(self._before[b])
            p = int(np.searchsorted(bc.before, local, side="right")) - 1
            ps.append(p)
            pos[k] = local - int(bc.before[p])
            rows4[k] = bc.row4(p)
        lo, cp_ord, cp_cnt = self._checkpoints(bands, ps)
        rows4.setflags(write=False)  # as prefixes() gives them: one compiled walk (see _kernels._walk_prefix)
        out = np.zeros((len(r), 81), np.uint8)
        s = _scratch()
        status = K.grids_at_positions(_tables(), _lookup_tables(), np.array(bands, np.int64), rows4, lo, cp_ord,
                                      cp_cnt, pos, out, s.grids, s.auts, s.hist, s.work)
        if status < 0:
            raise RuntimeError(f"internal error: lookup failed ({status}): the counts do not match the enumeration")
        return out

    def ranks_of(self, grids) -> tuple[np.ndarray, np.ndarray]:
        """(ranks (n,), minlex forms (n, 81)) of any valid grids (minlex or not)."""
        forms = canon_grids(grids).forms
        bands = band_index(forms[:, :27])[0].astype(np.int64).tolist()
        ps = []
        base = np.zeros(len(forms), np.int64)
        for k, b in enumerate(bands):
            if b > self.first_missing:
                raise MissingBand(self.first_missing)
            bc = self.band(b)
            key = int(forms[k, 27:36].astype(np.int64) @ _DIGIT_WEIGHTS)
            p = int(np.searchsorted(bc.keys, key))
            if p >= len(bc.keys) or bc.keys[p] != key:  # cannot happen for a minlex form
                raise RuntimeError(f"internal error: row 4 of a minlex form is not a prefix of band 1 {b}")
            ps.append(p)
            base[k] = self._before[b] + bc.before[p] + 1
        lo, cp_ord, cp_cnt = self._checkpoints(bands, ps)
        pos = np.zeros(len(forms), np.int64)
        s = _scratch()
        rows4 = np.ascontiguousarray(forms[:, 27:36])
        rows4.setflags(write=False)
        status = K.positions_of_forms(_tables(), _lookup_tables(), np.array(bands, np.int64),
                                      rows4, lo, cp_ord, cp_cnt, forms, pos,
                                      s.grids, s.auts, s.hist, s.work)
        if status < 0:
            raise RuntimeError(f"internal error: minlex form not found by its lookup ({status})")
        return base + pos, forms


def rank_of(grid, totals: Mapping[int, int], prefix_counts: Callable[[int], Sequence[int]]) -> tuple[int, np.ndarray]:
    """(rank, minlex form) of any valid grid (minlex or not); one lookup of :class:`RankIndex`."""
    ranks, forms = RankIndex(totals, prefix_counts).ranks_of(grid)
    return int(ranks[0]), forms[0]


def grid_at(rank: int, totals: Mapping[int, int], prefix_counts: Callable[[int], Sequence[int]]) -> np.ndarray:
    """The grid (81,) with this catalog rank; one lookup of :class:`RankIndex`."""
    return RankIndex(totals, prefix_counts).grids_at([int(rank)])[0]
