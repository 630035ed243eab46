"""The {-n+m} neighbourhood of puzzles: remove n clues, add m givens, keep what is unique.

    >>> from sudoku_symmetry.engine.explore import neighbourhood
    >>> near = neighbourhood(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...", 1, 1)
    >>> near.clues, near.checked > 1000
    (17, True)

For each set of n clues removed (every one of them), the remaining base is placed in the
solver's node and every set of m givens is added, cells in increasing order, each digit the
base's logic still allows there (a digit it refutes leaves no solution); the solver counts each
finished candidate up to two. The added givens may go in any empty cell, the emptied ones
included, with any digit that breaks no row, column or box: the result need not share the
input's solution, and since a removed clue may come back, {-n+m} holds the smaller steps
{-(n-1)+(m-1)} too. The unique results are kept (with ``minimal``, only the minimal ones; with
``clues``, only those with that many clues), as their canonical (pure minlex) forms, each class
once; the input's own class is left out.

``checked``: the candidate puzzles, counted without the solver (the sets of m givens that break
no row, column or box, over every removal): what the neighbourhood is made of, the same for
any method, so a rate over it compares tools.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

from ..canon import canon_puzzles
from ..solve import SOLVER_DEPTH, SOLVER_WORDS, check
from ..text import as_batch, format_lines
from ..validity import is_valid
from . import _vicinity_kernels as K

OUT_CAP = 1 << 14


@dataclass
class Neighbourhood:
    """The neighbourhood of one puzzle: ``forms`` the canonical forms of the unique results
    (81-character strings, each class once, the input's own left out, in the order found),
    ``clues`` the clue count of the results (None when ``minus`` and ``plus`` leave it to the
    input), ``checked`` the candidate puzzles, ``stats`` counters and seconds."""

    puzzle: np.ndarray
    minus: int
    plus: int
    forms: list[str]
    checked: int
    clues: int | None = None
    stats: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.forms)


def _check_step(minus: int, plus: int) -> None:
    if int(minus) < 0 or int(plus) < 0:
        raise ValueError("minus and plus must be 0 or more")
    if int(minus) == 0 and int(plus) == 0:
        raise ValueError("a step removes or adds at least one clue")


class _Scratch:
    """The arrays one neighbourhood search reuses."""

    def __init__(self, plus: int):
        self.S = np.zeros((plus + 2, SOLVER_WORDS), np.uint32)
        self.X = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
        self.ctl = np.zeros(2, np.int64)
        self.chosen = np.zeros(3 * plus + 2, np.int64)
        self.stats = np.zeros(K.N_STATS, np.int64)
        self.out = np.zeros((OUT_CAP, max(plus, 1)), np.int64)


def _unique_results(p: np.ndarray, minus: int, plus: int, sc: _Scratch) -> tuple[np.ndarray, int]:
    """Every unique puzzle ``p`` minus ``minus`` clues plus ``plus`` givens, as (k, 81) rows
    (repeats possible), and the candidates checked."""
    clue_cells = np.flatnonzero(p)
    rows: list[np.ndarray] = []
    checked = 0
    for removed in itertools.combinations(clue_cells.tolist(), minus):
        base = p.copy()
        base[list(removed)] = 0
        if plus == 0:
            checked += 1
            if check(base[None, :])[0][0] == 1:
                rows.append(base[None, :])
            continue
        empties = np.flatnonzero(base == 0).astype(np.int64)
        checked += int(K.count_candidates(base, empties, len(empties), plus))
        while True:
            k = K.additions_into(base, empties, len(empties), plus, sc.S, sc.X, sc.ctl, sc.chosen, sc.out, sc.stats)
            if k >= 0:
                break
            sc.out = np.zeros((2 * len(sc.out), plus), np.int64)
        if k:
            codes = sc.out[:k]
            got = np.repeat(base[None, :], k, axis=0)
            for a in range(plus):
                got[np.arange(k), codes[:, a] // 9] = codes[:, a] % 9 + 1
            rows.append(got)
    return (np.concatenate(rows) if rows else np.zeros((0, 81), np.uint8)), checked


def neighbourhood(puzzle, minus: int = 1, plus: int = 1, *, minimal: bool = False, clues: int | None = None,
                  rating=None, _scratch: _Scratch | None = None) -> Neighbourhood:
    """The unique puzzles reached from ``puzzle`` by removing ``minus`` of its clues and adding
    ``plus`` givens (module docstring), each class once by canonical form, the input's class
    left out; ``minimal``: only minimal ones; ``clues``: only those with that many clues;
    ``rating``: only those whose Sudoku Explainer rating (ER, of the canonical form) lies in a
    range (``"7-8"``: :func:`~sudoku_symmetry.engine.rate.filter.parse_rating`)."""
    from ..rate.filter import er_within, parse_rating  # the rating's kernels load only for a rating range

    _check_step(minus, plus)
    er_range = parse_rating(rating)
    p = as_batch(puzzle)
    if len(p) != 1:
        raise ValueError("neighbourhood takes one puzzle")
    p = np.ascontiguousarray(p[0], np.uint8)
    if not is_valid(p[None, :])[0]:
        raise ValueError("the puzzle repeats a digit in a row, column or box")
    n = int((p > 0).sum())
    if minus > n:
        raise ValueError(f"cannot remove {minus} clues from a puzzle of {n}")
    size = n - int(minus) + int(plus)
    if size > 81:
        raise ValueError(f"cannot add {plus} givens to a puzzle of {n} clues less {minus}")
    t0 = time.process_time()
    if clues is not None and int(clues) != size:
        return Neighbourhood(p, int(minus), int(plus), [], 0, int(clues), {"cpu_seconds": 0.0, "solver_checks": 0})
    sc = _scratch or _Scratch(int(plus))
    before = sc.stats.copy()
    found, checked = _unique_results(p, int(minus), int(plus), sc)
    kept = found
    if minimal and len(found):
        kept = found[check(found)[1]]
    forms: list[str] = []
    if len(kept):
        own = format_lines(canon_puzzles(p[None, :]).forms)[0]
        seen = {own}
        for f in format_lines(canon_puzzles(kept).forms):
            if f not in seen:
                seen.add(f)
                forms.append(f)
    if er_range is not None and forms:
        inside = er_within(as_batch(forms), er_range)[0]
        forms = [f for f, k in zip(forms, inside.tolist()) if k]
    delta = sc.stats - before
    stats = {"cpu_seconds": time.process_time() - t0, "solver_checks": int(delta[K.STAT_CHECKS]),
             "refuted": int(delta[K.STAT_DEAD]), "unique": int(delta[K.STAT_UNIQUE]), "results": len(found)}
    return Neighbourhood(p, int(minus), int(plus), forms, checked, size, stats)


@dataclass
class Step:
    """One step of a walk: ``forms`` the classes first reached at this step (each once over the
    whole walk, the inputs' classes left out), ``checked`` the candidates of the step."""

    number: int
    forms: list[str]
    checked: int
    cpu_seconds: float


def parse_puzzles(lines: list[str], source: str | None = None, first: int = 1):
    """Lines of text -> ``[(line number, puzzle (81,) uint8)]`` of the good ones and
    ``[(line number, reason)]`` of the bad ones: malformed, or repeating a digit in a row,
    column or box (blank and ``#`` lines skipped)."""
    from ..text import parse_lines
    from ..validity import conflicts

    parsed = parse_lines(lines, source=source, errors="collect", first_lineno=first)
    problems = [(e.lineno, e.message) for e in parsed.errors]
    good = []
    ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
    for k, (n, p) in enumerate(zip(parsed.linenos.tolist(), parsed.sudokus)):
        if ok[k]:
            good.append((n, p))
        else:
            problems.append((n, f"not a puzzle: {conflicts(p)[0]}"))
    return good, sorted(problems)


def walk(puzzles, minus: int = 1, plus: int = 1, steps: int = 1, *, minimal: bool = False,
         clues: int | None = None, known: Iterable[str] = (), rating=None) -> Iterator[Step]:
    """The neighbourhood repeated ``steps`` times (the hunters' walk): step 1 is the
    neighbourhood of the input puzzles, each later step that of the classes the step before
    found first; a class is reported once over the whole walk, and never one of the inputs'
    (nor one of ``known``: canonical forms to leave out). With ``rating`` (an ER range) each
    step keeps the classes rated in it, and the walk goes on from those (the hunt for hard
    puzzles among the neighbours of hard ones)."""
    _check_step(minus, plus)
    if int(steps) < 1:
        raise ValueError("steps must be 1 or more")
    frontier = [np.asarray(x, np.uint8) for x in as_batch(puzzles)]
    seen = set(known)
    if frontier:
        seen.update(format_lines(canon_puzzles(np.array(frontier)).forms))
    sc = _Scratch(int(plus))
    for number in range(1, int(steps) + 1):
        t0 = time.process_time()
        new: list[str] = []
        checked = 0
        for p in frontier:
            near = neighbourhood(p, minus, plus, minimal=minimal, clues=clues, rating=rating, _scratch=sc)
            checked += near.checked
            for f in near.forms:
                if f not in seen:
                    seen.add(f)
                    new.append(f)
        yield Step(number, new, checked, time.process_time() - t0)
        if not new:
            return
        frontier = list(as_batch(new))
