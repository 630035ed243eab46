"""Kernels: canonical (minlex) forms of puzzles, pure minlex and pattern-first.

The math
--------
The output string is read row by row, so the minimal string is found greedily one output row
at a time: a *candidate* is a partial group element (transpose flag, the source rows chosen
for output rows 0..r-1, a column order, the digit labels given so far) whose rows 0..r-1 equal
the best rows found so far.  For output row r every candidate tries every source row allowed
by the band structure (r % 3 == 0: any row of a band not used yet; otherwise the rows left in
the current band) and only candidates whose row r ties the best row r survive.

Columns are not enumerated.  A candidate carries *tie bits*: two adjacent column positions in
one stack are tied when their columns hold identical content in all rows placed so far, and
two adjacent stack slots are tied when the whole stacks do.  Tied columns (stacks) can be
exchanged without changing anything placed so far, so a candidate stands for
prod(run lengths !) column orders at once.  Placing a new row then works like a radix sort:

* value of a cell: 0 for empty, its label if the digit already has one, NEW (15) if not.
  NEW digits are labelled in order of appearance in the row, so every label they get is
  larger than every old label: sorting with NEW as the largest value is exact.
* inside every tied run of a stack sort the columns by value (a 3-sorting network);
* inside every tied run of stacks sort the stacks by their value triples;
* ties survive where values are equal and not NEW.  Two NEW cells in one tied run (or two
  tied stacks with equal triples holding NEW cells) give the same row string but different
  digit labels, so the candidate *branches* into every order of them (at most 6 per run).
  This needs every row and column of the puzzle to hold distinct digits (checked by the API).

Pattern-first runs the same pass twice: first with value = given (1) or empty (0), which never
branches and leaves candidates (full row maps, column orders with ties) that reach the
minimal pattern; then with digit values over the fixed row maps, refining the ties.

Automorphisms: the final candidates are disjoint sets of position maps that all give the form,
so |Aut| = sum over final candidates of prod(tied run lengths !) * (9 - #digits)!
(times a multiplicity when interchangeable empty rows were tried once, see ``_canon_one``).

Speed (the 17-clue benchmark spends its time in the rows after the first ones):
* lower bounds before any arrangement: the row's mask arranged freely (KEY_LB / PAT_LB),
  then the pattern the ties allow (``_pattern_key``, a few table lookups), each given
  labelled 1; candidates whose rows so far are all empty get the exact key from a table;
* the pattern pass never sorts and never touches a column: a candidate's column order is a
  12-bit code (stack order, one order per slot), and a row's key, the new code and the new ties
  are five table lookups (``_pattern_step``); the orders are written once, for the survivors
  (measured: 1.15x pattern-first on the morphed 17-clue list against per-column reads/writes);
* the pattern pass runs in its own loop (no digit-pass branches in it), and its row 0, where
  both candidates are virgin, selects the source rows reaching the best key branch-free
  (``_first_row``): 1.03x and 1.08x;
* a row whose givens all sit in untied positions changes no order and no tie: only labels;
* records are 32 bytes copied as 4 words; rows allowed are a bitmask walked by LOWBIT.
Nothing is allocated per puzzle: the batch kernels allocate the buffers once.

Candidate records (uint8, width W) start with the transformation in the group's array form
(``core.layout``: TRANSPOSE | ROWS + i = source row of output row i | COLS + j = column
order | DIGITS + d = label of digit d, 0 while unlabelled), then OFF_NEXT = the next free
label.  Tie bits (int32): bit p (p % 3 != 0, INNER_TIES) ties column position p with p - 1;
bit STACK_TIES ties stack slots 0 and 1, bit STACK_TIES + 1 slots 1 and 2.  The two candidate
buffers are one ``Candidates`` (records, tie bits, rows used | multiplicity) and ``_canon_one``
works in a ``Workspace``; its steps are inline helpers that write into those arrays
(``_load``, ``_start``, ``_virgin_bound``, ``_push`` then ``_set_columns`` and ``_label_new``,
or in the pattern pass a column code (``_pattern_step``, ``_code_columns``), ``_final_transform``).

Speed note on helpers: an inlined helper taking arrays costs an incref / decref pair per array
per call unless LLVM's reference-count pruning removes it, and in a function this large it
sometimes does not (measured: the single-candidate step, which calls ``_arrange``, as a helper
made pattern-first 1.4x slower; the branch loop's column orders as a helper made pure minlex
1.15x slower; keeping ``ws`` alive through ``_canon_one`` cost 5%).  So those two stay inline
code, and ``_canon_one`` unpacks its workspace once and never touches ``ws`` again.
"""
from collections import namedtuple

import numpy as np

from .._bits import FACT, LOWBIT, PERMS
from .._cache import stored_tables
from .._jit import kernel
from ..core.layout import COLS, DIGITS, ROWS, SIZE, TRANSPOSE, apply_into

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



