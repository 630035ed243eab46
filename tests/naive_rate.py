"""Slow, obviously correct references for the rating engine.

- :func:`solutions`: every solution of a puzzle (up to a cap) by plain backtracking over
  digit sets, cells in reading order, no cleverness.
- :func:`replay`: a solution path replayed from the puzzle with Python sets: each step's
  candidates must still be there, and the state after each step is what the next one sees.
- :func:`unsound_steps`: the steps whose eliminations remove a digit of some solution, or
  whose placement is not the digit every solution has there (a correct path has none).
- :func:`length_difficulty`: Sudoku Explainer's length bonus of a chain from its table of
  steps (the bonus grows by 0.1 past each of 4, 6, 8, 12, 16, 24, 32, 48, ...).
"""
from __future__ import annotations

PEERS = [sorted({9 * (c // 9) + k for k in range(9)} | {9 * k + c % 9 for k in range(9)}
                | {9 * (3 * (c // 27) + i) + 3 * ((c % 9) // 3) + j for i in range(3) for j in range(3)}
                - {c}) for c in range(81)]


def solutions(puzzle, cap: int = 100) -> list[list[int]]:
    """Every solution of ``puzzle`` (81 ints, 0 empty), at most ``cap``."""
    grid = list(puzzle)
    out: list[list[int]] = []

    def ok(c, d):
        return all(grid[p] != d for p in PEERS[c])

    def go(c):
        if len(out) >= cap:
            return
        while c < 81 and grid[c]:
            c += 1
        if c == 81:
            out.append(list(grid))
            return
        for d in range(1, 10):
            if ok(c, d):
                grid[c] = d
                go(c + 1)
                grid[c] = 0

    go(0)
    return out


def start_candidates(puzzle) -> list[set[int]]:
    """Each empty cell's digits not given in its row, column or box (SE's starting candidates)."""
    return [set() if puzzle[c] else {d for d in range(1, 10) if all(puzzle[p] != d for p in PEERS[c])}
            for c in range(81)]


def replay(puzzle, steps, full: bool = True):
    """Yield (step, candidates before it, values before it) along the path; raise AssertionError
    when a step removes a candidate that is not there or places a digit that is not one, or
    (``full``) when the path does not fill the grid."""
    values = list(puzzle)
    cands = start_candidates(puzzle)
    for step in steps:
        yield step, [set(s) for s in cands], list(values)
        for c, d in step.eliminations:
            assert d in cands[c], f"step {step.number}: {c}<>{d} is not a candidate"
            cands[c].discard(d)
        if step.placement is not None:
            c, d = step.placement
            assert d in cands[c], f"step {step.number}: {c}={d} is not a candidate"
            values[c] = d
            cands[c] = set()
            for p in PEERS[c]:
                cands[p].discard(d)
    assert all(values) or not full, "the path does not fill the grid"


def unsound_steps(puzzle, steps, sols, skip=(), full: bool = True) -> list[str]:
    """The steps (not in ``skip``, by technique name) that remove a digit some solution has,
    or place a digit that not every solution has there."""
    bad = []
    for step, _, _ in replay(puzzle, steps, full):
        if step.technique in skip:
            continue
        for c, d in step.eliminations:
            if any(s[c] == d for s in sols):
                bad.append(f"step {step.number} {step.technique}: removes {c}<>{d}")
        if step.placement is not None:
            c, d = step.placement
            if any(s[c] != d for s in sols):
                bad.append(f"step {step.number} {step.technique}: places {c}={d}")
    return bad


def length_difficulty(complexity: int) -> float:
    """0.1 for every threshold of SE's table that ``complexity - 2`` exceeds (summed the way SE
    sums it, 0.1 at a time)."""
    steps = [4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048]
    added = 0.0
    for s in steps:
        if complexity - 2 > s:
            added += 0.1
    return added
