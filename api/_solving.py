"""Solving beyond one solution: every solution, minimality, what logic alone reaches, and the
set-logic eliminations with the sets that explain them (``ss.solutions``, ``ss.is_minimal``,
``ss.solve_logic``, ``ss.setlogic``)."""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence, overload

import numpy as np

from ._inputs import items

if TYPE_CHECKING:
    from ._sudoku import Sudoku

_STATUS = ("solved", "stuck", "contradiction")


@overload
def solutions(x: str, limit: int | None = None) -> list[str]: ...
@overload
def solutions(x: Sequence[str], limit: int | None = None) -> list[list[str]]: ...


def solutions(x: Any, limit: int | None = None) -> Any:
    """Every solution of each puzzle (at most ``limit``), in the solver's order: a list of
    strings for one puzzle (of ``Sudoku`` values for a ``Sudoku``), a list of such lists for many.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> p = ss.datasets.load("tdoku-tests")[36]                  # 3 solutions
        >>> len(ss.solutions(p)), ss.count(p, limit=10)
        (3, 3)
        >>> len(ss.solutions("." * 81, limit=5))
        5
    """
    from .engine.solve import all_solutions
    from .engine.text import format_lines

    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1):
        raise ValueError(f"limit must be a whole number of at least 1, got {limit!r}")
    from ._inputs import ONE_SUDOKU
    from ._sudoku import Sudoku

    it = items(x)
    kinds = [it.form] if it.one else list(it.kinds) or [None] * len(it.batch)
    found = []
    for p, kind in zip(it.batch, kinds):
        texts = format_lines(all_solutions(p, None if limit is None else int(limit)))
        found.append([Sudoku(t) for t in texts] if kind == ONE_SUDOKU else texts)
    return it.values(found, as_array=False)


@overload
def is_minimal(x: "str | Sudoku") -> bool: ...
@overload
def is_minimal(x: Sequence[str]) -> list[bool]: ...
@overload
def is_minimal(x: np.ndarray) -> np.ndarray: ...


def is_minimal(x: Any) -> Any:
    """True for a minimal puzzle: a unique solution, and removing any one given leaves several.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> p17 = ss.datasets.load("17clue")[0]
        >>> ss.is_minimal(p17)                        # every 17-clue puzzle is minimal
        True
        >>> ss.is_minimal([p17, ss.solve(p17), "." * 81])
        [True, False, False]
    """
    from .engine.solve import check

    it = items(x)
    counts, minimal = check(it.batch)
    return it.values(np.asarray(minimal, bool) & (np.asarray(counts) == 1))


@dataclass(frozen=True)
class LogicState:
    """What logic alone (singles, locked candidates, the band permutation rule; no guess) makes of
    a puzzle: ``status`` is ``"solved"``, ``"stuck"`` or ``"contradiction"``; ``sudoku`` the
    digits placed, ``.`` where open; ``candidates`` the 81 cells' possible digits (``"4"`` for a
    placed 4, ``"2679"`` for an open cell). In a notebook it draws the candidates.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> state = ss.solve_logic(ss.datasets.load("sudoku3m")[0])
        >>> state.status, state.sudoku == ss.solve(ss.datasets.load("sudoku3m")[0])
        ('solved', True)
    """

    status: str
    sudoku: str
    candidates: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.sudoku} {self.status}"

    def _repr_svg_(self) -> str:
        from .pictures.svg import board_svg

        return board_svg(self.sudoku, candidates=[c if v == "." else "" for c, v in zip(self.candidates, self.sudoku)],
                         title=f"logic alone: {self.status}")


@overload
def solve_logic(x: "str | Sudoku") -> "LogicState": ...
@overload
def solve_logic(x: Sequence[str]) -> "list[LogicState]": ...


