"""Example puzzle sets shipped with the package, by name: ``ss.datasets.load("17clue")``.

Every command reads them too: ``@NAME`` in place of a file (``sudoku solve --count @17clue``), and
``sudoku data NAME`` prints one (``sudoku data`` lists them). Each set keeps its own licence;
its origin and terms are in `SETS` and on the docs' data page.

Examples:
    >>> from sudoku_symmetry import datasets
    >>> datasets.names()
    ['17clue', 'sudoku3m', 'tdoku-tests', '16clue-multisol', '18clue-nosol']
    >>> puzzles = datasets.load("17clue")
    >>> len(puzzles), puzzles[0]
    (49158, '.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...')
    >>> print(datasets.info("17clue").licence)
    CC BY 2.5 (Gordon Royle)
"""
from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Literal, overload

if TYPE_CHECKING:
    import pandas as pd

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Dataset:
    """One shipped set: its name, how many puzzles, what they are, where they come from and the
    terms they are shipped under; ``fields`` names the columns of a line (``puzzle`` first;
    ``solutions`` is the exact number of solutions, ``solution`` the unique one)."""

    name: str
    puzzles: int
    description: str
    origin: str
    licence: str
    fields: tuple[str, ...] = ("puzzle",)

    @property
    def file(self) -> Path:
        """The compressed text file (gzip, one line per puzzle, fields joined by ``:``)."""
        return DATA_DIR / f"{self.name}.txt.gz"


SETS: dict[str, Dataset] = {d.name: d for d in [
    Dataset("17clue", 49_158,
            "every 17-clue sudoku with a unique solution, one per essentially different puzzle (the list "
            "is complete: no other 17-clue puzzle exists); not all lines are in one canonical form",
            "Gordon Royle's collection of minimum sudokus with later forum finds, as distributed with the "
            "tdoku solver's data", "CC BY 2.5 (Gordon Royle)"),
    Dataset("sudoku3m", 7_034,
            "easy to medium puzzles of 20-29 clues, each with a unique solution",
            "a sample of the \"3 million Sudoku puzzles with ratings\" set (Kaggle)",
            "CC0 1.0 (public domain)"),
    Dataset("tdoku-tests", 43,
            "puzzles with a known answer: 10 with no solution, 18 unique (with the solution), 15 with "
            "3 to 847 solutions", "the unit tests of the tdoku solver (Tom Dillon)",
            "BSD 2-Clause (Tom Dillon)", ("puzzle", "solutions", "solution")),
    Dataset("16clue-multisol", 1_000,
            "17-clue puzzles with one clue removed: 2 or more solutions each (no 16-clue sudoku exists), "
            "with the exact count", "derived by this project from the 17clue set", "CC BY 2.5 (Gordon Royle)",
            ("puzzle", "solutions")),
    Dataset("18clue-nosol", 1_000,
            "17-clue puzzles plus one clue that breaks no row, column or box but contradicts the solution: "
            "no solution, and no duplicate check can see it", "derived by this project from the 17clue set",
            "CC BY 2.5 (Gordon Royle)", ("puzzle", "solutions")),
]}
"""The shipped sets, by name."""


def names() -> list[str]:
    """The names of the shipped sets.

    Examples:
        >>> from sudoku_symmetry import datasets
        >>> "17clue" in datasets.names()
        True
    """
    return list(SETS)


def info(name: str) -> Dataset:
    """What the set ``name`` is: a `Dataset` (size, description, origin, licence).

    Examples:
        >>> from sudoku_symmetry import datasets
        >>> datasets.info("tdoku-tests").fields
        ('puzzle', 'solutions', 'solution')
    """
    try:
        return SETS[name]
    except (KeyError, TypeError):
        raise ValueError(f"no dataset named {name!r} (the shipped sets: {', '.join(SETS)})") from None


def lines(name: str) -> Iterator[str]:
    """The set's lines as shipped (fields joined by ``:``), without their line ends."""
    with gzip.open(info(name).file, "rt", encoding="ascii") as fh:
        for line in fh:
            yield line.rstrip("\n")


def puzzle_lines(name: str) -> Iterator[str]:
    """The set's puzzles, one 81-character line each (the first field): what ``@NAME`` gives a
    command, line for line."""
    for line in lines(name):
        yield line.split(":", 1)[0] + "\n"


@overload
def load(name: str, as_frame: Literal[False] = False) -> list[str]: ...
@overload
def load(name: str, as_frame: Literal[True]) -> "pd.DataFrame": ...


def load(name: str, as_frame: bool = False):
    """The puzzles of a shipped set, as a list of 81-character strings (``.`` for an empty cell);
    with ``as_frame=True`` a pandas DataFrame with one column per field (``puzzle``, and
    ``solutions`` and ``solution`` where the set has them), indexed by line number from 1. Where
    counting stopped at a million (``>=1000000`` in the file), ``solutions`` is 1000000 and the
    column ``solutions_exact`` says which counts are exact.

    Args:
        name: one of `names`.
        as_frame: a DataFrame instead of a list.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> top = ss.datasets.load("sudoku3m")[:3]
        >>> ss.count(top)
        [1, 1, 1]
        >>> df = ss.datasets.load("16clue-multisol", as_frame=True)
        >>> df.columns.tolist()
        ['puzzle', 'solutions', 'solutions_exact']
        >>> df["solutions"].head(3).tolist()
        [122150, 57128, 37702]
    """
    ds = info(name)
    rows = [line.split(":") for line in lines(name)]
    if not as_frame:
        return [r[0] for r in rows]
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("as_frame=True needs pandas (pip install pandas)") from None

    frame = pd.DataFrame({field: [r[k] if k < len(r) else None for r in rows] for k, field in enumerate(ds.fields)},
                         index=pd.RangeIndex(1, len(rows) + 1, name="line"))
    if "solutions" in frame:
        text = frame["solutions"]
        if text.str.startswith(">=").any():
            frame["solutions_exact"] = ~text.str.startswith(">=")
        frame["solutions"] = text.str.removeprefix(">=").astype("int64")
    return frame
