"""Puzzle canon, one row at a time: the candidate record's layout and ties, and ``_arrange``
(the smallest arrangement of a source row under a candidate's ties), the step ``_canon_one``
(``_puzzle_kernels``) repeats row by row. See ``_puzzle_kernels`` for the method."""
import numpy as np

from .._jit import kernel
from ..core.layout import COLS, DIGITS, ROWS, SIZE

NEW = 15
W = 32
# a record starts with the transformation in the group's array form (TRANSPOSE, ROWS, COLS,
# DIGITS: its digit map is the labels given so far), then the next free label
OFF_NEXT = SIZE
# tie bits
INNER_TIES = 0x1B6  # bits 1, 2, 4, 5, 7, 8: position p tied to p - 1 inside its stack
STACK_TIES = 9  # tie >> STACK_TIES: bit 0 ties stack slots 0 and 1, bit 1 slots 1 and 2
TIE_S01 = 1 << STACK_TIES
TIE_S12 = 2 << STACK_TIES
TIE_ALL = INNER_TIES | TIE_S01 | TIE_S12  # every position tied to its left neighbour, all stacks tied
POS_S01 = 0o77  # output positions 0-5 (bit p = position p): the cells of stack slots 0 and 1
POS_S12 = 0o770  # positions 3-8: the cells of stack slots 1 and 2
RUN_ORDERS = np.array([1, 2, 2, 6], dtype=np.int64)  # orders of a run from its 2 tie bits: 1, 2, 2 or 3!
# a candidate's ``used`` word: the source rows placed in bits 0-8 (a 16-bit field), and above it
# the multiplicity (how many interchangeable subtrees it stands for, see _canon_one's dedupe)
USED_ROWS = 0xFFFF
MULT_SHIFT = 16
# row masks (bit i = source row i)
BAND_STARTS = 0b001001001  # rows 0, 3, 6
ALL_ROWS = 0x1FF
MAXKEY = np.uint64(0xFFFFFFFFFFFFFFFF)



BAD_CELL = 1 << 12  # above the 9 digit bits
# DIGIT_BIT[v] = bit v - 1 for a digit v, 0 for an empty cell, BAD_CELL for a value > 9
DIGIT_BIT = np.array([0] + [1 << (v - 1) for v in range(1, 10)] + [BAD_CELL] * 246, dtype=np.int64)


