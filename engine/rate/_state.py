"""The rating state ``g`` (see ``_tables``): set up from a puzzle, candidates removed and digits
placed with every derived mask kept in step.

Sudoku Explainer places a digit the way ``setValueAndCancel`` does: the cell gets the digit and
loses its candidates, and the digit leaves every cell of the cell's block, row and column. It
applies no other logic on its own: everything else is a hint."""
from .._bits import LOWBIT
from .._jit import kernel
from ._tables import CAND, CELL_INDEX, CELL_REGION, EMPTY, GLEN, REGION_CELLS, RPOS, VAL


@kernel(inline="always")
def remove(g, c, d):
    """Remove candidate ``d`` (1-9) from cell ``c``; True when it was there."""
    bit = 1 << (d - 1)
    if g[CAND + c] & bit == 0:
        return False
    g[CAND + c] &= ~bit
    for k in range(3):
        g[RPOS + 9 * CELL_REGION[c, k] + d - 1] &= ~(1 << CELL_INDEX[c, k])
    return True


@kernel
def remove_mask(g, c, m):
    """Remove the candidates of mask ``m`` (bit d - 1) from cell ``c``."""
    m &= g[CAND + c]
    while m:
        d = LOWBIT[m] + 1
        m &= m - 1
        remove(g, c, d)


@kernel
def place(g, c, d):
    """Sudoku Explainer's ``setValueAndCancel``: digit ``d`` in cell ``c``."""
    remove_mask(g, c, 0x1FF)
    g[VAL + c] = d
    for k in range(3):
        reg = CELL_REGION[c, k]
        g[EMPTY + reg] -= 1
        for i in range(9):
            remove(g, REGION_CELLS[reg, i], d)


@kernel
def init_state(g, puzzle):
    """``g`` for an 81-cell puzzle (0 = empty): the givens placed, every empty cell with the
    digits its block, row and column do not hold (``rebuildPotentialValues``)."""
    for i in range(GLEN):
        g[i] = 0
    for reg in range(27):
        g[EMPTY + reg] = 9
    for c in range(81):
        if puzzle[c] == 0:
            g[CAND + c] = 0x1FF
            for k in range(3):
                reg = CELL_REGION[c, k]
                for d in range(9):
                    g[RPOS + 9 * reg + d] |= 1 << CELL_INDEX[c, k]
    for c in range(81):
        d = puzzle[c]
        if d:
            g[VAL + c] = d
            for k in range(3):
                g[EMPTY + CELL_REGION[c, k]] -= 1
    for c in range(81):
        d = puzzle[c]
        if d:
            for k in range(3):
                reg = CELL_REGION[c, k]
                for i in range(9):
                    remove(g, REGION_CELLS[reg, i], d)


@kernel
def copy_state(src, dst):
    for i in range(GLEN):
        dst[i] = src[i]


@kernel
def is_solved(g):
    for c in range(81):
        if g[VAL + c] == 0:
            return False
    return True
