"""Kernels: every essentially different (ED) grid whose minlex form starts with a given band 1.

The math
--------
A grid G = (B, rows 4-9) with B the minlex band of index i is its own minlex form iff

1. every chute of G (bands 2 and 3, stacks 1-3 read as bands of the transpose) has band
   index >= i: the minlex form's band 1 is the smallest chute (index order = string order);
2. rows 4-9 are the forced completion of B: rows sorted by first cell inside bands 2 and 3,
   band 2 before band 3 (so r4c1 is the smallest digit left in column 1 and r7c1 < r8c1 < r9c1);
3. no other way of bringing a chute onto B gives a smaller completion. For a chute of index i
   other than band 1 (rare) the leaf first runs band 1's test below (a smaller image rejects
   G whatever else ties), then compares G with every completion from every chute of index i
   (``_canon_leaf``, the canon kernel's completions, stopping at the first smaller one).
   Otherwise every such way is an automorphism a of B (columns c, digits d), and the image
   rows d[x[c[j]]] of the six lower rows, re-sorted as in 2, must not be smaller than G's.

So the enumeration goes row 4 (the *prefix*), rows 5-6, then band 3, each in lexicographic order
(the grids come out in increasing order), and prunes:

* band 2 by its index (< i: no grid below it);
* band 2 by each automorphism a: the image's band 2 is a(band 2) when a maps a row of band 2 to
  first cell 2 (the smallest digit left in column 1), and then G needs band 2 <= a(band 2)
  sorted: smaller prunes the subtree, equal leaves a *tied* (decided by band 3), larger drops a;
  when a(band 2) holds no 2 the image's band 2 comes from band 3: a is *pending* until the leaf;
* band 3 (each column keeps the 3 digits bands 1-2 left, column 1 fixed, sorted) is built
  stack by stack from the stack fills whose index passes (judged all at once per band 2, from
  bit tables of band 1 that stay in cache), and a leaf checks band 3's index and the tied and
  pending automorphisms. The automorphism count of a kept grid is 1 + the automorphisms whose
  image equals G (or the canon kernel's count on the rare path).

Digits sit on bits 1-9 of masks; ``LOWBIT`` walks a mask in increasing digit order.
"""
from collections import namedtuple

import numpy as np

from .._bits import LOWBIT, PERM3, POPCOUNT
from .._cache import stored_tables
from .._jit import kernel
from ..core.bandkey import band_key, rank3, row2_id
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
def row4_candidates(colfree, out):
    """Every row 4 in lexicographic order: cell j from ``colfree[j]`` (digits not in column j
    of band 1), distinct digits, the first cell the smallest digit column 1 has left. Returns
    how many were written to ``out`` (cap, 9), or -1 if ``out`` is too small."""
    row = np.zeros(9, np.int64)
    rem = np.zeros(10, np.int64)
    row[0] = LOWBIT[colfree[0]]
    used = np.int64(1) << row[0]
    n = 0
    j = 1
    rem[1] = colfree[1] & ~used
    while True:
        if rem[j] == 0:
            j -= 1
            if j == 0:
                break
            used &= ~(np.int64(1) << row[j])
            continue
        d = LOWBIT[rem[j]]
        rem[j] &= rem[j] - 1
        row[j] = d
        if j == 8:
            if n >= out.shape[0]:
                return -1
            for q in range(9):
                out[n, q] = row[q]
            n += 1
            continue
        used |= np.int64(1) << d
        j += 1
        rem[j] = colfree[j] & ~used
    return n


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


# walk control: an int64 array ``ctl`` of these fields (inputs first, then the walk's state:
# ``W_COUNT``, ``W_LAST``, ``W_NCP`` are kept there during the walk; ``W_STOP`` is set when it stops)
W_FROM, W_STOP_ORD, W_STOP_COUNT, W_STEP, W_FIND, W_PER_BAND2, W_COUNT, W_ORD, W_GOT, W_LAST, W_NCP, W_STOP = range(12)
N_CTL = 12


