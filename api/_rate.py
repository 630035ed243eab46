"""``ss.rate``: how hard a puzzle is, as Sudoku Explainer rates it (ER/EP/ED, and the path)."""
from __future__ import annotations

from typing import Any

from ._inputs import SERIES, items


def rate(x: Any, *, max_level: int = 5, steps: bool = False, line: str = "1.2.1.3") -> Any:
    """Sudoku Explainer's rating of each puzzle, the figures ``serate`` 1.2.1.3 prints: a
    :class:`~sudoku_symmetry.engine.rate.Rating` with ``er`` (the hardest step of the solution
    path), ``ep`` (the hardest step up to the first placed digit), ``ed`` (the first step) and,
    with ``steps=True``, the path itself (``.steps``: technique, difficulty, what each step
    places or removes).

    >>> import sudoku_symmetry as ss
    >>> r = ss.rate("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
    >>> print(r)
    9.0/1.2/1.2
    >>> r.er, r.ep, r.ed
    (9.0, 1.2, 1.2)
    >>> print(ss.rate("..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4",
    ...               max_level=0))
    >=9.3/>=9.3/2.6

    ``max_level`` (0-5) stops before chains nested deeper than it (0: up to dynamic forcing
    chains, 1: "Dynamic Forcing Chains (+)", 2-5: the nested levels, which take seconds to
    minutes on the hardest puzzles); a puzzle that needs more gets lower bounds (``complete``
    False, printed ``>=``). ``line="2022"`` lets the "Direct" hints also remove their
    candidates, as the 2022 line of Sudoku Explainer does.

    One puzzle in, one rating out; a list or array in, a list out; a pandas Series in, a
    DataFrame out (columns ``er``, ``ep``, ``ed``, ``complete``, the Series' index). A puzzle
    without exactly one solution raises ValueError:

    >>> ss.rate("." * 81)
    Traceback (most recent call last):
    ...
    ValueError: not a unique puzzle (at least 1000 solutions)
    """
    from ._functions import _name, _valid
    from .engine.rate import not_unique
    from .engine.rate import rate as engine_rate

    it = items(x)
    _valid(it, "puzzle")
    bad = not_unique(it.batch)
    if bad:
        k = min(bad)
        raise ValueError(bad[k] if it.one else f"{_name(it, k)}: {bad[k]}")
    ratings = engine_rate(it.batch, max_level=max_level, steps=steps, line=line)
    if it.one:
        return ratings[0]
    if it.form == SERIES:
        import pandas as pd

        return pd.DataFrame({"er": [r.er for r in ratings], "ep": [r.ep for r in ratings],
                             "ed": [r.ed for r in ratings], "complete": [r.complete for r in ratings]},
                            index=it.series.index)
    return list(ratings)
