"""The 17-clue search entry: for a band 1, its bands 2 and, per band 2, its bands 3.

The exhaustive 17-clue search (McGuire et al.; GPenet's "entry") does not read a catalog of
grids: it generates, per band 1, the pairs (band 2, band 3) so that every essentially different
grid is processed exactly once, with band 1 the grid's chute of lowest rank in the band order
(``order.py``: fewest valid 6-clue sub-puzzles first). The math is in ``_kernels``.

Variants (decisions the issue left open are marked *):

* **A** (566/656): every chute has rank >= rank(band 1) and rank(band 2) <= rank(band 3); one
  line per ED grid: over the 416 bands 1 the bands 3 total 5,472,730,538.
* **B** (665): the same pairs (band 1, band 2) as A, and under each the bands 3 of rank between
  band 1's and band 2's: A's grids with bands 2 and 3 exchanged, each in the form whose pair is
  one of the list (band 2 the smallest image of A's band 3 under the automorphisms of band 1), so
  that pass B searches the very frame in which pass A searched the grid (the native's pass 2b
  has its own entry likewise). A grid whose three bands all have band 1's index is not in B:
  exchanged, its pair may be the other orientation of a pair of the list (the middle loop keeps
  one); pass A searches its 6-6-5 itself. B's bands 3 are therefore A's less those, a few per band
  1 (2 of 5 at rank 400, 8 of 146,040 at rank 300).
* **C** (a band with 7+ clues): the pairs (band 1, band 2) as in A (*: the same middle loop,
  so C's bands 2 are A's: over all bands 1 they total 983,959,110), band 3 free (any rank),
  one per orbit of the stabilizer of bands 1+2.

Bands 2 of a band 1 come in lexicographic order (the middle loop's own order, ``bands2``);
bands 3 of a band 2 in the order of the stack-by-stack fill (*: stack 1's fill, then stack 2's,
not sorted: that order is deterministic and sorting would cost). A *slice* is 64 consecutive
bands 2: the unit of work and of checkpoints (``entry_chunks``: cursor = the next band 2).

    >>> from sudoku_symmetry.engine.search17 import entry_counts
    >>> entry_counts("A", 415)                                   # doctest: +SKIP
"""
from __future__ import annotations

import threading
from collections import namedtuple
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import numpy as np

from .._bits import FACT
from ..bands import N_BANDS, band_tables
from . import _kernels as K
from .gangsters import gangster_table
from .order import band_order

VARIANTS = ("A", "B", "C")
SLICE = 64
"""Bands 2 per slice: the checkpoint unit of a resumable run."""

Tables = namedtuple("Tables", "row2_rank_to_id fact table maps_rows maps_cols rank stack_a stack_c gang")
Band1 = namedtuple("Band1", "index rank band aut_cols aut_dig ge_bits eq_bits all_bits no_bits verdict_a verdict_c")
StackTables = namedtuple("StackTables", "row2_rank_to_id rid_min rid_max")
"""What ``core.chutes.stack_verdicts`` reads of the tables: per row-2 id the smallest and
largest key rank in the search order (variant A), or a sentinel above every rank (variant C,
where a stack is never below band 1: every row-2 id that occurs decides all 6 orders at once)."""
Verdicts = namedtuple("Verdicts", "ge_bits eq_bits index")
"""What ``stack_verdicts`` reads of band 1: the bit tables and the rank they compare with."""
Work = namedtuple("Work", "grid b2 b3 relabel info du st_cols st_dig keys scratch chidx chutes vc vd "
                          "col3d colset3 verdict s1code s1mask grp_n grp_o5 colbit stats rep")


ORDERS = ("s17", "index")
"""``s17``: the search's order (``order.py``); ``index``: the minlex index order, in which
variant A's bands 3 of band 1 ``b`` are exactly the minlex catalog's ED grids of band 1 ``b``
(a per-band cross-check against ``engine.grids``)."""


def _rank_of(order: str) -> np.ndarray:
    if order == "s17":
        return band_order().rank
    if order == "index":
        return np.arange(N_BANDS, dtype=np.int64)
    raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")


def _by_rank(order: str) -> np.ndarray:
    return band_order().by_rank if order == "s17" else np.arange(N_BANDS, dtype=np.int64)