def _bound_tables():
    """For a row's 9-bit given mask (bit 8 - c = column c): its smallest arrangement under all
    column permutations (sort each stack's cells, empties first, then the stacks), as a
    pattern (PAT_LB) and as a digit key with every given labelled 1 (KEY_LB).

    Both are lower bounds for the row's key under any candidate: ties only restrict the
    arrangement, so its pattern is >= PAT_LB; at the first place where the patterns differ the
    candidate has a given where the bound has none, and before it the bound's labels (1) are
    the smallest possible.  With no ties broken and no label given yet (all rows so far empty)
    the key is exact when givens get 1, 2, 3...: KEY_EXACT.
    """
    pat = np.zeros(512, np.uint64)
    key = np.zeros(512, np.uint64)
    exact = np.zeros(512, np.uint64)
    for m in range(512):
        bits = [(m >> (8 - c)) & 1 for c in range(9)]
        triples = sorted(tuple(sorted(bits[3 * s : 3 * s + 3])) for s in range(3))
        cells = [b for tr in triples for b in tr]
        p = k = e = 0
        lab = 0
        for b in cells:
            p = (p << 1) | b
            k = (k << 4) | b
            lab += b
            e = (e << 4) | (lab if b else 0)
        pat[m], key[m], exact[m] = p, k, e
    return pat, key, exact


# PAT_LB, KEY_LB, KEY_EXACT = _bound_tables(): loaded with the other tables (_TABLES below)
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


def _virgin_tables():
    """VIRGIN_OC[m] / VIRGIN_INFO[m]: ``_arrange`` of a row with given mask ``m`` under a
    virgin candidate (identity column order, everything tied, no label yet)."""
    voc = np.zeros((512, 9), np.int64)
    vinfo = np.zeros((512, 9), np.int64)
    g = np.zeros((1, 1, 9), np.uint8)
    A = np.zeros((1, W), np.uint8)
    for j in range(9):
        A[0, COLS + j] = j
    A[0, OFF_NEXT] = 1
    oc = np.zeros(9, np.int64)
    ov = np.zeros(9, np.int64)
    info = np.zeros(9, np.int64)
    for m in range(512):
        for c in range(9):
            g[0, 0, c] = c + 1 if (m >> (8 - c)) & 1 else 0
        # the argument types of the call in _canon_one, so this compiles no second _arrange
        _arrange(g, np.uint8(0), 0, A, 0, np.int32(TIE_ALL), 1, oc, ov, info)
        voc[m] = oc
        vinfo[m] = info
    return voc, vinfo


# VIRGIN_OC, VIRGIN_INFO = _virgin_tables(): loaded with the other tables (_TABLES below)


def _pattern_tables():
    """Tables for the pattern pass, where a cell is only given (1) or empty (0).

    INNER[pm * 4 + tb]: a stack slot whose cells read the 3 bits ``pm`` (first cell = bit 2)
    and whose tie bits are ``tb`` (bit 0: cells 0-1 tied, bit 1: cells 1-2 tied) -> its
    smallest arrangement (3 bits) | index into PERMS[3] of the cell order << 3 | new tie bits << 6.
    STACK[((s0 * 8 + s1) * 8 + s2) * 4 + st]: three arranged slots and the stack ties (bit 0:
    slots 0-1, bit 1: slots 1-2) -> the smallest 9-bit pattern | PERMS[3] index of the slot
    order << 9 | new stack ties << 12.  Only orders inside tied runs are allowed; the first
    smallest one (in PERMS order) is taken, and ties survive between equal neighbours.
    """
    perms = [tuple(int(v) for v in p) for p in PERMS[3]]

    def groups(tb):
        t1, t2 = tb & 1, (tb >> 1) & 1
        if t1 and t2:
            return (0, 0, 0)
        return (0, 0, 1) if t1 else ((0, 1, 1) if t2 else (0, 1, 2))

    def best_order(vals, tb, width):
        g = groups(tb)
        best = None
        for pi, perm in enumerate(perms):
            if any(g[perm[j]] != g[j] for j in range(3)):
                continue
            arr = [vals[perm[j]] for j in range(3)]
            key = (arr[0] << (2 * width)) | (arr[1] << width) | arr[2]
            if best is None or key < best[0]:
                best = (key, pi, arr)
        key, pi, arr = best
        nt = int(bool(tb & 1) and arr[0] == arr[1]) | (int(bool(tb & 2) and arr[1] == arr[2]) << 1)
        return key, pi, nt

    inner = np.zeros(32, np.int64)
    for pm in range(8):
        for tb in range(4):
            key, pi, nt = best_order([(pm >> 2) & 1, (pm >> 1) & 1, pm & 1], tb, 1)
            inner[pm * 4 + tb] = key | (pi << 3) | (nt << 6)
    stack = np.zeros(2048, np.int64)
    for s0 in range(8):
        for s1 in range(8):
            for s2 in range(8):
                for st in range(4):
                    key, pi, nt = best_order([s0, s1, s2], st, 3)
                    stack[((s0 * 8 + s1) * 8 + s2) * 4 + st] = key | (pi << 9) | (nt << 12)
    return inner, stack


