"""Kernels of the XY step: the candidate clue sets of bands 1+2 of a pair.

A clue set of bands 1+2 with x clues in band 1 and y in band 2 must meet every UA of the pair:
per valid band-1 set X, the band-2 sets Y of y cells that meet the band-2 parts of the UAs X
misses and band 2's fixing sets, by a hitting-set search on ``_hitting``'s bitmaps, bound and
last-clue shortcut (its own loop, not ``_hitting``'s walk: see ``xy_expand``), checked for rows
1-6 by the solver where every known set is met (``_check.rows_unique``); a failed check teaches a
UA of the pair, which X's search branches on at once and later Xs meet too.
"""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel
from ..solve import SOLVER_WORDS
from .counters import STAT_XY_CHECKS, STAT_XY_LEARNED
from ._check import rows_ua, rows_unique, x_node
from ._hitting import (FULL27, LEVELS, NO_CAP, add_set, completions, disjoint_bound, meeting_all, set_bitmaps,
                       unmet_root)

ONE = np.uint64(1)
XY_WORDS = 8
"""Words of one X's local set bitmaps: up to 512 band-2 sets (``max_sets`` parts of pair UAs,
band 2's fixing sets, the UAs learned under this X)."""
XY_CHECK_FROM = 1
"""The XY step checks validity where at least this many band-2 clues are still to be placed:
1, not the whole sets (0), because the band-3 step's own checks rule out the rest for less (on
A:411's pair 0 gives half the candidates from 80 times the solver calls, and 2.5x the time)."""


@kernel
def _ua_bit(u, d1, d2, nb1, live, inb1):
    """Slot ``u`` of the UA bitmaps now holds the UA with band-1 part ``d1`` and band-2 part
    ``d2``: bit u of ``nb1[c]`` set when cell c is not in ``d1``, of ``live`` set, of ``inb1``
    set when the UA lies inside band 1."""
    w = u >> 6
    bit = ONE << np.uint64(u & 63)
    for c in range(27):
        if (d1 >> c) & 1:
            nb1[c, w] &= ~bit
        else:
            nb1[c, w] |= bit
    live[w] |= bit
    if d2 == 0:
        inb1[w] |= bit
    else:
        inb1[w] &= ~bit


@kernel
def _missed_by(x, nb1, live, inb1, NW, miss):
    """``miss``: the UAs band-1 set ``x`` misses (the AND of ``nb1`` over its clues, not a scan:
    a pair has thousands of UAs and an X misses a few hundred). False when one of them lies inside
    band 1 (X has no Y)."""
    for w in range(NW):
        miss[w] = live[w]
    v = x
    while v:
        c = trailing_zeros(v)
        v &= v - 1
        for w in range(NW):
            miss[w] &= nb1[c, w]
    for w in range(NW):
        if miss[w] & inb1[w]:
            return False
    return True


@kernel
def _local_sets(miss, NW, ml, nua, ring, p2, fix2, nfix2, max_sets, tmp, bucket, sets):
    """X's sets for its hitting-set search, into ``sets``, smallest first (a stable counting
    sort): the band-2 parts of the UAs it misses (at most ``max_sets``: the learned ones newest
    first, those of the X just before being the likeliest to be missed again, then the pair's in
    their order, smallest band-2 part first as the caller gives them), then band 2's fixing sets.
    Returns how many."""
    nm = 0
    for w in range(NW):
        v = miss[w]
        while v:
            ml[nm] = w * 64 + trailing_zeros(v)
            v &= v - ONE
            nm += 1
    # the learned UAs are a ring after the pair's nua[0]: slots head-1 down to the ring's start,
    # then its end down to head
    k0 = 0
    while k0 < nm and ml[k0] < nua[0]:
        k0 += 1
    head = nua[0] + (nua[1] % ring if ring > 0 else 0)
    k1 = k0
    while k1 < nm and ml[k1] < head:
        k1 += 1
    m = 0
    for k in range(k1 - 1, k0 - 1, -1):
        if m < max_sets:
            tmp[m] = p2[ml[k]]
            m += 1
    for k in range(nm - 1, k1 - 1, -1):
        if m < max_sets:
            tmp[m] = p2[ml[k]]
            m += 1
    for k in range(k0):
        if m < max_sets:
            tmp[m] = p2[ml[k]]
            m += 1
    for f in range(nfix2):
        if m < XY_WORDS * 64:
            tmp[m] = fix2[f]
            m += 1
    for k in range(28):
        bucket[k] = 0
    for j in range(m):
        bucket[popcount(tmp[j])] += 1
    acc = 0
    for k in range(28):
        c0 = bucket[k]
        bucket[k] = acc
        acc += c0
    for j in range(m):
        k = popcount(tmp[j])
        sets[bucket[k]] = tmp[j]
        bucket[k] += 1
    return m


