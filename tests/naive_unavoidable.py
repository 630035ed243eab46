"""Slow, obviously correct references for the unavoidable-set family.

* :func:`uas_by_refilling`: empty the cells of every set of k digits, let the solver list every
  refilling, keep the cells that changed, then the minimal ones. Independent of the templates.
* :func:`two_digit_uas`: the issue's brute force for two digits: every set of rows in which two
  digits can be swapped giving a valid grid, minimal ones kept.
* :func:`puzzles_by_emptying`: every puzzle of 81 - k clues of a grid, by emptying every set of k
  cells and asking the solver (k up to 4).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from sudoku_symmetry.engine.solve import all_solutions, count_solutions
from sudoku_symmetry.engine.validity import is_grid


def minimal_only(sets: set[frozenset]) -> set[frozenset]:
    return {s for s in sets if not any(t < s for t in sets)}


def uas_by_refilling(grid: np.ndarray, max_size: int) -> set[frozenset]:
    """Every minimal UA with at most ``max_size`` cells (each has at most max_size / 2 digits)."""
    found: set[frozenset] = set()
    for k in range(2, max_size // 2 + 1):
        for digits in combinations(range(1, 10), k):
            puzzle = np.where(np.isin(grid, digits), 0, grid).astype(np.uint8)
            for sol in all_solutions(puzzle):
                diff = frozenset(np.flatnonzero(sol != grid).tolist())
                if 0 < len(diff) <= max_size:
                    found.add(diff)
    return minimal_only(found)


def two_digit_uas(grid: np.ndarray) -> set[frozenset]:
    """For each pair of digits, every set of rows where swapping them gives a valid grid."""
    found: set[frozenset] = set()
    rows = grid.reshape(9, 9)
    for a, b in combinations(range(1, 10), 2):
        for mask in range(1, 512):
            g = rows.copy()
            cells = []
            for r in range(9):
                if mask >> r & 1:
                    ca, cb = int(np.flatnonzero(rows[r] == a)[0]), int(np.flatnonzero(rows[r] == b)[0])
                    g[r, ca], g[r, cb] = b, a
                    cells += [9 * r + ca, 9 * r + cb]
            if is_grid(g.reshape(1, 81))[0]:
                found.add(frozenset(cells))
    return minimal_only(found)


def puzzles_by_emptying(grid: np.ndarray, empty: int) -> set[frozenset]:
    """The clue sets (as frozensets of cells) of every puzzle of 81 - ``empty`` clues of ``grid``."""
    holes = list(combinations(range(81), empty))
    out: set[frozenset] = set()
    for start in range(0, len(holes), 200_000):
        part = np.array(holes[start:start + 200_000], dtype=np.int64).reshape(-1, empty)
        batch = np.repeat(grid[None, :], len(part), axis=0)
        batch[np.arange(len(part))[:, None], part] = 0
        unique = count_solutions(batch, 2).counts == 1
        for h in part[unique]:
            out.add(frozenset(range(81)) - frozenset(h.tolist()))
    return out
