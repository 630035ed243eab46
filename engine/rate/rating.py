"""Sudoku Explainer's rating of puzzles: ER/EP/ED and the solution path.

:func:`rate` takes a batch of puzzles ((N, 81) uint8, 0 = empty, each with exactly one solution)
and returns one :class:`Rating` per puzzle. The kernels (``_loop`` and the producers) follow
Sudoku Explainer's ``serate`` 1.2.1.3: the same techniques, difficulties, search order and choice
among the hints found, so the figures are the ones ``serate`` prints.

``max_level`` stops before the chains nested deeper than it (-1: no chain at all; 0: up to
dynamic forcing chains; 1: dynamic chains (+); 2-5: the nested levels); a puzzle that would need them gets lower bounds
(``complete`` False). ``line="2022"`` applies the eliminations behind the "Direct" hints
(pointing, claiming, hidden pair and triplet) as the 2022 line of Sudoku Explainer does, besides
the placement 1.2.1.3 makes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import _hintlist, _loop, _multi, _tables
from .techniques import technique_name

MAX_LEVEL = 5
LINES = ("1.2.1.3", "2022")


def se_round(x: float) -> float:
    """A difficulty as ``serate`` prints it: ``(int)((x + 0.05) * 10)`` tenths."""
    return int((x + 0.05) * 10) / 10


def cell_name(cell: int) -> str:
    """Sudoku Explainer's cell notation (``r1c2``)."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


@dataclass(frozen=True)
class Step:
    """One step of a solution path: the technique, its difficulty, the digit it places (a
    ``(cell, digit)`` pair, cells 0-80, or None) and the candidates it removes (``(cell,
    digit)`` pairs, in cell order)."""

    number: int
    technique: str
    difficulty: float
    placement: tuple[int, int] | None
    eliminations: tuple[tuple[int, int], ...]

    @property
    def action(self) -> str:
        """What the step does, in SE's notation: ``r1c2<>58 r3c4<>5`` then ``r5c6=7``."""
        parts, cells = [], {}
        for c, d in self.eliminations:
            cells.setdefault(c, []).append(d)
        parts += [f"{cell_name(c)}<>{''.join(map(str, ds))}" for c, ds in cells.items()]
        if self.placement is not None:
            parts.append(f"{cell_name(self.placement[0])}={self.placement[1]}")
        return " ".join(parts)

    def __str__(self) -> str:
        return f"{self.number}. {self.technique} ({self.difficulty:.1f}): {self.action}"


@dataclass(frozen=True)
class Rating:
    """ER (the hardest step), EP (the hardest step up to the first placement), ED (the first
    step), as ``serate`` prints them; ``complete`` False when the rating stopped at
    ``max_level``: the three are then lower bounds. ``steps``: the solution path, when asked for."""

    er: float
    ep: float
    ed: float
    complete: bool = True
    steps: tuple[Step, ...] | None = field(default=None, compare=False)
    lower: tuple[bool, bool, bool] = (False, False, False)
    """Which of ER, EP, ED are lower bounds (all False when ``complete``)."""
    length: int = field(default=0, compare=False)
    """The number of steps of the solution path (up to where it stopped)."""

    def __str__(self) -> str:
        """``ER/EP/ED`` as ``serate`` prints it; a lower bound reads ``>=9.5``."""
        return "/".join((">=" if low else "") + f"{v:.1f}" for v, low in zip((self.er, self.ep, self.ed), self.lower))


