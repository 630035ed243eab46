"""Kernels of the fast solver: band bitboards, logic to a fixed point, then guesses.

State of one search node: a row of 32 ``uint32`` words.

- words ``3*d + b`` (d = digit 0-8, b = band 0-2): the 27 cells of band ``b`` where digit ``d``
  is still possible, bit ``9*r + c`` for row ``r`` of the band (0-2) and column ``c`` (0-8).
  A placed digit keeps its own bit, so a finished grid is 9 planes of one cell per row, column, box.
- words ``27 + b``: cells of band ``b`` not placed yet.
- word ``30``: which of the 27 planes changed since they were last examined ("dirty").

Bit scans and counts use the tzcnt / popcnt instructions through LLVM intrinsics (with plain Python
fallbacks, so ``py_func`` still runs). ``_place`` clears bits without branches: a data-dependent
branch per plane was mispredicted often enough to cost a third of the time on the hardest list.

Masks are stored as uint32 and never exceed 27 bits, so numba's widening to int64 when they meet
an integer constant can neither wrap nor turn into a float.

Logic, repeated until nothing changes:
1. for each changed (digit, band) plane: the digit takes exactly one mini-row (row x box) per row
   and per box of the band, i.e. a 3x3 permutation matrix inside the mini-rows it still occupies;
   keep only mini-rows on such a permutation (pointing and claiming locked candidates, and more),
   and place the digit in a row where one cell is left (hidden single in a row; with the
   permutation rule this includes hidden singles in boxes), all such rows of the plane at once
   (``_place_rows``: as cheap as one placement; 1.3 cells per call on the hardest list);
2. naked singles: cells with one candidate left, band by band (bands changed since the last look)
   with bit-parallel counting;
3. per digit across bands: hidden singles in columns, and the same permutation rule on the
   3 bands x 3 columns of each stack (box-column locked candidates);
4. once per call, when 1-3 are stuck: triads (``_triads``): each mini-row and mini-column holds
   exactly 3 digits (tdoku's "triads" and their cardinality constraints, described in its
   write-up; this is our own bit-sliced formulation).
Then branch (``_choose_config``): the digit with two configurations (permutation matrices) left
in the band or stack with the fewest occupied mini-rows / mini-columns over its digits, the way
tdoku branches; each branch fixes the digit in three mini-rows at once. Measured on the hardest
list: 90.4 guesses per puzzle with 1-3 and a two-candidate cell, 77.7 with configuration branches,
61.1 with triads as well (tdoku 61.7). When no digit there has exactly two, guess on a cell with
the fewest candidates (``_choose_cell``, 2 % of the guesses there). The node is copied one level up
with the first branch applied, and the node itself becomes the other branch. The stack of nodes is
preallocated (see MAXDEPTH for the bound).

Where the time goes (hardest list, with triads from 50 open cells; counters in a
copy of these kernels, perf with a map of the compiled functions): 137.7 nodes per puzzle; per node 16.8 plane visits in step 1,
6.75 hidden-single batches (8.8 cells), 0.88 naked singles, 2.9 digit passes of step 3 and 0.16
triad calls. Time: propagation 77 %, triads 8 %, _choose_config 8 %, the reference counting of
``S`` passed to the helpers that are not inlined 3.6 % (inlining _choose_config or all three
was 2-3 % slower: the search loop got worse code; ``_nrt=False`` on the search kernels removes
it but measured no faster). Most of a node is the placements themselves. LLVM vectorized the
9-digit loops of _triads and _choose_config with gathers, 2-2.5 % slower than scalar code on the
hard lists: an exit that never fires keeps them scalar.
"""
from __future__ import annotations

import numpy as np

from .._bits import LOWBIT as LOW9
from .._bits import popcount as _popcount
from .._bits import trailing_zeros
from .._jit import kernel
from ._node import (ALL27, BOX3, COLMASK, FIRST_PERMS, J0, J1, J2, MAXDEPTH, MINIROW_CELLS, NPERM,  # noqa: F401
                    NWORDS, PEER, STACK_COLS, STACKV0, _init_node, _minicols, _minirows, _place, _propagate, _triads,
                    _write_solution)


