"""Kernels of the band-3 sockets and the pair's socket log.

A *socket* is two or three cells of a band-3 mini-row whose digits can be permuted when rows 1-6
change accordingly: its UAs (``_pair_uas.refill_diffs`` with the rest of band 3 frozen) have
the socket as their band-3 part. They depend on the socket's stack, type and digits only, not on
its row nor on the rest of band 3: rows 1-6 see band 3 through the column sets alone. So the
bands 3 of a pair share them: each socket is refilled once per pair, the first time a band 3 has
it, into the pair's *log* (its UAs' bands 1+2 parts, ``lg12``, with the socket's id ``lgsid`` and
per-cell bitmaps ``lgnot``); a UA learned whose band-3 part is a socket goes there too. Per
candidate, a bitmap of the pair's sockets with a UA it misses (``msk``), brought up to date with
the log's new entries once per band 3 (``log_misses``), or read per band-1 set X where the
candidates are many (``pending_misses``).
"""
import numpy as np

from .._bits import trailing_zeros
from .._jit import kernel
from ._pair_uas import refill_diffs
from .counters import STAT_SOCKETS

ONE = np.uint64(1)
MASK27 = np.uint64((1 << 27) - 1)

MINIROW = np.array([[(r * 9 + 3 * st) + j for j in range(3)] for r in range(3) for st in range(3)], np.int64)
"""Band-3 cells of mini-row mr = 3 * row + stack."""
SOCKET_CELLS = np.array([[0, 1], [0, 2], [1, 2], [0, 1]], np.int64)  # type 3 = all three cells
N_SOCKETS = 36
SOCKET_MASK = np.array([sum(1 << int(MINIROW[k // 4, j]) for j in ((0, 1, 2) if k % 4 == 3 else SOCKET_CELLS[k % 4]))
                        for k in range(36)], np.int64)
"""Band-3 cells of socket k = mini-row * 4 + type: the band-3 part of each of its UAs."""
NEED4 = np.array([0 if g == 0 else (2 if (g & 7) == 7 else 1) for g in range(16)], np.int64)
"""Band-3 clues a mini-row needs, by its missed socket types (bit = type)."""
PAIR_SOCKET_KEYS = 12 * 1000
"""Keys of a pair's sockets: (stack * 4 + type) * 1000 + the digits in its cells (base 10; 0 for
a pair's missing third). A pair has at most 81 two-cell sockets (per pair of columns of a stack,
a digit of each column's band-3 set) and 81 three-cell ones."""
MAX_PAIR_SOCKETS = 192
SOCKET_WORDS = MAX_PAIR_SOCKETS // 64
"""Words of a candidate's missed-socket bitmap (bit = the pair's socket id; 3, written out in
``_band3``)."""
LOG_UAS = 1 << 14
"""The socket UAs of one pair (refilled and learned), at most: further ones are dropped (a UA only
prunes; one not known leaves more to the solver, never a wrong answer)."""


@kernel
def socket_of(u3):
    """Socket index (mini-row * 4 + type) of a band-3 part inside one mini-row, else -1."""
    for mr in range(9):
        m = np.int64(0)
        for j in range(3):
            m |= np.int64(1) << MINIROW[mr, j]
        if (u3 & ~m) == 0:
            c0 = (u3 >> MINIROW[mr, 0]) & 1
            c1 = (u3 >> MINIROW[mr, 1]) & 1
            c2 = (u3 >> MINIROW[mr, 2]) & 1
            if c0 and c1 and c2:
                return mr * 4 + 3
            if c0 and c1:
                return mr * 4
            if c0 and c2:
                return mr * 4 + 1
            if c1 and c2:
                return mr * 4 + 2
            return -1
    return -1


@kernel
def socket_key(band3, k):
    """The pair socket key (``PAIR_SOCKET_KEYS``) of socket k = mini-row * 4 + type of ``band3``."""
    mr = k >> 2
    typ = k & 3
    key = ((mr % 3) * 4 + typ) * 1000 + band3[MINIROW[mr, SOCKET_CELLS[typ, 0]]] * 100
    key += band3[MINIROW[mr, SOCKET_CELLS[typ, 1]]] * 10
    if typ == 3:
        key += band3[MINIROW[mr, 2]]
    return key


@kernel
def cell_bits(notcell, u12, e):
    """Entry e's bit in per-cell bitmaps over a list of UAs: bit e of ``notcell[c]`` is set when
    cell c is not in the entry's bands 1+2 part ``u12``."""
    w = e >> 6
    bit = ONE << np.uint64(e & 63)
    for c in range(54):
        if (u12 >> np.uint64(c)) & ONE:
            notcell[c, w] &= ~bit
        else:
            notcell[c, w] |= bit


LOG_GROUP = 16
"""Candidates of one band-1 set X from which ``log_misses`` compacts the log entries X misses
before its candidates read them (fewer: each candidate ANDs the per-cell bitmaps over all
entries; 16 was the fastest of 4 to 32 on sampled pairs of passes A and B)."""


@kernel
def log_misses(cand, ncand, alive, lg12, lgsid, lgnot, msk, v0, v1, miss1, miss, lend, pidx, psid, pend, pnot):
    """Sets bit s of ``msk[i]`` for every live candidate i that misses a UA of pair socket s
    among log entries ``v0..v1-1`` (socket ``lgsid[e]``, bands 1+2 part ``lg12[e]``, per-cell
    bitmaps ``lgnot``), a band-1 set X at a time (candidates come grouped by X): the entries X
    misses, then per candidate the first missed entry of each run of one socket's entries. An X
    with ``LOG_GROUP`` candidates or more has the entries it misses compacted first
    (``pending_misses``, scratch ``pidx``, ``psid``, ``pend``, ``pnot``), so its candidates AND a few
    words, not all; a smaller one ANDs the per-cell bitmaps over all (scratch ``miss1``, ``miss``,
    ``lend``): pass B at rank 64 has about 9 candidates an X against 2,000 socket UAs a pair."""
    w0 = v0 >> 6
    w1 = (v1 + 63) >> 6
    for e in range(v1 - 1, v0 - 1, -1):
        lend[e] = lend[e + 1] if (e + 1 < v1 and lgsid[e + 1] == lgsid[e]) else e + 1
    i = 0
    while i < ncand:
        x1 = cand[i] & MASK27
        j = i + 1
        while j < ncand and (cand[j] & MASK27) == x1:
            j += 1
        if j - i >= LOG_GROUP:
            pnc = pending_misses(x1, lg12, lgsid, lgnot, v0, v1, pidx, psid, pend, pnot)
            if pnc:
                PW = (pnc + 63) >> 6
                for k in range(i, j):
                    if alive[k]:
                        missed_entries(cand[k] >> np.uint64(27), pnot, PW, miss)
                        mark_missed(miss, 0, pnc, PW, psid, pend, msk, k)
            i = j
            continue
        for w in range(w0, w1):
            miss1[w] = ~np.uint64(0)
        miss1[w0] &= ~((ONE << np.uint64(v0 & 63)) - ONE)
        if v1 & 63:
            miss1[w1 - 1] &= (ONE << np.uint64(v1 & 63)) - ONE
        x = x1
        while x:
            c = trailing_zeros(x)
            x &= x - ONE
            for w in range(w0, w1):
                miss1[w] &= lgnot[c, w]
        for k in range(i, j):
            if not alive[k]:
                continue
            for w in range(w0, w1):
                miss[w] = miss1[w]
            y = cand[k] >> np.uint64(27)
            while y:
                c = 27 + trailing_zeros(y)
                y &= y - ONE
                for w in range(w0, w1):
                    miss[w] &= lgnot[c, w]
            mark_missed(miss, v0, v1, w1, lgsid, lend, msk, k)
        i = j


@kernel(inline="always")
def mark_missed(miss, e, stop, nw, sid, ends, msk, k):
    """Sets bit s of ``msk[k]`` for each run of one socket's entries among ``e..stop-1`` (socket
    ``sid[t]`` of entry t, ``ends[t]`` the end of its run) that holds an entry of ``miss``
    (bitmap, words ``:nw``): the first missed entry of a run stands for it."""
    while e < stop:
        t = next_bit(miss, e, nw)
        if t < 0:
            break
        s = sid[t]
        msk[k, s >> 6] |= ONE << np.uint64(s & 63)
        e = ends[t]


@kernel(inline="always")
def next_bit(words, j, nw):
    """The first set bit at or after bit ``j`` of ``words[:nw]`` (bit j of word j >> 6), or -1."""
    w = j >> 6
    v = words[w] & ~((ONE << np.uint64(j & 63)) - ONE)
    while v == 0 and w + 1 < nw:
        w += 1
        v = words[w]
    if v == 0:
        return -1
    return w * 64 + trailing_zeros(v)


@kernel(inline="always")
def missed_entries(y, pnot, nw, out):
    """``out[:nw]``: the AND of ``pnot[c, :nw]`` over the band-2 cells c of ``y`` (27-bit): the
    compacted entries (``pending_misses``) that a candidate's band-2 clues all miss."""
    for w in range(nw):
        out[w] = ~np.uint64(0)
    while y:
        c = trailing_zeros(y)
        y &= y - ONE
        for w in range(nw):
            out[w] &= pnot[c, w]


@kernel
def pending_misses(x1, lg12, lgsid, lgnot, v0, v1, pidx, psid, pend, pnot):
    """The log entries ``v0..v1-1`` (socket UAs learned on this band 3, not yet in ``P.msk``)
    that band-1 set ``x1`` misses, compacted: ``pidx`` their entries, ``psid`` their sockets,
    ``pend`` the end of each run of one socket's, ``pnot[c]`` (band-2 cell c) a bitmap of those
    without c. Returns how many."""
    n = 0
    for w in range(v0 >> 6, (v1 + 63) >> 6):
        v = ~np.uint64(0)
        x = x1
        while x and v:
            v &= lgnot[trailing_zeros(x), w]
            x &= x - ONE
        if w == v0 >> 6:
            v &= ~((ONE << np.uint64(v0 & 63)) - ONE)
        if w == (v1 - 1) >> 6 and (v1 & 63):
            v &= (ONE << np.uint64(v1 & 63)) - ONE
        while v:
            pidx[n] = w * 64 + trailing_zeros(v)
            v &= v - ONE
            n += 1
    W = (n + 63) >> 6
    for c in range(27):
        for w in range(W):
            pnot[c, w] = ~np.uint64(0)
        if n & 63:
            pnot[c, W - 1] = (ONE << np.uint64(n & 63)) - ONE
    for j in range(n - 1, -1, -1):
        psid[j] = lgsid[pidx[j]]
        pend[j] = pend[j + 1] if (j + 1 < n and psid[j + 1] == psid[j]) else j + 1
        bj = ONE << np.uint64(j & 63)
        v = np.int64(lg12[pidx[j]] >> np.uint64(27))
        while v:
            c = trailing_zeros(v)
            v &= v - 1
            pnot[c, j >> 6] &= ~bj
    return n




@kernel
def band3_sockets(b3, grid, sid_of_key, lg12, lghi, lgsid, lgnot, kmax_g, max_g, b3m, mrm, loc, smr, st, stats):
    """This band 3's sockets among the pair's: ``b3m`` (per mini-row ``mrm``) the pair sockets it
    has, ``loc`` the socket (mini-row * 4 + type) of each here, ``smr`` its mini-row (-1: none).
    A socket the pair meets for the first time gets an id (``st[0]`` counts them) and its UAs
    (refillings of its 2-3 digits and up to ``kmax_g`` in all, the rest of band 3 frozen, at most
    ``max_g`` cells) go to the log (``st[1]`` counts its entries)."""
    full27 = (np.int64(1) << 27) - 1
    for w in range(SOCKET_WORDS):
        b3m[w] = 0
        for mr in range(9):
            mrm[mr, w] = 0
    for sid in range(MAX_PAIR_SOCKETS):
        smr[sid] = -1
    for k in range(N_SOCKETS):
        key = socket_key(b3, k)
        sid = sid_of_key[key]
        if sid < 0:
            if st[0] >= MAX_PAIR_SOCKETS:
                continue
            sid = st[0]
            st[0] += 1
            sid_of_key[key] = sid
            stats[STAT_SOCKETS] += 1
            req = 0
            v = SOCKET_MASK[k]
            while v:
                q = trailing_zeros(v)
                v &= v - 1
                req |= 1 << (b3[q] - 1)
            nlog = st[1]
            n2 = refill_diffs(grid, 9, req, kmax_g, full27 & ~SOCKET_MASK[k], max_g, lg12, lghi, nlog, nlog)
            for e in range(nlog, n2):
                lgsid[e] = sid
                cell_bits(lgnot, lg12[e], e)
            st[1] = n2
        b3m[sid >> 6] |= ONE << np.uint64(sid & 63)
        mrm[k >> 2, sid >> 6] |= ONE << np.uint64(sid & 63)
        loc[sid] = k
        smr[sid] = k >> 2