@lru_cache(maxsize=None)
def _tables(order: str = "s17") -> Tables:
    T = band_tables()
    rank = _rank_of(order)
    # keys with rows 1-2 fixed (one row-2 id) and row 3's 216 orders: their ranks' range
    key_rank = rank[(T.table & 0xFFFF).reshape(-1, 216)]
    above = np.full(key_rank.shape[0], N_BANDS, np.int16)
    return Tables(T.row2_rank_to_id, FACT, T.table, T.maps_rows.astype(np.int64), T.maps_cols.astype(np.int64),
                  rank, StackTables(T.row2_rank_to_id, key_rank.min(axis=1).astype(np.int16),
                                    key_rank.max(axis=1).astype(np.int16)),
                  StackTables(T.row2_rank_to_id, above, above), gangster_table())


def check_variant(variant: str) -> str:
    v = str(variant).upper()
    if v not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    return v


def check_rank(rank: int) -> int:
    if not 0 <= int(rank) < N_BANDS:
        raise ValueError(f"band-1 rank must be 0-{N_BANDS - 1}, got {rank}")
    return int(rank)


def band1(rank: int, order: str = "s17") -> Band1:
    """Band 1 at ``rank`` of the search order, its automorphisms (column map, digit map; the
    identity first) and its bit tables: bit ``key`` of ``ge_bits`` is set when that band key's
    rank is >= ``rank``, of ``eq_bits`` when its index is band 1's (326 KB each: in cache)."""
    return _band1(check_rank(rank), order)


@lru_cache(maxsize=4)
def _band1(rank: int, order: str) -> Band1:
    T = band_tables()
    index = int(_by_rank(order)[rank])
    band = T.minlex[index].astype(np.int64)
    cols, digs = [], []
    for m in T.aut_maps[T.aut_offsets[index] : T.aut_offsets[index + 1]]:
        r3, c9 = T.maps_rows[m], T.maps_cols[m]
        d = np.zeros(10, np.int64)
        for j in range(9):
            d[band[int(r3[0]) * 9 + int(c9[j])]] = j + 1
        ident = tuple(r3) == (0, 1, 2) and tuple(c9) == tuple(range(9))
        (cols.insert(0, c9.astype(np.int64)), digs.insert(0, d)) if ident else (cols.append(c9.astype(np.int64)), digs.append(d))
    key_rank = _rank_of(order)[T.table & 0xFFFF]
    ge_bits = np.packbits(key_rank >= rank, bitorder="little")
    eq_bits = np.packbits((T.table & 0xFFFF) == index, bitorder="little")
    all_bits, no_bits = np.full_like(ge_bits, 0xFF), np.zeros_like(eq_bits)
    return Band1(np.int64(index), np.int64(rank), band, np.array(cols, np.int64), np.array(digs, np.int64),
                 ge_bits, eq_bits, all_bits, no_bits, Verdicts(ge_bits, eq_bits, np.int64(rank)),
                 Verdicts(all_bits, no_bits, np.int64(rank)))


def workspace() -> Work:
    z = np.zeros
    return Work(z(81, np.uint8), z(27, np.uint8), z(27, np.uint8), z(10, np.uint8), z(2, np.int64),
                z(10, np.int64), z((K.STAB_CAP, 9), np.int64), z((K.STAB_CAP, 10), np.int64),
                z(6, np.int64), z(200, np.int64), z(6, np.int64), z((6, 27), np.uint8),
                z((1, 9), np.int64), z((1, 10), np.int64),
                z((9, 3), np.int64), z(9, np.int64), z((3, 216), np.int64), z(36, np.int64), z((36, 3), np.int64),
                z(36, np.int64), z((36, 6), np.int64), z((3, 6, 3), np.int64), z(K.N_STATS, np.int64),
                z(81, np.uint8))


def bands2(rank: int, order: str = "s17", stop: int | None = None) -> np.ndarray:
    """The bands 2 of band 1 at ``rank`` (the middle loop), (N, 27) uint8, lexicographic order;
    ``stop``: only the first ``stop`` of them (fewer where the band 1 has fewer)."""
    return _bands2(check_rank(rank), order, None if stop is None else max(0, int(stop)))


# per (rank, order): the longest run of bands 2 computed, and whether it is all of them; the
# two newest kept (one band 1 at a time in a search, and a table of 5 M rows is 140 MB); read and
# changed under the lock (threads), computed outside it
_B2: dict[tuple[int, str], tuple[np.ndarray, bool]] = {}
_B2_LOCK = threading.Lock()


