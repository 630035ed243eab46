"""``ss.Sudoku``: one grid or puzzle as a value (immutable, hashable, comparable), with the
engine's answers as methods and a drawing for notebooks."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .engine.canon import Equivalence
    from .engine.group.transform import Transform

_CELL = 32  # pixels per cell in the SVG drawing
_MARGIN = 2


class Sudoku:
    """One sudoku (a solution grid or a puzzle), made from an 81-character string (``.``, ``0``
    or ``*`` empty), 9 lines of 9 cells, an array of shape (81,) or (9, 9) (0 empty), or
    another Sudoku.

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
        """The canonical (minlex) form (see :func:`sudoku_symmetry.canon`)."""
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

    def rate(self, **options) -> Any:
        """Sudoku Explainer's rating, ER/EP/ED (see :func:`sudoku_symmetry.rate`)."""
        from ._rate import rate

        return rate(self, **options)

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
        """Are the two sudokus copies of each other (see :func:`sudoku_symmetry.equivalent`)?"""
        from ._functions import equivalent

        return equivalent(self, other)

    def transform(self, t: "Transform | str") -> "Sudoku":
        """The sudoku moved by a transformation (a :class:`Transform` or its string form
        ``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``, e.g. ``1:123456789:123456789:123456789`` transposes)."""
        from .engine.group.transform import Transform

        if isinstance(t, str):
            t = Transform.parse(t)
        return Sudoku(t.apply(self._cells))

    # -- the drawing --------------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        """The grid as SVG: 81 cells, thick lines around the boxes, the digits."""
        size = 9 * _CELL + 2 * _MARGIN
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
                 f'viewBox="0 0 {size} {size}" font-family="sans-serif" font-size="{_CELL * 5 // 8}">',
                 f'<rect width="{size}" height="{size}" fill="white"/>']
        for p, v in enumerate(self._cells.tolist()):
            x, y = _MARGIN + _CELL * (p % 9), _MARGIN + _CELL * (p // 9)
            parts.append(f'<rect class="cell" x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="none" '
                         f'stroke="#999" stroke-width="0.5"/>')
            if v:
                parts.append(f'<text x="{x + _CELL // 2}" y="{y + _CELL // 2}" text-anchor="middle" '
                             f'dominant-baseline="central">{v}</text>')
        for k in range(0, 10, 3):
            at = _MARGIN + _CELL * k
            parts.append(f'<line x1="{at}" y1="{_MARGIN}" x2="{at}" y2="{size - _MARGIN}" stroke="black" stroke-width="2"/>')
            parts.append(f'<line x1="{_MARGIN}" y1="{at}" x2="{size - _MARGIN}" y2="{at}" stroke="black" stroke-width="2"/>')
        parts.append("</svg>")
        return "".join(parts)
