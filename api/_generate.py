"""``ss.random_grids``, ``ss.generate``, ``ss.minimize``: making grids and puzzles."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._inputs import items


def random_grids(n: int, seed: int = 0, *, as_array: bool = False) -> Any:
    """``n`` random solution grids, each of the 6,670,903,752,021,072,936,960 grids exactly
    equally likely (see :mod:`sudoku_symmetry.engine.grids.uniform` for why), as 81-character
    strings (``as_array``: an (n, 81) uint8 array). The same ``seed`` gives the same grids, and a
    shorter draw is the start of a longer one.

    >>> import sudoku_symmetry as ss
    >>> grids = ss.random_grids(2, seed=1)
    >>> len(grids), all(ss.count(g) == 1 for g in grids)
    (2, True)
    >>> ss.random_grids(1, seed=1) == grids[:1]
    True
    """
    from .engine.grids.uniform import uniform_grids
    from .engine.text import format_lines

    out = uniform_grids(int(n), seed)
    return out if as_array else format_lines(out)


def generate(n: int = 1, seed: int = 0, *, clues: Any = None, symmetry: str = "none", rating: Any = None,
             as_array: bool = False) -> Any:
    """``n`` minimal puzzles, each made top-down from an exactly uniform random grid: its givens
    removed in a random order while the puzzle keeps one solution. ``clues`` keeps those with a
    number of givens in a range (``"22-24"``, ``24``); ``symmetry`` makes the pattern of givens
    symmetric (``rotate180``, ``rotate90``, ``horizontal``, ``vertical``, ``orthogonal``,
    ``diagonal``, ``antidiagonal``, ``bidiagonal``, ``dihedral``, ``bands``, ``stacks``,
    ``boxes``: :mod:`sudoku_symmetry.engine.generate.symmetry`; the puzzle is then minimal among
    the puzzles with that symmetry); ``rating`` keeps those whose Sudoku
    Explainer rating (ER) lies in a range (``"7-8"``). Strings (``as_array``: an (n, 81) uint8
    array). The same ``seed`` and options give the same puzzles.

    >>> import sudoku_symmetry as ss
    >>> p = ss.generate(1, seed=4, symmetry="rotate180")[0]
    >>> ss.count(p), all((p[k] == ".") == (p[80 - k] == ".") for k in range(81))
    (1, True)

    Statistics of many (the mean and spread of the clue count, against the published figures)
    are on the docs page about making puzzles; ``sudoku_symmetry.engine.generate.generate``
    gives the grids, the attempt numbers and how each removal was decided as well.
    """
    from .engine.generate import generate as make
    from .engine.text import format_lines

    made = make(int(n), seed, symmetry=symmetry, clues=clues, rating=rating)
    return made.puzzles if as_array else format_lines(made.puzzles)


def minimize(x: Any, order: Any = "random", seed: int = 0, all: bool = False) -> Any:  # noqa: A002
    """Each puzzle made minimal: givens removed one at a time, in ``order``, whenever the puzzle
    keeps its one solution; what is left is minimal (no given can go). ``order``: ``"random"``
    (reproducible by ``seed``), ``"forward"`` (r1c1 to r9c9), ``"backward"``, or a list of cells
    0-80 tried in that order. With ``all=True``: every minimal puzzle whose givens are among the
    puzzle's, each once (a list per puzzle; the number can grow quickly with the redundant givens).

    >>> import sudoku_symmetry as ss
    >>> ss.minimize(ss.grid(1000), order="forward")
    '...............123...123456.1...5..7..5..8.....7...6......34....415...78.3.8.756.'
    >>> p = ss.minimize(ss.grid(1000), seed=3)
    >>> ss.count(p), 81 - p.count(".")
    (1, 24)
    >>> ss.minimize("." * 81)
    Traceback (most recent call last):
    ...
    ValueError: not a unique puzzle: more than one solution

    One puzzle in, one out (a list with ``all``); many in, many out in the same form.
    """
    from ._functions import _name, _valid
    from .engine.generate import minimal_inside
    from .engine.generate import minimize as engine_minimize
    from .engine.solve import count_solutions

    it = items(x)
    _valid(it, "puzzle")
    counts = count_solutions(it.batch, 2).counts
    bad = np.flatnonzero(counts != 1)
    if len(bad):
        k = int(bad[0])
        why = f"not a unique puzzle: {'no solution' if counts[k] == 0 else 'more than one solution'}"
        raise ValueError(why if it.one else f"{_name(it, k)}: {why}")
    if all:
        from .engine.text import format_lines

        found = [format_lines(minimal_inside(p)[0]) for p in it.batch]
        return found[0] if it.one else found
    out, _ = engine_minimize(it.batch, order=order, seed=seed)
    return it.sudokus(out)