# INNER, STACK = _pattern_tables(): loaded with the other tables (_TABLES below)


def _pattern_nibbles():
    """PAT_NIBBLES[pattern] = the digit key with label 1 on every given of a 9-bit pattern."""
    return np.array([sum(((m >> (8 - p)) & 1) << (4 * (8 - p)) for p in range(9)) for m in range(512)], dtype=np.uint64)


def _coded_pattern_tables(inner_table):
    """Tables for the pattern pass on *column codes*: in that pass a candidate's column order is
    always a stack order composed with one order per stack slot, so it is kept as 12 bits, code =
    S | P0 << 3 | P1 << 6 | P2 << 9 (PERMS[3] indices: slot q holds source stack S[q], its cell j
    is source column 3 S[q] + P_q[j]), and a row's key is a few lookups on its 9-bit mask with no
    per-column work.  The columns are written once, for the survivors (``_code_columns``).

    STACKED[S * 512 + mk]: mask ``mk`` (bit 8 - c = column c) with its stacks in order S (slot q's
    3 bits at bits 6 - 3q).  INNER_CODED[(P * 8 + b3) * 4 + tb]: ``INNER`` of the slot whose
    source stack reads the 3 bits ``b3`` (first column = bit 2) in cell order P, with the cell
    order of the result composed in: arranged bits | new P << 3 | new tie bits << 6
    (``inner_table``: ``INNER``). COMPOSE3[a * 6 + b]: the PERMS[3] index of q -> a[b[q]].
    """
    perms = [tuple(int(v) for v in p) for p in PERMS[3]]
    compose = np.zeros(36, np.int64)
    for ia, pa in enumerate(perms):
        for ib, pb in enumerate(perms):
            compose[ia * 6 + ib] = perms.index(tuple(pa[pb[q]] for q in range(3)))
    stacked = np.zeros(6 * 512, np.int64)
    for si, sp in enumerate(perms):
        for mk in range(512):
            stacked[si * 512 + mk] = sum(((mk >> (6 - 3 * sp[q])) & 7) << (6 - 3 * q) for q in range(3))
    inner = np.zeros(6 * 8 * 4, np.int64)
    for pi, pp in enumerate(perms):
        for b3 in range(8):
            pm = sum(((b3 >> (2 - pp[j])) & 1) << (2 - j) for j in range(3))
            for tb in range(4):
                e = inner_table[pm * 4 + tb]
                inner[(pi * 8 + b3) * 4 + tb] = (e & 7) | (compose[pi * 6 + ((e >> 3) & 7)] << 3) | ((e >> 6) << 6)
    return stacked, inner, compose


def _tables() -> dict:
    """Every table above, computed: about 12 ms of Python, and ``_virgin_tables`` calls the
    compiled ``_arrange``, whose loading alone costs a process 15-20 ms (measured: importing this
    module took 41 ms, 12 ms with the tables stored)."""
    tables = dict(zip(("PAT_LB", "KEY_LB", "KEY_EXACT"), _bound_tables()))
    tables |= dict(zip(("VIRGIN_OC", "VIRGIN_INFO"), _virgin_tables()))
    tables |= dict(zip(("INNER", "STACK"), _pattern_tables()))
    tables["PAT_NIBBLES"] = _pattern_nibbles()
    tables |= dict(zip(("STACKED", "INNER_CODED", "COMPOSE3"), _coded_pattern_tables(tables["INNER"])))
    return tables


# computed once per version of the engine's sources (2 s) and kept in the cache folder, so that
# importing this module (every canon, equiv and rank) calls no kernel: a process loads only the
# kernels it runs
_TABLES = stored_tables("canon-tables", None, _tables)
PAT_LB, KEY_LB, KEY_EXACT = _TABLES["PAT_LB"], _TABLES["KEY_LB"], _TABLES["KEY_EXACT"]
VIRGIN_OC, VIRGIN_INFO = _TABLES["VIRGIN_OC"], _TABLES["VIRGIN_INFO"]
INNER, STACK, PAT_NIBBLES = _TABLES["INNER"], _TABLES["STACK"], _TABLES["PAT_NIBBLES"]
STACKED, INNER_CODED, COMPOSE3 = _TABLES["STACKED"], _TABLES["INNER_CODED"], _TABLES["COMPOSE3"]