@kernel
def _choose_cell(S, t):
    """(band, cell) of the cell to guess on, encoded as 27*band + cell.

    A two-candidate cell when there is one: the one whose digits both have many candidates among
    its peers (row, box, column), i.e. the largest smaller count of the two, so that both branches
    eliminate much (the smaller count, rather than the sum, balances the two branches: 90.4
    guesses per puzzle on the hardest list against 92.9). Otherwise the first cell with the
    fewest candidates.
    """
    best2 = -1
    best2_n = -1
    for b in range(3):
        u = np.int64(S[t, 27 + b])
        if u == 0:
            continue
        ones = 0
        twos = 0
        threes = 0
        for d in range(9):
            x = np.int64(S[t, 3 * d + b])
            threes |= twos & x
            twos |= ones & x
            ones |= x
        two = u & twos & ~threes
        while two:
            p = trailing_zeros(two)
            two &= two - 1
            bit = 1 << p
            pm = PEER[p]
            cm = COLMASK[p % 9]
            n = 99
            for d in range(9):
                x = np.int64(S[t, 3 * d + b])
                if x & bit:
                    # the digit's candidates in the cell's row and box, then in its column
                    # (the three bands' column bits shifted apart so one popcount adds them)
                    v = _popcount(x & pm) + _popcount(
                        (np.int64(S[t, 3 * d]) & cm)
                        | ((np.int64(S[t, 3 * d + 1]) & cm) << 1)
                        | ((np.int64(S[t, 3 * d + 2]) & cm) << 2)
                    )
                    n = min(n, v)
            if n > best2_n:
                best2_n = n
                best2 = 27 * b + p
    if best2 >= 0:
        return best2
    best = -1
    best_n = 10
    for b in range(3):
        u = np.int64(S[t, 27 + b])
        while u:
            p = trailing_zeros(u)
            u &= u - 1
            n = 0
            for d in range(9):
                n += (S[t, 3 * d + b] >> p) & 1
            if n < best_n:
                best_n = n
                best = 27 * b + p
    return best


