"""Enumeration of essentially different (ED) clue patterns and configurations, each once, in
box-first canonical form (see :mod:`.canonical` for the key).

Orderly generation along the key: the box-occupancy matrices that are canonical under the 72
box-level elements, then the clue counts per box canonical under the occupancy's stabilizer
(:func:`units`: a *unit* is one such counts matrix; the units are the resumable steps of a
run), then box by box a mask with the box's clue count, largest first, each prefix tested
against the stabilizer chain as soon as it is set (:func:`._kernels.check_search`: rejected
when an element maps the decided boxes to something larger, so a non-canonical prefix is never
extended). For configurations every canonical pattern then gets digits in box-first cell order
as an RGS, with no row, column or box conflict, kept when no automorphism of the pattern turns
them into a smaller RGS (checked on each prefix too).

Results come out in decreasing key order. Each carries its automorphism count, so
``sum(|G| / aut) == C(81, n)`` over the patterns of n cells (a test).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Iterator, NamedTuple

import numpy as np

from . import _kernels as K
from . import _units as U

GROUP_ORDER = 2 * 6**8


class TooSymmetric(ValueError):
    """A pattern of the enumeration has more automorphisms than the configuration search holds
    (``_kernels.MAX_RECORDS`` records): its configurations cannot be enumerated here. Met near
    81 clues (78, 80 and 81 at once), where the configurations are solution grids with a few
    cells emptied: billions and more, out of reach of an enumeration anyway."""


class Unit(NamedTuple):
    counts: tuple  # clue count of each box (canonical)
    elems: np.ndarray  # its box-level stabilizer (elements 0..71)


class Batch(NamedTuple):
    cells: np.ndarray  # uint8 (N, 81): 1 for a pattern's clue, digits for a configuration
    automorphisms: np.ndarray  # int64 (N,): |Aut| (relabelings included for configurations)


def _compositions(n: int, k: int) -> Iterator[tuple]:
    """Ordered k-tuples of 1..9 summing to n, largest first (lexicographically)."""
    if k == 0:
        if n == 0:
            yield ()
        return
    for first in range(min(9, n - (k - 1)), 0, -1):
        if (k - 1) * 9 < n - first:
            break
        for rest in _compositions(n - first, k - 1):
            yield (first,) + rest


@lru_cache(maxsize=None)
def units(n: int) -> tuple[Unit, ...]:
    """The canonical clue-count matrices for n cells with their box-level stabilizers, in
    decreasing key order (more non-empty boxes first, then occupancy, then counts)."""
    if not 0 <= n <= 81:
        raise ValueError("n must be in 0..81")
    out = []
    stab = np.zeros(72, np.int64)
    best = np.zeros(9, np.int64)
    for k in range(9, -1, -1):
        if not (k <= n <= 9 * k):
            continue
        for boxes in sorted(combinations(range(9), k), reverse=False):
            occ = [1 if b in boxes else 0 for b in range(9)]
            for comp in _compositions(n, k):
                counts = np.zeros(9, np.int64)
                counts[list(boxes)] = comp
                ns = K.box_optimum(counts, stab, best)
                if (best == counts).all():
                    out.append((tuple(occ), tuple(int(c) for c in counts), stab[:ns].copy()))
    out.sort(key=lambda u: (sum(u[0]), u[0], u[1]), reverse=True)
    return tuple(Unit(c, e) for _, c, e in out)


def occupancy_groups(n: int) -> tuple[tuple[str, int, int], ...]:
    """The units of n cells grouped by box occupancy, the enumeration's first-level choice:
    ``(occupancy, start, stop)`` with the occupancy as 9 characters (``1`` for a box with clues,
    boxes 1-9) and units ``start..stop-1`` (consecutive: units sort by occupancy first), in unit
    order. Each group is an independent slice of the enumeration (a shard of a distributed run)."""
    out: list[tuple[str, int, int]] = []
    for i, u in enumerate(units(n)):
        occ = "".join("1" if c else "0" for c in u.counts)
        if out and out[-1][0] == occ:
            out[-1] = (occ, out[-1][1], i + 1)
        else:
            out.append((occ, i, i + 1))
    return tuple(out)


def _run_unit(unit: Unit, digits: bool, keep: bool, cap: int = 4096):
    counts = np.array(unit.counts, np.int64)
    while True:
        c = cap if keep else 0
        masks = np.zeros((c, 9), np.int64)
        dig = np.zeros((c if digits else 0, 81), np.int64)
        auts = np.zeros(c, np.int64)
        got = U.enumerate_unit(counts, unit.elems, bool(digits), 9, masks, dig, auts, c)
        if got < 0:
            n = int(counts.sum())
            raise TooSymmetric(f"a pattern of {n} cells has more automorphisms than the configuration search "
                               f"holds ({U.MAX_RECORDS:,} records): configurations of {n} clues cannot be "
                               f"enumerated here")
        if not keep or got <= cap:
            return got, masks[:got], dig[:got], auts[:got]
        cap = got


def _cells(masks, dig, digits: bool) -> np.ndarray:
    n = masks.shape[0]
    box_first = np.zeros((n, 81), np.uint8)
    for b in range(9):
        for k in range(9):
            box_first[:, 9 * b + k] = (masks[:, b] >> (8 - k)) & 1
    if digits:
        # the clues' digits were written in box-first order of the clues
        order = np.argsort(1 - box_first.astype(np.int8), axis=1, kind="stable")
        vals = np.zeros_like(box_first)
        np.put_along_axis(vals, order, dig.astype(np.uint8), axis=1)
        box_first = np.where(box_first > 0, vals, 0).astype(np.uint8)
    cells = np.zeros((n, 81), np.uint8)
    cells[:, K.CELL_OF_BOXPOS] = box_first
    return cells


def enumerate_unit(unit: Unit, digits: bool = False) -> Batch:
    """The canonical patterns (or configurations) of one unit, in decreasing key order."""
    got, masks, dig, auts = _run_unit(unit, digits, True)
    return Batch(_cells(masks, dig, digits), auts)


def count_unit(unit: Unit, digits: bool = False) -> int:
    return _run_unit(unit, digits, False)[0]


def pattern_chunks(n: int, start: int = 0, digits: bool = False, keep: bool = True,
         max_items: int = 50_000, stop: int | None = None) -> Iterator[tuple[Batch, int, int, bool]]:
    """Resumable enumeration of units ``start..stop-1`` (default: to the last unit): yields
    (batch, results, next unit, done) with batches of whole units holding about ``max_items``
    results (``keep=False``: the results are counted, the batches are empty)."""
    us = units(n)
    end = len(us) if stop is None else min(int(stop), len(us))
    i = start
    while i < end:
        cells, auts = [], []
        total = 0
        j = i
        while j < end and total < max_items:
            if keep:
                b = enumerate_unit(us[j], digits)
                cells.append(b.cells)
                auts.append(b.automorphisms)
                total += len(b.automorphisms)
            else:
                total += count_unit(us[j], digits)
                auts.append(np.zeros(0, np.int64))
            j += 1
        if keep:
            batch = Batch(np.concatenate(cells), np.concatenate(auts))
        else:
            batch = Batch(np.zeros((0, 81), np.uint8), np.zeros(0, np.int64))
        yield batch, total, j, j >= end
        i = j
    if not us:
        yield Batch(np.zeros((0, 81), np.uint8), np.zeros(0, np.int64)), 0, 0, True


def enumerate_all(n: int, digits: bool = False) -> Batch:
    """Every ED pattern (or configuration) of n cells, in decreasing key order."""
    parts = [enumerate_unit(u, digits) for u in units(n)]
    if not parts:
        return Batch(np.zeros((0, 81), np.uint8), np.zeros(0, np.int64))
    return Batch(np.concatenate([p.cells for p in parts]), np.concatenate([p.automorphisms for p in parts]))


def count(n: int, digits: bool = False) -> int:
    """How many ED patterns (configurations) of n cells, by enumeration."""
    return sum(count_unit(u, digits) for u in units(n))