@kernel
def enumerate_prefixes(T, B1, row4s, p0, p1, emit, grids, auts, counts, hist, work, step, cps, cp_counts):
    """Enumerate the ED grids under prefixes ``row4s[p0:p1]`` of band 1 ``B1``.

    ``counts[p - p0]`` gets the number of grids under prefix p, ``hist[k]`` counts grids with
    k automorphisms (k < len(hist), larger into the last slot). With ``emit`` the grids go to
    ``grids`` (cap, 81) and their automorphism counts to ``auts``; returns the number written,
    or -1 when ``grids`` is full (call again with a larger buffer). ``work``: ``workspace()``.

    The fine counts (``step`` > 0): inside each prefix, after the first band 2 at which the
    grids since the last checkpoint reach ``step``, a checkpoint ``cps[n] = (ordinal of the
    next band 2, grids of the prefix before it)``; ``cp_counts[p - p0]`` checkpoints per prefix.
    Returns -3 when ``cps`` is full. A band 2's ordinal counts every complete rows 5-6 that the
    walk meets (see ``_walk_prefix``), so a lookup resumes there and enumerates only from there.
    """
    ctl = work.ctl
    grid = work.grid
    band1 = B1.band
    for q in range(27):
        grid[q] = band1[q]
    n_out = np.int64(0)  # not a literal 0: one compiled _walk_prefix for every caller
    ncp = 0
    for p in range(p0, p1):
        _reset_ctl(ctl)
        ctl[W_STEP] = step
        ctl[W_NCP] = ncp
        n_out = _walk_prefix(T, B1, row4s, p, emit, grids, n_out, auts, hist, work, ctl, cps)
        if n_out < 0:
            return n_out
        counts[p - p0] = ctl[W_COUNT]
        cp_counts[p - p0] = ctl[W_NCP] - ncp
        ncp = ctl[W_NCP]
    return n_out


