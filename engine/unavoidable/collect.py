"""The family's kernels of unavoidable sets: cell sets as bit masks, every minimal unavoidable set
up to a size, and the uniqueness check of the hitting-set search (:mod:`.hitting`).

**Cell sets.** A set of cells is two ``uint64`` words: word 0 holds cells 0-63 (bit ``c``),
word 1 cells 64-80 (bit ``c - 64``); cells are numbered row by row, ``9 * row + column``.
Arrays of sets are ``(k, 2) uint64``. The hitting-set search (:mod:`.hitting`) uses the same
layout for clues and dead cells.

**Unavoidable sets (UAs).** A UA of a grid G is a set of cells whose digits can be rearranged
inside it into another valid grid G'. Every puzzle with the unique solution G has a clue in every
UA, and a clue set with solution G is a puzzle exactly when it hits every UA. Facts used here
(``D`` = the cells where G and G' differ, for any other grid G'):

1. ``D`` is a UA, and every minimal UA ``U`` is such a ``D``: G minus ``U`` has a second completion
   G', G' agrees with G outside ``U``, so ``D ⊆ U`` and ``D`` is itself a UA; minimality gives
   ``D = U``.
2. Every digit occurring in ``D`` occurs there at least twice. Say digit x sits at cell c of D in G.
   G'(c) != x, and c's row holds x in G' at a cell c' which must be in D (outside D the row agrees
   with G, whose x is at c). G holds x in the column of c' at a cell c'', which G' cannot keep
   (G' has x at c' already), so c'' is in D; c'' != c since c and c' share a row but c' and c'' a
   column and c != c'. Hence a UA of at most s cells holds at most s / 2 distinct digits.
3. Seen one digit at a time: each digit x of G occupies a *template* (9 cells, one per row, column
   and box; 46,656 of them). G' moves x from ``m_x`` cells of its template to ``m_x`` others, and
   ``|D| >= 2 m_x`` (the cells x leaves and the cells x enters are both in D), so ``m_x <= s / 2``.

**How every minimal UA of at most s cells is found** (:func:`ua_candidates`): for each digit x,
every template ``t`` with ``2 <= |t - G_x| <= s / 2`` (4,176 per digit for s = 12). A depth-first
search starts from the smallest digit x0 that changes, takes a template for it, and adds to a
*pending* set every digit whose cells the chosen templates enter (those digits must move too; digits
below x0 must not). It then takes a template for the smallest pending digit that avoids every cell
already taken, and so on, keeping the moved cells (the sum of the ``m``) plus two per pending digit
within s. When nothing is pending, the chosen templates are disjoint, their new cells all hold
digits of the chosen set S, so together they fill exactly the cells of S: a valid grid G', and the
cells it vacated are its ``D``. Completeness: for a minimal UA U with its grid G', the search
follows G''s own templates from the smallest digit of U; the digits it reaches form a closed set S';
the templates of S' alone already give a valid grid whose D is inside U, so minimality makes S'
the whole digit set of U and the search reaches ``D = U``. Non-minimal sets found along the way are
removed by ``core.sets.minimal_sets`` (a set is dropped when a smaller found set lies inside it; every
UA contains a minimal UA no larger, which is found). Tests compare it with an independent brute
force (every filling of the emptied cells of up to 4 digits, by the solver).

Templates rather than a cell-by-cell filling of the emptied digits: about 20 times faster for
s = 12 (about 370 minimal UAs a grid).
"""
from __future__ import annotations

import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel
from ..solve import count_into, minimal_ua

ONE = np.uint64(1)
ZERO = np.uint64(0)
HI_CELLS = np.uint64((1 << 17) - 1)
"""Word 1 of the set of all 81 cells."""

TEMPLATES_WITHIN = np.array([1, 0, 18, 48, 252, 900, 2958, 7992, 16515, 17972], dtype=np.int64)
"""How many templates of one digit differ from a given one in exactly m rows (m = 0..9): the same
for every template, since the row, column, band and stack permutations act transitively on them."""


@kernel(inline="always")
def low_cell(x):
    """Index of the lowest set bit of a nonzero word, as int64 (so ``64 + low_cell(w)`` stays an
    integer: int64 + uint64 is a float in Numba)."""
    return np.int64(trailing_zeros(x))


@kernel(inline="always")
def set_size(lo, hi):
    """Number of cells of a set."""
    return np.int64(popcount(lo)) + np.int64(popcount(hi))


