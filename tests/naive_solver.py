"""Slow, obviously correct reference: plain backtracking that counts solutions.

Pick the empty cell with the fewest allowed digits (allowed = not in its row, column or box),
try each digit, recurse. No bit tricks, no logic rules.
"""
from __future__ import annotations


def _allowed(cells: list[int], p: int) -> list[int]:
    r, c = divmod(p, 9)
    seen = set(cells[9 * r : 9 * r + 9])
    seen.update(cells[c::9])
    r0, c0 = 3 * (r // 3), 3 * (c // 3)
    for i in range(r0, r0 + 3):
        seen.update(cells[9 * i + c0 : 9 * i + c0 + 3])
    return [d for d in range(1, 10) if d not in seen]


def givens_consistent(cells) -> bool:
    cells = list(int(x) for x in cells)
    for p, v in enumerate(cells):
        if v:
            cells[p] = 0
            ok = v in _allowed(cells, p)
            cells[p] = v
            if not ok:
                return False
    return True


def count(puzzle, limit: int = 2, solutions: list | None = None) -> int:
    """Number of solutions of an 81-cell puzzle (0 = empty), stopping at ``limit``."""
    cells = [int(x) for x in puzzle]
    if not givens_consistent(cells):
        return 0
    found = 0

    def rec() -> None:
        nonlocal found
        best, best_opts = -1, None
        for p in range(81):
            if cells[p] == 0:
                opts = _allowed(cells, p)
                if best_opts is None or len(opts) < len(best_opts):
                    best, best_opts = p, opts
                    if not opts:
                        return
        if best < 0:
            found += 1
            if solutions is not None:
                solutions.append(list(cells))
            return
        for d in best_opts:
            cells[best] = d
            rec()
            cells[best] = 0
            if found >= limit:
                return

    rec()
    return found


def is_solution_of(grid, puzzle) -> bool:
    """A full grid, every row, column and box a permutation of 1-9, agreeing with the givens."""
    g = [int(x) for x in grid]
    if sorted(g) != sorted(list(range(1, 10)) * 9):
        return False
    for k in range(9):
        if sorted(g[9 * k : 9 * k + 9]) != list(range(1, 10)):
            return False
        if sorted(g[k::9]) != list(range(1, 10)):
            return False
        r0, c0 = 3 * (k // 3), 3 * (k % 3)
        box = [g[9 * i + j] for i in range(r0, r0 + 3) for j in range(c0, c0 + 3)]
        if sorted(box) != list(range(1, 10)):
            return False
    return all(int(p) == 0 or int(p) == v for p, v in zip(puzzle, g))