# Not inlined: inline="always" copied the walk into 4 kernels at 5 call sites (190 s of compile);
# the callers pass np.bool_ / np.int64 values, not literals, so they share one compiled walk.
@kernel
def _walk_prefix(T, B1, row4s, p, emit, grids, n_out, auts, hist, work, ctl, cps):
    """Walk the bands 2 (rows 5-6) of prefix ``p`` in increasing order and enumerate the grids
    under them; returns ``n_out`` after the grids emitted (or < 0, see ``enumerate_prefixes``).

    Every complete rows 5-6 the depth-first walk meets (rows sorted by first cell) gets the next
    *ordinal* 0, 1, ..., whether or not it passes the band-2 tests. ``ctl`` steers the walk:
    ordinals below ``W_FROM`` are only met, not enumerated (with ``W_FIND`` the walk stops at the
    band 2 equal to ``work.target[0:27]``, ``W_ORD`` = its ordinal); ``W_COUNT`` is the grids
    before the first enumerated one and ends as the grids up to where the walk stopped; the walk
    stops after ordinal ``W_STOP_ORD`` or once ``W_COUNT`` exceeds ``W_STOP_COUNT`` (-1: never),
    with ``W_ORD`` its last ordinal and ``W_GOT`` that band 2's grids; ``W_PER_BAND2`` keeps
    only the last band 2's grids in ``grids`` (a lookup); ``W_STEP`` > 0 writes checkpoints
    (see ``enumerate_prefixes``) from ``W_NCP``, ``W_LAST`` the count at the last one.

    The walk goes row 5 by row 5 (cells 9-17, depth first) and counts the rows 6 under each
    arithmetically (``_row6_options``: box by box, the orders of the 3 digits the box lacks that
    its columns allow), so the ordinals are those of the cell-by-cell walk over rows 5-6 while a
    row 5 that cannot lead to a grid is skipped whole, its rows 6 counted, not met:

    * an automorphism a of band 1 whose image of the grid has row 4 = a(row 4) or a(row 5) (the
      row holding the digit a turns into 2 in the column it moves to column 1) and that row is
      smaller than row 4 gives a smaller grid: the prefix (``dead``) or the row 5 loses;
    * rows 4-5 fix band 2's key up to its last 216 (the orders of row 6's boxes): when no key of
      that block reaches band 1's index (``T.rid_max``) no band 2 under the row 5 is kept.

    A dead prefix of a plain enumeration (nothing asks for its ordinals) is not walked at all
    (``W_ORD`` -1 then).
    """
    colm = work.colm
    b2 = work.b2
    boxm = work.boxm
    rem = work.rem
    stats = work.stats
    rl4 = work.rl4
    target = work.target
    r6n = work.r6n
    r6o = work.r6o
    r6x = work.r6x
    r6c = work.r6c
    band1 = B1.band
    aut_cols = B1.aut_cols
    aut_dig = B1.aut_dig
    aut_c0 = B1.aut_c0
    aut_dinv2 = B1.aut_dinv2
    row2_rank_to_id = T.row2_rank_to_id
    rid_max = T.rid_max
    index = B1.index
    K = aut_cols.shape[0]
    o_from = ctl[W_FROM]
    find = ctl[W_FIND] != 0
    ordinal = 0
    for j in range(9):
        colm[j] = (np.int64(1) << band1[j]) | (np.int64(1) << band1[9 + j]) | \
                  (np.int64(1) << band1[18 + j]) | (np.int64(1) << row4s[p, j])
        b2[j] = row4s[p, j]
        rl4[row4s[p, j]] = j + 1  # relabeling that makes row 4 read 123456789 (band 2's key)
    for s in range(3):
        boxm[s] = 0
        for j in range(3 * s, 3 * s + 3):
            boxm[s] |= np.int64(1) << row4s[p, j]
    dead = False
    for k in range(K):
        if b2[aut_c0[k]] == aut_dinv2[k] and image_row_cmp(b2, 0, aut_cols, aut_dig, k, b2, 0) < 0:
            dead = True
            break
    if dead and not find and ctl[W_STOP_ORD] < 0 and ctl[W_STOP_COUNT] < 0:
        ctl[W_ORD] = -1
        ctl[W_GOT] = 0
        return n_out
    # --- row 5: cells 9..17, digits in increasing order ----------------------------------
    rowm = np.int64(0)
    cell = 9
    # r5c1 also avoids row 4's box-1 digits: the cell-by-cell walk let them in, but a band
    # with a repeated digit in box 1 has no complete rows 5-6 (the digit box 1 then lacks
    # would need 3 places in boxes 2-3), so no ordinal changes
    rem[9] = ALL9 & ~(colm[0] | boxm[0])
    while True:
        if rem[cell] == 0:
            cell -= 1
            if cell < 9:
                break
            bit = np.int64(1) << b2[cell]
            j = cell - 9
            rowm &= ~bit
            colm[j] &= ~bit
            boxm[j // 3] &= ~bit
            continue
        d = LOWBIT[rem[cell]]
        rem[cell] &= rem[cell] - 1
        b2[cell] = d
        if cell < 17:
            bit = np.int64(1) << d
            j = cell - 9
            rowm |= bit
            colm[j] |= bit
            boxm[j // 3] |= bit
            cell += 1
            j += 1
            rem[cell] = ALL9 & ~(rowm | colm[j] | boxm[j // 3])
            continue
        # --- row 5 complete: its rows 6 are ordinals o5 .. o5 + n6 - 1 -------------------
        bit = np.int64(1) << d
        colm[8] |= bit
        boxm[2] |= bit
        n6 = _row6_options(b2, colm, boxm, r6n, r6o, r6x)
        o5 = ordinal
        ordinal += n6
        t0 = 0
        if n6 > 0 and o5 < o_from:  # ordinals only met
            t0 = min(n6, o_from - o5)
            if find and _same_cells(b2, target, 9, 18):
                for t in range(t0):
                    _set_row6(b2, t // (r6n[1] * r6n[2]), (t // r6n[2]) % r6n[1], t % r6n[2], r6o, r6x)
                    if _same_cells(b2, target, 18, 27):
                        ctl[W_ORD] = o5 + t
                        return n_out
        if t0 < n6:
            stats[STAT_ROWS5] += 1
            stats[STAT_BANDS2] += n6 - t0
            rid = row2_id(b2, rl4, row2_rank_to_id)
            if dead or rid_max[rid] < index or _row5_loses(b2, aut_cols, aut_dig, aut_c0, aut_dinv2):
                stats[STAT_ROWS5_PRUNED] += 1
                if _skip_bands2(o5 + t0, o5 + n6, ctl, cps) < 0:
                    return -3
            else:
                _row6_codes(rl4, r6n, r6o, r6x, r6c)
                for t in range(t0, n6):
                    ia = t // (r6n[1] * r6n[2])
                    ib = (t // r6n[2]) % r6n[1]
                    ic = t % r6n[2]
                    _set_row6(b2, ia, ib, ic, r6o, r6x)
                    key2 = rid * 216 + r6c[0, ia] * 36 + r6c[1, ib] * 6 + r6c[2, ic]
                    n_out = _band2(T, B1, o5 + t, key2, emit, grids, n_out, auts, hist, work, ctl, cps)
                    if n_out < 0:
                        return n_out
                    if ctl[W_STOP] != 0:
                        return n_out
            if ctl[W_STOP] != 0:
                return n_out
        colm[8] &= ~bit
        boxm[2] &= ~bit
    ctl[W_ORD] = -1 if find else ordinal  # with W_FIND: the band 2 was not met
    ctl[W_GOT] = 0
    return n_out


@kernel
def _same_cells(a, b, q0, q1):
    for q in range(q0, q1):
        if a[q] != b[q]:
            return False
    return True


@kernel(inline="always")
def _row6_options(b2, colm, boxm, r6n, r6o, r6x):
    """The rows 6 under rows 4-5 (``b2[0:18]``, entered in ``colm``, ``boxm``); returns how many.

    Box s of row 6 holds the 3 digits ``r6x[s]`` (increasing) that rows 4-5 left the box, one
    order of them (PERM3 rank) per row 6; an order is valid when each cell's column allows its
    digit (r6c1 also above r5c1: rows sorted by first cell). The boxes' digit sets are disjoint,
    so row 6 is any valid order per box: ``r6n[s]`` of them, ``r6o[s, :]`` increasing, and the
    rows 6 in lexicographic order are the mixed-radix numbers (box 1, box 2, box 3)."""
    n6 = 1
    for s in range(3):
        rest = ALL9 & ~boxm[s]
        x0 = LOWBIT[rest]
        rest &= rest - 1
        x1 = LOWBIT[rest]
        rest &= rest - 1
        x2 = LOWBIT[rest]
        r6x[s, 0] = x0
        r6x[s, 1] = x1
        r6x[s, 2] = x2
        m9 = 0  # bit 3k + i: cell k of the box may hold x_i
        for k in range(3):
            allowed = ~colm[3 * s + k]
            if s == 0 and k == 0:
                allowed &= ~((np.int64(2) << b2[9]) - 1)
            m9 |= (((allowed >> x0) & 1) | (((allowed >> x1) & 1) << 1) | (((allowed >> x2) & 1) << 2)) << (3 * k)
        mask = ORD_OK[m9]
        n = 0
        while mask:
            r6o[s, n] = LOWBIT[mask]
            mask &= mask - 1
            n += 1
        r6n[s] = n
        n6 *= n
    return n6


@kernel(inline="always")
def _set_row6(b2, ia, ib, ic, r6o, r6x):
    """Row 6 with the ``ia``-th, ``ib``-th, ``ic``-th valid order of boxes 1-3 into ``b2[18:27]``."""
    for k in range(3):
        b2[18 + k] = r6x[0, PERM3[r6o[0, ia], k]]
        b2[21 + k] = r6x[1, PERM3[r6o[1, ib], k]]
        b2[24 + k] = r6x[2, PERM3[r6o[2, ic], k]]


@kernel(inline="always")
def _row6_codes(rl4, r6n, r6o, r6x, r6c):
    """``r6c[s, i]``: box s's part of band 2's key for the i-th valid order ``r6o[s, i]``: the
    rank of the order of its 3 digits relabeled by row 4 (``band_key``'s row-3 code)."""
    for s in range(3):
        for i in range(r6n[s]):
            o = r6o[s, i]
            r6c[s, i] = rank3(rl4[r6x[s, PERM3[o, 0]]], rl4[r6x[s, PERM3[o, 1]]], rl4[r6x[s, PERM3[o, 2]]])


@kernel(inline="always")
def _row5_loses(b2, aut_cols, aut_dig, aut_c0, aut_dinv2):
    """True when an automorphism a of band 1 brings row 5 to the image's row 4 (row 5 holds, in
    the column a moves to column 1, the digit a turns into 2) and a(row 5) < row 4."""
    for k in range(aut_cols.shape[0]):
        if b2[9 + aut_c0[k]] == aut_dinv2[k] and image_row_cmp(b2, 1, aut_cols, aut_dig, k, b2, 0) < 0:
            return True
    return False


@kernel
def _checkpoint(o, count, ctl, cps):
    """A checkpoint (band-2 ordinal ``o + 1``, ``count`` grids before it) once ``ctl[W_STEP]``
    grids have passed since the last; False when ``cps`` is full."""
    step = ctl[W_STEP]
    if step > 0 and count - ctl[W_LAST] >= step:
        ncp = ctl[W_NCP]
        if ncp >= cps.shape[0]:
            return False
        cps[ncp, 0] = o + 1
        cps[ncp, 1] = count
        ctl[W_NCP] = ncp + 1
        ctl[W_LAST] = count
    return True


@kernel(inline="always")
def _skip_bands2(o_lo, o_hi, ctl, cps):
    """The walk's bookkeeping for bands 2 ``o_lo .. o_hi - 1`` skipped whole (no grid under
    them): what ``_band2`` does at each band 2 at or above ``W_FROM`` that holds no grid (the
    count does not move, so only the first can write a checkpoint; the stop rules). Returns 0,
    or -3 when ``cps`` is full."""
    o = max(o_lo, ctl[W_FROM])
    if o >= o_hi:
        return 0
    count = ctl[W_COUNT]
    if not _checkpoint(o, count, ctl, cps):
        return -3
    stop = -1
    if ctl[W_STOP_COUNT] >= 0 and count > ctl[W_STOP_COUNT]:
        stop = o
    elif o <= ctl[W_STOP_ORD] < o_hi:
        stop = ctl[W_STOP_ORD]
    if stop >= 0:
        ctl[W_ORD] = stop
        ctl[W_GOT] = 0
        ctl[W_STOP] = 1
    return 0


@kernel(inline="always")
def _band2(T, B1, o, key2, emit, grids, n_out, auts, hist, work, ctl, cps):
    """Band 2 of ordinal ``o`` (``work.b2``, band key ``key2``) at or above ``W_FROM``: its index
    and automorphism tests, its bands 3, then a checkpoint and the stop rules (``ctl[W_STOP]``).
    Returns ``n_out`` after its grids, or < 0."""
    stats = work.stats
    b2 = work.b2
    state = work.state
    grid = work.grid
    aut_cols = B1.aut_cols
    aut_dig = B1.aut_dig
    aut_c0 = B1.aut_c0
    aut_dinv2 = B1.aut_dinv2
    stats[STAT_BANDS2_TESTED] += 1
    cmp2 = key_verdict(key2, B1.ge_bits, B1.eq_bits, B1.index)
    keep = cmp2 >= 0
    if keep:
        for k in range(aut_cols.shape[0]):
            c0 = aut_c0[k]
            if not _holds_at(b2, c0, aut_dinv2[k]):
                state[k] = PENDING
                continue
            cmp = image_band_cmp(b2, aut_cols, aut_dig, k, c0, b2, 0)
            if cmp < 0:
                keep = False
                break
            state[k] = TIED if cmp == 0 else DROPPED
    got = 0
    if keep:
        stats[STAT_BANDS2_KEPT] += 1
        for q in range(27):
            grid[27 + q] = b2[q]
        if ctl[W_PER_BAND2] != 0:
            n_out = 0
        got = _band3(T, B1, cmp2 == 0, emit, grids, n_out, auts, hist, work)
        if got < 0:
            return got
        ctl[W_COUNT] += got
        if emit:
            n_out += got
    count = ctl[W_COUNT]
    if not _checkpoint(o, count, ctl, cps):
        return -3
    if o == ctl[W_STOP_ORD] or (ctl[W_STOP_COUNT] >= 0 and count > ctl[W_STOP_COUNT]):
        ctl[W_ORD] = o
        ctl[W_GOT] = got
        ctl[W_STOP] = 1
    return n_out


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
    rmap = scratch[140:149]
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


# --- lookups: rank <-> grid, one walk of one prefix each, resumed at a checkpoint -------------
Lookup = namedtuple("Lookup", "key_index no_bits bands aut_off aut_cols aut_dig aut_c0 aut_dinv2")
"""Every band 1 at once for lookups: ``key_index`` every band key's index as uint16 bytes
(``key_verdict``'s lookup mode, ``no_bits`` empty), the 416 bands (416, 27) and their
automorphisms concatenated (band b's are rows ``aut_off[b]:aut_off[b + 1]``)."""


@kernel(inline="always")
def _lookup_band1(L, b):
    a0 = L.aut_off[b]
    a1 = L.aut_off[b + 1]
    return Band1(np.int64(b), L.bands[b], L.aut_cols[a0:a1], L.aut_dig[a0:a1], L.aut_c0[a0:a1],
                 L.aut_dinv2[a0:a1], L.key_index, L.no_bits)


@kernel(inline="always")
def _reset_ctl(ctl):
    for f in range(N_CTL):
        ctl[f] = 0
    ctl[W_STOP_ORD] = -1
    ctl[W_STOP_COUNT] = -1


@kernel
def grids_at_positions(T, L, band, row4s, cp_lo, cp_ord, cp_cnt, position, out, grids, auts, hist, work):
    """Lookup k: the grid at 0-based ``position[k]`` among those under prefix ``row4s[k]`` of
    band 1 ``band[k]``, into ``out[k]``. Its checkpoints are ``cp_*[cp_lo[k]:cp_lo[k + 1]]``
    (band-2 ordinal, grids before it; none: from the prefix's start): the walk resumes at the
    last one at or below the position and stops at the band 2 that holds it. Returns 0, or < 0
    (-4: the prefix holds fewer grids; else ``enumerate_prefixes``'s codes) at the first failure."""
    ctl = work.ctl
    grid = work.grid
    for k in range(band.shape[0]):
        B1 = _lookup_band1(L, band[k])
        for q in range(27):
            grid[q] = B1.band[q]
        t = position[k]
        o0 = 0
        c0 = 0
        for c in range(cp_lo[k], cp_lo[k + 1]):
            if cp_cnt[c] > t:
                break
            o0 = cp_ord[c]
            c0 = cp_cnt[c]
        _reset_ctl(ctl)
        ctl[W_FROM] = o0
        ctl[W_COUNT] = c0
        ctl[W_STOP_COUNT] = t
        ctl[W_PER_BAND2] = 1
        n = _walk_prefix(T, B1, row4s, k, np.bool_(True), grids, np.int64(0), auts, hist, work, ctl, work.cps)
        if n < 0:
            return n
        if ctl[W_COUNT] <= t:
            return -4
        i = t - (ctl[W_COUNT] - ctl[W_GOT])
        for q in range(81):
            out[k, q] = grids[i, q]
    return 0


@kernel
def positions_of_forms(T, L, band, row4s, cp_lo, cp_ord, cp_cnt, forms, out, grids, auts, hist, work):
    """Lookup k: the 0-based position of minlex form ``forms[k]`` among the grids under its
    prefix ``row4s[k]`` of band 1 ``band[k]``, into ``out[k]``. A first walk only meets the bands
    2 up to the form's (its ordinal), the second resumes at the last checkpoint at or below that
    ordinal and enumerates up to it. Returns 0, or < 0 (-5: the form is not an ED grid's minlex
    form; else ``enumerate_prefixes``'s codes) at the first failure."""
    ctl = work.ctl
    grid = work.grid
    target = work.target
    for k in range(band.shape[0]):
        B1 = _lookup_band1(L, band[k])
        for q in range(27):
            grid[q] = B1.band[q]
            target[q] = forms[k, 27 + q]
        _reset_ctl(ctl)
        ctl[W_FROM] = np.int64(1) << 62
        ctl[W_FIND] = 1
        ctl[W_ORD] = -1
        _walk_prefix(T, B1, row4s, k, np.bool_(False), grids, np.int64(0), auts, hist, work, ctl, work.cps)
        o = ctl[W_ORD]
        if o < 0:
            return -5
        o0 = 0
        c0 = 0
        for c in range(cp_lo[k], cp_lo[k + 1]):
            if cp_ord[c] > o:
                break
            o0 = cp_ord[c]
            c0 = cp_cnt[c]
        _reset_ctl(ctl)
        ctl[W_FROM] = o0
        ctl[W_COUNT] = c0
        ctl[W_STOP_ORD] = o
        ctl[W_PER_BAND2] = 1
        n = _walk_prefix(T, B1, row4s, k, np.bool_(True), grids, np.int64(0), auts, hist, work, ctl, work.cps)
        if n < 0:
            return n
        hit = -1
        for i in range(ctl[W_GOT]):
            same = True
            for q in range(54, 81):
                if grids[i, q] != forms[k, q]:
                    same = False
                    break
            if same:
                hit = i
                break
        if hit < 0:
            return -5
        out[k] = ctl[W_COUNT] - ctl[W_GOT] + hit
    return 0
