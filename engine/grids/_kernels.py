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

from .._bits import LOWBIT, PERM3
from .._jit import kernel
from ..core.bandkey import rank3, row2_id
from ..core.chutes import ALL9, image_band_cmp, image_row_cmp, key_verdict
from ._leaves import (DROPPED, N_STATS, ORD_OK, PENDING, STAT_BANDS2, STAT_BANDS2_KEPT,  # noqa: F401
                      STAT_BANDS2_TESTED, STAT_CANON, STAT_LEAVES, STAT_LEAVES_INDEX, STAT_ROWS5, STAT_ROWS5_PRUNED,
                      TIED, Band1, _band3, _holds_at)


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
