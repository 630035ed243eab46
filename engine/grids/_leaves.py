"""Kernels of the enumeration's band 3 and leaves (``_kernels`` walks rows 4-6 and calls them):
band 3 built stack by stack from the fills whose index passes, and each complete grid checked
against band 1's automorphisms, or, on the rare path, against every chute of band 1's index by
the canon kernel's completions; the tables and counters they share with the walk. The math is in
``_kernels``' docstring.
"""
from collections import namedtuple

import numpy as np

from .._bits import LOWBIT, PERM3, POPCOUNT
from .._cache import stored_tables
from .._jit import kernel
from ..core.bandkey import band_key
from ..core.chutes import (ALL9, chute_keys, image_band_cmp, image_row_cmp, key_verdict, lower_rows,
                           oriented_copy, stack_verdicts)

PENDING, TIED, DROPPED = 0, 1, 2  # state of an automorphism of band 1 under a band 2
# counters in work.stats: bands 2 (rows 5-6) in the walk at or above W_FROM, rows 5 they come
# under, rows 5 skipped whole, bands 2 tested, bands 2 kept, complete grids met, grids whose
# chutes all have index >= band 1's, grids decided by the canon kernel
(STAT_BANDS2, STAT_ROWS5, STAT_ROWS5_PRUNED, STAT_BANDS2_TESTED, STAT_BANDS2_KEPT, STAT_LEAVES,
 STAT_LEAVES_INDEX, STAT_CANON) = range(8)
N_STATS = 8


def _order_tables():
    """Two 512-entry tables on 3x3 bit matrices (bit 3u + v), in masks of PERM3 ranks.

    ``ORD_OK[m]``: the orders o of 3 digits x0 < x1 < x2 into 3 cells that put in each cell k a
    digit it allows (bit 3k + i: cell k allows x_i).
    ``COMPAT[m, o]``: the orders o' of a column c' that share no digit in any row with a column
    c in order o (bit 3i + i': digit i of c is digit i' of c')."""
    ok = np.zeros(512, np.int64)
    compat = np.zeros((512, 6), np.int64)
    for m in range(512):
        for o in range(6):
            if all((m >> (3 * k + int(PERM3[o, k]))) & 1 for k in range(3)):
                ok[m] |= 1 << o
            for o2 in range(6):
                if not any((m >> (3 * int(PERM3[o, r]) + int(PERM3[o2, r]))) & 1 for r in range(3)):
                    compat[m, o] |= 1 << o2
    return ok, compat