def _steps(steps: np.ndarray, sdiff: np.ndarray, elims: np.ndarray, n: int) -> tuple[Step, ...]:
    out = []
    for i in range(min(n, len(steps))):
        s = steps[i]
        code, cell, value, a, b, c, e0, ne = (int(v) for v in s)
        el = tuple((int(k) // 9, int(k) % 9 + 1) for k in elims[e0:e0 + ne])
        out.append(Step(i + 1, technique_name(code, a, b, c), se_round(float(sdiff[i])),
                        (cell, value) if cell >= 0 else None, el))
    return tuple(out)


COUNT_CAP = 1000


def not_unique(batch: np.ndarray) -> dict[int, str]:
    """``{row: reason}`` for the puzzles of ``batch`` that do not have exactly one solution:
    ``not a unique puzzle (M solutions)``, M counted up to COUNT_CAP."""
    from ..solve import count_solutions

    counts = count_solutions(batch, 2).counts
    bad = np.flatnonzero(counts != 1)
    if not len(bad):
        return {}
    exact = count_solutions(batch[bad], COUNT_CAP).counts
    return {int(k): f"not a unique puzzle ({'at least ' if m >= COUNT_CAP else ''}{m} solution{'' if m == 1 else 's'})"
            for k, m in zip(bad.tolist(), exact.tolist())}


def _go_on(g, acc, max_level, line2022, st, sd, el, record, scratch) -> None:
    """Rate from the current state to the end: the loop over the producers before the chains
    (one kernel), the chaining producers and the nested levels asked from here when it stops.
    ``scratch``: a list, empty or as this left it for an earlier puzzle (the chaining
    producers' buffers, then the nested levels', made when a puzzle first needs them: the nested
    levels' are 50 MB, too many to make again at every step)."""
    hi = np.zeros(_loop.HI_LEN, dtype=np.int64)
    hd = np.zeros(1)
    hrem = np.zeros(81, dtype=np.int32)
    while _loop.loop(g, acc, max_level, line2022, st, sd, el, record) == _loop.NEED_CHAINS:
        if not scratch:
            scratch += [(_hintlist.new_records(0),), _multi.new_workspace(False)]
        found = _loop.chain_hint(g, hi, hd, hrem, max_level, scratch[0], scratch[1])
        if found == -2:
            from . import _nested  # compiled apart, loaded only when a puzzle needs it

            if len(scratch) < 3:
                scratch.append(_nested.new_nctx(True))
            found = _nested.find_nested(g, hi, hd, hrem, max_level, scratch[2])
        if found != 1:
            _loop.finish(acc, found, max_level)
            return
        if not _loop.take(g, acc, hi, hd, hrem, st, sd, el, record):
            _loop.finish(acc, 0, max_level)
            return


def rate(puzzles: np.ndarray, *, max_level: int = MAX_LEVEL, line: str = "1.2.1.3", steps: bool = False) -> list[Rating]:
    """One :class:`Rating` per row of ``puzzles`` ((N, 81), 0 = empty). The puzzles must have one
    solution each (the caller checks: Sudoku Explainer's figures mean nothing otherwise)."""
    if line not in LINES:
        raise ValueError(f"line must be one of {', '.join(LINES)}, not {line!r}")
    if not -1 <= max_level <= MAX_LEVEL:
        raise ValueError(f"max_level must be -1 to {MAX_LEVEL}, not {max_level}")
    batch = np.ascontiguousarray(puzzles, dtype=np.uint8).reshape(-1, 81)
    line2022 = line == "2022"
    g = np.zeros(_tables.GLEN, dtype=np.int32)
    acc = np.zeros(_loop.ACC_LEN)
    scratch = []
    if not steps:
        out = np.zeros((len(batch), 7))
        none = np.zeros((0, _loop.S_LEN), dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64)
        for i, p in enumerate(batch):
            _loop.start(g, acc, p)
            _go_on(g, acc, max_level, line2022, *none, False, scratch)
            _loop.store_row(acc, out, i)
        return [_rating(row, None) for row in out.tolist()]
    st = np.zeros((_loop.MAXSTEPS, _loop.S_LEN), dtype=np.int64)
    sd = np.zeros(_loop.MAXSTEPS)
    el = np.zeros(729, dtype=np.int64)
    ratings = []
    for p in batch:
        _loop.start(g, acc, p)
        _go_on(g, acc, max_level, line2022, st, sd, el, True, scratch)
        a = acc.tolist()
        row = [a[_loop.A_ER], a[_loop.A_EP], a[_loop.A_ED], a[_loop.A_STATUS], a[_loop.A_EP_LOW], a[_loop.A_ED_LOW],
               a[_loop.A_N]]
        ratings.append(_rating(row, _steps(st, sd, el, int(a[_loop.A_N]))))
    return ratings


def _rating(row, steps) -> Rating:
    er, ep, ed, status, ep_low, ed_low, n = row
    bound = status == _loop.BOUND
    return Rating(se_round(er), se_round(ep), se_round(ed), not bound, steps, (bound, bool(ep_low), bool(ed_low)),
                  int(n))