@kernel
def _choose_config(S, t, masks):
    """A digit with exactly two configurations left in one band or stack, to branch on; -1 if none.

    A configuration of digit d in a band is the 3x3 permutation matrix of the mini-rows it takes
    (in a stack: of the mini-columns). Take the band or stack (6 of them) with the fewest
    configurations over its 9 digits that is not settled (more than 9), then in it the first digit
    with two. Each branch fixes the digit in three mini-rows (mini-columns) at once.
    Encoded as kind << 24 | index << 22 | d << 18 | second << 9 | first (kind 0 band, 1 stack).
    """
    tot0 = 0; tot1 = 0; tot2 = 0; tv0 = 0; tv1 = 0; tv2 = 0
    for d in range(9):
        if masks:  # _triads left this node's masks in row t + 1
            h = np.int64(S[t + 1, d])
            v = np.int64(S[t + 1, 18 + d])
        else:
            m0 = np.int64(S[t, 3 * d]); m1 = np.int64(S[t, 3 * d + 1]); m2 = np.int64(S[t, 3 * d + 2])
            h = _minirows(m0, m1, m2)
            v = _minicols(m0, m1, m2)
        if h == 0:  # never at a fixed point; the exit keeps LLVM from vectorizing (gathers: slower)
            return -1
        tot0 += _popcount(h & J0)
        tot1 += _popcount(h & J1)
        tot2 += _popcount(h & J2)
        tv0 += _popcount(v & STACKV0)
        tv1 += _popcount(v & (STACKV0 << 3))
        tv2 += _popcount(v & (STACKV0 << 6))
    best = 999
    which = -1
    for k, n in enumerate((tot0, tot1, tot2, tv0, tv1, tv2)):
        if 27 < n < best:
            best = n
            which = k
    if which < 0:
        return -1
    for d in range(9):
        if which < 3:
            m = np.int64(S[t, 3 * d + which])
            occ = BOX3[m & 511] | (BOX3[(m >> 9) & 511] << 3) | (BOX3[m >> 18] << 6)
        else:
            s = which - 3
            m0 = np.int64(S[t, 3 * d]); m1 = np.int64(S[t, 3 * d + 1]); m2 = np.int64(S[t, 3 * d + 2])
            a0 = (m0 | (m0 >> 9) | (m0 >> 18)) & 511
            a1 = (m1 | (m1 >> 9) | (m1 >> 18)) & 511
            a2 = (m2 | (m2 >> 9) | (m2 >> 18)) & 511
            occ = ((a0 >> (3 * s)) & 7) | (((a1 >> (3 * s)) & 7) << 3) | (((a2 >> (3 * s)) & 7) << 6)
        occ &= 511  # known non-negative: no wraparound code for the look-ups
        if NPERM[occ] == 2:
            return (which // 3) << 24 | (which % 3) << 22 | d << 18 | FIRST_PERMS[occ, 1] << 9 | FIRST_PERMS[occ, 0]
    return -1


@kernel(inline="always")
def _restrict_config(S, t, code, pm):
    """Confine the digit of a _choose_config code to configuration pm in node S[t]; the changed planes."""
    d = (code >> 18) & 15
    x = (code >> 22) & 3
    if code >> 24:
        dirty = 0
        for bb in range(3):
            j = 3 * x + LOW9[(pm >> (3 * bb)) & 7]
            i = 3 * d + bb
            v = np.int64(S[t, i])
            nv = v & (~STACK_COLS[x] | COLMASK[j])
            S[t, i] = nv
            dirty |= np.int64(nv != v) << i
        return dirty
    i = 3 * d + x
    S[t, i] = np.int64(S[t, i]) & MINIROW_CELLS[pm]
    return np.int64(1) << i


NO_NEAR = np.zeros(0, np.int64)
"""``near`` of a search that follows no known solution."""


@kernel
def _on_path(S, t, near):
    """Whether node S[t] still allows the known solution ``near`` (its 27 digit-band planes)."""
    for w in range(27):
        if (np.int64(S[t, w]) & near[w]) != near[w]:
            return False
    return True


@kernel
def _search(S, ctl, limit, sols, near):
    """Depth-first search from node S[ctl[0]] until ``limit`` more solutions or the end.

    ctl[0]: the node to examine next (-1: search finished); ctl[1]: guesses so far. Both are
    written back, so a later call resumes the same search. The first ``len(sols)`` solutions found
    by this call are written to ``sols``. Returns the number of solutions found by this call.
    ``near``: a known solution's 27 planes (or empty): each guess explores first the branch that
    keeps it, so that solution comes first and the next one found differs from it only after the
    last branch point they share (a small difference: what the 17-clue search learns as a UA).
    """
    t = ctl[0]
    guesses = ctl[1]
    found = 0
    while t >= 0:
        state = _propagate(S, t)
        if state == 0:
            t -= 1
            continue
        if (S[t, 27] | S[t, 28] | S[t, 29]) == 0:
            if found < sols.shape[0]:
                _write_solution(S, t, sols[found])
            found += 1
            t -= 1
            if found >= limit:
                break
            continue
        code = _choose_config(S, t, state == 2)
        if code >= 0:
            guesses += 1
            for w in range(NWORDS):
                S[t + 1, w] = S[t, w]
            S[t + 1, 30] = _restrict_config(S, t + 1, code, code & 511)
            S[t, 30] = _restrict_config(S, t, code, (code >> 9) & 511)
            if near.shape[0] and not _on_path(S, t + 1, near):
                for w in range(NWORDS):  # the known solution's branch first
                    v = S[t, w]
                    S[t, w] = S[t + 1, w]
                    S[t + 1, w] = v
            t += 1
            continue
        cell = _choose_cell(S, t)
        b = cell // 27
        p = cell % 27
        bit = 1 << p
        d = 0
        while (S[t, 3 * d + b] & bit) == 0:
            d += 1
        if near.shape[0]:
            for e in range(9):
                if (near[3 * e + b] & bit) and (S[t, 3 * e + b] & bit):
                    d = e
        guesses += 1
        for w in range(NWORDS):
            S[t + 1, w] = S[t, w]
        S[t, 3 * d + b] = S[t, 3 * d + b] & ~bit
        S[t, 30] = 1 << (3 * d + b)
        S[t + 1, 30] = _place(S, t + 1, d, b, p)
        t += 1
    ctl[0] = t
    ctl[1] = guesses
    return found


@kernel
def count_near(S, ctl, puzzle, near, limit, sols):
    """``count_into`` that follows a known solution of ``puzzle`` (``near``: its 27 digit-band
    planes, from ``solution_planes``) at every guess: that solution is found first and the next
    differs from it only after their last shared branch point. What the 17-clue search's failed
    checks learn from is then a small difference, not wherever the search happened to go first."""
    if not _init_node(S, puzzle):
        return 0
    ctl[0] = 0
    ctl[1] = 0
    return _search(S, ctl, limit, sols, near)


@kernel
def count_into(S, ctl, puzzle, limit, sols):
    """Solutions of one puzzle, up to ``limit``, from compiled code that owns its scratch: ``S``
    (MAXDEPTH, NWORDS) uint32 and ``ctl`` (2,) int64, allocated once by the caller and reused;
    the first ``len(sols)`` solutions go to ``sols`` (k, 81) uint8. 0 when two givens clash.
    (Public for other families' kernels, e.g. the uniqueness checks of ``engine.unavoidable``.)"""
    return count_near(S, ctl, puzzle, NO_NEAR, limit, sols)


@kernel
def givens_node(puzzle, base):
    """``base`` (NWORDS,) uint32: the search node of ``puzzle``'s givens, placed but not
    propagated (False when two clash), for ``count_plus`` to start from: the part of many
    puzzles they share is placed once. (The 17-clue search's XY step checks thousands of band-2
    sets under one band 3 and band-1 set: those 32 givens are placed once per set, not per check.)"""
    S = base.reshape(1, NWORDS)
    return _init_node(S, puzzle)


@kernel
def count_plus(S, ctl, base, grid, cells, n, limit, sols):
    """``count_into`` of the puzzle made of ``base``'s givens (``givens_node``) and, for i < n,
    digit ``grid[cells[i]]`` at cell ``cells[i]``: the same search as from all its givens at once
    (placements commute and every plane starts dirty), without placing ``base``'s again."""
    for w in range(NWORDS):
        S[0, w] = base[w]
    for i in range(n):
        q = cells[i]
        if _place(S, 0, grid[q] - 1, q // 27, q % 27) < 0:
            return 0
    S[0, 30] = ALL27
    ctl[0] = 0
    ctl[1] = 0
    return _search(S, ctl, limit, sols, NO_NEAR)


@kernel
def solution_planes(grid, out):
    """The 27 planes (digit d, band b: 27-bit mask of the band's cells holding d + 1) of an
    81-cell grid, into ``out`` (27,) int64: ``count_near``'s ``near``."""
    for w in range(27):
        out[w] = 0
    for cell in range(81):
        out[3 * (grid[cell] - 1) + cell // 27] |= np.int64(1) << (cell % 27)


@kernel
def count_batch(puzzles, limit, counts, solutions, guesses):
    """Count the solutions of each puzzle up to ``limit``, in one call for the whole batch.

    puzzles (N, 81) uint8; counts, guesses (N,) int64 out; solutions (N, 81) uint8 out gets the
    first solution (left zero when there is none), or pass shape (0, 81) to skip them.
    """
    S = np.zeros((MAXDEPTH, NWORDS), dtype=np.uint32)
    ctl = np.zeros(2, dtype=np.int64)
    keep = solutions.shape[0] > 0
    for k in range(puzzles.shape[0]):
        guesses[k] = 0
        if not _init_node(S, puzzles[k]):
            counts[k] = 0
            continue
        ctl[0] = 0
        ctl[1] = 0
        if keep:
            counts[k] = _search(S, ctl, limit, solutions[k : k + 1], NO_NEAR)
        else:
            counts[k] = _search(S, ctl, limit, solutions, NO_NEAR)
        guesses[k] = ctl[1]


@kernel
def minimal_batch(puzzles, counts, minimal):
    """counts[k]: solutions up to 2; minimal[k]: unique and every one-given-removed puzzle has 2 or more."""
    S = np.zeros((MAXDEPTH, NWORDS), dtype=np.uint32)
    ctl = np.zeros(2, dtype=np.int64)
    sols = np.zeros((0, 81), dtype=np.uint8)
    work = np.zeros(81, dtype=np.uint8)
    two = np.int64(2)  # not a literal 2: count_batch's compiled _search serves here too
    for k in range(puzzles.shape[0]):
        minimal[k] = False
        counts[k] = 0
        if not _init_node(S, puzzles[k]):
            continue
        ctl[0] = 0
        ctl[1] = 0
        counts[k] = _search(S, ctl, two, sols, NO_NEAR)
        if counts[k] != 1:
            continue
        for c in range(81):
            work[c] = puzzles[k, c]
        ok = True
        for c in range(81):
            v = work[c]
            if v == 0:
                continue
            work[c] = 0
            _init_node(S, work)
            ctl[0] = 0
            ctl[1] = 0
            n = _search(S, ctl, two, sols, NO_NEAR)
            work[c] = v
            if n < 2:
                ok = False
                break
        minimal[k] = ok
