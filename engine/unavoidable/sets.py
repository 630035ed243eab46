"""Every minimal unavoidable set of a grid up to a size (:func:`unavoidable_sets`); the kernels
and the proof of completeness are in :mod:`.collect`.

    >>> from sudoku_symmetry.engine.unavoidable import unavoidable_sets
    >>> uas = unavoidable_sets("123456789456789123789123456214365897365897214897214365531642978642978531978531642", 6)
    >>> uas.counts
    {4: 6, 6: 114}
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..canon import InvalidGridError
from ..core.sets import minimal_sets
from ..text import as_batch, format_sudoku, parse_lines
from ..validity import is_grid
from . import collect

MAX_SIZE = 18
"""The largest ``max_size`` accepted: the work grows about 7x per two cells (12: 25-40 ms, 14:
0.2 s, 16: 1.5 s, 18: about 12 s a grid)."""


@dataclass(frozen=True)
class UnavoidableSets:
    """The minimal UAs of ``grid`` with at most ``max_size`` cells, smallest first (cells in
    reading order break ties). ``masks`` (k, 2) uint64 (:mod:`.collect`'s layout), ``sizes`` (k,)."""

    grid: np.ndarray
    max_size: int
    masks: np.ndarray
    sizes: np.ndarray

    def __len__(self) -> int:
        return len(self.masks)

    @property
    def counts(self) -> dict[int, int]:
        """Number of sets per size (sizes with none left out)."""
        values, counts = np.unique(self.sizes, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts)}

    def cells(self, k: int) -> list[int]:
        """The cells (0-80, row by row) of set k."""
        return cells_of(self.masks[k])

    def as_puzzles(self) -> np.ndarray:
        """(k, 81) uint8: the grid's digits on each set's cells, 0 elsewhere."""
        return masks_to_arrays(self.masks, self.grid)

    def lines(self) -> list[str]:
        """One 81-character line per set: the grid's digit on its cells, ``.`` elsewhere."""
        return [format_sudoku(p) for p in self.as_puzzles()]


def cells_of(mask) -> list[int]:
    lo, hi = int(mask[0]), int(mask[1])
    return [c for c in range(64) if lo >> c & 1] + [64 + c for c in range(17) if hi >> c & 1]


def masks_to_arrays(masks: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """(k, 81) uint8: ``grid``'s digits on the cells of each mask, 0 elsewhere."""
    masks = np.asarray(masks, dtype=np.uint64).reshape(-1, 2)
    bits = np.arange(64, dtype=np.uint64)
    on = np.concatenate([(masks[:, :1] >> bits) & np.uint64(1), (masks[:, 1:] >> bits[:17]) & np.uint64(1)], axis=1)
    return (on.astype(np.uint8) * grid[None, :]).astype(np.uint8)


def arrays_to_masks(cells: np.ndarray) -> np.ndarray:
    """(k, 81) arrays (nonzero = in the set) -> (k, 2) uint64 masks."""
    on = np.asarray(cells).reshape(-1, 81) != 0
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    lo = (on[:, :64].astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    hi = (on[:, 64:].astype(np.uint64) * weights[:17]).sum(axis=1, dtype=np.uint64)
    return np.stack([lo, hi], axis=1)


def check_grid(grid) -> np.ndarray:
    """The (81,) uint8 cells of one complete valid grid, or :class:`InvalidGridError`."""
    batch = as_batch(grid)
    if len(batch) != 1:
        raise ValueError("expected one grid")
    if not is_grid(batch)[0]:
        raise InvalidGridError(f"{format_sudoku(batch[0])} is not a valid complete grid")
    return np.ascontiguousarray(batch[0])


NOT_A_GRID = "not a valid complete grid (81 digits 1-9, each row, column and box holding each digit once)"


def parse_grids(lines: list[str], source: str | None = None, first: int = 1):
    """The grids of text lines (the first is line ``first``; blank and ``#`` lines skipped,
    anything after ``:`` ignored): ``(line number, (81,) grid)`` for each valid complete grid and
    ``(line number, reason)`` for every other line (malformed, a puzzle, a grid breaking a rule),
    so that a caller drops nothing."""
    parsed = parse_lines(lines, source=source, allow_suffix=True, errors="collect", first_lineno=first)
    problems = [(e.lineno, e.message) for e in parsed.errors]
    valid = is_grid(parsed.sudokus).tolist() if len(parsed.sudokus) else []
    grids = []
    for k, lineno in enumerate(parsed.linenos.tolist()):
        if valid[k]:
            grids.append((lineno, parsed.sudokus[k]))
        else:
            problems.append((lineno, NOT_A_GRID))
    return grids, sorted(problems)


def _sorted_unique(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct masks ordered by size, then by their cells in reading order."""
    masks = np.unique(masks, axis=0)
    sizes = (np.bitwise_count(masks[:, 0]) + np.bitwise_count(masks[:, 1])).astype(np.int64)
    # a set whose first differing cell comes earlier sorts first: compare bit-reversed words
    rev = np.zeros_like(masks)
    for b in range(64):
        rev[:, 0] |= ((masks[:, 0] >> np.uint64(b)) & np.uint64(1)) << np.uint64(63 - b)
        rev[:, 1] |= ((masks[:, 1] >> np.uint64(b)) & np.uint64(1)) << np.uint64(63 - b)
    order = np.lexsort((~rev[:, 1], ~rev[:, 0], sizes))
    return np.ascontiguousarray(masks[order]), sizes[order]


def minimal_uas(grid: np.ndarray, max_size: int) -> tuple[np.ndarray, np.ndarray]:
    """(masks, sizes) of every minimal UA of at most ``max_size`` cells (grid already checked)."""
    moved = min(max_size // 2, 9)
    width = int(collect.TEMPLATES_WITHIN[2:moved + 1].sum()) if moved >= 2 else 1
    tl = np.zeros((9, width), np.uint64)
    th = np.zeros((9, width), np.uint64)
    tm = np.zeros((9, width), np.int64)
    tdig = np.zeros((9, width), np.int64)
    counts = np.zeros(9, np.int64)
    if moved < 2:
        return np.zeros((0, 2), np.uint64), np.zeros(0, np.int64)
    collect.digit_templates(grid, moved, tl, th, tm, tdig, counts)
    out = np.zeros((4096, 2), np.uint64)
    while True:
        n = collect.ua_candidates(grid, max_size, tl, th, tm, tdig, counts, out)
        if n <= len(out):
            break
        out = np.zeros((2 * n, 2), np.uint64)
    if n == 0:
        return np.zeros((0, 2), np.uint64), np.zeros(0, np.int64)
    masks, sizes = _sorted_unique(out[:n])
    keep = np.zeros(len(masks), np.int64)
    k = minimal_sets(masks, len(masks), keep)
    keep = keep[:k]
    return np.ascontiguousarray(masks[keep]), sizes[keep]


def unavoidable_sets(grid, max_size: int = 12) -> UnavoidableSets:
    """Every minimal unavoidable set of ``grid`` with at most ``max_size`` cells: complete (no
    minimal UA of that size is missing; the argument is in :mod:`.collect`), each once, smallest first.

    A minimal UA has at least 4 cells, and every digit in it occurs at least twice (so a UA of s
    cells holds at most s / 2 digits). ``max_size`` from 0 to :data:`MAX_SIZE`.
    """
    cells = check_grid(grid)
    if not 0 <= int(max_size) <= MAX_SIZE:
        raise ValueError(f"max_size must be between 0 and {MAX_SIZE}, got {max_size}")
    masks, sizes = minimal_uas(cells, int(max_size))
    return UnavoidableSets(cells, int(max_size), masks, sizes)
