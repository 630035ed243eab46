"""The solver's node: the candidate planes of a search node, placing digits and propagating
them to a fixed point (naked and hidden singles, locked candidates, triads). The method and where
its time goes are in ``_kernels``' docstring; ``_kernels`` holds the search over these nodes.
"""
import itertools

import numpy as np

from .._bits import LOWBIT as LOW9
from .._bits import popcount as _popcount
from .._bits import trailing_zeros
from .._jit import kernel

NWORDS = 32
TRIADS_MIN_OPEN = 44
"""Triads only on nodes with at least this many open cells: deeper down they cost more than the
guesses they save (the hardest list against tdoku: 0.88x with triads everywhere, 0.91-0.93x from
44 to 50 open cells); 44 rather than 40, as fast on the hard lists, keeps Serg's multi-solution
list 3 % faster."""
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
