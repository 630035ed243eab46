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

Where the time goes (hardest list, 2026-11-24, with triads from 50 open cells; counters in a
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

import itertools

import numpy as np

from .._bits import LOWBIT as LOW9
from .._bits import popcount as _popcount
from .._bits import trailing_zeros
from .._jit import kernel

NWORDS = 32
TRIADS_MIN_OPEN = 44
"""Triads only on nodes with at least this many open cells: deeper down they cost more than the
guesses they save (hardest list, per CPU-second against tdoku: 0.88 with triads everywhere,
0.91-0.93 from 47 to 50 open cells, 0.90 at 56; serg's multi-solution list 0.53 -> 0.73). Once
the second pass of ``_triads`` reused the first pass's mini-row / mini-column masks, 40 open
cells became as fast as 44-50 or faster (alternated, same process: top1465 +2.4 %, hardest +0.6 %
against 50; 30 was 1 % slower than 40) with fewer guesses (8.91 / 62.1 against 10.03 / 68.4).
44 is as fast as 40 on those lists (+-0.5 %), and it keeps Serg's multi-solution list at -1.6 %
against the kernels of the session's start instead of -4.7 % at 40 (hardest 1106: +7.1 %)."""
MAXDEPTH = 656
# Stack depth bound: a node one level up is a copy with at least one candidate fewer (a cell
# guess places a digit in a cell of 2 or more; a configuration guess drops the mini-rows of the
# other configuration), and a node that is guessed on has at least 82 candidates, so a node at
# level t has at most 729 - t candidates and guesses happen below level 648. _propagate on
# node t uses row t + 1 as scratch (hidden singles found, before a guess writes the row), so a
# stack of MAXDEPTH rows is also needed by callers that propagate node 0 alone.
ALL27 = (1 << 27) - 1


def _build_tables():
    # 9 bits of one row of a band -> 3 bits: which boxes (mini-rows) hold a candidate
    box3 = np.array([(x & 7 != 0) | (x & 0o70 != 0) << 1 | (x & 0o700 != 0) << 2 for x in range(512)], dtype=np.int64)
    perm_mats = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in itertools.permutations(range(3))]
    # 3x3 occupancy matrix (bit 3*row + col) -> union of the permutation matrices it contains
    perm_union = np.zeros(512, dtype=np.int64)
    for x in range(512):
        for pm in perm_mats:
            if x & pm == pm:
                perm_union[x] |= pm
    # the same, as the 27 cells of a band (mini-row bit 3*r + k -> cells 9*r + 3*k .. +2)
    band_allowed = np.zeros(512, dtype=np.int64)
    for x in range(512):
        u = int(perm_union[x])
        for r in range(3):
            for k in range(3):
                if u >> (3 * r + k) & 1:
                    band_allowed[x] |= 7 << (9 * r + 3 * k)
    # cells of a band that share a row or a box with cell p (p excluded)
    peer = np.zeros(27, dtype=np.int64)
    for p in range(27):
        r, c = divmod(p, 9)
        m = 511 << (9 * r)
        k = c // 3
        for rr in range(3):
            m |= 7 << (9 * rr + 3 * k)
        peer[p] = m & ~(1 << p)
    colmask = np.array([(1 | 1 << 9 | 1 << 18) << c for c in range(9)], dtype=np.int64)
    return box3, perm_union, band_allowed, peer, colmask


BOX3, PERM_UNION, BAND_ALLOWED, PEER, COLMASK = _build_tables()


def _build_triad_tables():
    # 9-bit masks: bit 3*i + j is mini-row (row i, box j) of a band, or column 3*i + j (stack i)
    minirow_cells = np.zeros(512, dtype=np.int64)  # the cells of the mini-rows
    col_cells = np.zeros(512, dtype=np.int64)  # the cells of the columns (in one band)
    col_force = np.zeros(512, dtype=np.int64)  # the other columns of the boxes of the columns
    for x in range(512):
        for q in range(9):
            if x >> q & 1:
                i, j = divmod(q, 3)
                minirow_cells[x] |= 7 << (9 * i + 3 * j)
                col_cells[x] |= int(COLMASK[q])
                col_force[x] |= sum(int(COLMASK[3 * i + jj]) for jj in range(3) if jj != j)
    return minirow_cells, col_cells, col_force


