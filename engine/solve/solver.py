"""Fast solver: first solution, solution counts up to a limit, all solutions, minimality.

Every batch function takes anything :func:`..text.as_batch` accepts (strings, (81,) or
(N, 81) arrays, 0 = empty) and makes one call into compiled code for the whole batch. The
kernels are in :mod:`._kernels` (band bitboards; logic to a fixed point with naked
and hidden singles, locked candidates and triads, then branches on a digit's two remaining
configurations in a band or stack, as tdoku does, or on a cell with fewest candidates).

``guesses`` counts the branchings of the search; ``logic_only`` is ``guesses == 0``: logic alone
settled the puzzle (solved it, or proved it has no solution).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..text import as_batch
from . import _kernels as _k

_NO_SOLUTIONS = np.zeros((0, 81), dtype=np.uint8)


@dataclass
class CountResult:
    """Per puzzle: ``counts`` (capped at the limit), first ``solutions`` (zeros when none), ``guesses``."""

    counts: np.ndarray
    solutions: np.ndarray | None
    guesses: np.ndarray

    @property
    def logic_only(self) -> np.ndarray:
        return self.guesses == 0

    def __len__(self) -> int:
        return len(self.counts)


def count_solutions(puzzles, limit: int = 2, *, solutions: bool = False) -> CountResult:
    """Count the solutions of each puzzle, stopping at ``limit`` (limit 2 = uniqueness check)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    batch = as_batch(puzzles)
    n = len(batch)
    counts = np.zeros(n, dtype=np.int64)
    guesses = np.zeros(n, dtype=np.int64)
    sols = np.zeros((n, 81), dtype=np.uint8) if solutions else _NO_SOLUTIONS
    if n:
        _k.count_batch(batch, int(limit), counts, sols, guesses)
    return CountResult(counts, sols if solutions else None, guesses)


def solve(puzzles) -> tuple[np.ndarray, np.ndarray]:
    """First solution of each puzzle: (solutions (N, 81) uint8, found (N,) bool); rows without one are zero."""
    res = count_solutions(puzzles, 1, solutions=True)
    return res.solutions, res.counts > 0


def solve_one(puzzle) -> np.ndarray | None:
    """The first solution of one puzzle as (81,) uint8, or None."""
    sols, found = solve(puzzle)
    return sols[0] if found[0] else None


def is_unique(puzzles) -> np.ndarray:
    """True where the puzzle has exactly one solution."""
    return count_solutions(puzzles, 2).counts == 1


def check(puzzles) -> tuple[np.ndarray, np.ndarray]:
    """(counts up to 2, minimal): minimal = unique, and removing any one given leaves 2 or more solutions."""
    batch = as_batch(puzzles)
    counts = np.zeros(len(batch), dtype=np.int64)
    minimal = np.zeros(len(batch), dtype=np.bool_)
    if len(batch):
        _k.minimal_batch(batch, counts, minimal)
    return counts, minimal


def is_minimal(puzzles) -> np.ndarray:
    return check(puzzles)[1]


def iter_solutions(puzzle, cap: int | None = None, chunk: int = 1024) -> Iterator[np.ndarray]:
    """Stream the solutions of one puzzle, at most ``cap`` of them (None: all), ``chunk`` per kernel call.

    The search state lives in arrays between calls, so the search resumes where it stopped.
    """
    batch = as_batch(puzzle)
    if len(batch) != 1:
        raise ValueError("iter_solutions takes one puzzle")
    stack = np.zeros((_k.MAXDEPTH, _k.NWORDS), dtype=np.uint32)
    if not _k._init_node(stack, batch[0]):
        return
    ctl = np.zeros(2, dtype=np.int64)
    left = cap
    while ctl[0] >= 0 and (left is None or left > 0):
        want = chunk if left is None else min(chunk, left)
        buf = np.zeros((want, 81), dtype=np.uint8)
        got = _k._search(stack, ctl, want, buf, _k.NO_NEAR)
        for k in range(min(got, want)):
            yield buf[k].copy()
        if left is not None:
            left -= got
        if got < want:
            break


def all_solutions(puzzle, cap: int | None = None) -> np.ndarray:
    """Every solution of one puzzle (at most ``cap``) as an (M, 81) array."""
    sols = list(iter_solutions(puzzle, cap))
    return np.array(sols, dtype=np.uint8).reshape(-1, 81)


@dataclass
class LogicState:
    """What logic alone (the solver's own rules, no guess) makes of one puzzle.

    ``status``: ``"solved"``, ``"stuck"`` (open cells left, logic has nothing more to say) or
    ``"contradiction"`` (the givens clash, or logic empties a cell or a unit: no solution).
    ``cells``: (81,) uint8, the digits placed (givens included), 0 where open; ``candidates``:
    (81,) uint16, bit ``d - 1`` set when digit ``d`` is still possible in the cell (placed cells
    keep their one bit). On a contradiction both describe the state when it was found.
    """

    status: str
    cells: np.ndarray
    candidates: np.ndarray


def logic_state(puzzle) -> LogicState:
    """Apply the solver's logic (singles, locked candidates, the band permutation rule and triads)
    to a fixed point on one puzzle, without guessing."""
    batch = as_batch(puzzle)
    if len(batch) != 1:
        raise ValueError("logic_state takes one puzzle")
    stack = np.zeros((_k.MAXDEPTH, _k.NWORDS), dtype=np.uint32)
    if not _k._init_node(stack, batch[0]):
        status = "contradiction"
    else:
        # _propagate applies triads once per call: repeat, every plane marked changed, until
        # nothing changes, so the state is a fixed point of every rule
        status = "stuck"
        while True:
            before = stack[0, :30].copy()
            if not _k._propagate(stack, 0):
                status = "contradiction"
                break
            if (stack[0, :30] == before).all():
                break
            stack[0, 30] = (1 << 27) - 1
    node = stack[0].astype(np.int64)
    candidates = np.zeros(81, dtype=np.uint16)
    cells = np.zeros(81, dtype=np.uint8)
    bits = np.arange(27)
    for b in range(3):
        open_cells = (node[27 + b] >> bits) & 1
        for d in range(9):
            has = ((node[3 * d + b] >> bits) & 1).astype(bool)
            candidates[27 * b : 27 * b + 27][has] |= np.uint16(1 << d)
            cells[27 * b : 27 * b + 27][has & (open_cells == 0)] = d + 1
    if status == "stuck" and (cells > 0).all():
        status = "solved"
    return LogicState(status, cells, candidates)