@kernel(inline="always")
def _pattern_key(A, n, tie, mk, info):
    """The pattern pass's row key (9-bit pattern) of the row with given mask ``mk`` (bit 8 - c =
    column c) under candidate ``A[n]`` with tie bits ``tie``, by table lookups: ``info[1 + s]``
    = PERMS[3] index of the cell order inside stack slot s, ``info[7]`` = that of the slot
    order, ``info[0]`` = new tie bits.  The caller builds the column order only if it keeps it."""
    s0 = 0
    s1 = 0
    s2 = 0
    nt0 = 0
    nt1 = 0
    nt2 = 0
    for s in range(3):
        p0 = COLS + 3 * s
        pm = (((mk >> (8 - A[n, p0])) & 1) << 2) | (((mk >> (8 - A[n, p0 + 1])) & 1) << 1) | ((mk >> (8 - A[n, p0 + 2])) & 1)
        e = INNER[pm * 4 + ((tie >> (3 * s + 1)) & 3)]
        info[1 + s] = (e >> 3) & 7
        if s == 0:
            s0 = e & 7
            nt0 = e >> 6
        elif s == 1:
            s1 = e & 7
            nt1 = e >> 6
        else:
            s2 = e & 7
            nt2 = e >> 6
    e = STACK[((s0 * 8 + s1) * 8 + s2) * 4 + ((tie >> STACK_TIES) & 3)]
    sp = (e >> 9) & 7
    info[7] = sp
    nt = (e >> 12) << STACK_TIES
    for q in range(3):
        src = PERMS[3, sp, q]
        inner_nt = nt0 if src == 0 else (nt1 if src == 1 else nt2)
        nt |= inner_nt << (3 * q + 1)
    info[0] = nt
    return np.uint64(e & 511)


@kernel(inline="always")
def _pattern_step(code, tie, mk):
    """The pattern pass's row key (9-bit pattern) of the row with given mask ``mk`` under a
    candidate with column code ``code`` and tie bits ``tie`` (see ``_coded_pattern_tables``), the
    code of the arranged order and the new tie bits: ``_pattern_key`` by lookups only."""
    sm = STACKED[(code & 7) * 512 + mk]
    e0 = INNER_CODED[((((code >> 3) & 7) * 8 + ((sm >> 6) & 7)) * 4) + ((tie >> 1) & 3)]
    e1 = INNER_CODED[((((code >> 6) & 7) * 8 + ((sm >> 3) & 7)) * 4) + ((tie >> 4) & 3)]
    e2 = INNER_CODED[((((code >> 9) & 7) * 8 + (sm & 7)) * 4) + ((tie >> 7) & 3)]
    e = STACK[((((e0 & 7) * 8 + (e1 & 7)) * 8 + (e2 & 7)) * 4) + ((tie >> STACK_TIES) & 3)]
    sp = (e >> 9) & 7
    slots = (e0 >> 3) | ((e1 >> 3) << 5) | ((e2 >> 3) << 10)  # per slot: new P | new tie bits << 3
    nt = (e >> 12) << STACK_TIES
    ncode = COMPOSE3[(code & 7) * 6 + sp]
    for q in range(3):
        v = (slots >> (5 * PERMS[3, sp, q])) & 31
        ncode |= (v & 7) << (3 + 3 * q)
        nt |= (v >> 3) << (3 * q + 1)
    return np.uint64(e & 511), ncode, nt


@kernel(inline="always")
def _code_columns(recs, m, code):
    """The column order of record ``m`` = the one column code ``code`` stands for."""
    for q in range(3):
        base = 3 * PERMS[3, code & 7, q]
        pq = (code >> (3 + 3 * q)) & 7
        for j in range(3):
            recs[m, COLS + 3 * q + j] = base + PERMS[3, pq, j]


# -- the work arrays -----------------------------------------------------------------------------
Candidates = namedtuple("Candidates", ["words", "recs", "ties", "used", "codes"])
"""Two buffers of candidates, one after the other: buffer 0 is rows [0, cap), buffer 1 rows
[cap, 2 cap), so switching buffers is switching an offset.  ``recs`` (2 cap, W) uint8 records
are the same bytes as ``words`` (2 cap, W/8) uint64 (a record is copied as W/8 words);
``ties`` (2 cap,) int32 tie bits; ``used`` (2 cap,) int64 source rows placed (``& USED_ROWS``)
| multiplicity << MULT_SHIFT; ``codes`` (2 cap,) int32 column codes, used in the pattern pass
instead of the record's column order (``_coded_pattern_tables``)."""

Workspace = namedtuple("Workspace", ["cand", "g", "masks", "oc", "ov", "info", "tmp", "stat"])
"""Everything ``_canon_one`` writes besides its outputs: the candidates ``cand``; the puzzle
``g`` (2, 9, 9) (g[1] = its transpose) and its row given masks ``masks`` (2, 9); one row's
arrangement ``oc`` (columns), ``ov`` (values), ``info`` (see ``_arrange``) and ``tmp``;
``stat[0]`` = number of final candidates, ``stat[1]`` = the row of ``cand`` where they start."""


