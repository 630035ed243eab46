"""``ss.Sudoku``: one grid or puzzle as a value (immutable, hashable, comparable), with the
engine's answers as methods and a drawing for notebooks; ``ss.Equivalence``, the answer of
``ss.equivalent``, which draws both sudokus with the steps between them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .engine.canon.equivalence import Equivalence as _EngineEquivalence

if TYPE_CHECKING:
    from .engine.group.transform import Transform


class Sudoku:
    """One sudoku (a solution grid or a puzzle), made from an 81-character string (``.``, ``0``
    or ``*`` empty), 9 lines of 9 cells, an array of shape (81,) or (9, 9) (0 empty), or
    another Sudoku.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> s = ss.Sudoku(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...")
        >>> s.givens, s.is_grid, s.count()
        (17, False, 1)
        >>> print(s.solve().block())
        9 5 3 | 1 6 8 | 7 4 2
        8 6 2 | 7 3 4 | 9 5 1
        4 1 7 | 9 5 2 | 8 3 6
        ------+-------+------
        7 4 6 | 8 9 3 | 1 2 5
        2 8 1 | 6 4 5 | 3 9 7
        3 9 5 | 2 7 1 | 4 6 8
        ------+-------+------
        1 3 8 | 5 2 9 | 6 7 4
        5 7 4 | 3 8 6 | 2 1 9
        6 2 9 | 4 1 7 | 5 8 3
        >>> s.canon() == ss.Sudoku(ss.canon(str(s)))
        True
        >>> len(ss.Sudoku(ss.grid(1)).automorphisms())
        3

        ``str()`` is the 81-character line, ``np.asarray(s)`` the (9, 9) array of digits (0 empty),
        and in a notebook the sudoku draws itself (``_repr_svg_``).
    """

    __slots__ = ("_cells",)

    def __init__(self, sudoku: Any):
        from ._inputs import items

        if isinstance(sudoku, Sudoku):
            self._cells = sudoku._cells
            return
        it = items(sudoku)
        if not it.one:
            raise ValueError(f"a Sudoku is one sudoku; got {len(it.batch)} (use the functions for many)")
        cells = it.batch[0].copy()
        cells.setflags(write=False)
        self._cells = cells

    # -- the value ---------------------------------------------------------------------------
    @property
    def cells(self) -> np.ndarray:
        """The 81 cells in row order, read-only uint8, 0 for empty."""
        return self._cells

    @property
    def givens(self) -> int:
        """How many cells are filled."""
        return int(np.count_nonzero(self._cells))

    @property
    def is_grid(self) -> bool:
        """True for a complete, valid solution grid (every other sudoku is a puzzle)."""
        from .engine.validity import is_grid

        return bool(is_grid(self._cells[None, :].copy())[0])

    def __str__(self) -> str:
        from .engine.text import format_sudoku

        return format_sudoku(self._cells)

    def __repr__(self) -> str:
        return f"Sudoku({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sudoku) and bool(np.array_equal(self._cells, other._cells))

    def __hash__(self) -> int:
        return hash(self._cells.tobytes())

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        a = self._cells.reshape(9, 9)
        return a.astype(dtype) if dtype is not None else a.copy()

    def block(self) -> str:
        """The sudoku as 9 lines with box borders, ``.`` for empty."""
        s = str(self)
        out = []
        for i in range(9):
            row = s[9 * i : 9 * i + 9]
            out.append(" | ".join(" ".join(row[3 * k : 3 * k + 3]) for k in range(3)))
            if i in (2, 5):
                out.append("------+-------+------")
        return "\n".join(out)

    # -- the engine's answers ----------------------------------------------------------------
    def canon(self, pattern_first: bool = False) -> "Sudoku":
        """The canonical (minlex) form (see `canon`)."""
        from ._functions import canon

        return canon(self, pattern_first)

    def solve(self) -> "Sudoku | None":
        """The solution (the first found when there are several), or None."""
        from ._functions import solve

        return solve(self)

    def count(self, limit: int = 2) -> int:
        """The number of solutions, counted up to ``limit``."""
        from ._functions import count

        return count(self, limit)

    def automorphisms(self) -> list["Transform"]:
        """Every transformation mapping the sudoku onto itself (the identity included); for a
        puzzle digits it does not use are relabelled freely, so a nearly empty puzzle has very
        many (more than a million raise ValueError)."""
        from ._functions import _valid
        from ._inputs import items
        from .engine.canon import grid_automorphisms, puzzle_automorphisms

        _valid(items(self))
        cells = self._cells.copy()  # writable, as the commands pass them (one compiled specialization)
        return grid_automorphisms(cells) if self.is_grid else puzzle_automorphisms(cells)

    def equivalent(self, other: Any) -> "Equivalence":
        """Are the two sudokus copies of each other (see `equivalent`)?"""
        from ._functions import equivalent

        return equivalent(self, other)

    def transform(self, t: "Transform | str") -> "Sudoku":
        """The sudoku moved by a transformation (a `Transform` or its string form
        ``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``, e.g. ``1:123456789:123456789:123456789`` transposes)."""
        from .engine.group.transform import Transform

        if isinstance(t, str):
            t = Transform.parse(t)
        return Sudoku(t.apply(self._cells))

    # -- the drawing --------------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        """The sudoku as SVG (givens bold), as a notebook shows it."""
        from .pictures.svg import board_svg

        return board_svg(str(self))


@dataclass(frozen=True)
class Equivalence(_EngineEquivalence):
    """Whether two sudokus are copies of each other, and the fewest steps from ``a`` to ``b``:
    what `equivalent` answers.

    True when they are; ``steps`` lists the steps in words, ``forward`` is the transformation
    (``forward.apply`` maps ``a`` onto ``b``), ``backward`` its inverse, ``reason`` says why not;
    ``kind`` is ``"grid"``, ``"puzzle"`` or ``"mixed"`` (a grid and a puzzle: never copies). In a
    notebook it draws both sudokus side by side with the verdict and the steps.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> e = ss.equivalent(ss.grid(1), ss.Sudoku(ss.grid(1)).transform("0:213456789:123456789:123456789"))
        >>> e
        Equivalence(True, 'grid', steps=['reorder rows 1-3 to 2,1,3'])
        >>> ss.equivalent(ss.grid(1), ss.datasets.load("17clue")[0])
        Equivalence(False, 'mixed', reason='A is a grid and B a puzzle: a grid and a puzzle are never copies of each other')
    """

    a: str = ""
    b: str = ""

    def __repr__(self) -> str:
        if self.equivalent:
            return f"Equivalence(True, {self.kind!r}, steps={self.steps!r})"
        return f"Equivalence(False, {self.kind!r}, reason={self.reason!r})"

    def caption(self) -> list[str]:
        """The verdict and the steps, one line each (what the drawing writes under the sudokus)."""
        if not self.equivalent:
            return [f"not copies: {self.reason}"]
        lines = [f"copies: {self.forward} maps the first onto the second"]
        if not self.steps:
            return lines + ["(the same sudoku)"]
        return lines + [f"{k}. {step}" for k, step in enumerate(self.steps, 1)]

    def _repr_svg_(self) -> str:
        from .pictures.svg import pair_svg

        return pair_svg(self.a, self.b, caption=self.caption())