MINIROW_CELLS, COL_CELLS, COL_FORCE = _build_triad_tables()
SPREAD = 0o111111111  # bit 9*r + 3*k: the first cell of each mini-row of a band
ROW0 = 0o001001001  # bit 9*r: the first cell of each row of a band
K0 = 0o007007007  # packed mini-rows (bit 9*r + 3*k + b) of box k = 0, 1, 2
K1 = K0 << 3
K2 = K0 << 6
J0 = SPREAD  # packed mini-columns (bit 9*b + c) with c % 3 = 0, 1, 2
J1 = SPREAD << 1
J2 = SPREAD << 2
STACKV0 = 0o007007007  # packed mini-columns (bit 9*b + c) of stack 0


def _build_perm_tables():
    # 3x3 occupancy matrix -> how many permutation matrices it contains, the first two of them
    perm_mats = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in itertools.permutations(range(3))]
    nperm = np.zeros(512, dtype=np.int64)
    first = np.zeros((512, 2), dtype=np.int64)
    for x in range(512):
        found = [pm for pm in perm_mats if x & pm == pm]
        nperm[x] = len(found)
        for k, pm in enumerate(found[:2]):
            first[x, k] = pm
    stack_cols = np.array([sum(int(COLMASK[3 * s + j]) for j in range(3)) for s in range(3)], dtype=np.int64)
    return nperm, first, stack_cols


NPERM, FIRST_PERMS, STACK_COLS = _build_perm_tables()
# band b -> the other two bands
OTHER_BAND1 = np.array([1, 2, 0], dtype=np.int64)
OTHER_BAND2 = np.array([2, 0, 1], dtype=np.int64)
# 3 bits (boxes of a band) -> the cells of those boxes
BOX_CELLS = np.array([sum(0o007007007 << (3 * k) for k in range(3) if x >> k & 1) for x in range(8)], dtype=np.int64)
# 9 bits of a row -> the same 9 bits when exactly one is set, else 0
ONE9 = np.array([x if bin(x).count("1") == 1 else 0 for x in range(512)], dtype=np.int64)


@kernel
def _low27(x):
    """Index of the lowest set bit of a nonzero mask."""
    return trailing_zeros(x)


@kernel(inline="always")
def _place(S, t, d, b, p):
    """Place digit d at cell p of band b in node S[t]; the planes it changed, or -1 on contradiction."""
    bit = 1 << p
    i = 3 * d + b
    if (S[t, i] & bit) == 0:
        return -1
    u = S[t, 27 + b]
    if (u & bit) == 0:
        return 0
    S[t, 27 + b] = u & ~bit
    dirty = 0
    # clear the cell in every other digit's plane (branch-free; the own plane keeps it)
    for d2 in range(9):
        j = 3 * d2 + b
        v = np.int64(S[t, j])
        nv = v & ~bit
        S[t, j] = nv
        dirty |= np.int64(nv != v) << j
    S[t, i] = S[t, i] | bit
    dirty &= ~(1 << i)
    v = np.int64(S[t, i])
    nv = v & ~PEER[p]
    S[t, i] = nv
    dirty |= np.int64(nv != v) << i
    cm = COLMASK[p % 9]
    j = 3 * d + OTHER_BAND1[b]
    v = np.int64(S[t, j])
    nv = v & ~cm
    S[t, j] = nv
    dirty |= np.int64(nv != v) << j
    j = 3 * d + OTHER_BAND2[b]
    v = np.int64(S[t, j])
    nv = v & ~cm
    S[t, j] = nv
    dirty |= np.int64(nv != v) << j
    return dirty


