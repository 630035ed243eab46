"""Another filling of a few empty cells of a grid: the test behind shrinking an unavoidable set.

With every cell of a solution grid given except a set E, the puzzle has another solution exactly
when E holds an unavoidable set; shrinking a UA tests one such E per cell. E is small (the UAs a
17-clue search learns: 18 cells in the mean), so a depth-first search over E alone, fewest
candidates first, beats the whole-grid solver, whose every call first sets up all 81 cells
(1.4x faster a UA shrunk)."""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel

FULL = 0x1FF
REFILL_SCRATCH = 27 + 7 * 81
"""Length of ``other_filling``'s int64 scratch."""


@kernel
def other_filling(grid, cells, n, out, W):
    """Whether the cells ``cells[:n]`` of the solution ``grid`` (81 digits 1-9, every other cell
    given) can be filled otherwise than ``grid`` fills them; if so, ``out[:n]`` gets such a
    filling. Each branch tries the grid's digit first, so the filling found is the first in that
    order after the grid's own and tends to differ from it in few cells. ``W``: int64 scratch of
    ``REFILL_SCRATCH``."""
    if n == 0:
        return False
    rowm = W[0:9]  # digits given in each row, column, box (bit d - 1)
    colm = W[9:18]
    boxm = W[18:27]
    crow = W[27:108]
    ccol = W[108:189]
    cbox = W[189:270]
    dig = W[270:351]  # the digit placed in cells[i] so far, 0 for none
    pos = W[351:432]  # per level: the cell index placed there, the digits left to try there
    rem = W[432:513]
    for k in range(27):
        W[k] = FULL
    for i in range(n):
        q = cells[i]
        r = q // 9
        c = q % 9
        b = (r // 3) * 3 + c // 3
        crow[i] = r
        ccol[i] = c
        cbox[i] = b
        bit = 1 << (grid[q] - 1)
        rowm[r] &= ~bit
        colm[c] &= ~bit
        boxm[b] &= ~bit
        dig[i] = 0
    lvl = 0
    fresh = True
    while True:
        if fresh:
            if lvl == n:
                for i in range(n):
                    if dig[i] != grid[cells[i]]:
                        for j in range(n):
                            out[j] = dig[j]
                        return True
                lvl -= 1  # the grid's own filling
                fresh = False
                continue
            best = -1
            bc = 10
            bm = 0
            for i in range(n):
                if dig[i] == 0:
                    m = FULL & ~(rowm[crow[i]] | colm[ccol[i]] | boxm[cbox[i]])
                    pc = popcount(m)
                    if pc < bc:
                        bc = pc
                        best = i
                        bm = m
                        if pc <= 1:
                            break
            if bc == 0:
                lvl -= 1
                fresh = False
                if lvl < 0:
                    return False
                continue
            pos[lvl] = best
            rem[lvl] = bm
        else:
            i = pos[lvl]
            bit = 1 << (dig[i] - 1)
            rowm[crow[i]] &= ~bit
            colm[ccol[i]] &= ~bit
            boxm[cbox[i]] &= ~bit
            dig[i] = 0
        m = rem[lvl]
        if m == 0:
            lvl -= 1
            fresh = False
            if lvl < 0:
                return False
            continue
        i = pos[lvl]
        gbit = 1 << (grid[cells[i]] - 1)
        bit = gbit if (m & gbit) else (m & -m)
        rem[lvl] = m & ~bit
        dig[i] = trailing_zeros(bit) + 1
        rowm[crow[i]] |= bit
        colm[ccol[i]] |= bit
        boxm[cbox[i]] |= bit
        lvl += 1
        fresh = True


@kernel
def minimal_ua(grid, diff, cells, out, W):
    """Shrink ``diff`` (81 booleans: cells where another solution differs from ``grid``, an
    unavoidable set) to a minimal UA inside it, in place: for each of its cells, give that cell
    back as a clue with the rest of the grid outside ``diff``; if the other cells can still be
    filled otherwise (``other_filling``), that filling's difference is a smaller UA inside
    ``diff`` (without that cell) and replaces it. At the end no cell can be dropped, so no proper
    subset is unavoidable: one test per cell of the first set at most. Scratch: ``cells``,
    ``out`` (81,) int64, ``W`` (``REFILL_SCRATCH``,) int64. Returns the size."""
    c = 0
    while c < 81:
        if not diff[c]:
            c += 1
            continue
        n = 0
        for q in range(81):
            if diff[q] and q != c:
                cells[n] = q
                n += 1
        if other_filling(grid, cells, n, out, W):
            for q in range(81):
                diff[q] = False
            for j in range(n):
                if out[j] != grid[cells[j]]:
                    diff[cells[j]] = True
        # a cell found necessary stays necessary inside any smaller set (fewer cells empty, the
        # puzzle with it given is still unique): no need to start over
        c += 1
    n = 0
    for q in range(81):
        if diff[q]:
            n += 1
    return n