@kernel
def digit_templates(grid, max_moved, tl, th, tm, tdig, counts):
    """For each digit x (0-8): every template t with ``2 <= |t - G_x| <= max_moved``, sorted by that
    number ``m``. Row k of digit x: cells ``(tl, th)[x, k]``, ``tm[x, k] = m``, ``tdig[x, k]`` the
    9-bit mask of G's digits (bit d - 1) on the cells t enters. ``counts[x]``: how many."""
    cols = np.zeros(9, np.int64)  # column of x in each row of G
    sig = np.zeros(9, np.int64)  # column of the template in each row
    pos = np.zeros(10, np.int64)
    bucket = np.zeros(11, np.int64)
    cap = tl.shape[1]
    rl = np.zeros(cap, np.uint64)
    rh = np.zeros(cap, np.uint64)
    rm = np.zeros(cap, np.int64)
    rd = np.zeros(cap, np.int64)
    for x in range(9):
        for c in range(81):
            if grid[c] == x + 1:
                cols[c // 9] = c % 9
        n = 0
        r = 0
        pos[0] = 0
        usedc = 0
        usedb = 0
        moved = 0
        # depth-first over the rows: a column per row, no column or box twice, at most max_moved moves
        while r >= 0:
            if r == 9:
                if moved >= 2:
                    lo = ZERO
                    hi = ZERO
                    dg = 0
                    for rr in range(9):
                        c = 9 * rr + sig[rr]
                        if c < 64:
                            lo |= ONE << np.uint64(c)
                        else:
                            hi |= ONE << np.uint64(c - 64)
                        if sig[rr] != cols[rr]:
                            dg |= 1 << (np.int64(grid[c]) - 1)
                    rl[n] = lo
                    rh[n] = hi
                    rm[n] = moved
                    rd[n] = dg
                    n += 1
                r = 8
                c = sig[r]
                usedc &= ~(1 << c)
                usedb &= ~(1 << ((r // 3) * 3 + c // 3))
                if c != cols[r]:
                    moved -= 1
                continue
            placed = False
            while pos[r] < 9:
                c = pos[r]
                pos[r] += 1
                bb = (r // 3) * 3 + c // 3
                if (usedc >> c) & 1 or (usedb >> bb) & 1:
                    continue
                if c != cols[r] and moved >= max_moved:
                    continue
                sig[r] = c
                usedc |= 1 << c
                usedb |= 1 << bb
                if c != cols[r]:
                    moved += 1
                placed = True
                break
            if placed:
                r += 1
                if r < 9:
                    pos[r] = 0
            else:
                r -= 1
                if r >= 0:
                    c = sig[r]
                    usedc &= ~(1 << c)
                    usedb &= ~(1 << ((r // 3) * 3 + c // 3))
                    if c != cols[r]:
                        moved -= 1
        # counting sort by m, so the search can stop at the first template over its budget
        for q in range(11):
            bucket[q] = 0
        for k in range(n):
            bucket[rm[k] + 1] += 1
        for q in range(1, 11):
            bucket[q] += bucket[q - 1]
        for k in range(n):
            q = bucket[rm[k]]
            bucket[rm[k]] += 1
            tl[x, q] = rl[k]
            th[x, q] = rh[k]
            tm[x, q] = rm[k]
            tdig[x, q] = rd[k]
        counts[x] = n


@kernel
def ua_candidates(grid, max_size, tl, th, tm, tdig, counts, out):
    """Every minimal UA of at most ``max_size`` cells, and some non-minimal ones, from the templates
    of :func:`digit_templates` (see the module docstring). Writes sets to ``out`` (k, 2) while there
    is room; returns how many were found (more than ``len(out)``: call again with a larger one)."""
    gl = np.zeros(9, np.uint64)
    gh = np.zeros(9, np.uint64)
    for c in range(81):
        x = grid[c] - 1
        if c < 64:
            gl[x] |= ONE << np.uint64(c)
        else:
            gh[x] |= ONE << np.uint64(c - 64)
    dig = np.zeros(10, np.int64)  # the digit chosen at each depth
    idx = np.zeros(10, np.int64)  # its next template
    ol = np.zeros(10, np.uint64)  # cells taken by the templates chosen above
    oh = np.zeros(10, np.uint64)
    vl = np.zeros(10, np.uint64)  # cells vacated so far (the D being built)
    vh = np.zeros(10, np.uint64)
    pend = np.zeros(10, np.int64)  # pending digits (the one chosen at this depth excluded)
    done = np.zeros(10, np.int64)  # digits with a template
    used = np.zeros(10, np.int64)  # cells moved so far
    n = 0
    for x0 in range(9):
        allowed = 511 & ~((1 << x0) - 1)  # x0 is the smallest digit that moves
        d = 0
        dig[0] = x0
        idx[0] = 0
        ol[0] = ZERO
        oh[0] = ZERO
        vl[0] = ZERO
        vh[0] = ZERO
        pend[0] = 0
        done[0] = 0
        used[0] = 0
        while d >= 0:
            y = dig[d]
            budget = max_size - used[d] - 2 * popcount(pend[d])
            descended = False
            while idx[d] < counts[y]:
                i = idx[d]
                idx[d] += 1
                m = tm[y, i]
                if 2 * m > max_size or m > budget:
                    break  # sorted by m: the rest are over budget too
                if (tl[y, i] & ol[d]) != ZERO or (th[y, i] & oh[d]) != ZERO:
                    continue
                nd = tdig[y, i]
                if nd & ~allowed:
                    continue
                ndone = done[d] | (1 << y)
                npend = (pend[d] | nd) & ~ndone
                nused = used[d] + m
                if nused + 2 * popcount(npend) > max_size:
                    continue
                al = vl[d] | (gl[y] & ~tl[y, i])
                ah = vh[d] | (gh[y] & ~th[y, i])
                if npend == 0:
                    if n < out.shape[0]:
                        out[n, 0] = al
                        out[n, 1] = ah
                    n += 1
                    continue
                d1 = d + 1
                ol[d1] = ol[d] | tl[y, i]
                oh[d1] = oh[d] | th[y, i]
                vl[d1] = al
                vh[d1] = ah
                done[d1] = ndone
                used[d1] = nused
                z = 0
                while not (npend >> z) & 1:
                    z += 1
                dig[d1] = z
                pend[d1] = npend & ~(1 << z)
                idx[d1] = 0
                d = d1
                descended = True
                break
            if not descended:
                d -= 1
    return n


@kernel
def second_solution(grid, lo, hi, puzzle, S, ctl, sols):
    """Is the clue set ``(lo, hi)`` of ``grid`` a puzzle (exactly one solution)? Returns
    ``(unique, dlo, dhi)``: when not, ``(dlo, dhi)`` is the set of cells where a second solution
    differs from the grid (a UA that the clues miss). Scratch: ``puzzle`` (81,) uint8 and the
    solver's ``S``, ``ctl``, ``sols`` (2, 81) (see ``engine.solve.count_into``)."""
    for c in range(81):
        if c < 64:
            on = (lo >> np.uint64(c)) & ONE
        else:
            on = (hi >> np.uint64(c - 64)) & ONE
        puzzle[c] = grid[c] if on != ZERO else 0
    k = count_into(S, ctl, puzzle, 2, sols)
    if k < 2:
        return True, ZERO, ZERO
    other = 0
    for c in range(81):
        if sols[0, c] != grid[c]:
            break
        if c == 80:
            other = 1  # the first solution is the grid: take the second
    dlo = ZERO
    dhi = ZERO
    for c in range(81):
        if sols[other, c] != grid[c]:
            if c < 64:
                dlo |= ONE << np.uint64(c)
            else:
                dhi |= ONE << np.uint64(c - 64)
    return False, dlo, dhi


@kernel
def shrink_ua(grid, lo, hi, diff, cells, out, W):
    """A minimal UA inside the UA (lo, hi): ``engine.solve.minimal_ua`` (each cell in turn given
    back; where the rest can still be filled otherwise, that filling's difference, a UA inside
    the smaller set, replaces it), on masks. Scratch: ``diff`` (81,) bool, ``cells`` and ``out``
    (81,) int64, ``W`` (``REFILL_SCRATCH``,) int64."""
    for c in range(81):
        on = (lo >> np.uint64(c)) & ONE if c < 64 else (hi >> np.uint64(c - 64)) & ONE
        diff[c] = on != ZERO
    minimal_ua(grid, diff, cells, out, W)
    lo = ZERO
    hi = ZERO
    for c in range(81):
        if diff[c]:
            if c < 64:
                lo |= ONE << np.uint64(c)
            else:
                hi |= ONE << np.uint64(c - 64)
    return lo, hi
