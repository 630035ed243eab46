"""Slow, obviously correct references for the pattern search and the neighbourhood: every
candidate written out and counted by the solver, one by one."""
from __future__ import annotations

import itertools

import numpy as np

from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.engine.solve import count_solutions
from sudoku_symmetry.engine.text import format_lines
from sudoku_symmetry.engine.validity import is_valid


def naive_neighbourhood(puzzle: np.ndarray, minus: int, plus: int) -> tuple[set[str], int]:
    """(canonical forms of the unique puzzles, candidates): remove each set of ``minus`` clues,
    try each set of ``plus`` empty cells with each digit, keep those that break no unit and have
    one solution; the input's own class left out."""
    p = np.asarray(puzzle, np.uint8)
    candidates = []
    for removed in itertools.combinations(np.flatnonzero(p).tolist(), minus):
        base = p.copy()
        base[list(removed)] = 0
        for cells in itertools.combinations(np.flatnonzero(base == 0).tolist(), plus):
            for digits in itertools.product(range(1, 10), repeat=plus):
                q = base.copy()
                q[list(cells)] = digits
                candidates.append(q)
    batch = np.array(candidates, np.uint8).reshape(-1, 81)
    batch = batch[is_valid(batch)]
    unique = batch[count_solutions(batch, 2).counts == 1]
    own = format_lines(canon_puzzles(p[None, :]).forms)[0]
    forms = set(format_lines(canon_puzzles(unique).forms)) if len(unique) else set()
    return forms - {own}, len(batch)


def naive_on_pattern(fixed: np.ndarray, pattern: np.ndarray) -> set[str]:
    """The puzzles on ``pattern`` holding the digits of ``fixed`` (few cells left free): every
    digit on every free cell, those with one solution, each written with its digits other than
    the fixed ones renamed in order of first appearance (reading order) to the digits the fixed
    cells leave, so that relabellings of the free digits count once."""
    fixed = np.asarray(fixed, np.uint8)
    free = np.flatnonzero(np.asarray(pattern, bool) & (fixed == 0)).tolist()
    batch = np.repeat(fixed[None, :], 9 ** len(free), axis=0)
    for k, digits in enumerate(itertools.product(range(1, 10), repeat=len(free))):
        batch[k, free] = digits
    batch = batch[is_valid(batch)]
    unique = batch[count_solutions(batch, 2).counts == 1]
    taken = sorted(set(fixed[fixed > 0].tolist()))
    spare = [d for d in range(1, 10) if d not in taken]
    out = set()
    for q in unique:
        names = {d: d for d in taken}
        for c in np.flatnonzero(q):
            v = int(q[c])
            if v not in names:
                names[v] = spare[len(names) - len(taken)]
        out.add("".join(str(names[int(v)]) if v else "." for v in q))
    return out
