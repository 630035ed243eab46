"""Puzzle canon's lookup tables (bounds, virgin arrangements, the pattern pass's tables),
computed once per version of the engine's sources and stored in the cache folder, so that
importing the canon kernels calls no kernel."""
import numpy as np

from .._bits import PERMS
from .._cache import stored_tables
from ..core.layout import COLS
from ._puzzle_rows import OFF_NEXT, TIE_ALL, W, _arrange


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
