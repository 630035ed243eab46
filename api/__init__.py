"""Sudoku symmetry engine: canonical forms, equivalence with the steps, the 416 bands, the rank
of every essentially different grid, a fast solver; Numba kernels, with an SQL catalog behind.

The flat API, for notebooks and scripts::

    >>> import sudoku_symmetry as ss
    >>> puzzle = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
    >>> ss.count(puzzle)                                   # solutions, counted up to 2
    1
    >>> ss.rank(ss.solve(puzzle))                          # its solution's catalog rank
    804894942
    >>> ss.grid(1)                                         # the catalog's first grid
    '123456789456789123789123456214365897365897214897214365531642978642978531978531642'

* :func:`canon` (minlex forms of grids and puzzles, ``pattern_first=True`` for the other
  convention), :func:`solve` (the solution or None), :func:`count` (solutions up to a limit),
  :func:`equivalent` (with the fewest steps from one sudoku to the other), :func:`band_index`
  (0-415), :func:`rank` and :func:`grid` (catalog rank <-> grid, from the shipped counts);
* :class:`Sudoku`, one sudoku as a value with those answers as methods, which draws itself in
  a notebook; :class:`Transform`, a transformation of the group.

One sudoku in gives one result (a string for a string, an array for an array); many in (a
list, a NumPy array of strings or of shape (N, 81) or (N, 9, 9), a pandas Series) give many, in
order, from one compiled call. Bad input raises ValueError naming the item and what is wrong.

Importing the package is cheap (no Numba, no SQLAlchemy): the engine is imported and its
compiled kernels loaded at the first call that needs them. Underneath: ``sudoku_symmetry.engine``
(the kernels and their array API), ``sudoku_symmetry.catalog`` (the SQL catalog), the commands.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Sudoku", "Transform", "__version__", "band_index", "canon", "count", "equivalent", "grid", "rank",
           "solve"]
__all__ += ["puzzles_on_pattern", "vicinity"]

_LAZY = {"Sudoku": "._sudoku", "Transform": ".engine.group.transform", "band_index": "._functions",
         "canon": "._functions", "count": "._functions", "equivalent": "._functions", "grid": "._functions",
         "rank": "._functions", "solve": "._functions"}
_LAZY.update(puzzles_on_pattern="._patterns_game", vicinity="._patterns_game")

if TYPE_CHECKING:
    from ._functions import band_index, canon, count, equivalent, grid, rank, solve
    from ._patterns_game import puzzles_on_pattern, vicinity
    from ._sudoku import Sudoku
    from .engine.group.transform import Transform


def __getattr__(name: str) -> Any:
    """The public names, imported at first use (``import sudoku_symmetry`` stays cheap)."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
