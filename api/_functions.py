"""The flat functions of ``import sudoku_symmetry as ss`` (see the package docstring).

Each takes one sudoku or many (`_inputs`: strings, 9-line text, arrays of shape (81,),
(9, 9), (N, 81) or (N, 9, 9), lists, NumPy string arrays, pandas Series) and answers in the
same form and order; the work is one compiled call for the whole batch.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, overload

import numpy as np

from ._inputs import items

if TYPE_CHECKING:
    import pandas as pd

    from ._sudoku import Equivalence, Sudoku

RANK1 = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
_P17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."


def _valid(it, what: str = "sudoku") -> None:
    """Raise ValueError naming the first item that repeats a digit in a row, column or box."""
    from .engine.validity import conflicts, is_valid

    ok = is_valid(it.batch)
    if not ok.all():
        k = int(np.argmin(ok))
        where = "" if it.one else f"{_name(it, k)}: "
        raise ValueError(f"{where}not a {what}: {conflicts(it.batch[k])[0]}")


def _grids(it) -> None:
    """Raise ValueError naming the first item that is not a complete, valid solution grid."""
    from .engine.validity import is_grid

    ok = is_grid(it.batch)
    if not ok.all():
        k = int(np.argmin(ok))
        where = "" if it.one else f"{_name(it, k)}: "
        raise ValueError(f"{where}not a solution grid (every cell filled, no digit repeated in a row, column or box)")


def _bands(it) -> tuple[np.ndarray, np.ndarray]:
    """(index, transformation arrays) of a batch of bands; ValueError naming the first bad one."""
    from .engine.bands import ROW_PROBLEM, InvalidBandError
    from .engine.bands import band_index as index

    got, transforms = index(it.batch, check=False)
    bad = np.flatnonzero(got < 0)
    if len(bad):
        k = int(bad[0])
        where = "" if it.one else f"{_name(it, k)}: "
        raise ValueError(f"{where}not a band: {ROW_PROBLEM[int(got[k])]}") from InvalidBandError
    return got, transforms


def _name(it, k: int) -> str:
    return f"item {it.series.index[k]!r}" if it.series is not None else f"item {k}"


@overload
def canon(x: str, pattern_first: bool = False) -> str: ...
@overload
def canon(x: "Sudoku", pattern_first: bool = False) -> "Sudoku": ...
@overload
def canon(x: Sequence[str], pattern_first: bool = False) -> list[str]: ...
@overload
def canon(x: np.ndarray, pattern_first: bool = False) -> np.ndarray: ...
@overload
def canon(x: "pd.Series", pattern_first: bool = False) -> "pd.Series": ...


def canon(x: Any, pattern_first: bool = False) -> Any:
    """The canonical (minlex) form of each sudoku: a complete grid's minlex form, a puzzle's
    smallest string under the group with empty cells counted as 0 (or, with
    ``pattern_first``, the smallest pattern of givens first, then the digits).

    Copies of one sudoku (rotated, relabelled, rows and columns moved) have the same form:

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.canon("....95.........738........4.............6..2...87....3...........78.4....9....61.")
        '.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...'
        >>> ss.canon("456132789123798456789465123214879365365241897897356214531987642642513978978624531")
        '123456789456789123789123456214365897365897214897214365531642978642978531978531642'

        Many in, many out, in order (here a NumPy array of strings):

        >>> import numpy as np
        >>> ss.canon(np.array(["..3" + "." * 78, "." * 80 + "9"]))
        array(['.................................................................................1',
               '.................................................................................1'],
              dtype='<U81')

        A sudoku that repeats a digit in a row, column or box is refused:

        >>> ss.canon("11" + "." * 79)
        Traceback (most recent call last):
        ...
        ValueError: not a sudoku: digit 1 repeated in row 1 at r1c1, r1c2
    """
    from .engine.canon import canonicalize

    it = items(x)
    _valid(it)
    return it.sudokus(canonicalize(it.batch, pattern_first=pattern_first).forms)


@overload
def solve(x: str) -> str | None: ...
@overload
def solve(x: "Sudoku") -> "Sudoku | None": ...
@overload
def solve(x: Sequence[str]) -> list[str | None]: ...
@overload
def solve(x: np.ndarray) -> np.ndarray: ...
@overload
def solve(x: "pd.Series") -> "pd.Series": ...


def solve(x: Any) -> Any:
    """The solution of each puzzle, or None when it has none (the first one found when it has
    several; `count` tells them apart).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.solve(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...")
        '953168742862734951417952836746893125281645397395271468138529674574386219629417583'
        >>> ss.solve(["1" * 2 + "." * 79, "." * 81])[0] is None
        True
    """
    from .engine.solve import count_solutions

    it = items(x)
    res = count_solutions(it.batch, 1, solutions=True)
    return it.sudokus(res.solutions, res.counts > 0)


@overload
def count(x: "str | Sudoku", limit: int = 2) -> int: ...
@overload
def count(x: Sequence[str], limit: int = 2) -> list[int]: ...
@overload
def count(x: np.ndarray, limit: int = 2) -> np.ndarray: ...
@overload
def count(x: "pd.Series", limit: int = 2) -> "pd.Series": ...


def count(x: Any, limit: int = 2) -> Any:
    """The number of solutions of each puzzle, counted up to ``limit`` (the default 2 tells
    unique puzzles, 1, from the others).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.count(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...")
        1
        >>> ss.count("." * 81, limit=1000)
        1000
        >>> ss.count(["." * 81, "11" + "." * 79])
        [2, 0]
    """
    from .engine.solve import count_solutions

    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or not 1 <= limit < 1 << 63:
        raise ValueError(f"limit must be a whole number from 1 to 2**63 - 1, got {limit!r}")
    it = items(x)
    return it.values(count_solutions(it.batch, int(limit)).counts)


def equivalent(a: Any, b: Any) -> "Equivalence":
    """Are two sudokus copies of each other, and by which steps? The answer
    (`Equivalence`) is true when they are; ``.steps`` lists the fewest
    steps turning ``a`` into ``b``, ``.forward`` is that transformation (``.forward.apply(a)``
    gives ``b``), ``.reason`` says why not (a grid and a puzzle are never copies). In a notebook
    it draws both sudokus with the steps.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> a = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
        >>> b = "456132789123798456789465123214879365365241897897356214531987642642513978978624531"
        >>> e = ss.equivalent(a, b)
        >>> bool(e), e.kind
        (True, 'grid')
        >>> e.steps
        ['reorder stacks to 1,3,2', 'reorder rows 1-3 to 2,1,3', 'reorder columns 4-6 to 4,6,5']
        >>> str(ss.Sudoku(a).transform(e.forward)) == b
        True
        >>> ss.equivalent(a, ss.grid(2)).reason
        'their canonical forms differ'
    """
    from .engine.canon import equivalence

    from dataclasses import fields

    from ._sudoku import Equivalence
    from .engine.text import format_sudoku
    from .engine.validity import is_grid

    x, y = items(a), items(b)
    if not (x.one and y.one):
        raise ValueError("equivalent takes two sudokus (one each)")
    _valid(x)
    _valid(y)
    texts = {"a": format_sudoku(x.batch[0]), "b": format_sudoku(y.batch[0])}
    grid_a, grid_b = (bool(g) for g in is_grid(np.stack([x.batch[0], y.batch[0]])))
    if grid_a != grid_b:
        which = "A is a grid and B a puzzle" if grid_a else "A is a puzzle and B a grid"
        return Equivalence(False, "mixed", reason=f"{which}: a grid and a puzzle are never copies of each other", **texts)
    e = equivalence(x.batch[0], y.batch[0])
    return Equivalence(**{f.name: getattr(e, f.name) for f in fields(e)}, **texts)


@overload
def band_index(band: str) -> int: ...
@overload
def band_index(band: Sequence[str]) -> list[int]: ...
@overload
def band_index(band: np.ndarray) -> np.ndarray: ...


def band_index(band: Any) -> Any:
    """The index (0-415) of each band (27 cells: 3 full rows), the position of its minlex form
    among the 416 minlex bands.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.band_index("123456789456789123789123456")
        0
        >>> ss.band_index(["123456789456789123789123456", "123456789457893612986217354"])
        [0, 415]
    """
    it = items(band, 27, "band")
    got, _ = _bands(it)
    return it.values(got.astype(np.int64))


@overload
def rank(grid: "str | Sudoku") -> int: ...
@overload
def rank(grid: Sequence[str]) -> list[int]: ...
@overload
def rank(grid: np.ndarray) -> np.ndarray: ...
@overload
def rank(grid: "pd.Series") -> "pd.Series": ...


def rank(grid: Any) -> Any:
    """The catalog rank (1 to 5,472,730,538) of each solution grid: the position of its minlex
    form among all essentially different grids in minlex order. From the counts shipped with
    the package (no catalog; the first call in a new cache folder spends about 10 s building a
    memory-mapped index, later ones a few ms).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.rank("123456789456789123789123456214365897365897214897214365531642978642978531978531642")
        1
        >>> ss.rank(ss.grid([5472730538, 1000]))
        [5472730538, 1000]
    """
    from .shipped import rank_index

    it = items(grid)
    _grids(it)
    return it.values(rank_index().ranks_of(it.batch)[0])


@overload
def grid(rank: int) -> str: ...
@overload
def grid(rank: Sequence[int]) -> list[str]: ...
@overload
def grid(rank: np.ndarray) -> np.ndarray: ...
@overload
def grid(rank: "pd.Series") -> "pd.Series": ...


def grid(rank: Any) -> Any:
    """The solution grid at each catalog rank (1 to 5,472,730,538), as an 81-character string
    (a list for a list, a NumPy array of strings for an array, a Series for a Series); the
    inverse of `rank`.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.grid(1)
        '123456789456789123789123456214365897365897214897214365531642978642978531978531642'
        >>> ss.grid(0)
        Traceback (most recent call last):
        ...
        ValueError: rank must be a whole number from 1 to 5,472,730,538, got 0
    """
    from .engine.grids import N_ED_GRIDS
    from .engine.text import format_lines
    from .shipped import rank_index

    series = None
    if type(rank).__module__.startswith("pandas") and hasattr(rank, "to_numpy"):
        series = rank
    one = series is None and np.ndim(rank) == 0  # any single value, whatever its type: one answer or one error
    values = [rank] if one else list(series.to_numpy() if series is not None else np.asarray(rank).reshape(-1))
    for k, r in enumerate(values):
        r = values[k] = r.item() if isinstance(r, (np.generic, np.ndarray)) and np.ndim(r) == 0 else r
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= N_ED_GRIDS:
            where = "" if one else f"item {series.index[k]!r}: " if series is not None else f"item {k}: "
            raise ValueError(f"{where}rank must be a whole number from 1 to {N_ED_GRIDS:,}, got {r!r}")
    texts = format_lines(rank_index().grids_at(np.array(values, np.int64)))
    if one:
        return texts[0]
    if series is not None:
        import pandas as pd

        return pd.Series(texts, index=series.index, name=series.name)
    return texts if isinstance(rank, (list, tuple)) else np.array(texts).reshape(np.shape(rank))
