"""Row, column and box conflicts among the givens of a sudoku, and whether a sudoku is a grid."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._jit import kernel
from .text import as_batch


@dataclass(frozen=True)
class Conflict:
    """``digit`` appears more than once in ``unit`` (e.g. "row 3"), at ``cells`` (1-based r, c)."""

    unit: str
    digit: int
    cells: tuple

    def __str__(self) -> str:
        where = ", ".join(f"r{r}c{c}" for r, c in self.cells)
        return f"digit {self.digit} repeated in {self.unit} at {where}"


def _units():
    for i in range(9):
        yield f"row {i + 1}", [(i, j) for j in range(9)]
    for j in range(9):
        yield f"column {j + 1}", [(i, j) for i in range(9)]
    for b in range(9):
        r0, c0 = 3 * (b // 3), 3 * (b % 3)
        yield f"box {b + 1}", [(r0 + i, c0 + j) for i in range(3) for j in range(3)]


def conflicts(sudoku) -> list[Conflict]:
    """Every repeated digit in a row, column or box of one sudoku (81 cells, 0 = empty)."""
    cells = as_batch(sudoku)[0].reshape(9, 9)
    found = []
    for unit, members in _units():
        seen: dict[int, list] = {}
        for r, c in members:
            v = int(cells[r, c])
            if v:
                seen.setdefault(v, []).append((r + 1, c + 1))
        for digit, where in sorted(seen.items()):
            if len(where) > 1:
                found.append(Conflict(unit, digit, tuple(where)))
    return found


def is_valid(sudokus) -> np.ndarray:
    """Batch check: True where no digit repeats in a row, column or box. (N, 81) -> (N,) bool."""
    batch = as_batch(sudokus)
    out = np.empty(len(batch), dtype=np.bool_)
    _valid_kernel(batch, out)
    return out


@kernel
def _valid_kernel(batch, out):
    for k in range(batch.shape[0]):
        s = batch[k]
        ok = True
        rows = np.zeros(9, np.uint16)
        cols = np.zeros(9, np.uint16)
        boxes = np.zeros(9, np.uint16)
        for p in range(81):
            v = s[p]
            if v == 0:
                continue
            bit = np.uint16(1) << np.uint16(v - 1)
            i = p // 9
            j = p % 9
            b = (i // 3) * 3 + j // 3
            if (rows[i] & bit) or (cols[j] & bit) or (boxes[b] & bit):
                ok = False
                break
            rows[i] |= bit
            cols[j] |= bit
            boxes[b] |= bit
        out[k] = ok


def is_grid(sudokus) -> np.ndarray:
    """The one test of "grid or puzzle": True where a sudoku is complete (no empty cell) and
    valid. Everything else is a puzzle (a partial grid, possibly with conflicts)."""
    batch = as_batch(sudokus)
    return (batch > 0).all(axis=1) & is_valid(batch)
