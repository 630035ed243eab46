"""Every solver call of the 17-clue search, and what a failed check teaches: where uniqueness is
decided.

* ``is_puzzle``: the band-3 step's check of a candidate's 17 clues (bands 1+2 and band 3): one
  solution, a find; else the cells where the other solution differs, shrunk to a minimal UA
  (``taught_ua``), prune the rest of the pair. The solver follows the grid first
  (``count_near``): the other solution it meets differs little, so the UA learned is small
  (39 % fewer failed checks on a slice of pass B at band-1 rank 64).
* ``rows_unique``: the XY step's check that a candidate's clues of bands 1+2, with band 3 given
  whole, fix rows 1-6; the node of band 3 and band-1 clues X is built once per X (``x_node``)
  and each check adds Y's clues (``count_plus``); a failure gives a UA of the pair
  (``rows_ua``: rows 1-6 only, so every band 3 of the pair completes it).
* ``fillings``: the other fillings of rows 1-6 with band 3 and some digits given, from which
  ``_pair_uas.solver_diffs`` takes the pair's UAs of many digits.
"""
import numpy as np

from .._bits import trailing_zeros
from .._jit import kernel
from ..solve import count_into, count_near, count_plus, givens_node, minimal_ua

ONE = np.uint64(1)


@kernel
def same_grid(a, b):
    for q in range(81):
        if a[q] != b[q]:
            return False
    return True


@kernel
def fillings(grid, keep, cap, S, ctl, sols, puzzle):
    """Solutions (up to ``cap``, the first ``len(sols)`` written) of ``grid`` with band 3 given
    and, in rows 1-6, only the cells of the digits of ``keep`` (bit d - 1)."""
    for q in range(81):
        puzzle[q] = grid[q] if (q >= 54 or (keep >> (grid[q] - 1)) & 1) else 0
    ctl[0] = 0
    ctl[1] = 0
    return count_into(S, ctl, puzzle, cap, sols)


@kernel
def x_node(grid, x, puzzle, base):
    """The solver's node of band 3 given whole and band-1 clues ``x`` (27-bit mask) of ``grid``,
    unpropagated: what every check of X's band-2 sets shares."""
    for q in range(54):
        puzzle[q] = 0
    for q in range(54, 81):
        puzzle[q] = grid[q]
    v = x
    while v:
        q = trailing_zeros(v)
        v &= v - 1
        puzzle[q] = grid[q]
    givens_node(puzzle, base)


@kernel
def rows_unique(S, ctl, base, grid, y, ycells, sols):
    """Do band-2 clues ``y`` (27-bit), added to the node ``base`` (``x_node``), leave one filling
    of rows 1-6? When not, the other is in ``sols`` (``rows_ua``)."""
    ny = 0
    v = y
    while v:
        ycells[ny] = 27 + trailing_zeros(v)
        v &= v - 1
        ny += 1
    return count_plus(S, ctl, base, grid, ycells, ny, 2, sols) == 1


@kernel
def rows_ua(sols, grid):
    """After a failed ``rows_unique``: the cells of bands 1 and 2 (two 27-bit masks) where the
    other filling differs from ``grid``."""
    other = 1 if same_grid(sols[0], grid) else 0
    d1 = np.int64(0)
    d2 = np.int64(0)
    for q in range(27):
        if sols[other, q] != grid[q]:
            d1 |= np.int64(1) << q
        if sols[other, 27 + q] != grid[27 + q]:
            d2 |= np.int64(1) << q
    return d1, d2


@kernel
def is_puzzle(S, ctl, grid, c12, z3, puzzle, near, sols):
    """Are the clues ``c12`` (bands 1+2, 54-bit) and ``z3`` (band 3, 27-bit) of ``grid`` a puzzle
    (one solution)? The solver follows ``near`` (the grid's planes) first."""
    for q in range(81):
        puzzle[q] = 0
    x = c12
    while x:
        q = trailing_zeros(x)
        x &= x - ONE
        puzzle[q] = grid[q]
    y = z3
    while y:
        q = trailing_zeros(y)
        y &= y - 1
        puzzle[54 + q] = grid[54 + q]
    return count_near(S, ctl, puzzle, near, 2, sols) == 1


@kernel
def taught_ua(grid, sols, diff, mcells, mout, mW):
    """After a failed ``is_puzzle``: the minimal UA inside the cells where the other solution
    differs (``minimal_ua``), as its bands 1+2 part (54-bit) and band-3 part (27-bit)."""
    other = 1 if same_grid(sols[0], grid) else 0
    for q in range(81):
        diff[q] = sols[other, q] != grid[q]
    minimal_ua(grid, diff, mcells, mout, mW)
    d12 = np.uint64(0)
    d3 = np.int64(0)
    for q in range(81):
        if diff[q]:
            if q < 54:
                d12 |= ONE << np.uint64(q)
            else:
                d3 |= np.int64(1) << (q - 54)
    return d12, d3
