"""Slow, obviously correct references for the rating engine.

- :func:`solutions`: every solution of a puzzle (up to a cap) by plain backtracking, the
  emptiest-choice cell first, no other cleverness.
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
    """Every solution of ``puzzle`` (81 ints, 0 empty), at most ``cap``: plain backtracking, each
    time on the empty cell with the fewest digits its row, column and box allow (the order only
    changes the time, not what is found)."""
    grid = list(puzzle)
    used = [set() for _ in range(27)]  # digits in each row, column, box
    units = [(c // 9, 9 + c % 9, 18 + 3 * (c // 27) + (c % 9) // 3) for c in range(81)]
    for c, d in enumerate(grid):
        if d:
            for u in units[c]:
                used[u].add(d)
    out: list[list[int]] = []

    def allowed(c):
        r, k, b = units[c]
        return set(range(1, 10)) - used[r] - used[k] - used[b]

    def go():
        if len(out) >= cap:
            return
        empty = [c for c in range(81) if not grid[c]]
        if not empty:
            out.append(list(grid))
            return
        c, digits = min(((c, allowed(c)) for c in empty), key=lambda cd: len(cd[1]))
        for d in sorted(digits):
            grid[c] = d
            for u in units[c]:
                used[u].add(d)
            go()
            for u in units[c]:
                used[u].discard(d)
            grid[c] = 0

    go()
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