@kernel
def _workspace(cap):
    """The work arrays of ``_canon_one`` (two candidate buffers of ``cap`` records), allocated
    once per call of a driver, never per puzzle."""
    words = np.zeros((2 * cap, W // 8), np.uint64)
    cand = Candidates(words, words.view(np.uint8), np.zeros(2 * cap, np.int32), np.zeros(2 * cap, np.int64),
                      np.zeros(2 * cap, np.int32))
    return Workspace(cand, np.zeros((2, 9, 9), np.uint8), np.zeros((2, 9), np.int64), np.zeros(9, np.int64),
                     np.zeros(9, np.int64), np.zeros(9, np.int64), np.zeros(9, np.int64), np.zeros(2, np.int64))


# -- the steps of _canon_one -----------------------------------------------------------------------
@kernel(inline="always")
def _load(p, g, masks, cm):
    """``g[0]`` = the rows of puzzle ``p`` (81,), ``g[1]`` = its transpose, ``masks[o, i]`` = the
    given mask of row i of ``g[o]`` (bit 8 - c = column c); ``cm`` (9,) is scratch (per column:
    its digit bits, and its given mask << 16).  Returns the number of givens, -3 when a cell is
    not 0-9, -2 when a row or column repeats a digit.  One pass over the cells in order
    (rows and columns checked together; about 2% of pattern-first against two passes)."""
    for j in range(9):
        cm[j] = 0
    dup = 0
    seen = 0
    ngiven = 0
    for i in range(9):
        rm = 0
        mr = 0
        for j in range(9):
            a = np.int64(p[9 * i + j])
            g[0, i, j] = a
            g[1, j, i] = a
            ba = DIGIT_BIT[a]  # 0 for an empty cell, BAD_CELL for a bad value
            given = np.int64(a != 0)
            c = cm[j]
            dup |= (rm | c) & ba
            rm |= ba
            cm[j] = c | ba | (given << (24 - i))
            mr = (mr << 1) | given
            ngiven += given
        masks[0, i] = mr
        seen |= rm
    for j in range(9):
        masks[1, j] = cm[j] >> 16
    if seen & BAD_CELL:
        return -3
    if dup & ~BAD_CELL:
        return -2
    return ngiven


@kernel(inline="always")
def _start(recs, ties, used, codes):
    """Records 0 and 1 = the two virgin candidates (untransposed and transposed: no row placed,
    identity column order, everything tied, no label); returns their number."""
    for t in range(2):
        for k in range(W):
            recs[t, k] = 0
        recs[t, TRANSPOSE] = t
        for j in range(9):
            recs[t, COLS + j] = j
        recs[t, OFF_NEXT] = 1
        ties[t] = TIE_ALL
        used[t] = 1 << MULT_SHIFT
        codes[t] = 0  # identity orders
    return 2


@kernel(inline="always")
def _push(words, recs, ties, used, n, m, r, sr, weight, rows, tie):
    """Record ``m`` = record ``n`` with source row ``sr`` as output row ``r``, rows used ``rows |
    sr``, multiplicity ``weight`` and tie bits ``tie``; the caller then writes the new column
    order (and labels)."""
    words[m, 0] = words[n, 0]  # the record as W / 8 = 4 words, then the changes
    words[m, 1] = words[n, 1]
    words[m, 2] = words[n, 2]
    words[m, 3] = words[n, 3]
    recs[m, ROWS + r] = sr
    used[m] = (weight << MULT_SHIFT) | rows | (1 << sr)
    ties[m] = tie


@kernel(inline="always")
def _set_columns(recs, m, cols):
    """The column order of record ``m`` = ``cols`` (9)."""
    for q in range(9):
        recs[m, COLS + q] = cols[q]


@kernel(inline="always")
def _label_new(recs, m, ov, g, t, sr):
    """Give the digits of source row ``sr`` (of ``g[t]``) that are NEW in ``ov`` the next free
    labels of record ``m``, in output order (its columns are already placed)."""
    nx = recs[m, OFF_NEXT]
    for q in range(9):
        if ov[q] == NEW:
            recs[m, DIGITS + g[t, sr, recs[m, COLS + q]]] = nx
            nx += 1
    recs[m, OFF_NEXT] = nx


@kernel(inline="always")
def _virgin_arrange(mk, oc, ov, info):
    """``_arrange`` of a row with given mask ``mk`` under a virgin candidate, from the tables."""
    for q in range(9):
        oc[q] = VIRGIN_OC[mk, q]
        ov[q] = NEW * ((mk >> (8 - oc[q])) & 1)
        info[q] = VIRGIN_INFO[mk, q]


@kernel(inline="always")
def _branches(info):
    """Number of records an arrangement (``info``, see ``_arrange``) branches into."""
    return FACT[info[4]] * FACT[info[5]] * FACT[info[6]] * FACT[info[8]]


@kernel(inline="always")
def _virgin_bound(recs, ties, used, a, nA, r, digit_mode, masks):
    """A starting bound for output row ``r`` over candidates ``a .. a + nA - 1``: a candidate
    whose rows so far are all empty ("virgin": everything tied, no label yet) has the exact key
    KEY_EXACT / PAT_LB of the row's mask; the best of them is reached, so it is a valid bound
    (fewer losing arrangements are built).  MAXKEY when there is no virgin candidate."""
    best = MAXKEY
    for n in range(a, a + nA):
        if ties[n] == TIE_ALL and recs[n, OFF_NEXT] == 1:
            allowed = _allowed(recs, n, r, used[n] & USED_ROWS, False)
            while allowed:
                sr = LOWBIT[allowed]
                allowed &= allowed - 1
                m = masks[recs[n, TRANSPOSE], sr]
                key = KEY_EXACT[m] if digit_mode else PAT_LB[m]
                if key < best:
                    best = key
    return best


@kernel(inline="always")
def _first_row(masks):
    """Pattern pass, output row 0, where both candidates are virgin and every source row's key is
    exactly PAT_LB of its mask: the best key and, per orientation, the 9-bit mask of the source
    rows reaching it, found branch-free (measured 1.08x pattern-first on the morphed 17-clue list
    against bounding, then testing 18 rows with branches that mispredict)."""
    best = MAXKEY
    for i in range(9):
        best = min(best, PAT_LB[masks[0, i]], PAT_LB[masks[1, i]])
    sel0 = 0
    sel1 = 0
    for i in range(9):
        sel0 |= np.int64(PAT_LB[masks[0, i]] == best) << i
        sel1 |= np.int64(PAT_LB[masks[1, i]] == best) << i
    return best, sel0, sel1


@kernel(inline="always")
def _band_empty(masks, t, b3):
    """Rows b3, b3 + 1, b3 + 2 of ``g[t]`` hold no given."""
    return masks[t, b3] == 0 and masks[t, b3 + 1] == 0 and masks[t, b3 + 2] == 0


@kernel(inline="always")
def _empty_row_weight(masks, t, sr, r, rows):
    """Dedupe for an empty source row ``sr`` as output row ``r`` (rows used: ``rows``): 0 when an
    interchangeable empty row before it stands for it (skip it), else how many rows it stands
    for.  A row of an empty band at a band start: every row of every empty unused band is
    equivalent; otherwise the empty unused rows of its band are."""
    skip = False
    cnt = 0
    if r % 3 == 0 and _band_empty(masks, t, 3 * (sr // 3)):
        for q in range(9):
            if masks[t, q] == 0 and not (rows >> (3 * (q // 3))) & 7:
                if _band_empty(masks, t, 3 * (q // 3)):
                    if q < sr:
                        skip = True
                    cnt += 1
    else:
        b3 = 3 * (sr // 3)
        for q in range(b3, b3 + 3):
            if masks[t, q] == 0 and not (rows >> q) & 1:
                if q < sr:
                    skip = True
                cnt += 1
    return 0 if skip else cnt


@kernel(inline="always")
def _final_transform(rec, out):
    """``out`` (SIZE) = the transformation of final record ``rec``, the digits it does not use
    mapped to the free labels in order; returns the number of digits it uses."""
    for q in range(SIZE):  # the record starts with the transformation in array form
        out[q] = rec[q]
    out[DIGITS] = 0
    nx = rec[OFF_NEXT]
    for d in range(1, 10):
        if out[DIGITS + d] == 0:
            out[DIGITS + d] = nx
            nx += 1
    return rec[OFF_NEXT] - 1


@kernel(inline="always")
def _tie_orders(tie):
    """Column orders a final candidate stands for: the product of (tied run length)! over the
    three stacks' cells and over the stacks."""
    c = RUN_ORDERS[(tie >> 1) & 3] * RUN_ORDERS[(tie >> 4) & 3] * RUN_ORDERS[(tie >> 7) & 3]
    return c * RUN_ORDERS[(tie >> STACK_TIES) & 3]


# Not inlined (it was, into canon_batch and canon_survivors: 27 s of compile for two copies); a
# call per puzzle costs nothing beside its work. Callers pass np.int64 values, not literals.
@kernel
def _canon_one(p, mode, dedupe, ws, form, trans):
    """Canonical form of puzzle ``p`` (81,) into ``form`` (81,) / ``trans`` (array form, SIZE)
    with workspace ``ws`` (``_workspace``).

    ``mode`` 0 = pure minlex, 1 = pattern-first.  Returns the automorphism count, or -1 when
    the candidate buffers overflowed, -2 when a row or column of the puzzle repeats a digit,
    -3 when a cell is not 0-9.  ``ws.stat`` tells where the final candidates lie.  Candidates
    for output rows 0..r-1 are records a .. a + nA - 1 of ``ws.cand``, those for rows 0..r are
    written from record b on; a and b (0 and cap) swap after each row.

    With ``dedupe``, empty source rows that are interchangeable are tried once: two empty rows
    of one band, or two empty bands, can be swapped by a group element that fixes the puzzle,
    so the subtrees below them are isomorphic and one of them, counted k times (the
    multiplicity in ``used``), stands for k.  (Listing automorphisms needs every subtree:
    ``dedupe=0``.)
    """
    # unpacked once (ws is not used below: fewer reference counts per puzzle)
    words, recs, ties, used, codes = ws.cand
    g = ws.g
    masks = ws.masks
    oc = ws.oc
    ov = ws.ov
    info = ws.info
    tmp = ws.tmp
    stat = ws.stat
    cap = ties.shape[0] // 2
    ngiven = _load(p, g, masks, tmp)
    if ngiven < 0:
        return ngiven
    if mode == 1 and ngiven == 81:
        # pattern-first equals pure minlex on a full grid (every pattern is all givens); running
        # it as pure minlex avoids 2,592 row maps x 1,296 column orders of pattern survivors
        mode = 0
    a = 0  # candidates for rows 0..r-1: records a .. a + nA - 1
    b = cap  # those for rows 0..r: records b .. b + nB - 1
    nA = _start(recs, ties, used, codes)
    nphases = 1 if mode == 0 else 2
    for phase in range(nphases):
        digit_mode = 1 if (mode == 0 or phase == 1) else 0
        fixed = phase == 1
        for r in range(9):
            if fixed and masks[recs[a, TRANSPOSE], recs[a, ROWS + r]] == 0:
                # pattern-first digit pass: the minimal pattern's row r is empty for every
                # candidate, so nothing (ties, labels) changes
                continue
            if not digit_mode:
                # the pattern pass, its own tight loop (measured 1.03x against sharing the digit
                # pass's loop): key, order and ties by lookups (_pattern_step), never branches
                sel0 = 0
                sel1 = 0
                if r == 0:  # records a, a + 1: the two virgin candidates
                    best, sel0, sel1 = _first_row(masks)
                else:
                    best = _virgin_bound(recs, ties, used, a, nA, r, 0, masks)
                m = b
                for n in range(a, a + nA):
                    t = recs[n, TRANSPOSE]
                    rows = used[n] & USED_ROWS
                    mult = used[n] >> MULT_SHIFT
                    tie = ties[n]
                    code = codes[n]
                    if r == 0:
                        allowed = sel1 if t else sel0
                    else:
                        allowed = _allowed(recs, n, r, rows, False)
                    while allowed:
                        sr = LOWBIT[allowed]
                        allowed &= allowed - 1
                        mk = masks[t, sr]
                        if PAT_LB[mk] > best:
                            continue
                        weight = mult
                        if dedupe and mk == 0:
                            factor = _empty_row_weight(masks, t, sr, r, rows)
                            if factor == 0:
                                continue
                            weight = mult * factor
                        key, ncode, ntie = _pattern_step(code, tie, mk)
                        if key > best:
                            continue
                        if key < best:
                            best = key
                            m = b
                        if m + 1 > b + cap:
                            return -1
                        _push(words, recs, ties, used, n, m, r, sr, weight, rows, ntie)
                        codes[m] = ncode
                        m += 1
                nA = m - b
                a, b = b, a
                continue
            if nA == 1 and (fixed or (mode == 0 and r % 3 == 2)):
                # a single candidate with its row fixed (or, pure minlex, the last row left in
                # its band): nothing to compare; unless the row branches, update it in place
                # (inline code, not a helper: see "Speed note on helpers")
                t = recs[a, TRANSPOSE]
                if not fixed:
                    recs[a, ROWS + r] = LOWBIT[_allowed(recs, a, r, used[a] & USED_ROWS, fixed)]
                sr = recs[a, ROWS + r]
                mk = masks[t, sr]
                gp = 0  # bit q: output position q holds a given
                for q in range(9):
                    gp |= ((mk >> (8 - recs[a, COLS + q])) & 1) << q
                tie = ties[a]
                if gp & _tied_positions(tie) == 0:
                    # no given in a tied run (see _arrange): only label the new digits
                    nx = recs[a, OFF_NEXT]
                    while gp:
                        q = LOWBIT[gp]
                        gp &= gp - 1
                        d = g[t, sr, recs[a, COLS + q]]
                        if recs[a, DIGITS + d] == 0:
                            recs[a, DIGITS + d] = nx
                            nx += 1
                    recs[a, OFF_NEXT] = nx
                    used[a] |= np.int64(1) << sr
                    continue
                # int64 values, not literals: the same compiled _arrange as the call below
                _arrange(g, t, np.int64(sr), recs, np.int64(a), tie, np.int64(1), oc, ov, info)
                if info[4] < 2 and info[5] < 2 and info[6] < 2 and info[8] < 2:
                    ties[a] = info[0]
                    _set_columns(recs, a, oc)
                    _label_new(recs, a, ov, g, t, sr)
                    used[a] |= np.int64(1) << sr
                    continue
            best = MAXKEY
            if not fixed:
                best = _virgin_bound(recs, ties, used, a, nA, r, digit_mode, masks)
            m = b  # next free record
            for n in range(a, a + nA):
                t = recs[n, TRANSPOSE]
                rows = used[n] & USED_ROWS
                mult = used[n] >> MULT_SHIFT
                tie = ties[n]
                virgin = (not fixed) and tie == TIE_ALL and recs[n, OFF_NEXT] == 1
                allowed = _allowed(recs, n, r, rows, fixed)
                while allowed:
                    sr = LOWBIT[allowed]
                    allowed &= allowed - 1
                    # cheap lower bound first (see _bound_tables); a virgin candidate's key is
                    # exact (KEY_EXACT), so it survives only if it equals the best
                    mk = masks[t, sr]
                    if digit_mode:
                        if virgin:
                            if KEY_EXACT[mk] != best:
                                continue
                        elif KEY_LB[mk] > best:
                            continue
                    elif PAT_LB[mk] > best:
                        continue
                    weight = mult
                    if dedupe and mk == 0:
                        factor = _empty_row_weight(masks, t, sr, r, rows)
                        if factor == 0:
                            continue
                        weight = mult * factor
                    if not virgin and best != MAXKEY and PAT_NIBBLES[_pattern_key(recs, n, tie, mk, info)] > best:
                        # the smallest pattern the ties allow, every given labelled 1, is a
                        # lower bound too (same argument as KEY_LB), and costs a few lookups
                        continue
                    if virgin:
                        # a virgin candidate keeps the identity column order: its arrangement
                        # depends on the row's mask only (VIRGIN_*)
                        key = KEY_EXACT[mk]
                        _virgin_arrange(mk, oc, ov, info)
                    else:
                        key = _arrange(g, t, sr, recs, n, tie, digit_mode, oc, ov, info)
                    if key > best:
                        continue
                    if key < best:
                        best = key
                        m = b
                    total = _branches(info)
                    if m + total > b + cap:
                        return -1
                    if total == 1:
                        # no branching (the common case): one record, columns as arranged
                        _push(words, recs, ties, used, n, m, r, sr, weight, rows, info[0])
                        _set_columns(recs, m, oc)
                        _label_new(recs, m, ov, g, t, sr)
                        m += 1
                        continue
                    # branches: comb counts in mixed radix, digit s (< info[4 + s]!) = the order
                    # of the tied NEW cells in stack slot s, the last (< info[8]!) = the order of
                    # the tied stacks holding NEW cells
                    f0 = FACT[info[4]]
                    f1 = FACT[info[5]]
                    f2 = FACT[info[6]]
                    for comb in range(total):
                        a0 = comb % f0
                        c1 = comb // f0
                        a1 = c1 % f1
                        c2 = c1 // f1
                        a2 = c2 % f2
                        bb = c2 // f2
                        _push(words, recs, ties, used, n, m, r, sr, weight, rows, info[0])
                        for q in range(9):
                            tmp[q] = oc[q]
                        for s in range(3):  # orders of tied NEW cells inside each stack slot
                            ln = info[4 + s]
                            if ln >= 2:
                                st = info[1 + s]
                                aa = a0 if s == 0 else (a1 if s == 1 else a2)
                                for q in range(ln):
                                    tmp[st + q] = oc[st + PERMS[ln, aa, q]]
                        ss = info[7]
                        sl = info[8]
                        for q in range(9):
                            recs[m, COLS + q] = tmp[q]
                        if sl >= 2:  # order of tied stacks with equal triples holding NEW cells
                            for q in range(sl):
                                src = ss + PERMS[sl, bb, q]
                                for j in range(3):
                                    recs[m, COLS + 3 * (ss + q) + j] = tmp[3 * src + j]
                        _label_new(recs, m, ov, g, t, sr)
                        m += 1
            nA = m - b
            a, b = b, a
        if not digit_mode:
            for n in range(a, a + nA):  # the pattern pass kept column codes: write the orders
                _code_columns(recs, n, codes[n])
    stat[0] = nA
    stat[1] = a
    ndig = _final_transform(recs[a], trans)
    apply_into(trans, p, form)
    # automorphisms: column orders inside each survivor's tie classes, times free labels
    count = np.int64(0)
    for n in range(a, a + nA):
        count += (used[n] >> MULT_SHIFT) * _tie_orders(ties[n])
    return count * FACT[9 - ndig]


@kernel
def canon_batch(puzzles, mode, cap, forms, trans, autos):
    """Canonical forms of ``puzzles`` (N, 81): ``forms`` (N, 81), ``trans`` (N, SIZE), ``autos``
    (N,) = automorphism count, or -1 where ``cap`` candidates were not enough (retry larger),
    -2 where a row or column repeats a digit, -3 where a cell is not 0-9."""
    ws = _workspace(cap)
    for k in range(puzzles.shape[0]):
        autos[k] = _canon_one(puzzles[k], mode, np.int64(1), ws, forms[k], trans[k])


@kernel
def canon_survivors(puzzle, mode, cap, out, ties):
    """All final candidates of one puzzle: ``out[:n]`` (array-form transformations giving the
    form, one per tie class) and ``ties[:n]`` their tie bits; returns n, or -1 on overflow."""
    ws = _workspace(cap)
    res = _canon_one(puzzle, mode, np.int64(0), ws, np.zeros(81, np.uint8), np.zeros(SIZE, np.uint8))
    if res < 0:
        return res
    n = ws.stat[0]
    first = ws.stat[1]
    for m in range(n):
        _final_transform(ws.cand.recs[first + m], out[m])
        ties[m] = ws.cand.ties[first + m]
    return n