@kernel(inline="always")
def _place_rows(S, t, i, b, m, s):
    """Place the digit of plane i (band b, candidates m, obeying the permutation rule) in the cells s
    (unplaced, one per row of m, so at most one per box too); the planes it changed.

    All cells at once: they leave the other digits' planes, their boxes leave plane i, their
    columns leave the digit's planes in the other bands."""
    S[t, 27 + b] = np.int64(S[t, 27 + b]) & ~s
    dirty = np.int64(0)
    for d2 in range(9):
        j = 3 * d2 + b
        v = np.int64(S[t, j])
        nv = v & ~s
        S[t, j] = nv
        dirty |= np.int64(nv != v) << j
    cols = (s | (s >> 9) | (s >> 18)) & 511
    # the boxes of the cells are the boxes of their columns: one look-up, not one per row
    nv = (m & ~BOX_CELLS[BOX3[cols] & 7]) | s
    S[t, i] = nv
    dirty = (dirty & ~(np.int64(1) << i)) | (np.int64(nv != m) << i)
    cm = cols * 0o1001001
    d3 = (i // 3) * 3  # = i - b, written so that the compiler sees it is not negative
    # the two other bands without a branch on b (a branch per band was mispredicted)
    j = d3 + OTHER_BAND1[b]
    v = np.int64(S[t, j])
    nv = v & ~cm
    S[t, j] = nv
    dirty |= np.int64(nv != v) << j
    j = d3 + OTHER_BAND2[b]
    v = np.int64(S[t, j])
    nv = v & ~cm
    S[t, j] = nv
    dirty |= np.int64(nv != v) << j
    return dirty


@kernel(inline="always")
def _minirows(m0, m1, m2):
    """The mini-rows a digit occupies in the three bands, packed: bit 9*r + 3*k + b (row r of band b, box k)."""
    return (((m0 | (m0 >> 1) | (m0 >> 2)) & SPREAD) | (((m1 | (m1 >> 1) | (m1 >> 2)) & SPREAD) << 1)
            | (((m2 | (m2 >> 1) | (m2 >> 2)) & SPREAD) << 2))


@kernel(inline="always")
def _minicols(m0, m1, m2):
    """The mini-columns a digit occupies, packed: bit 9*b + c (band b, column c)."""
    return (((m0 | (m0 >> 9) | (m0 >> 18)) & 511) | (((m1 | (m1 >> 9) | (m1 >> 18)) & 511) << 9)
            | (((m2 | (m2 >> 9) | (m2 >> 18)) & 511) << 18))


@kernel
def _triads(S, t):
    """Triads: every mini-row and every mini-column (3 cells) holds exactly 3 distinct digits.

    The digits still possible in each of the 27 mini-rows and 27 mini-columns are counted
    bit-sliced, each view packed in one 27-bit word. Fewer than 3: contradiction. Exactly 3: each
    of them is forced into that mini-row (mini-column), so it leaves the rest of the row and box
    (column and box). And where 3 digits surely occupy one (the digit is alone in its row of the
    band, or in its column of the box), every other digit leaves it. Called at a fixed point of
    the other rules, so every plane obeys the permutation rule and "alone in its row" is the same
    as "alone in its box". Returns the changed planes, or -1.
    """
    h1 = np.int64(0); h2 = np.int64(0); h3 = np.int64(0); h4 = np.int64(0)
    c1 = np.int64(0); c2 = np.int64(0); c3 = np.int64(0)
    v1 = np.int64(0); v2 = np.int64(0); v3 = np.int64(0); v4 = np.int64(0)
    w1 = np.int64(0); w2 = np.int64(0); w3 = np.int64(0)
    for d in range(9):
        m0 = np.int64(S[t, 3 * d]); m1 = np.int64(S[t, 3 * d + 1]); m2 = np.int64(S[t, 3 * d + 2])
        if (m0 | m1 | m2) == 0:  # never at a fixed point; the exit keeps LLVM from vectorizing (gathers: slower)
            return -1
        h = _minirows(m0, m1, m2)
        # mini-rows alone in their row: no other box of the same row (3 bits apart) occupied
        hc = h & ~(((h >> 3) & (K0 | K1)) | ((h >> 6) & K0) | ((h << 3) & (K1 | K2)) | ((h << 6) & K2))
        v = _minicols(m0, m1, m2)
        # mini-columns alone in their box (3 columns, 1 bit apart)
        vc = v & ~(((v >> 1) & (J0 | J1)) | ((v >> 2) & J0) | ((v << 1) & (J1 | J2)) | ((v << 2) & J2))
        # kept for the second loop in row t + 1 (free scratch here, as in _propagate)
        S[t + 1, d] = h
        S[t + 1, 9 + d] = hc
        S[t + 1, 18 + d] = v
        h4 |= h3 & h; h3 |= h2 & h; h2 |= h1 & h; h1 |= h
        c3 |= c2 & hc; c2 |= c1 & hc; c1 |= hc
        v4 |= v3 & v; v3 |= v2 & v; v2 |= v1 & v; v1 |= v
        w3 |= w2 & vc; w2 |= w1 & vc; w1 |= vc
    if (h3 & v3) != ALL27:
        return -1
    hx = h3 & ~h4  # mini-rows with exactly 3 candidate digits
    vx = v3 & ~v4
    if (hx | c3 | vx | w3) == 0:
        return 0
    dirty = np.int64(0)
    for d in range(9):
        h = np.int64(S[t + 1, d])
        hc = np.int64(S[t + 1, 9 + d])
        v = np.int64(S[t + 1, 18 + d])
        if (h | v) == 0:  # never (as above)
            return -1
        vc = v & ~(((v >> 1) & (J0 | J1)) | ((v >> 2) & J0) | ((v << 1) & (J1 | J2)) | ((v << 2) & J2))
        hf = h & hx & ~hc  # newly forced mini-rows
        he = h & c3 & ~hc  # mini-rows taken by 3 other digits
        vf = v & vx & ~vc
        ve = v & w3 & ~vc
        if (hf | he | vf | ve) == 0:
            continue
        m0 = np.int64(S[t, 3 * d]); m1 = np.int64(S[t, 3 * d + 1]); m2 = np.int64(S[t, 3 * d + 2])
        vf0 = COL_CELLS[vf & 511]; vf1 = COL_CELLS[(vf >> 9) & 511]; vf2 = COL_CELLS[vf >> 18]
        n0 = m0 & ~(_minirow_clear((hf >> 0) & SPREAD, (he >> 0) & SPREAD) | COL_FORCE[vf & 511]
                    | COL_CELLS[ve & 511] | vf1 | vf2)
        n1 = m1 & ~(_minirow_clear((hf >> 1) & SPREAD, (he >> 1) & SPREAD) | COL_FORCE[(vf >> 9) & 511]
                    | COL_CELLS[(ve >> 9) & 511] | vf0 | vf2)
        n2 = m2 & ~(_minirow_clear((hf >> 2) & SPREAD, (he >> 2) & SPREAD) | COL_FORCE[vf >> 18]
                    | COL_CELLS[ve >> 18] | vf0 | vf1)
        S[t, 3 * d] = n0
        S[t, 3 * d + 1] = n1
        S[t, 3 * d + 2] = n2
        dirty |= (np.int64(n0 != m0) | (np.int64(n1 != m1) << 1) | (np.int64(n2 != m2) << 2)) << (3 * d)
    return dirty


@kernel(inline="always")
def _minirow_clear(f, e):
    """Cells to clear in one band's plane: f, e = mini-rows (bit 9*r + 3*k) the digit is forced
    into (the rest of their rows and boxes goes) and excluded from (their cells go)."""
    fc = f | (f << 1) | (f << 2)
    rows = ((f | (f >> 3) | (f >> 6)) & ROW0) * 511
    bx = (f | (f >> 9) | (f >> 18)) & 0o111
    bx = bx * 7
    boxes = bx | (bx << 9) | (bx << 18)
    return ((rows | boxes) & ~fc) | e | (e << 1) | (e << 2)


@kernel(inline="always")
def _propagate(S, t):
    """Logic to a fixed point on node S[t]: 0 on contradiction, else 1, or 2 when the last step was
    _triads finding nothing (its mini-row / mini-column masks of this node are in row t + 1)."""
    dirty = np.int64(S[t, 30])
    cdirty = dirty  # planes changed since the cross-band step last looked at them
    ndirty = dirty  # planes changed since the naked-single step last looked at them
    tried = False
    while True:
        # 1. permutation rule and hidden singles in rows, per changed (digit, band) plane
        # (planes first, all of the changed ones; then the singles found, kept in S[t + 1], which is
        # free scratch until a guess: fewer visits of planes that several placements change, and
        # no unpredictable branch per plane)
        cdirty |= dirty
        ndirty |= dirty
        while dirty:
            hs = np.int64(0)  # planes with hidden singles
            while dirty:
                i = trailing_zeros(dirty)
                dirty &= dirty - 1
                m = np.int64(S[t, i])
                sh = BOX3[m & 511] | (BOX3[(m >> 9) & 511] << 3) | (BOX3[m >> 18] << 6)
                m &= BAND_ALLOWED[sh & 511]  # the mask proves the index non-negative: no wraparound code
                if m == 0:
                    return 0
                S[t, i] = m
                # hidden singles in rows: rows left with one cell, that cell not placed yet
                # (one table look-up per row instead of a data-dependent branch per row)
                sing = (ONE9[m & 511] | (ONE9[(m >> 9) & 511] << 9) | (ONE9[m >> 18] << 18)) & np.int64(S[t, 27 + i % 3])
                S[t + 1, i] = sing
                hs |= np.int64(sing != 0) << i
            while hs:
                i = trailing_zeros(hs)
                hs &= hs - 1
                b = i % 3
                m = np.int64(S[t, i])
                # the singles, still candidates and open (a subset: still one per row and box)
                sing = np.int64(S[t + 1, i]) & m & np.int64(S[t, 27 + b])
                if sing:
                    res = _place_rows(S, t, i, b, m, sing)
                    cdirty |= res
                    ndirty |= res
                    dirty |= res
        # 2. naked singles, in the bands with a changed plane
        for b in range(3):
            u = np.int64(S[t, 27 + b])
            if u == 0 or ((ndirty >> b) & 0o111111111) == 0:
                continue
            ones = 0
            twos = 0
            for d in range(9):
                x = np.int64(S[t, 3 * d + b])
                twos |= ones & x
                ones |= x
            if u & ~ones:
                return 0
            sing = u & ~twos
            while sing:
                p = _low27(sing)
                bit = 1 << p
                sing &= ~bit
                dd = -1
                for d in range(9):
                    if S[t, 3 * d + b] & bit:
                        dd = d
                        break
                if dd < 0:
                    return 0
                res = _place(S, t, dd, b, p)
                if res < 0:
                    return 0
                dirty |= res
        ndirty = 0
        if dirty:
            continue
        # 3. per digit across bands: hidden singles in columns, box-column permutation rule
        for d in range(9):
            if ((cdirty >> (3 * d)) & 7) == 0:
                continue
            m0 = np.int64(S[t, 3 * d])
            m1 = np.int64(S[t, 3 * d + 1])
            m2 = np.int64(S[t, 3 * d + 2])
            a0 = (m0 | (m0 >> 9) | (m0 >> 18)) & 511
            a1 = (m1 | (m1 >> 9) | (m1 >> 18)) & 511
            a2 = (m2 | (m2 >> 9) | (m2 >> 18)) & 511
            if (a0 | a1 | a2) != 511:
                return 0
            w0 = ((m0 & (m0 >> 9)) | (m0 & (m0 >> 18)) | ((m0 >> 9) & (m0 >> 18))) & 511
            w1 = ((m1 & (m1 >> 9)) | (m1 & (m1 >> 18)) | ((m1 >> 9) & (m1 >> 18))) & 511
            w2 = ((m2 & (m2 >> 9)) | (m2 & (m2 >> 18)) | ((m2 >> 9) & (m2 >> 18))) & 511
            single = 511 & ~(w0 | w1 | w2 | (a0 & a1) | (a0 & a2) | (a1 & a2))
            p0 = m0 & ~np.int64(S[t, 27])
            p1 = m1 & ~np.int64(S[t, 28])
            p2 = m2 & ~np.int64(S[t, 29])
            pc = (p0 | (p0 >> 9) | (p0 >> 18) | p1 | (p1 >> 9) | (p1 >> 18) | p2 | (p2 >> 9) | (p2 >> 18)) & 511
            single &= ~pc
            while single:
                c = LOW9[single]
                single &= single - 1
                if (a0 >> c) & 1:
                    b = 0
                    m = m0
                elif (a1 >> c) & 1:
                    b = 1
                    m = m1
                else:
                    b = 2
                    m = m2
                r = 0 if (m >> c) & 1 else (1 if (m >> (c + 9)) & 1 else 2)
                res = _place(S, t, d, b, 9 * r + c)
                if res < 0:
                    return 0
                dirty |= res
            for s in range(3):
                occ = ((a0 >> (3 * s)) & 7) | (((a1 >> (3 * s)) & 7) << 3) | (((a2 >> (3 * s)) & 7) << 6)
                keep = PERM_UNION[occ]
                if keep == 0:
                    return 0
                gone = occ & ~keep
                while gone:
                    q = LOW9[gone]
                    gone &= gone - 1
                    j = 3 * d + q // 3
                    v = np.int64(S[t, j])
                    cm = COLMASK[3 * s + q % 3]
                    if v & cm:
                        S[t, j] = v & ~cm
                        dirty |= 1 << j
        cdirty = 0
        if dirty:
            continue
        # 4. triads (exactly 3 digits per mini-row and mini-column), once the cheaper rules are stuck,
        # and only while many cells are open
        if tried or _popcount(np.int64(S[t, 27])) + _popcount(np.int64(S[t, 28])) + _popcount(np.int64(S[t, 29])) < TRIADS_MIN_OPEN:
            return 1
        tried = True
        res = _triads(S, t)
        if res < 0:
            return 0
        if res == 0:
            return 2
        dirty = res


@kernel
def _init_node(S, puzzle):
    """Node S[0] from an 81-cell puzzle (0 = empty); False when two givens clash."""
    for w in range(30):
        S[0, w] = ALL27
    S[0, 30] = ALL27
    S[0, 31] = 0
    for cell in range(81):
        v = puzzle[cell]
        if v:
            if _place(S, 0, v - 1, cell // 27, cell % 27) < 0:
                return False
    S[0, 30] = ALL27
    return True


@kernel
def _write_solution(S, t, out):
    for d in range(9):
        for b in range(3):
            m = np.int64(S[t, 3 * d + b])
            while m:
                p = _low27(m)
                m &= m - 1
                out[27 * b + p] = d + 1


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
    sets under one band 3 and band-1 set: those 32 givens placed once per set, not per check, took
    that step 10.6 -> 9.8 CPU-s at pass A, band-1 rank 64, 2.6 M checks.)"""
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