@kernel
def xy_expand(X, nx, at, p1, p2, nua, fix2, nfix2, y, max_sets, check_from, grid, S, ctl, sols, puzzle, out, sets,
              stats):
    """The XY candidates without the X x Y product: for each band-1 set X, the hitting-set search
    over band-2 sets Y of y cells meeting X's local sets (``_local_sets``: the band-2 parts of the
    UAs X misses among ``p1``/``p2``, the pair's ``[:nua[0]]`` and a ring of learned ones after
    them, and band 2's ``fix2``). Where every known set is met with at least ``check_from``
    clues still to place, the solver decides (``grid``: band 3 given whole): rows 1-6 unique,
    every completion of the node is written out (more clues keep them unique); not unique, the
    other filling's UA joins the ring (``nua[1]`` counts them) and the node branches on it; a UA
    met only by band 1 that X misses ends X. With ``check_from`` 0 the output is exactly the
    pairs valid for rows 1-6; with more, nodes with fewer clues to place are written out
    unchecked (a superset, cut later by the band-3 step's checks).

    Starts at X ``at[0]`` and writes X | Y << 27 to ``out`` (int64) for whole Xs only: returns
    how many, with ``at[0]`` the first X not done (``nx`` when all are; 0 written and ``at[0]``
    unchanged: one X's candidates do not fit in ``out``), so a full buffer costs no work done
    again. UAs learned stay. ``stats``: STAT_XY_CHECKS and STAT_XY_LEARNED incremented.

    The search is its own depth-first loop on ``_hitting``'s helpers: walking ``_hitting.hit_next``
    (an event per leaf or last clue, a stack-cap test per node) made this step 3-5 % slower."""
    W = XY_WORDS  # a literal: the loop's word scans and its bound and last-clue helpers specialised for 8 words
    notin = np.empty((27, W), np.uint64)  # bit j: cell not in local set j
    unmet = np.empty((LEVELS, W), np.uint64)
    chosen = np.empty(LEVELS, np.int64)
    dead = np.empty(LEVELS, np.int64)
    rest = np.empty(LEVELS, np.int64)  # cells of the branching set still to try; -1: a new node
    nclue = np.empty(LEVELS, np.int64)
    pos = np.zeros(27, np.int64)
    bucket = np.zeros(28, np.int64)
    tmp = np.zeros(W * 64, np.int64)
    base = np.zeros(SOLVER_WORDS, np.uint32)  # the solver's node of band 3 and X (``x_node``)
    base_x = -1  # the X it holds
    base3 = np.zeros(3, np.int64)  # no stack cap here: the band-3 step applies it
    cap = np.int64(NO_CAP)
    ycells = np.zeros(27, np.int64)
    ring = p1.shape[0] - nua[0]  # learned UAs: a ring after the pair's nua[0]
    NW = (p1.shape[0] + 63) >> 6
    nb1 = np.empty((27, NW), np.uint64)
    for c in range(27):
        for w in range(NW):
            nb1[c, w] = ~np.uint64(0)
    live = np.zeros(NW, np.uint64)
    inb1 = np.zeros(NW, np.uint64)
    miss = np.zeros(NW, np.uint64)
    ml = np.zeros(p1.shape[0], np.int64)
    for u in range(nua[0] + min(nua[1], ring)):
        _ua_bit(u, p1[u], p2[u], nb1, live, inb1)
    last_clue = check_from >= 1
    n = np.int64(0)  # typed, not a literal: completions compiled once
    for a in range(at[0], nx):
        x = X[a]
        n0 = n
        if not _missed_by(x, nb1, live, inb1, NW, miss):
            continue  # a learned UA inside band 1 that X misses
        ns = _local_sets(miss, NW, ml, nua, ring, p2, fix2, nfix2, max_sets, tmp, bucket, sets)
        set_bitmaps(sets, ns, notin, np.int64(0), np.int64(W))
        for w in range(W):
            unmet[0, w] = 0
        unmet_root(unmet, np.int64(0), ns)
        lvl = 0
        chosen[0] = 0
        dead[0] = 0
        nclue[0] = 0
        rest[0] = -1
        while lvl >= 0:
            if rest[lvl] == -1:  # a new node: branch on its first unmet set
                need = y - nclue[lvl]
                f = -1
                for w in range(W):
                    if unmet[lvl, w]:
                        f = w * 64 + trailing_zeros(unmet[lvl, w])
                        break
                if f < 0:  # every known set met
                    ok = need < check_from
                    if not ok:
                        stats[STAT_XY_CHECKS] += 1
                        if base_x != a:
                            x_node(grid, x, puzzle, base)
                            base_x = a
                        ok = rows_unique(S, ctl, base, grid, chosen[lvl], ycells, sols)
                    if not ok:
                        d1, d2 = rows_ua(sols, grid)
                        stats[STAT_XY_LEARNED] += 1
                        if ring > 0:
                            u = nua[0] + nua[1] % ring
                            p1[u] = d1
                            p2[u] = d2
                            _ua_bit(u, d1, d2, nb1, live, inb1)
                            nua[1] += 1
                        if d2 == 0:
                            break  # X misses a UA inside band 1: no Y
                        if ns < W * 64:
                            sets[ns] = d2  # a new local set, unmet at this node and every node above it
                            add_set(d2, ns, notin, unmet, lvl)
                            f = ns  # branched on here
                            ns += 1
                        else:
                            ok = True  # no room: left unchecked to the band-3 step's learning
                    if ok:  # every completion by free cells (the dead ones are the siblings')
                        n = completions(x, np.int64(27), chosen[lvl], FULL27 & ~chosen[lvl] & ~dead[lvl], need, base3,
                                        cap, pos, out, n)
                        if n < 0:
                            at[0] = a  # out is full: this X again next time
                            return n0
                        lvl -= 1
                        continue
                if need <= 0:
                    lvl -= 1
                    continue
                if need == 1 and last_clue:  # the completing cells at once, written out unchecked
                    v = meeting_all(sets[f] & ~dead[lvl], unmet, lvl, notin, W)
                    while v:
                        if n >= out.shape[0]:
                            at[0] = a
                            return n0
                        out[n] = x | ((chosen[lvl] | (v & -v)) << 27)
                        v &= v - 1
                        n += 1
                    lvl -= 1
                    continue
                # with two clues left the children (one left, resolved at once) cost less than the bound's scan
                if need >= 3 and disjoint_bound(unmet, lvl, W, sets, dead[lvl], need) > need:
                    lvl -= 1
                    continue
                rest[lvl] = sets[f] & ~dead[lvl]
            if rest[lvl] == 0:
                lvl -= 1
                continue
            c = trailing_zeros(rest[lvl])
            bit = np.int64(1) << c
            rest[lvl] &= ~bit
            chosen[lvl + 1] = chosen[lvl] | bit
            dead[lvl + 1] = dead[lvl]
            dead[lvl] |= bit  # later branches at this level exclude c
            nclue[lvl + 1] = nclue[lvl] + 1
            for w in range(W):
                unmet[lvl + 1, w] = unmet[lvl, w] & notin[c, w]
            rest[lvl + 1] = -1
            lvl += 1
    at[0] = nx
    return n
