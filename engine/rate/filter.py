"""Keeping the puzzles whose Sudoku Explainer rating (ER) lies in a range, rating no deeper than
the range needs.

    >>> from sudoku_symmetry.engine.rate.filter import parse_rating, level_for
    >>> parse_rating("7-8"), parse_rating("9.5-"), level_for(8.0), level_for(9.0), level_for(20.0)
    ((7.0, 8.0), (9.5, 20.0), 0, 1, 5)

A filter that keeps ER <= hi needs a puzzle's exact ER only when it is at most hi: the rating
stops before the chaining producers whose every hint is harder than hi (``max_level``,
:data:`~sudoku_symmetry.engine.rate.rating.MAX_LEVEL`), and a puzzle that would need them gets a
lower bound above hi, which rejects it just as its exact ER would. So ``7-8`` never runs the
dynamic chains (+) nor the nested levels (their hints are 9.0 and more), and a range below 6.5
runs no chain at all: the costly part of rating is skipped exactly where the answer cannot
depend on it.
"""
from __future__ import annotations

import math

import numpy as np

from ._loop import LEVEL_FLOOR
from .rating import MAX_LEVEL, rate

ER_MAX = 20.0
"""The largest ER: Sudoku Explainer's figure for a puzzle its techniques cannot finish."""


def parse_rating(text) -> tuple[float, float] | None:
    """An ER range as ``(lo, hi)``, both ends included: ``"A-B"``, ``"A-"`` (A and harder),
    ``"-B"`` (up to B), ``"A"`` (exactly A), or a pair ``(lo, hi)`` (None for an open end);
    None stays None. ValueError, saying why, for anything else (not numbers, the low end above
    the high end, outside 0-20)."""
    if text is None:
        return None
    if isinstance(text, (tuple, list)):
        if len(text) != 2:
            raise ValueError(f"rating must be a range (lo, hi) of Sudoku Explainer ratings, got {text!r}")
        ends = [None if t is None else t for t in text]
    else:
        s = str(text).strip()
        ends = s.split("-", 1) if "-" in s else [s, s]
        ends = [e.strip() or None for e in ends]
    try:
        lo = 0.0 if ends[0] is None else float(ends[0])
        hi = ER_MAX if ends[1] is None else float(ends[1])
    except (TypeError, ValueError):
        raise ValueError(f"rating must be a range A-B of Sudoku Explainer ratings (ER, 0-20), got {text!r}") from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or not 0 <= lo <= hi <= ER_MAX:
        raise ValueError(f"rating must be a range within 0-20 with the low end first, got {text!r}")
    return lo, hi


def level_for(hi: float) -> int:
    """The smallest ``max_level`` whose bounds decide ER <= hi: the chains of the levels above
    it give hints harder than hi (``LEVEL_FLOOR``); -1 asks no chaining producer at all."""
    for level in range(-1, MAX_LEVEL):
        if LEVEL_FLOOR[level + 1] > hi:
            return level
    return MAX_LEVEL


def er_within(puzzles: np.ndarray, rating) -> tuple[np.ndarray, np.ndarray]:
    """``(keep, er)`` for the unique puzzles of ``puzzles`` ((N, 81) uint8) and the ER range
    ``rating`` (:func:`parse_rating`): ``keep`` whether each puzzle's ER lies in it, ``er`` its
    ER (exact where kept; a lower bound above the range where the rating stopped early)."""
    lo, hi = parse_rating(rating)
    batch = np.ascontiguousarray(puzzles, dtype=np.uint8).reshape(-1, 81)
    if not len(batch):
        return np.zeros(0, bool), np.zeros(0)
    er = np.array([r.er for r in rate(batch, max_level=level_for(hi))], float)
    return (er >= lo) & (er <= hi), er
