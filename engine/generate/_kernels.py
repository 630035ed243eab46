"""Kernels of top-down minimization: givens removed one orbit at a time while the puzzle stays unique.

A removal is decided by the cheapest test that can decide it, in this order:

1. *a known unavoidable set* (UA) of the solution grid whose only givens are in the orbit: without
   them that UA is unhit, so the puzzle would have another solution and the orbit stays. The
   known UAs are the grid's 2-digit ones (two digits swapped along a set of rows: ``two_digit_uas``,
   about 36 per grid, a few microseconds); on top-down runs they settle 40 % of the givens kept.
   (A UA learnt from a failed removal never helps later in one pass: its other cells are empty.)
2. *singles from the givens alone*: every removed cell's digit is the only one its row, column and
   box givens leave it (naked), or the only place its digit fits in its row, column or box
   (hidden). Then every solution agrees with the grid there, so the puzzle stays unique.
3. *the solver* (``engine.solve``'s bitboard search): for one cell, whether a solution has another
   digit there (its digit struck out of the cell's candidates, then the search for one solution:
   no solution means unique); for several, solutions counted up to 2.

The kept orbit leaves a UA behind whatever test kept it, and givens only disappear later, so no
removal refused at some point could succeed later: the result is minimal (for orbits of one cell;
with a symmetry, no orbit can be removed: minimal among the puzzles with that symmetry).

Cell sets are two uint64 words: cells 0-63, cells 64-80.
"""
import numpy as np

from .._jit import kernel
from ..core.rng import shuffle
from ..solve import SOLVER_DEPTH, SOLVER_WORDS, count_plus, givens_node

ALL9 = 0x3FE
UA_CAPACITY = 256
"""Room for a grid's 2-digit UAs (36 digit pairs, at most 15 sets of rows each; about 36 in all)."""
N_STATS = 4
STAT_UA, STAT_SINGLES, STAT_SEARCHES, STAT_SEARCH_KEPT = range(N_STATS)
"""Counters: removals refused by a known UA, removals settled by singles, solver searches,
searches that found another solution (the orbit kept)."""


@kernel(inline="always")
def _bit(q):
    """(lo, hi) words of cell q."""
    if q < 64:
        return np.uint64(1) << np.uint64(q), np.uint64(0)
    return np.uint64(0), np.uint64(1) << np.uint64(q - 64)


