"""Canonical forms of a batch that mixes solution grids and puzzles, each by its own algorithm.

A complete valid grid (:func:`..validity.is_grid`) gets the grid minlex form; anything else
is a puzzle and gets pure minlex, or pattern-first with ``pattern_first``. The same decision
is used by ``equivalence``, so ``canon`` and ``equiv`` never disagree on what a line is.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.layout import SIZE
from ..text import as_batch
from ..validity import is_grid
from .grid import canon_grids
from .puzzle import canon_puzzles


class MixedForms(NamedTuple):
    """Per sudoku: ``forms`` (N, 81), ``transforms`` (N, SIZE) with ``apply_batch(transforms,
    sudokus) == forms``, ``automorphisms`` (N,) counts, ``is_grid`` (N,) bool."""

    forms: np.ndarray
    transforms: np.ndarray
    automorphisms: np.ndarray
    is_grid: np.ndarray


def canonicalize(sudokus, pattern_first: bool = False) -> MixedForms:
    """Canonical forms of conflict-free sudokus (a puzzle that repeats a digit in a row or
    column raises ValueError; check with :func:`..validity.is_valid` first)."""
    batch = as_batch(sudokus)
    n = len(batch)
    forms = np.zeros((n, 81), np.uint8)
    transforms = np.zeros((n, SIZE), np.uint8)
    counts = np.zeros(n, np.int64)
    grid = is_grid(batch) if n else np.zeros(0, bool)
    for mask, is_g in ((grid, True), (~grid, False)):
        if not mask.any():
            continue
        part = np.ascontiguousarray(batch[mask])
        f, t, c = canon_grids(part) if is_g else canon_puzzles(part, pattern_first=pattern_first)
        forms[mask], transforms[mask], counts[mask] = f, t, c
    return MixedForms(forms, transforms, counts, grid)
