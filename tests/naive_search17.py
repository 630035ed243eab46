"""Slow, obviously correct references for the 17-clue search entry (pure Python).

* :func:`naive_valid_count`: valid k-clue sub-puzzles of a band by brute force: every band with
  the same gangster from itertools over the column orders, every k-subset of the 27 cells.
* :func:`naive_representative`: variant A's representative of a grid: over every chute of
  index X (rows and columns), every way onto X (band_index's transformation, then each
  automorphism of X), both orders of the two other parallel chutes with rank(band 2) <=
  rank(band 3), the representation with the smallest (rank(band 2), rank(band 3)), then the
  smallest rows 4-9 (rows sorted by first cell).
"""
from __future__ import annotations

from itertools import combinations, permutations

from sudoku_symmetry.engine.bands import band_index_one, band_tables


def same_gangster_bands(band: list[int]) -> list[list[int]]:
    """Every band whose column j holds band's column-j digits in some order, rows without
    repeats (column by column, dropping an order as soon as a row repeats a digit)."""
    cols = [[band[r * 9 + j] for r in range(3)] for j in range(9)]
    partial = [[]]  # lists of column orders so far
    for j in range(9):
        partial = [p + [o] for p in partial for o in permutations(cols[j])
                   if all(o[r] not in [q[r] for q in p] for r in range(3))]
    return [[p[j][r] for r in range(3) for j in range(9)] for p in partial]


def naive_valid_count(band: list[int], k: int) -> int:
    """Every k-subset of cells (a bitmask) against every other band with the same gangster."""
    others = [b for b in same_gangster_bands(band) if b != list(band)]
    diffs = [sum(1 << q for q in range(27) if b[q] != band[q]) for b in others]
    count = 0
    for cells in combinations(range(27), k):
        s = sum(1 << q for q in cells)
        if all(d & s for d in diffs):
            count += 1
    return count


def _chutes(grid: list[int]) -> list[list[int]]:
    bands = [grid[27 * b: 27 * b + 27] for b in range(3)]
    stacks = [[grid[r * 9 + 3 * s + i] for i in range(3) for r in range(9)] for s in range(3)]
    return bands + stacks


def _image(band: list[int], cols, digits) -> list[int]:
    rows = [[digits[band[r * 9 + cols[j]]] for j in range(9)] for r in range(3)]
    rows.sort(key=lambda row: row[0])
    return [v for row in rows for v in row]


def naive_representative(grid: list[int], x: int, rank_of) -> list[int]:
    """Rows 1-9 of variant A's representative of ``grid`` for band 1 = minlex band ``x``."""
    T = band_tables()
    chutes = _chutes(list(grid))
    idx = [band_index_one(c)[0] for c in chutes]
    best = None
    for c in range(6):
        if idx[c] != x:
            continue
        _, u = band_index_one(chutes[c])
        for a in T.automorphisms(x):
            cols = [u.cols[a.cols[j]] for j in range(9)]
            digits = [0] + [a.digits[u.digits[d]] for d in range(1, 10)]
            base = 3 if c >= 3 else 0
            others = [p for p in range(base, base + 3) if p != c]
            for p, q in (others, others[::-1]):
                if rank_of[idx[p]] > rank_of[idx[q]]:
                    continue
                cand = [rank_of[idx[p]], rank_of[idx[q]]] + _image(chutes[p], cols, digits) + \
                    _image(chutes[q], cols, digits)
                if best is None or cand < best:
                    best = cand
    return [int(v) for v in T.minlex[x]] + best[2:]


def naive_gangster_bands3(colset3) -> int:
    """Bands 3 whose column j holds the digits of mask ``colset3[j]`` (bits 1-9), column 1 in
    increasing order: cell by cell, row by row, with the row, column and box rules."""
    cols = [[x for x in range(1, 10) if m >> x & 1] for m in colset3]
    band = [[0] * 9 for _ in range(3)]

    def fill(p: int) -> int:
        if p == 27:
            return 1
        r, c = divmod(p, 9)
        if c == 0:  # column 1 sorted
            return fill_with(p, [sorted(cols[0])[r]])
        return fill_with(p, cols[c])

    def fill_with(p: int, options) -> int:
        r, c = divmod(p, 9)
        n = 0
        for x in options:
            if x in band[r][:c] or any(band[rr][c] == x for rr in range(r)):
                continue
            box = [band[rr][cc] for rr in range(3) for cc in range(3 * (c // 3), 3 * (c // 3) + 3)]
            if x in box:
                continue
            band[r][c] = x
            n += fill(p + 1)
            band[r][c] = 0
        return n

    return fill(0)