@kernel
def two_digit_uas(grid, ua):
    """The grid's minimal 2-digit unavoidable sets into ``ua`` (k, 2) uint64; returns k.

    For digits a < b, let sigma send a row to the row whose a sits in the column of this row's b.
    Swapping a and b in a set R of rows keeps every column valid iff R is a union of sigma's
    cycles, and every box valid iff the boxes of R's a-cells are those of its b-cells (each box
    holds one a and one b, so per cycle these are two sets of boxes, disjoint across cycles).
    Each such R (2 x |R| cells) is a UA; the minimal ones (no such proper subset) are kept."""
    col = np.zeros((10, 9), np.int64)  # col[d, r]: the column of digit d in row r
    row = np.zeros((10, 9), np.int64)  # row[d, c]: the row of digit d in column c
    for q in range(81):
        col[grid[q], q // 9] = q % 9
        row[grid[q], q % 9] = q // 9
    cyc = np.zeros(9, np.int64)
    box_a = np.zeros(9, np.int64)  # per cycle: the boxes of its a-cells, of its b-cells, its cells
    box_b = np.zeros(9, np.int64)
    cell_lo = np.zeros(9, np.uint64)
    cell_hi = np.zeros(9, np.uint64)
    found = np.zeros(16, np.int64)
    n = 0
    for a in range(1, 10):
        for b in range(a + 1, 10):
            for r in range(9):
                cyc[r] = -1
            nc = 0
            for r in range(9):
                if cyc[r] >= 0:
                    continue
                box_a[nc] = 0
                box_b[nc] = 0
                cell_lo[nc] = 0
                cell_hi[nc] = 0
                x = r
                while cyc[x] < 0:
                    cyc[x] = nc
                    ca = col[a, x]
                    cb = col[b, x]
                    box_a[nc] |= 1 << ((x // 3) * 3 + ca // 3)
                    box_b[nc] |= 1 << ((x // 3) * 3 + cb // 3)
                    for q in (9 * x + ca, 9 * x + cb):
                        x0, x1 = _bit(q)
                        cell_lo[nc] |= x0
                        cell_hi[nc] |= x1
                    x = row[a, cb]  # sigma: the row whose a is in this row's b column
                nc += 1
            nf = 0
            for sub in range(1, 1 << nc):
                ba = 0
                bb = 0
                for k in range(nc):
                    if (sub >> k) & 1:
                        ba |= box_a[k]
                        bb |= box_b[k]
                if ba == bb:
                    found[nf] = sub
                    nf += 1
            for f in range(nf):
                minimal = True
                for f2 in range(nf):
                    if f2 != f and (found[f2] & found[f]) == found[f2]:
                        minimal = False
                        break
                if not minimal or n >= ua.shape[0]:
                    continue
                lo = np.uint64(0)
                hi = np.uint64(0)
                for k in range(nc):
                    if (found[f] >> k) & 1:
                        lo |= cell_lo[k]
                        hi |= cell_hi[k]
                ua[n, 0] = lo
                ua[n, 1] = hi
                n += 1
    return n


@kernel
def line_pair_uas(grid, ua, n):
    """The UAs of two rows of one band (or two columns of one stack): where the digits of row i
    on a set of columns C are those of row j on C, swapping the two rows on C leaves every row,
    column and box valid (the boxes hold both rows). The minimal C are the cycles (of length 2
    or more) of the permutation taking row i's digit in a column to row j's there. Appended to
    ``ua`` from ``n``; returns the new count."""
    at = np.zeros(10, np.int64)  # the column of each digit in row i
    seen = np.zeros(9, np.int64)
    for transposed in range(2):
        for band in range(3):
            for i0 in range(3):
                for j0 in range(i0 + 1, 3):
                    i = 3 * band + i0
                    j = 3 * band + j0
                    for c in range(9):
                        q = 9 * i + c if transposed == 0 else 9 * c + i
                        at[grid[q]] = c
                        seen[c] = 0
                    for c in range(9):
                        if seen[c] or n >= ua.shape[0]:
                            continue
                        lo = np.uint64(0)
                        hi = np.uint64(0)
                        length = 0
                        x = c
                        while not seen[x]:
                            seen[x] = 1
                            length += 1
                            for line in (i, j):
                                q = 9 * line + x if transposed == 0 else 9 * x + line
                                x0, x1 = _bit(q)
                                lo |= x0
                                hi |= x1
                            qj = 9 * j + x if transposed == 0 else 9 * x + j
                            x = at[grid[qj]]
                        if length >= 2:
                            ua[n, 0] = lo
                            ua[n, 1] = hi
                            n += 1
    return n


@kernel(inline="always")
def _forced(puzzle, q, d, rowm, colm, boxm):
    """Whether the givens of ``puzzle`` (q empty) force digit ``d`` into cell q in one step: a
    naked single (the other 8 digits among its row, column and box givens) or a hidden single
    (every other empty cell of its row, of its column or of its box sees a given d)."""
    r = q // 9
    c = q % 9
    b = (r // 3) * 3 + c // 3
    bit = 1 << d
    if (rowm[r] | colm[c] | boxm[b]) == (ALL9 & ~bit):
        return True
    ok = True
    for j in range(9):
        x = 9 * r + j
        if x != q and puzzle[x] == 0 and not ((colm[j] | boxm[(r // 3) * 3 + j // 3]) & bit):
            ok = False
            break
    if ok:
        return True
    ok = True
    for i in range(9):
        x = 9 * i + c
        if x != q and puzzle[x] == 0 and not ((rowm[i] | boxm[(i // 3) * 3 + c // 3]) & bit):
            ok = False
            break
    if ok:
        return True
    for k in range(9):
        x = (3 * (b // 3) + k // 3) * 9 + 3 * (b % 3) + k % 3
        if x != q and puzzle[x] == 0 and not ((rowm[x // 9] | colm[x % 9]) & bit):
            return False
    return True


@kernel
def minimize_into(grid, puzzle, orbit_cells, orbit_sizes, order, n_order, ua, n_ua, S, ctl, base, sols, cells,
                  masks, stats):
    """Remove the orbits ``order[:n_order]`` of ``puzzle`` (a unique puzzle whose solution is
    ``grid``; changed in place) one at a time, each when the puzzle stays unique without it (the
    tests in the module docstring); an orbit not wholly given is skipped. Returns the givens left.

    ``orbit_cells`` (n, 8) / ``orbit_sizes``: the orbits; ``ua[:n_ua]``: known UAs of ``grid``;
    solver scratch ``S`` (SOLVER_DEPTH, SOLVER_WORDS) uint32, ``ctl`` (2,) int64, ``base``
    (SOLVER_WORDS,) uint32, ``sols`` (1, 81) uint8, ``cells`` (81,) int64; ``masks`` (27,) int64."""
    rowm = masks[0:9]
    colm = masks[9:18]
    boxm = masks[18:27]
    for k in range(27):
        masks[k] = 0
    clo = np.uint64(0)
    chi = np.uint64(0)
    left = 0
    for q in range(81):
        d = puzzle[q]
        if d:
            r = q // 9
            c = q % 9
            rowm[r] |= 1 << d
            colm[c] |= 1 << d
            boxm[(r // 3) * 3 + c // 3] |= 1 << d
            x0, x1 = _bit(q)
            clo |= x0
            chi |= x1
            left += 1
    for i in range(n_order):
        k = order[i]
        size = orbit_sizes[k]
        olo = np.uint64(0)
        ohi = np.uint64(0)
        for t in range(size):
            x0, x1 = _bit(orbit_cells[k, t])
            olo |= x0
            ohi |= x1
        if (clo & olo) != olo or (chi & ohi) != ohi:
            continue
        keep = False
        rlo = clo & ~olo
        rhi = chi & ~ohi
        for t in range(n_ua):
            if (ua[t, 0] & rlo) == 0 and (ua[t, 1] & rhi) == 0:
                keep = True
                break
        if keep:
            stats[STAT_UA] += 1
            continue
        for t in range(size):
            q = orbit_cells[k, t]
            d = grid[q]
            r = q // 9
            c = q % 9
            rowm[r] &= ~(1 << d)
            colm[c] &= ~(1 << d)
            boxm[(r // 3) * 3 + c // 3] &= ~(1 << d)
            puzzle[q] = 0
        forced = True
        for t in range(size):
            q = orbit_cells[k, t]
            if not _forced(puzzle, q, grid[q], rowm, colm, boxm):
                forced = False
                break
        if forced:
            stats[STAT_SINGLES] += 1
            clo = rlo
            chi = rhi
            left -= size
            continue
        stats[STAT_SEARCHES] += 1
        givens_node(puzzle, base)
        if size == 1:
            q = orbit_cells[k, 0]
            w = 3 * (grid[q] - 1) + q // 27
            base[w] = np.uint32(np.int64(base[w]) & ~(np.int64(1) << (q % 27)))
            other = count_plus(S, ctl, base, grid, cells, 0, 1, sols) > 0
        else:
            other = count_plus(S, ctl, base, grid, cells, 0, 2, sols) > 1
        if other:
            stats[STAT_SEARCH_KEPT] += 1
            for t in range(size):
                q = orbit_cells[k, t]
                d = grid[q]
                r = q // 9
                c = q % 9
                rowm[r] |= 1 << d
                colm[c] |= 1 << d
                boxm[(r // 3) * 3 + c // 3] |= 1 << d
                puzzle[q] = d
        else:
            clo = rlo
            chi = rhi
            left -= size
    return left


@kernel
def top_down(grids, state, orbit_cells, orbit_sizes, out, clues, stats):
    """For each grid, its orbits in a uniformly random order (Fisher-Yates on ``state``), then
    :func:`minimize_into` from the full grid: ``out[i]`` the puzzle, ``clues[i]`` its givens."""
    S = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
    ctl = np.zeros(2, np.int64)
    base = np.zeros(SOLVER_WORDS, np.uint32)
    sols = np.zeros((1, 81), np.uint8)
    cells = np.zeros(81, np.int64)
    masks = np.zeros(27, np.int64)
    ua = np.zeros((UA_CAPACITY, 2), np.uint64)
    n_orbits = orbit_sizes.shape[0]
    order = np.zeros(n_orbits, np.int64)
    for i in range(grids.shape[0]):
        for k in range(n_orbits):
            order[k] = k
        shuffle(state, order, n_orbits)
        n_ua = line_pair_uas(grids[i], ua, two_digit_uas(grids[i], ua))
        for q in range(81):
            out[i, q] = grids[i, q]
        clues[i] = minimize_into(grids[i], out[i], orbit_cells, orbit_sizes, order, n_orbits, ua, n_ua, S, ctl,
                                 base, sols, cells, masks, stats)


@kernel
def skip_orders(state, n_orbits, n):
    """Advance ``state`` past ``n`` attempts' orders (what :func:`top_down` draws for each)."""
    order = np.zeros(n_orbits, np.int64)
    for i in range(n):
        for k in range(n_orbits):
            order[k] = k
        shuffle(state, order, n_orbits)


@kernel
def minimize_batch(puzzles, solutions, orders, n_orders, orbit_cells, orbit_sizes, clues, stats):
    """:func:`minimize_into` of each unique puzzle (in place) with its solution, its cells tried
    in the order ``orders[i, :n_orders[i]]`` (orbits of one cell)."""
    S = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
    ctl = np.zeros(2, np.int64)
    base = np.zeros(SOLVER_WORDS, np.uint32)
    sols = np.zeros((1, 81), np.uint8)
    cells = np.zeros(81, np.int64)
    masks = np.zeros(27, np.int64)
    ua = np.zeros((UA_CAPACITY, 2), np.uint64)
    for i in range(puzzles.shape[0]):
        n_ua = line_pair_uas(solutions[i], ua, two_digit_uas(solutions[i], ua))
        clues[i] = minimize_into(solutions[i], puzzles[i], orbit_cells, orbit_sizes, orders[i], n_orders[i], ua,
                                 n_ua, S, ctl, base, sols, cells, masks, stats)