def solve_logic(x: Any) -> Any:
    """What logic alone reaches on each puzzle, without guessing (a `LogicState`).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> easy = ss.datasets.load("sudoku3m")[0]
        >>> ss.solve_logic(easy).status
        'solved'
        >>> s = ss.solve_logic(ss.datasets.load("17clue")[0])
        >>> s.status, s.sudoku.count("."), s.candidates[0]
        ('stuck', 54, '89')
    """
    from .engine.solve.solver import logic_state
    from .engine.text import format_sudoku

    it = items(x)
    out = []
    for p in it.batch:
        st = logic_state(p)
        cands = tuple("".join(str(d + 1) for d in range(9) if int(c) >> d & 1) for c in st.candidates)
        out.append(LogicState(st.status, format_sudoku(st.cells), cands))
    return it.values(out, as_array=False)


@dataclass(frozen=True)
class Elimination:
    """A candidate that set logic removes (``"r1c2<>5"``), the sets whose permutations exclude it
    (in the order added: ``"5r1"`` digit 5 in row 1, ``"r1c2"`` the cell, ``"1r1+1r5"`` a unit),
    the assumption it holds under (None: always), and how small the explanation is proven to be
    (``smallest``, ``irreducible`` or ``all``).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> e = ss.setlogic(ss.datasets.load("17clue")[0], max_starts=3)[0]
        >>> print(e)
        r7c7<>1  (no permutation of sets 1c8, 1b9 has it)
        >>> e.minimal, e.assumption is None
        ('smallest', True)
    """

    candidate: str
    sets: tuple[str, ...]
    assumption: str | None = None
    minimal: str = "smallest"
    text: str = ""

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Elimination({self.text!r})"


def setlogic(x: Any, strategy: str = "fewest-perms", start: str | None = None, assume: str | None = None,
             max_sets: int | None = 8, max_starts: int | None = None, cap: int = 200_000) -> list[Elimination]:
    """Set-logic (permutation) eliminations on one puzzle, each with the smallest set of basic
    sets that explains it (``bin/setlogic``). With no ``start``, every set with two or more live
    candidates is tried as a start in turn (at most ``max_starts``); each start grows to
    ``max_sets`` sets. ``start`` names a set or unit (``"5r1"``, ``"r3c4"``, ``"1r1+1r5"``);
    ``assume`` a candidate assumed true or false (``"r1c2=5"``, ``"r1c2<>5"``) or several,
    comma-separated (a vector): the eliminations then hold under that assumption. Messages (the
    permutation cap reached, a contradiction) come as warnings.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> found = ss.setlogic(ss.datasets.load("17clue")[0], max_starts=3)
        >>> found[0]
        Elimination('r7c7<>1  (no permutation of sets 1c8, 1b9 has it)')
        >>> found[0].candidate, found[0].sets
        ('r7c7<>1', ('1c8', '1b9'))
    """
    from .engine.solve import setlogic as sl
    from .engine.validity import conflicts

    it = items(x)
    if not it.one:
        raise ValueError("setlogic takes one puzzle")
    puzzle = it.batch[0]
    found = conflicts(puzzle)
    if found:
        raise ValueError(f"the givens conflict, so the puzzle has no solution: {found[0]}")
    if start is not None and assume is not None:
        raise ValueError("give start or assume, not both")
    kw: dict = {}
    if assume is not None:
        cands = sl.parse_candidates(assume)
        if len(cands) == 1:
            kw["assume"] = cands[0]
        else:
            kw["start"] = (tuple(k for k, t in cands if t), tuple(k for k, _ in cands))
    elif start is not None:
        kw["start"] = start
    res = sl.eliminations(puzzle, strategy, cap=cap, max_sets=max_sets, max_starts=max_starts, **kw)
    for m in res.messages:
        warnings.warn(m, stacklevel=2)
    out = []
    for e in res.eliminations:
        if e.assumption is None:
            assumed = None
        else:
            a, truth = e.assumption
            assumed = a if isinstance(a, str) else sl.cand_name(a) if truth else sl.elim_name(a)
        out.append(Elimination(sl.elim_name(e.candidate), tuple(e.sets), assumed, e.minimal, str(e)))
    return out
