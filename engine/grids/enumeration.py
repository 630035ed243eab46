"""Every essentially different grid, band 1 by band 1, in minlex catalog order.

For a band 1 (index 0-415, a minlex band) the ED grids whose minlex form starts with it come
out in strictly increasing order, each once, with its automorphism count; the unit of work is a
*prefix*, one row 4 (see :mod:`._kernels` for the math and the pruning). Counts per prefix are
what rank <-> grid needs, and prefixes are what a resumable run checkpoints.

    >>> from sudoku_symmetry.engine.grids import enumerate_band1
    >>> enumerate_band1(415).total                     # doctest: +SKIP
    1

Resumable form (the run driver's protocol): :func:`band1_chunks` yields ``(result, next_cursor, done)``
with the cursor the index of the next prefix.
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import numpy as np

from .._bits import FACT
from .._cache import stored_tables
from ..bands import N_BANDS, band_tables
from ..core.layout import SIZE
from . import _kernels as K

HIST = 649  # automorphism counts are at most 648; histogram slot k counts grids with k of them
ROW4_CAP = 1 << 14
LEAF_CAP = 1 << 14  # bands 3 under one band 2 (column 1 fixed); more raises

Tables = namedtuple("Tables", "row2_rank_to_id fact table aut_offsets aut_maps maps_rows maps_cols rid_min rid_max")
Band1 = K.Band1
Work = namedtuple("Work", "grid b2 b3 relabel state keys entries scratch form tform ties "
                          "colm boxm rem colset3 col3d leaves leaf_tie order memo stats "
                          "s1code s1m act actx target ctl cps rl4 r6n r6o r6x r6c cm")


def _row2_bounds() -> dict:
    """Per row-2 id (rows 1-2 of a band fixed, row 3's 216 orders free) the smallest and largest
    band index (int16: 24 KB each, they stay in cache)."""
    idx = (band_tables().table & 0xFFFF).reshape(-1, 216)
    return {"rid_min": idx.min(axis=1).astype(np.int16), "rid_max": idx.max(axis=1).astype(np.int16)}


@lru_cache(maxsize=None)
def _tables() -> Tables:
    T = band_tables()
    # computed once per version of the engine's sources (25 ms) and kept in the cache folder
    bounds = stored_tables("grids-row2-bounds", None, _row2_bounds)
    return Tables(T.row2_rank_to_id, FACT, T.table, T.aut_offsets, T.aut_maps, T.maps_rows, T.maps_cols,
                  bounds["rid_min"], bounds["rid_max"])


@lru_cache(maxsize=None)
def automorphisms(index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Band ``index`` (27,) and its non-trivial automorphisms as (column map, digit map) pairs,
    with the column that lands in column 1 and the digit that becomes 2 (the pruning keys):
    ``(band, aut_cols (n, 9), aut_dig (n, 10), aut_c0 (n,), aut_dinv2 (n,))``."""
    if not 0 <= index < N_BANDS:
        raise ValueError(f"band 1 index must be 0-{N_BANDS - 1}, got {index}")
    T = band_tables()
    band = T.minlex[index].astype(np.int64)
    cols, digs = [], []
    for m in T.aut_maps[T.aut_offsets[index] : T.aut_offsets[index + 1]]:
        r3, c9 = T.maps_rows[m], T.maps_cols[m]
        if tuple(r3) == (0, 1, 2) and tuple(c9) == tuple(range(9)):
            continue
        d = np.zeros(10, np.int64)
        for j in range(9):
            d[band[int(r3[0]) * 9 + int(c9[j])]] = j + 1
        cols.append(c9.astype(np.int64))
        digs.append(d)
    n = len(cols)
    aut_cols = np.array(cols, np.int64).reshape(n, 9)
    aut_dig = np.array(digs, np.int64).reshape(n, 10)
    aut_c0 = aut_cols[:, 0].copy()
    aut_dinv2 = np.array([int(np.flatnonzero(d == 2)[0]) for d in aut_dig], np.int64)
    return band, aut_cols, aut_dig, aut_c0, aut_dinv2


@lru_cache(maxsize=16)
def band1(index: int) -> Band1:
    """Band ``index`` with its automorphisms (:func:`automorphisms`) and its bit tables: bit
    ``key`` of ``ge_bits`` / ``eq_bits`` (bit key & 7 of byte key >> 3) is set when that band
    key's index is >= / == ``index`` (326 KB each: they stay in cache; 1.4 ms to build)."""
    band, aut_cols, aut_dig, aut_c0, aut_dinv2 = automorphisms(index)
    idx = band_tables().table & 0xFFFF
    ge_bits = np.packbits(idx >= index, bitorder="little")
    eq_bits = np.packbits(idx == index, bitorder="little")
    return Band1(np.int64(index), band, aut_cols, aut_dig, aut_c0, aut_dinv2, ge_bits, eq_bits)


def workspace(n_auts: int) -> Work:
    z = np.zeros
    na = max(n_auts, 1)
    return Work(z(81, np.uint8), z(27, np.uint8), z(27, np.uint8), z(10, np.uint8),
                z(na, np.int64), z(6, np.int64), z(6, np.uint32), z(200, np.int64),
                z(81, np.uint8), z(SIZE, np.uint8), z((1, SIZE), np.uint8),
                z(9, np.int64), z(3, np.int64), z(27, np.int64),
                z(9, np.int64), z((9, 3), np.int64),
                z((LEAF_CAP, 2), np.int64), z(LEAF_CAP, np.int64), z(LEAF_CAP, np.int64), z((3, 216), np.int64),
                z(K.N_STATS, np.int64), z(36, np.int64), z((36, 6), np.int64), z(na, np.int64), z((na, 3), np.int64),
                z(27, np.uint8), z(K.N_CTL, np.int64), z((1, 2), np.int64),
                z(10, np.int64), z(3, np.int64), z((3, 6), np.int64), z((3, 3), np.int64), z((3, 6), np.int64),
                z((9, 9), np.int64))


@lru_cache(maxsize=None)
def prefixes(index: int) -> np.ndarray:
    """The row-4 prefixes of band 1 ``index`` in lexicographic order, (P, 9) uint8."""
    b = band1(index)
    colfree = np.array([K.ALL9 & ~((1 << int(b.band[j])) | (1 << int(b.band[9 + j])) | (1 << int(b.band[18 + j])))
                        for j in range(9)], np.int64)
    out = np.zeros((ROW4_CAP, 9), np.uint8)
    n = K.row4_candidates(colfree, out)
    if n < 0:
        raise RuntimeError("row-4 buffer too small")
    out = out[:n].copy()
    out.setflags(write=False)
    return out


def _check_status(n: int) -> None:
    if n == -2:
        raise RuntimeError(f"more than {LEAF_CAP} bands 3 under one band 2: raise LEAF_CAP")


@dataclass
class Enumerated:
    """Prefixes ``start..stop-1`` of one band 1: ``counts`` per prefix, the automorphism
    histogram (``hist[k]`` grids with k automorphisms), and with ``emit`` the grids (M, 81) in
    increasing order with their automorphism counts. With ``step`` the fine counts:
    ``checkpoints`` (C, 2) rows (band-2 ordinal, grids of its prefix before it), in prefix
    order, ``checkpoint_counts[p - start]`` of them in prefix p (see ``enumerate_prefixes``)."""

    band1: int
    start: int
    stop: int
    counts: np.ndarray
    hist: np.ndarray
    grids: np.ndarray | None = None
    automorphisms: np.ndarray | None = None
    checkpoints: np.ndarray | None = None
    checkpoint_counts: np.ndarray | None = None

    @property
    def total(self) -> int:
        return int(self.counts.sum())


def enumerate_band1(index: int, start: int = 0, stop: int | None = None, *, emit: bool = False,
                    capacity: int = 1 << 16, step: int = 0) -> Enumerated:
    """The ED grids of band 1 ``index`` under prefixes ``start..stop-1`` (default: all); with
    ``step`` > 0 also a checkpoint every ``step`` grids or so inside each prefix."""
    rows4 = prefixes(index)
    stop = len(rows4) if stop is None else min(stop, len(rows4))
    if not 0 <= start <= stop:
        raise ValueError(f"bad prefix range {start}..{stop} (band 1 {index} has {len(rows4)} prefixes)")
    b = band1(index)
    work = workspace(len(b.aut_cols))
    counts = np.zeros(stop - start, np.int64)
    hist = np.zeros(HIST, np.int64)
    cp_counts = np.zeros(stop - start, np.int64)
    cp_cap = 1 << 12 if step > 0 else 1
    grids = np.zeros((capacity if emit else 0, 81), np.uint8)
    auts = np.zeros(capacity if emit else 0, np.int64)
    while True:
        cps = np.zeros((cp_cap, 2), np.int64)
        hist[:] = 0
        n = K.enumerate_prefixes(_tables(), b, rows4, start, stop, emit, grids, auts, counts, hist, work,
                                 step, cps, cp_counts)
        if n >= 0:
            break
        _check_status(n)
        if n == -1:
            grids = np.zeros((len(grids) * 4, 81), np.uint8)
            auts = np.zeros(len(grids), np.int64)
        else:  # -3: checkpoints full
            cp_cap *= 4
    fine = (cps[: int(cp_counts.sum())].copy(), cp_counts) if step > 0 else (None, None)
    if not emit:
        return Enumerated(index, start, stop, counts, hist, None, None, *fine)
    return Enumerated(index, start, stop, counts, hist, grids[:n], auts[:n], *fine)


def band1_chunks(shard: int, cursor: int | None, *, chunk: int = 64, emit: bool = False,
                 step: int = 0, stop: int | None = None) -> Iterator[tuple[Enumerated, int, bool]]:
    """The resumable form: shard = band 1 index, cursor = the next prefix (None: 0), prefixes up
    to ``stop`` (default: all). Yields ``(result, next_cursor, done)`` per ``chunk`` prefixes."""
    total = len(prefixes(shard)) if stop is None else min(int(stop), len(prefixes(shard)))
    p = 0 if cursor is None else int(cursor)
    if p >= total:
        yield Enumerated(shard, p, p, np.zeros(0, np.int64), np.zeros(HIST, np.int64)), total, True
        return
    while p < total:
        q = min(total, p + chunk)
        yield enumerate_band1(shard, p, q, emit=emit, step=step), q, q >= total
        p = q
