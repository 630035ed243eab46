"""Slow, obviously correct references for clue patterns and configurations.

* :func:`generators`: five cell permutations that generate the positional group (transpose,
  two band moves, two row moves inside band 0); the rest is their closure.
* :func:`box_first_key`: the canonical order's key of one pattern or configuration, computed
  straight from its definition (occupancy, counts, cells box by box, then minus the digits' RGS
  in box-first order, so the canonical member has the largest key).
* :func:`naive_classes`: every n-cell pattern (or configuration up to relabeling) put in orbits by
  breadth-first search through the generators, each orbit's canonical member the one with the
  largest key: all members are looked at, no group theory. For n <= 3.
* :func:`labeled_configurations`: how many n-clue configurations there are with labels (all
  n-subsets, all digit choices with no conflict), for the orbit-stabilizer check.
"""
from __future__ import annotations

from itertools import combinations

BOX_FIRST = [27 * (b // 3) + 3 * (b % 3) + 9 * (k // 3) + k % 3 for b in range(9) for k in range(9)]


def _cellmap(f):
    return tuple(f(c // 9, c % 9) for c in range(81))


def generators():
    """Maps src cell -> image cell."""
    swap01 = {0: 1, 1: 0, 2: 2}
    cyc = {0: 1, 1: 2, 2: 0}
    band_swap = lambda r: 3 * swap01[r // 3] + r % 3
    band_cyc = lambda r: 3 * cyc[r // 3] + r % 3
    row_swap = lambda r: 3 * (r // 3) + swap01[r % 3] if r < 3 else r
    row_cyc = lambda r: 3 * (r // 3) + cyc[r % 3] if r < 3 else r
    return [
        _cellmap(lambda r, c: 9 * c + r),
        _cellmap(lambda r, c: 9 * band_swap(r) + c),
        _cellmap(lambda r, c: 9 * band_cyc(r) + c),
        _cellmap(lambda r, c: 9 * row_swap(r) + c),
        _cellmap(lambda r, c: 9 * row_cyc(r) + c),
    ]


def rgs_box_first(cells: dict) -> tuple:
    """{cell: digit} -> the digits in box-first cell order, relabeled 1, 2, 3, ..."""
    label = {}
    out = []
    for c in BOX_FIRST:
        if c in cells:
            label.setdefault(cells[c], len(label) + 1)
            out.append(label[cells[c]])
    return tuple(out)


def box_first_key(cells: dict) -> tuple:
    boxes = [[1 if BOX_FIRST[9 * b + k] in cells else 0 for k in range(9)] for b in range(9)]
    occ = tuple(1 if any(b) else 0 for b in boxes)
    counts = tuple(sum(b) for b in boxes)
    return (sum(occ), occ, counts, tuple(tuple(b) for b in boxes), tuple(-d for d in rgs_box_first(cells)))


def _norm(cells: dict, digits: bool):
    if not digits:
        return frozenset(cells)
    order = rgs_box_first(cells)
    pos = [c for c in BOX_FIRST if c in cells]
    return frozenset(zip(pos, order))


def conflict(a: int, b: int) -> bool:
    return a // 9 == b // 9 or a % 9 == b % 9 or (a // 27 == b // 27 and (a % 9) // 3 == (b % 9) // 3)


def _colorings(cells, k_max=9):
    """Digit choices (as RGS in the given order) with no conflict."""
    out = []

    def rec(i, d, mx):
        if i == len(cells):
            out.append(tuple(d))
            return
        for v in range(1, min(mx + 1, k_max) + 1):
            if all(not (d[j] == v and conflict(cells[j], cells[i])) for j in range(i)):
                rec(i + 1, d + [v], max(mx, v))

    rec(0, [], 0)
    return out


def naive_classes(n: int, digits: bool = False) -> dict:
    """{canonical 81-char string: orbit size} for every class of n-cell patterns
    (configurations up to relabeling when ``digits``)."""
    gens = generators()
    elements = []
    for cells in combinations(range(81), n):
        if digits:
            pos = [c for c in BOX_FIRST if c in cells]
            for col in _colorings(pos):
                elements.append(frozenset(zip(pos, col)))
        else:
            elements.append(frozenset(cells))
    seen = set()
    classes = {}
    for start in elements:
        if start in seen:
            continue
        seen.add(start)
        orbit = [start]
        i = 0
        while i < len(orbit):
            x = orbit[i]
            i += 1
            for g in gens:
                if digits:
                    y = _norm({g[c]: d for c, d in x}, True)
                else:
                    y = frozenset(g[c] for c in x)
                if y not in seen:
                    seen.add(y)
                    orbit.append(y)
        best = max(orbit, key=lambda x: box_first_key(dict(x) if digits else {c: 1 for c in x}))
        cells = dict(best) if digits else {c: 1 for c in best}
        text = "".join((str(cells[c]) if digits else "x") if c in cells else "." for c in range(81))
        classes[text] = len(orbit)
    return classes


def labeled_configurations(n: int) -> int:
    """Configurations of n clues with digits 1-9 and no conflict (labels count)."""
    total = 0
    for cells in combinations(range(81), n):
        for col in _colorings(list(cells)):
            k = max(col, default=0)
            ways = 1
            for j in range(k):
                ways *= 9 - j
            total += ways
    return total


def labeled_configurations_jit(n: int) -> int:
    """The same count as :func:`labeled_configurations`, compiled (n <= 5): every n-subset in
    increasing cell order, each digit choice as an RGS (the k-th new digit has 9 - k + 1 labels),
    so the leaves are (subset, set partition) pairs, not labeled configurations."""
    import numba
    import numpy as np

    conf = np.array([[1 if a != b and conflict(a, b) else 0 for b in range(81)] for a in range(81)], np.uint8)

    @numba.njit(cache=False)
    def count(n, conf):
        cells = np.zeros(max(n, 1), np.int64)
        dig = np.zeros(max(n, 1), np.int64)
        mx = np.zeros(n + 1, np.int64)
        falling = np.ones(10, np.int64)
        for k in range(1, 10):
            falling[k] = falling[k - 1] * (9 - k + 1)
        if n == 0:
            return 1
        total = 0
        # depth-first over (cell, digit) choices; cells strictly increasing
        i = 0
        cells[0] = -1
        dig[0] = 10
        while i >= 0:
            # next choice at depth i: next digit, else next cell with digit 1
            dig[i] += 1
            top = mx[i] + 1
            if top > 9:
                top = 9
            if dig[i] > top:
                cells[i] += 1
                dig[i] = 1
                if cells[i] > 81 - (n - i):
                    i -= 1
                    continue
            ok = True
            for j in range(i):
                if dig[j] == dig[i] and conf[cells[j], cells[i]]:
                    ok = False
                    break
            if not ok:
                continue
            m = mx[i] if mx[i] > dig[i] else dig[i]
            if i == n - 1:
                total += falling[m]
                continue
            mx[i + 1] = m
            i += 1
            cells[i] = cells[i - 1]
            dig[i] = 10
        return total

    return int(count(n, conf))