@kernel(inline="always")
def _allowed(A, n, r, used, fixed):
    """9-bit mask of the source rows that may become output row ``r`` of candidate ``A[n]``:
    its fixed row (pattern-first digit pass), any row of an unused band (r % 3 == 0), or the
    unused rows of the current band."""
    if fixed:
        return np.int64(1) << A[n, ROWS + r]
    if r % 3 == 0:
        bu = (used | (used >> 1) | (used >> 2)) & BAND_STARTS  # bit 3b: band b started
        return ~(bu * 7) & ALL_ROWS
    return (np.int64(7) << (3 * (A[n, ROWS + r - 1] // 3))) & ~used


@kernel
def _cswap(x, i, j, on):
    """Branch-free compare-exchange of packed cells x[i], x[j] (value << 4 | column) when
    ``on`` (0 or 1): afterwards x[i] <= x[j]."""
    a = x[i]
    b = x[j]
    lo = min(a, b)
    hi = max(a, b)
    m = -on
    x[i] = (lo & m) | (a & ~m)
    x[j] = (hi & m) | (b & ~m)


@kernel(inline="always")
def _tied_positions(tie):
    """Output positions tied to a neighbour: both ends of every inner tie, every cell of tied stacks."""
    inner = tie & INNER_TIES
    tp = inner | (inner >> 1)
    if tie & TIE_S01:
        tp |= POS_S01
    if tie & TIE_S12:
        tp |= POS_S12
    return tp


@kernel
def _arrange(g, t, sr, A, n, tie, digit_mode, oc, ov, info):
    """Place source row ``sr`` (of ``g[t]``) under candidate ``A[n]`` with tie bits ``tie``.

    Writes the best column order ``oc`` and its cell values ``ov``; ``info[0]`` = new tie
    bits, ``info[1 + s]`` / ``info[4 + s]`` = start / length of the run of tied NEW cells in
    stack slot s (length 0: none), ``info[7]`` / ``info[8]`` = first slot / length of the run
    of tied stacks with equal triples holding NEW cells.  Returns the row's key: the row string
    (labels, NEW cells labelled in order) packed 4 bits a cell, or the 9-bit given mask.

    Cells are packed as value << 4 | column and sorted with branch-free compare-exchanges
    (the order of equal values does not matter: they stay tied, or they are NEW and every
    order of them is enumerated by the caller).
    """
    nxt = A[n, OFF_NEXT]
    x = oc  # scratch: packed cells
    gp = 0  # bit p: position p holds a given
    for p in range(9):
        c = A[n, COLS + p]
        d = g[t, sr, c]
        if digit_mode == 0:
            v = np.int64(d != 0)
        else:
            lab = np.int64(A[n, DIGITS + d])
            # 0 -> 0, labelled -> label, unlabelled digit -> NEW
            v = lab + (NEW - lab) * ((lab == 0) & (d != 0))
        x[p] = (v << 4) | c
        gp |= np.int64(d != 0) << p
    tp = _tied_positions(tie)
    if gp & tp == 0:
        # no given sits in a tied run: every run is empty in this row, so the order and the
        # ties stay as they are and nothing branches; only the key (and labels) are new
        key = np.uint64(0)
        lab = np.int64(nxt)
        for p in range(9):
            v = x[p] >> 4
            oc[p] = x[p] & 15
            ov[p] = v
            if digit_mode == 0:
                key = (key << np.uint64(1)) | np.uint64(v)
            else:
                isnew = np.int64(v == NEW)
                key = (key << np.uint64(4)) | np.uint64(v + isnew * (lab - NEW))
                lab += isnew
        info[0] = tie
        info[4] = 0
        info[5] = 0
        info[6] = 0
        info[8] = 0
        return key
    # sort tied runs inside each stack: network (0,1), (1,2), (0,1) restricted to ties
    for s in range(3):
        p0 = 3 * s
        t1 = (tie >> (p0 + 1)) & 1
        t2 = (tie >> (p0 + 2)) & 1
        _cswap(x, p0, p0 + 1, t1)
        _cswap(x, p0 + 1, p0 + 2, t2)
        _cswap(x, p0, p0 + 1, t1 & t2)
    # sort tied stacks by their value triples (tied stacks have identical inner ties)
    st1 = (tie >> STACK_TIES) & 1
    st2 = (tie >> (STACK_TIES + 1)) & 1
    k0 = ((x[0] >> 4) << 8) | ((x[1] >> 4) << 4) | (x[2] >> 4)
    k1 = ((x[3] >> 4) << 8) | ((x[4] >> 4) << 4) | (x[5] >> 4)
    k2 = ((x[6] >> 4) << 8) | ((x[7] >> 4) << 4) | (x[8] >> 4)
    c0 = (x[0] << 16) | (x[1] << 8) | x[2]
    c1 = (x[3] << 16) | (x[4] << 8) | x[5]
    c2 = (x[6] << 16) | (x[7] << 8) | x[8]
    m = -(st1 & np.int64(k0 > k1))
    k0, k1 = (k1 & m) | (k0 & ~m), (k0 & m) | (k1 & ~m)
    c0, c1 = (c1 & m) | (c0 & ~m), (c0 & m) | (c1 & ~m)
    m = -(st2 & np.int64(k1 > k2))
    k1, k2 = (k2 & m) | (k1 & ~m), (k1 & m) | (k2 & ~m)
    c1, c2 = (c2 & m) | (c1 & ~m), (c1 & m) | (c2 & ~m)
    m = -(st1 & st2 & np.int64(k0 > k1))
    k0, k1 = (k1 & m) | (k0 & ~m), (k0 & m) | (k1 & ~m)
    c0, c1 = (c1 & m) | (c0 & ~m), (c0 & m) | (c1 & ~m)
    key = np.uint64(0)
    lab = np.int64(nxt)
    for p in range(9):
        cs = c0 if p < 3 else (c1 if p < 6 else c2)
        xp = (cs >> (8 * (2 - p % 3))) & 0xFF
        oc[p] = xp & 15
        v = xp >> 4
        ov[p] = v
        if digit_mode == 0:
            key = (key << np.uint64(1)) | np.uint64(v)
        else:
            isnew = np.int64(v == NEW)
            key = (key << np.uint64(4)) | np.uint64(v + isnew * (lab - NEW))
            lab += isnew
    # new ties and branch runs
    nt = 0
    for s in range(3):
        p0 = 3 * s
        t1 = (tie >> (p0 + 1)) & 1
        t2 = (tie >> (p0 + 2)) & 1
        v0 = ov[p0]
        v1 = ov[p0 + 1]
        v2 = ov[p0 + 2]
        nt |= (t1 & np.int64(v0 == v1) & np.int64(v0 != NEW)) << (p0 + 1)
        nt |= (t2 & np.int64(v1 == v2) & np.int64(v1 != NEW)) << (p0 + 2)
        bs = 0
        bl = 0
        if v2 == NEW:  # tied NEW runs end at the last cell of the stack, or at cell 1
            if t1 and t2:
                k = (v0 == NEW) + (v1 == NEW) + 1
                if k >= 2:
                    bs = p0 + 3 - k
                    bl = k
            elif t2:
                if v1 == NEW:
                    bs = p0 + 1
                    bl = 2
        if t1 and not t2 and v0 == NEW and v1 == NEW:
            bs = p0
            bl = 2
        info[1 + s] = bs
        info[4 + s] = bl
    new0 = (k0 & 0xF == NEW) | ((k0 >> 4) & 0xF == NEW) | ((k0 >> 8) == NEW)
    new1 = (k1 & 0xF == NEW) | ((k1 >> 4) & 0xF == NEW) | ((k1 >> 8) == NEW)
    eq01 = k0 == k1
    eq12 = k1 == k2
    nt |= np.int64(st1 and eq01 and not new0) << STACK_TIES
    nt |= np.int64(st2 and eq12 and not new1) << (STACK_TIES + 1)
    ss = 0
    sl = 0
    if new0 or new1:
        if st1 and st2 and eq01 and eq12 and new0:
            sl = 3
        elif st1 and eq01 and new0:
            sl = 2
        elif st2 and eq12 and new1:
            ss = 1
            sl = 2
    info[0] = nt
    info[7] = ss
    info[8] = sl
    return key