def _bands2(rank: int, order: str, stop: int | None) -> np.ndarray:
    # one entry per (rank, order) however the caller spells it (``bands2(r)`` and
    # ``bands2(r, "s17")`` computed it twice: seconds per band 1)
    with _B2_LOCK:
        held, whole = _B2.get((rank, order), (None, False))
    if held is not None and (whole or (stop is not None and stop <= len(held))):
        return held if stop is None else held[:stop]
    S = band1(rank, order)
    W = workspace()
    # the middle loop writes in order and stops where ``out`` is full: a slice near the start
    # of a band 1 builds only what it needs (rank 64's first 14 k of 5.1 M: 4.3 s -> 0.2 s in
    # every process that searches that slice). For all of them, room for the largest band 1 at
    # once (at most ~6 M): np.zeros only reserves it, the pages written are what costs; starting
    # at 1 M, rank 64's 5.1 M took four runs (9.7 s, 2.4 s once). A longer prefix than the one
    # held: twice that at least, so slices asked for in order rebuild a few times, not once each
    # (the bench's 42 single bands 2 near 1.7 M of rank 64, one after the other: 16.5 CPU-s)
    cap = 1 << 23 if stop is None else max(stop, 2 * len(held) if held is not None else 0)
    while True:
        out = np.zeros((cap, 27), np.uint8)
        n = K.bands2(S, _tables(order), W, out)
        if n >= 0 or stop is not None:
            out = out[:n].copy() if n >= 0 else out
            out.setflags(write=False)
            with _B2_LOCK:
                _B2.pop((rank, order), None)
                _B2[(rank, order)] = (out, n >= 0)
                while len(_B2) > 2:
                    _B2.pop(next(iter(_B2)))
            return out if stop is None else out[:stop]
        cap *= 2


@dataclass
class Slice:
    """Bands 2 ``start..stop-1`` of band-1 rank ``rank``: bands 3 per band 2 (``counts``) and,
    when emitted, ``bands3`` (M, 27) with ``owner`` (M,): the position of each one's band 2."""

    variant: str
    rank: int
    start: int
    stop: int
    counts: np.ndarray
    bands3: np.ndarray | None = None
    owner: np.ndarray | None = None

    @property
    def total(self) -> int:
        return int(self.counts.sum())


def entry_slice(variant: str, rank: int, start: int = 0, stop: int | None = None, *, emit: bool = False,
                capacity: int = 1 << 16, order: str = "s17") -> Slice:
    """Bands 3 under bands 2 ``start..stop-1`` (default: all) of band-1 ``rank``."""
    variant = check_variant(variant)
    b2s = bands2(rank, order, stop)  # only those up to ``stop``
    stop = len(b2s) if stop is None else min(int(stop), len(b2s))
    if not 0 <= start <= stop:
        raise ValueError(f"bad band-2 range {start}..{stop} (band-1 rank {rank} has "
                         f"{len(bands2(rank, order))} bands 2)")
    kv = {"A": K.VARIANT_A, "B": K.VARIANT_B, "C": K.VARIANT_C}[variant]
    S = band1(rank, order)
    W = workspace()
    counts = np.zeros(stop - start, np.int64)
    while True:
        out3 = np.zeros((capacity if emit else 0, 27), np.uint8)
        owner = np.zeros(capacity if emit else 0, np.int64)
        n = K.bands3(S, _tables(order), W, kv, b2s, start, stop, emit, counts, owner, out3)
        if n >= 0:
            if emit:
                return Slice(variant, rank, start, stop, counts, out3[:n], owner[:n])
            return Slice(variant, rank, start, stop, counts)
        capacity *= 4


def entry_counts(variant: str, rank: int, order: str = "s17") -> tuple[int, int]:
    """(bands 2, bands 3) of band-1 ``rank`` for ``variant``."""
    s = entry_slice(variant, rank, order=order)
    return s.stop, s.total


def entry_chunks(variant: str, rank: int, cursor: int | None, *, emit: bool = False,
         chunk: int = SLICE) -> Iterator[tuple[Slice, int, bool]]:
    """The resumable form: shard = band-1 rank, cursor = the next band 2 (None: 0). Yields
    ``(slice, next_cursor, done)`` per ``chunk`` bands 2."""
    total = len(bands2(rank))
    p = 0 if cursor is None else int(cursor)
    if p >= total:
        yield Slice(variant, rank, total, total, np.zeros(0, np.int64)), total, True
        return
    while p < total:
        q = min(total, p + chunk)
        yield entry_slice(variant, rank, p, q, emit=emit), q, q >= total
        p = q
