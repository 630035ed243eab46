"""``ss.puzzles_on_pattern`` and ``ss.vicinity``: every puzzle on a clue pattern (the Patterns
Game's question), and the {-n+m} neighbourhood of puzzles (the hunters' walk)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._inputs import items


def puzzles_on_pattern(pattern: Any, *, fixed: Any = None, minimal: bool = False, limit: int | None = None,
                       rating: Any = None) -> list[str]:
    """Every puzzle whose givens sit on exactly the cells of ``pattern``, once per class: two
    puzzles on the pattern are one class when an automorphism of the pattern (a transformation
    mapping its cells onto themselves) and a relabelling map one onto the other, so each
    essentially different puzzle on the pattern comes once. The pattern is 81 characters (``.``
    empty, any other character a clue: a puzzle reads as its own pattern) or 9 lines of ``x``
    and ``.``. ``fixed``: digits some of the pattern's cells must hold (the other digits free);
    ``minimal``: only minimal puzzles; ``rating``: only those whose Sudoku Explainer rating (ER)
    lies in a range (``"7-8"``, ``"9-"``, or a pair), rated no deeper than the range needs;
    ``limit``: at most that many. A whole 17-clue pattern takes hours of one core (three and a
    half for the one measured); with some digits fixed, seconds. Puzzles come as 81-character
    strings, digits renamed in order of first appearance in reading order (fixed digits kept).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> p = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
        >>> ss.puzzles_on_pattern(p, fixed=p[:60] + "." * 21)
        ['.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...']
        >>> x = "x.x.x.x.x" + "." * 72   # a pattern of 5 cells has no puzzle
        >>> ss.puzzles_on_pattern(x)
        []
    """
    from .engine.explore import puzzles_on_pattern as search
    from .engine.text import format_lines

    if isinstance(limit, bool) or (limit is not None and (not isinstance(limit, (int, np.integer)) or limit < 1)):
        raise ValueError(f"limit must be a whole number from 1, got {limit!r}")
    pat = _pattern(pattern)
    fix = None
    if fixed is not None:
        it = items(fixed)
        if not it.one:
            raise ValueError("fixed is one partial puzzle (81 cells)")
        fix = it.batch[0]
    return format_lines(search(pat, fixed=fix, minimal=minimal, limit=limit, rating=rating).puzzles)


def _pattern(pattern: Any) -> np.ndarray:
    from .engine.explore import parse_pattern

    if isinstance(pattern, str):
        return parse_pattern(pattern)
    arr = np.asarray(pattern)
    if arr.size != 81:
        raise ValueError(f"a pattern has 81 cells, got {arr.size}")
    return arr.reshape(81).astype(bool) if arr.dtype == bool else arr.reshape(81) != 0


def vicinity(x: Any, minus: int = 1, plus: int = 1, *, minimal: bool = False, clues: int | None = None,
             closure: int = 1, rating: Any = None) -> list[str]:
    """The unique puzzles reached from each puzzle by removing ``minus`` of its clues and adding
    ``plus`` givens (anywhere, any digit that breaks no row, column or box: the result need not
    share the original's solution), as canonical (minlex) forms, each class once, the inputs'
    own classes left out; ``minimal``: only minimal ones; ``clues``: only those with that many
    clues; ``rating``: only those whose Sudoku Explainer rating (ER) lies in a range (``"7-8"``;
    a walk then goes on from those). ``closure=R`` repeats the step R times on what the step before found first (the
    hunters' walk), every class reported once, in the order reached. Many puzzles in: one walk
    from all of them.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> p = ".................1.....2.3......45....1.6.....4......7....8.4....9...2..3.61...9."
        >>> near = ss.vicinity(p, 1, 1)
        >>> near, ss.count(near)
        (['................12.....3..4.....56....1.7.....5.....8.....9.5....2...3..4.71.....'], [1])
        >>> ss.vicinity(p, 1, 1, closure=3) == near   # the walk ends there: nothing new after step 1
        True
    """
    from .engine.explore import walk

    for name, value in (("minus", minus), ("plus", plus), ("closure", closure)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    if closure < 1:
        raise ValueError("closure must be 1 or more")
    it = items(x)
    from ._functions import _valid

    _valid(it, "puzzle")
    return [f for step in walk(it.batch, int(minus), int(plus), int(closure), minimal=minimal, clues=clues,
                               rating=rating)
            for f in step.forms]