def _leaf_key_table():
    """``LEAF_KEY[s, code]``: stack s's part of a band 3's sort key, when its 3 columns have the
    orders of ``code`` (stack 1: o0 = 0, code = o1 * 6 + o2): the position of rows 7 and 8's
    digits in their sorted column sets, 2 bits a cell (row 9 follows), so keys sort as strings."""
    key = np.zeros((3, 216), np.int64)
    for s in range(3):
        for code in range(216 if s else 36):
            orders = (code // 36, code // 6 % 6, code % 6) if s else (0, code // 6, code % 6)
            for t in range(3):
                j = 3 * s + t
                key[s, code] |= (int(PERM3[orders[t], 0]) << (34 - 2 * j)) | (int(PERM3[orders[t], 1]) << (16 - 2 * j))
    return key


def _tables() -> dict:
    return dict(zip(("ORD_OK", "COMPAT"), _order_tables()), LEAF_KEY=_leaf_key_table())


# computed once per version of the engine's sources (10-20 ms of Python) and kept in the cache folder
_TABLES = stored_tables("grids-tables", None, _tables)
ORD_OK, COMPAT, LEAF_KEY = _TABLES["ORD_OK"], _TABLES["COMPAT"], _TABLES["LEAF_KEY"]

Band1 = namedtuple("Band1", "index band aut_cols aut_dig aut_c0 aut_dinv2 ge_bits eq_bits")
"""A band 1 as the kernels take it (``enumeration.band1`` builds it)."""



@kernel
def _image_band_cmp_x(src, cols, dig, k, c0, x0, x1, x2, ref):
    """``image_band_cmp`` when the digits of column ``c0`` of ``src`` in increasing image order
    (``x0``, ``x1``, ``x2``) are known: the row holding each is found by 2 tests."""
    r = 0 if src[c0] == x0 else (1 if src[9 + c0] == x0 else 2)
    res = image_row_cmp(src, r, cols, dig, k, ref, 0)
    if res != 0:
        return res
    r = 0 if src[c0] == x1 else (1 if src[9 + c0] == x1 else 2)
    res = image_row_cmp(src, r, cols, dig, k, ref, 9)
    if res != 0:
        return res
    r = 0 if src[c0] == x2 else (1 if src[9 + c0] == x2 else 2)
    return image_row_cmp(src, r, cols, dig, k, ref, 18)


@kernel
def _holds_at(src, c0, digit):
    """True when a row of band ``src`` has ``digit`` in column ``c0``."""
    return src[c0] == digit or src[9 + c0] == digit or src[18 + c0] == digit


@kernel
def _chute_cmp(cells, relabel, row2_rank_to_id, fact, ge_bits, eq_bits, index):
    """-1 / 0 / +1 as the band index of 27 cells is below, equal to or above band 1's ``index``
    (-1 for an invalid band, which never happens for a grid's chute); see ``key_verdict``."""
    key = band_key(cells, relabel, row2_rank_to_id, fact)
    if key < 0:
        return -1
    return key_verdict(key, ge_bits, eq_bits, index)



@kernel(inline="always")
def _active_automorphisms(B1, colset3, col3d, work):
    """The automorphisms a that a band 3 can still tie or beat (PENDING or TIED under band 2)
    into ``act`` (with, in ``actx``, the digits of band 3's column c0 = a^-1(column 1) in
    increasing image order: the image band's rows by first cell); returns how many, or -1
    when every band 3 loses to some a (no grid under this band 2).

    Band 3's column sets are known, so the first cell of the band a is compared on first is
    known, and the second is bounded: a TIED a compares a(band 3) with band 3 (first cell the
    smallest digit of ``colset3[0]``, second one of ``colset3[1]``), a PENDING a compares
    a(band 3) with band 2 (both cells fixed). A sure loss drops a for this band 2, a sure win
    for a discards the band 2."""
    cols = B1.aut_cols
    dig = B1.aut_dig
    b2 = work.b2
    act = work.act
    actx = work.actx
    state = work.state
    n_act = 0
    lo3 = col3d[1, 0]
    hi3 = col3d[1, 2]
    for k in range(cols.shape[0]):
        s = state[k]
        if s == DROPPED:
            continue
        c0 = cols[k, 0]
        x0 = col3d[c0, 0]
        x1 = col3d[c0, 1]
        x2 = col3d[c0, 2]
        if dig[k, x1] < dig[k, x0]:
            x0, x1 = x1, x0
        if dig[k, x2] < dig[k, x1]:
            x1, x2 = x2, x1
            if dig[k, x1] < dig[k, x0]:
                x0, x1 = x1, x0
        f = dig[k, x0]
        ref0 = col3d[0, 0] if s == TIED else b2[0]
        if f < ref0:
            return -1
        if f > ref0:
            continue
        c1 = cols[k, 1]
        v0 = dig[k, col3d[c1, 0]]
        v1 = dig[k, col3d[c1, 1]]
        v2 = dig[k, col3d[c1, 2]]
        lo = min(v0, min(v1, v2))
        hi = max(v0, max(v1, v2))
        if s == TIED:
            rlo = lo3
            rhi = hi3
        else:
            rlo = b2[1]
            rhi = b2[1]
        if hi < rlo:
            return -1
        if lo > rhi:
            continue
        act[n_act] = k
        actx[n_act, 0] = x0
        actx[n_act, 1] = x1
        actx[n_act, 2] = x2
        n_act += 1
    return n_act


@kernel(inline="always")
def _band3(T, B1, tie2, emit, grids, n_out, auts, hist, work):
    """Every band 3 under bands 1-2 (``grid[0:54]``; ``work.colm`` holds rows 1-5 per column,
    ``work.b2`` row 6), checked; returns the grids kept (or -2, -1: see the callers).

    Column j of band 3 holds the 3 digits bands 1-2 left it (``colset3[j]``); in a grid the 3
    columns of a stack then hold disjoint sets, so boxes are automatic and a band 3 is a choice
    of an order (of 6) per column with every row distinct (``_band3_leaves``), then checked
    against band 1 (``_check_leaves``)."""
    col3d = work.col3d
    colset3 = work.colset3
    colm = work.colm
    b2 = work.b2
    for j in range(9):
        m = ALL9 & ~(colm[j] | (np.int64(1) << b2[18 + j]))  # what bands 1-2 left in column j
        colset3[j] = m
        for q in range(3):
            col3d[j, q] = LOWBIT[m]
            m &= m - 1
    for st in range(3):  # the columns of a stack must share no digit
        if colset3[3 * st] & colset3[3 * st + 1] or colset3[3 * st] & colset3[3 * st + 2] \
                or colset3[3 * st + 1] & colset3[3 * st + 2]:
            return 0
    n_act = _active_automorphisms(B1, colset3, col3d, work)
    if n_act < 0:
        return 0
    n_leaves = _band3_leaves(T, B1, work)
    if n_leaves <= 0:
        return n_leaves
    return _check_leaves(T, B1, tie2, n_act, n_leaves, emit, grids, n_out, auts, hist, work)


@kernel(inline="always")
def _band3_leaves(T, B1, work):
    """The bands 3 whose 3 stacks pass the index test, into ``work.leaves`` (sort key, column
    orders as (code 1 * 216 + code 2) * 216 + code 3) and ``work.leaf_tie``; returns how many
    (-2 when ``leaves`` is full).

    A stack's index depends on its own 3 column orders only, so all of them are judged first,
    cheaply (``stack_verdicts``: keys that share most of their computation, read from band 1's
    bit tables): stack 1 (column 1 fixed, sorted: 36 fills), then, if any passes, stacks 2 and
    3 on the column orders that some passing stack 1 leaves them. Rows are distinct iff no two columns of different stacks put a shared digit in
    the same row, a test on each pair of columns alone: ``COMPAT[m, o]`` is the mask of the
    orders of column c' compatible with column c in order o, m their 3x3 equal-digit matrix
    (``cm``, 27 pairs per band 2). So each passing stack 1 leaves each column of stacks 2-3 a
    mask of orders; stack 2 is taken from the product of its 3 masks, and then stack 3 is
    forced (each of its digits has one row left, the one rows 1-2 of stacks 1-2 lack it in):
    each of its columns' masks is one order or empty. Measured on bands 17 and 208: 3-4x fewer
    cycles than trying each column order in turn against row masks."""
    col3d = work.col3d
    colset3 = work.colset3
    verdict = work.memo
    s1code = work.s1code
    s1m = work.s1m
    cm = work.cm
    leaves = work.leaves
    leaf_tie = work.leaf_tie
    grid = work.grid
    relabel = work.relabel
    # cm[c, c']: bit 3i + i' when digit i of column c is digit i' of column c' (c in stacks
    # 1-2, c' in a later stack)
    for c in range(6):
        for c2 in range(3 * (c // 3) + 3, 9):
            cs = colset3[c2]
            m = 0
            for i in range(3):
                x = col3d[c, i]
                m |= ((cs >> x) & 1) << (3 * i + POPCOUNT[cs & ((np.int64(1) << x) - 1)])
            cm[c, c2] = m
    # stack 1's passing fills, each with the orders its columns leave columns 4-9 (s1m), and
    # their union per column: stacks 2-3 are judged only on orders some stack 1 allows
    stack_verdicts(T, B1, 0, grid, col3d, relabel, verdict, 1, 63, 63)
    n1 = 0
    u3 = u4 = u5 = u6 = u7 = u8 = 0
    for c1 in range(36):
        if verdict[0, c1] < 0:
            continue
        o1 = c1 // 6
        o2 = c1 % 6
        m3 = COMPAT[cm[0, 3], 0] & COMPAT[cm[1, 3], o1] & COMPAT[cm[2, 3], o2]
        m4 = COMPAT[cm[0, 4], 0] & COMPAT[cm[1, 4], o1] & COMPAT[cm[2, 4], o2]
        m5 = COMPAT[cm[0, 5], 0] & COMPAT[cm[1, 5], o1] & COMPAT[cm[2, 5], o2]
        m6 = COMPAT[cm[0, 6], 0] & COMPAT[cm[1, 6], o1] & COMPAT[cm[2, 6], o2]
        m7 = COMPAT[cm[0, 7], 0] & COMPAT[cm[1, 7], o1] & COMPAT[cm[2, 7], o2]
        m8 = COMPAT[cm[0, 8], 0] & COMPAT[cm[1, 8], o1] & COMPAT[cm[2, 8], o2]
        if m3 == 0 or m4 == 0 or m5 == 0 or m6 == 0 or m7 == 0 or m8 == 0:
            continue
        s1code[n1] = c1
        s1m[n1, 0] = m3
        s1m[n1, 1] = m4
        s1m[n1, 2] = m5
        s1m[n1, 3] = m6
        s1m[n1, 4] = m7
        s1m[n1, 5] = m8
        u3 |= m3
        u4 |= m4
        u5 |= m5
        u6 |= m6
        u7 |= m7
        u8 |= m8
        n1 += 1
    if n1 == 0:
        return 0
    stack_verdicts(T, B1, 1, grid, col3d, relabel, verdict, u3, u4, u5)
    stack_verdicts(T, B1, 2, grid, col3d, relabel, verdict, u6, u7, u8)
    n_leaves = 0
    for a in range(n1):
        c1 = s1code[a]
        m3 = s1m[a, 0]
        m4 = s1m[a, 1]
        m5 = s1m[a, 2]
        m6 = s1m[a, 3]
        m7 = s1m[a, 4]
        m8 = s1m[a, 5]
        t1 = 1 if verdict[0, c1] == 0 else 0
        w3 = m3
        while w3:
            o3 = LOWBIT[w3]
            w3 &= w3 - 1
            y6 = m6 & COMPAT[cm[3, 6], o3]
            y7 = m7 & COMPAT[cm[3, 7], o3]
            y8 = m8 & COMPAT[cm[3, 8], o3]
            if y6 == 0 or y7 == 0 or y8 == 0:
                continue
            w4 = m4
            while w4:
                o4 = LOWBIT[w4]
                w4 &= w4 - 1
                z6 = y6 & COMPAT[cm[4, 6], o4]
                z7 = y7 & COMPAT[cm[4, 7], o4]
                z8 = y8 & COMPAT[cm[4, 8], o4]
                if z6 == 0 or z7 == 0 or z8 == 0:
                    continue
                g = (o3 * 6 + o4) * 6
                w5 = m5
                while w5:
                    o5 = LOWBIT[w5]
                    w5 &= w5 - 1
                    v2 = verdict[1, g + o5]
                    if v2 < 0:
                        continue
                    x6 = z6 & COMPAT[cm[5, 6], o5]
                    x7 = z7 & COMPAT[cm[5, 7], o5]
                    x8 = z8 & COMPAT[cm[5, 8], o5]
                    if x6 == 0 or x7 == 0 or x8 == 0:
                        continue
                    code3 = LOWBIT[x6] * 36 + LOWBIT[x7] * 6 + LOWBIT[x8]
                    v3 = verdict[2, code3]
                    if v3 < 0:
                        continue
                    if n_leaves >= leaves.shape[0]:
                        return -2
                    c2 = g + o5
                    # string order: each cell's position in its sorted column set, rows 7-8
                    leaves[n_leaves, 0] = LEAF_KEY[0, c1] | LEAF_KEY[1, c2] | LEAF_KEY[2, code3]
                    leaves[n_leaves, 1] = (c1 * 216 + c2) * 216 + code3
                    leaf_tie[n_leaves] = t1 | (2 if v2 == 0 else 0) | (4 if v3 == 0 else 0)
                    n_leaves += 1
    return n_leaves


@kernel(inline="always")
def _check_leaves(T, B1, tie2, n_act, n_leaves, emit, grids, n_out, auts, hist, work):
    """The leaves of ``_band3_leaves`` in string order (insertion sort of their keys), each
    band 3's index and band 1's automorphisms still undecided (``_active_automorphisms``)
    checked; returns the grids kept, written from ``grids[n_out]`` with ``emit``."""
    b3 = work.b3
    col3d = work.col3d
    leaves = work.leaves
    leaf_tie = work.leaf_tie
    order = work.order
    grid = work.grid
    relabel = work.relabel
    stats = work.stats
    b2 = work.b2
    act = work.act
    actx = work.actx
    state = work.state
    cols = B1.aut_cols
    dig = B1.aut_dig
    row2_rank_to_id = T.row2_rank_to_id
    fact = T.fact
    ge_bits = B1.ge_bits
    eq_bits = B1.eq_bits
    index = B1.index
    scratch = work.scratch
    keys = work.keys
    entries = work.entries
    table = T.table
    aut_offsets = T.aut_offsets
    aut_maps = T.aut_maps
    maps_rows = T.maps_rows
    maps_cols = T.maps_cols
    for x in range(n_leaves):
        order[x] = x
    for x in range(1, n_leaves):
        y = x
        t = order[x]
        kt = leaves[t, 0]
        while y > 0 and kt < leaves[order[y - 1], 0]:
            order[y] = order[y - 1]
            y -= 1
        order[y] = t
    kept = 0
    for x in range(n_leaves):
        leaf = order[x]
        code = leaves[leaf, 1]
        c1 = code // 46656
        c2 = (code // 216) % 216
        code3 = code % 216
        for r in range(3):
            b3[r * 9 + 0] = col3d[0, r]
            b3[r * 9 + 1] = col3d[1, PERM3[c1 // 6, r]]
            b3[r * 9 + 2] = col3d[2, PERM3[c1 % 6, r]]
            b3[r * 9 + 3] = col3d[3, PERM3[c2 // 36, r]]
            b3[r * 9 + 4] = col3d[4, PERM3[(c2 // 6) % 6, r]]
            b3[r * 9 + 5] = col3d[5, PERM3[c2 % 6, r]]
            b3[r * 9 + 6] = col3d[6, PERM3[code3 // 36, r]]
            b3[r * 9 + 7] = col3d[7, PERM3[(code3 // 6) % 6, r]]
            b3[r * 9 + 8] = col3d[8, PERM3[code3 % 6, r]]
        for q in range(27):
            grid[54 + q] = b3[q]
        stats[STAT_LEAVES] += 1
        cmp3 = _chute_cmp(b3, relabel, row2_rank_to_id, fact, ge_bits, eq_bits, index)
        if cmp3 < 0:
            continue
        stats[STAT_LEAVES_INDEX] += 1
        # band 1's automorphisms still undecided (``_active_automorphisms``): a smaller image
        # rejects the grid whatever other chute ties band 1; written out here, not called:
        # passing the work tuple per leaf costs reference counting of all its arrays
        n_aut = 1
        for t in range(n_act):
            k = act[t]
            c0 = cols[k, 0]
            if state[k] == TIED:  # image band 2 = band 2; image band 3 = a(band 3)
                cmp = _image_band_cmp_x(b3, cols, dig, k, c0, actx[t, 0], actx[t, 1], actx[t, 2], b3)
            else:  # image band 2 = a(band 3), image band 3 = a(band 2)
                cmp = _image_band_cmp_x(b3, cols, dig, k, c0, actx[t, 0], actx[t, 1], actx[t, 2], b2)
                if cmp == 0:
                    cmp = image_band_cmp(b2, cols, dig, k, c0, b3, 0)
            if cmp < 0:
                n_aut = 0
                break
            if cmp == 0:
                n_aut += 1
        if n_aut > 0 and (tie2 or cmp3 == 0 or leaf_tie[leaf] != 0):
            # another chute reaches band 1: the grid against every way of bringing a chute onto
            # band 1 (and its automorphism count from them)
            stats[STAT_CANON] += 1
            n_aut = _canon_leaf(grid, scratch, keys, entries, row2_rank_to_id, fact, table, aut_offsets,
                                aut_maps, maps_rows, maps_cols)
        if n_aut > 0:
            if emit:
                if n_out + kept >= grids.shape[0]:
                    return -1
                for q in range(81):
                    grids[n_out + kept, q] = grid[q]
                auts[n_out + kept] = n_aut
            hist[min(n_aut, hist.shape[0] - 1)] += 1
            kept += 1
    return kept


@kernel
def _canon_leaf(grid, scratch, keys, entries, row2_rank_to_id, fact, table, aut_offsets, aut_maps, maps_rows,
                maps_cols):
    """0 when ``grid`` is not its own minlex form, else its automorphism count (the rare path:
    a chute other than band 1 ties it). ``canon_grid_into``'s completions, each compared with
    the grid itself instead of the best so far: the grid is one of them (band 1, no move), so
    it is the form iff none is smaller, the first smaller one ends the test, and the equal ones
    are its automorphisms. ``scratch`` as ``canon_grid_into``'s."""
    chute_keys(grid, scratch, row2_rank_to_id, fact, keys)
    best = 1 << 30
    for c in range(6):
        if keys[c] < 0:
            return 0
        entries[c] = table[keys[c]]
        best = min(best, np.int64(entries[c] & 0xFFFF))
    G = scratch[50:131]
    cmap = scratch[150:159]
    dmap = scratch[160:170]
    low = scratch[170:176]
    first = scratch[180:186]
    n_eq = 0
    for c in range(6):
        if (entries[c] & 0xFFFF) != best:
            continue
        b0 = c % 3
        oriented_copy(grid, c >= 3, G)
        m0 = entries[c] >> 16
        ob1 = 1 if b0 == 0 else 0
        ob2 = 1 if b0 == 2 else 2
        for a in range(aut_offsets[best], aut_offsets[best + 1]):
            ma = aut_maps[a]
            # position map: first m0 (onto the minlex band), then the automorphism ma
            r0 = 3 * b0 + maps_rows[m0, maps_rows[ma, 0]]
            for j in range(9):
                cmap[j] = maps_cols[m0, maps_cols[ma, j]]
            for j in range(9):
                dmap[G[r0 * 9 + cmap[j]]] = j + 1
            # the 6 lower rows: the two other bands, rows sorted by first cell, the band with
            # the smaller first row first
            swap = lower_rows(G, dmap, cmap[0], ob1, ob2, low, first)
            cmp = 0
            for i in range(6):
                row = (low[(i + 3) % 6] if swap else low[i]) * 9
                for j in range(9):
                    v = dmap[G[row + cmap[j]]]
                    w = grid[27 + i * 9 + j]
                    if v != w:
                        cmp = -1 if v < w else 1
                        break
                if cmp != 0:
                    break
            if cmp < 0:
                return 0
            if cmp == 0:
                n_eq += 1
    return n_eq
