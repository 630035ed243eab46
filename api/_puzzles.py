"""The puzzles inside a grid: its minimal unavoidable sets and every puzzle of n clues
(``ss.unavoidable_sets``, ``ss.puzzles_in_grid``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, overload

from ._functions import _grids
from ._inputs import items


@dataclass(frozen=True)
class UnavoidableSet:
    """A minimal unavoidable set of a grid: cells whose digits can be rearranged among themselves
    into another valid grid, so every puzzle of the grid has a clue in it. ``str()`` is the grid's
    digits on the set's cells, ``.`` elsewhere; ``cells`` are 0-80, row by row; in a notebook the
    set is drawn shaded on its grid.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ua = ss.unavoidable_sets(ss.grid(1), max_size=4)[0]
        >>> ua
        UnavoidableSet('12.........................21....................................................')
        >>> ua.size, ua.cells
        (4, (0, 1, 27, 28))
    """

    grid: str
    cells: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many cells the set has."""
        return len(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        inside = set(self.cells)
        return "".join(d if k in inside else "." for k, d in enumerate(self.grid))

    def __repr__(self) -> str:
        return f"UnavoidableSet({str(self)!r})"

    def _repr_svg_(self) -> str:
        from .pictures.svg import unavoidable_svg

        return unavoidable_svg(self.grid, self.cells)


@overload
def unavoidable_sets(grid: str, max_size: int = 12) -> list[UnavoidableSet]: ...
@overload
def unavoidable_sets(grid: Sequence[str], max_size: int = 12) -> list[list[UnavoidableSet]]: ...


def unavoidable_sets(grid: Any, max_size: int = 12) -> Any:
    """Every minimal unavoidable set of each grid with at most ``max_size`` cells (4-18), smallest
    first (cells in reading order break ties): a list of `UnavoidableSet` for one grid, a
    list of lists for many. The work grows about 7x per two cells (12: tens of milliseconds a
    grid, 18: seconds).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> sets = ss.unavoidable_sets(ss.grid(1), max_size=6)
        >>> len(sets), [s.size for s in sets].count(4)
        (120, 6)
        >>> str(sets[0])
        '12.........................21....................................................'
    """
    from .engine.text import format_sudoku
    from .engine.unavoidable import MAX_SIZE, unavoidable_sets as find
    from .engine.unavoidable.sets import cells_of

    if isinstance(max_size, bool) or not isinstance(max_size, int) or not 4 <= max_size <= MAX_SIZE:
        raise ValueError(f"max_size must be a whole number from 4 to {MAX_SIZE}, got {max_size!r}")
    it = items(grid)
    _grids(it)
    out = []
    for g in it.batch:
        text = format_sudoku(g)
        uas = find(g, max_size)
        out.append([UnavoidableSet(text, tuple(cells_of(m))) for m in uas.masks])
    return it.values(out, as_array=False)


def puzzles_in_grid(grid: Any, clues: int, minimal: bool = False, limit: int | None = None) -> Any:
    """Every puzzle of exactly ``clues`` givens whose unique solution is ``grid`` (``minimal``:
    only those from which no given can be removed), each once, as 81-character strings (``Sudoku``
    values for a ``Sudoku``). ``limit`` stops after that many; without it, a search that would
    return more than 16,777,216 raises ValueError (ask for fewer clues, ``minimal``, or a limit).
    For many grids, a list of lists. 16 clues (none exist: a proof for the grid) take about half
    a second a grid; 17 to 18 use the 17-clue search's band method.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> p17 = ss.datasets.load("17clue")[0]
        >>> ss.puzzles_in_grid(ss.solve(p17), 17) == [p17]      # its grid's only 17
        True
        >>> ss.puzzles_in_grid(ss.grid(1), 16)                   # no 16-clue puzzle
        []
    """
    from ._inputs import ONE_SUDOKU
    from ._sudoku import Sudoku
    from .engine.text import format_lines
    from .engine.unavoidable import TooManyPuzzles, puzzles_in_grid as search

    if isinstance(clues, bool) or not isinstance(clues, int) or not 0 <= clues <= 81:
        raise ValueError(f"clues must be a whole number from 0 to 81, got {clues!r}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"limit must be a whole number of at least 1, got {limit!r}")
    it = items(grid)
    _grids(it)
    kinds = [it.form] if it.one else list(it.kinds) or [None] * len(it.batch)
    out = []
    for g, kind in zip(it.batch, kinds):
        try:
            found = format_lines(search(g, clues, minimal=minimal, limit=limit).puzzles)
        except TooManyPuzzles as exc:
            raise ValueError(str(exc)) from None
        out.append([Sudoku(p) for p in found] if kind == ONE_SUDOKU else found)
    return it.values(out, as_array=False)
