"""Kernels of the pair's unavoidable sets (UAs): the sets of cells of rows 1-6 whose digits can
be permuted so that every band 3 still completes them, and the UAs of a band-3 socket.

**Unavoidable sets from digit subsets** (``refill_diffs``). Fix a set D of k digits and the rows
0..R-1 (R = 6: the two bands of a pair; R = 9: a whole grid). Refill the cells that hold D's
digits with D's digits so that every row and box holds each digit of D once and every column
keeps the *set* of D's digits it had in those rows. Any such refilling other than the original
differs from it on an unavoidable set: for R = 9 it is another grid; for R = 6 every band 3
that completes the pair completes the refilled rows too (a band 3 sees only the column sets).
Every minimal UA whose cells hold k digits comes out of some refilling for that D. The cell by
cell search is cheap up to 5 digits; more digits come from the solver instead (``solver_diffs``:
band 3 and the other digits given, ``_check.fillings``).
"""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel
from ._check import fillings

CELL_ROW = np.array([c // 9 for c in range(81)], np.int64)
CELL_COL = np.array([c % 9 for c in range(81)], np.int64)
CELL_BOX = np.array([(c // 27) * 3 + (c % 9) // 3 for c in range(81)], np.int64)
ONE = np.uint64(1)


@kernel
def refill_diffs(g, nrows, req, kmax, frozen3, max_size, lo, hi, n, start):
    """Append to ``lo``/``hi`` from ``n`` the difference sets of the refillings of rows
    0..nrows-1 of ``g`` over every digit subset D that contains the digits ``req`` (bits 0-8)
    and has 2..``kmax`` digits (module docstring), with the band-3 cells ``frozen3`` (27-bit)
    kept as they are. A refilling in which a digit of D outside ``req`` keeps its cells belongs to
    a smaller D and is skipped; with ``req`` every band-3 cell not frozen must change (the
    *socket*). A partial refilling whose difference already contains a set of
    ``lo``/``hi``[start:n] is cut (its completions are not minimal). Cells are filled band 3
    first, then rows 0-5, so the frozen cells prune at once. Returns the new count (at most
    ``len(lo)``; further sets are dropped)."""
    ncell = nrows * 9
    colset = np.zeros(9, np.int64)
    cells = np.zeros(81, np.int64)
    choice = np.zeros(82, np.int64)
    avail = np.zeros(82, np.int64)
    plo = np.zeros(82, np.uint64)  # difference so far, below each level
    phi = np.zeros(82, np.int64)
    rowm = np.zeros(9, np.int64)
    colm = np.zeros(9, np.int64)
    boxm = np.zeros(9, np.int64)
    moved = np.zeros(10, np.int64)
    socket = 0
    if req != 0 and nrows == 9:
        socket = ((np.int64(1) << 27) - 1) & ~frozen3
    cap = lo.shape[0]
    for sub in range(1, 512):
        if (sub & req) != req:
            continue
        k = popcount(sub)
        if k < 2 or k > kmax:
            continue
        m = 0
        if nrows == 9:
            for c in range(54, 81):
                if (sub >> (g[c] - 1)) & 1:
                    cells[m] = c
                    m += 1
        for c in range(min(ncell, 54)):
            if (sub >> (g[c] - 1)) & 1:
                cells[m] = c
                m += 1
        for j in range(9):
            colset[j] = 0
        for q in range(m):
            c = cells[q]
            colset[CELL_COL[c]] |= 1 << (g[c] - 1)
        for i in range(9):
            rowm[i] = 0
            colm[i] = 0
            boxm[i] = 0
        for d in range(10):
            moved[d] = 0
        lvl = 0
        plo[0] = np.uint64(0)
        phi[0] = np.int64(0)
        c = cells[0]
        avail[0] = sub & colset[CELL_COL[c]]
        while lvl >= 0:
            c = cells[lvl]
            r = CELL_ROW[c]
            j = CELL_COL[c]
            b = CELL_BOX[c]
            a = avail[lvl] & ~(rowm[r] | colm[j] | boxm[b])
            if c >= 54:
                own = 1 << (g[c] - 1)
                if (frozen3 >> (c - 54)) & 1:
                    a &= own  # frozen: keeps its digit
                elif (socket >> (c - 54)) & 1:
                    a &= ~own  # the socket changes
            if a == 0:
                lvl -= 1
                if lvl < 0:
                    break
                c = cells[lvl]
                d = choice[lvl]
                bit = 1 << d
                rowm[CELL_ROW[c]] &= ~bit
                colm[CELL_COL[c]] &= ~bit
                boxm[CELL_BOX[c]] &= ~bit
                if d != g[c] - 1:
                    moved[g[c] - 1] -= 1
                continue
            d = trailing_zeros(a)
            bit = 1 << d
            avail[lvl] &= ~bit
            ch = d != g[c] - 1
            nlo = plo[lvl]
            nhi = phi[lvl]
            if ch:
                if c < 54:
                    nlo |= ONE << np.uint64(c)
                else:
                    nhi |= np.int64(1) << (c - 54)
                if popcount(nlo) + popcount(nhi) > max_size:
                    continue
                sup = False
                for t in range(start, min(n, cap)):
                    if (lo[t] & ~nlo) == 0 and (hi[t] & ~nhi) == 0:
                        sup = True
                        break
                if sup:
                    continue
            choice[lvl] = d
            rowm[r] |= bit
            colm[j] |= bit
            boxm[b] |= bit
            if ch:
                moved[g[c] - 1] += 1
            if lvl == m - 1:
                ok = nlo != 0 or nhi != 0
                for dd in range(9):
                    if (sub >> dd) & 1 and not (req >> dd) & 1 and moved[dd] == 0:
                        ok = False
                if ok:
                    if n < cap:
                        lo[n] = nlo
                        hi[n] = nhi
                        n += 1
                rowm[r] &= ~bit
                colm[j] &= ~bit
                boxm[b] &= ~bit
                if ch:
                    moved[g[c] - 1] -= 1
                continue
            plo[lvl + 1] = nlo
            phi[lvl + 1] = nhi
            lvl += 1
            c2 = cells[lvl]
            avail[lvl] = sub & colset[CELL_COL[c2]]
    return n



@kernel
def solver_diffs(grid, nfixed, cap, lo, n, S, ctl, sols, puzzle):
    """Append to ``lo`` from ``n`` the UAs inside bands 1+2 whose digits are 9 - ``nfixed``: for
    every set F of ``nfixed`` digits, the grid with band 3 given and, in rows 1-6, only F's cells
    given; every other solution (up to ``cap`` per F) differs from ``grid`` inside rows 1-6 only,
    with rows 1-6 keeping every column's digit set (band 3 fixes them), so its difference is a UA
    of the pair (it holds for every band 3). A set containing one already in ``lo`` is skipped.
    Returns the new count (at most ``len(lo)``)."""
    for sub in range(1, 512):
        if popcount(sub) != nfixed:
            continue
        m = fillings(grid, sub, cap, S, ctl, sols, puzzle)
        for t in range(min(m, sols.shape[0])):
            d = np.uint64(0)
            for q in range(54):
                if sols[t, q] != grid[q]:
                    d |= ONE << np.uint64(q)
            if d == 0:
                continue
            sup = False
            for u in range(n):
                if (lo[u] & ~d) == 0:
                    sup = True
                    break
            if not sup and n < lo.shape[0]:
                lo[n] = d
                n += 1
    return n
