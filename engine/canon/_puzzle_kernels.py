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
from .._jit import kernel
from ..core.layout import COLS, DIGITS, ROWS, SIZE, TRANSPOSE, apply_into
from ._puzzle_rows import (BAD_CELL, DIGIT_BIT, INNER_TIES, MAXKEY, MULT_SHIFT, NEW, OFF_NEXT,  # noqa: F401
                           RUN_ORDERS, STACK_TIES, TIE_ALL, TIE_S01, TIE_S12, USED_ROWS, W, _allowed, _arrange,
                           _tied_positions)
from ._puzzle_tables import (COMPOSE3, INNER, INNER_CODED, KEY_EXACT, KEY_LB, PAT_LB, PAT_NIBBLES, STACK, STACKED,
                             VIRGIN_INFO, VIRGIN_OC)


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

    Long on purpose: as helpers, the single-candidate step made pattern-first 1.4x slower and
    the branch loop's column orders pure minlex 1.15x slower (the module's speed note).
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
