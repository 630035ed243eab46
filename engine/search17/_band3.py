"""Kernels of the band-3 step: for every band 3 of a pair and every XY candidate, the band-3 clue
sets that complete it, and the uniqueness check of each (``_check``).

Per band 3 and candidate: its missed sockets (``_sockets``: the pair's socket bitmap ``msk``
AND the band 3's own) each need a clue in their mini-row (two when a mini-row's three pairs are
missed), which must fit under the stack cap above the candidate's own clues and in total under z;
most candidates stop there. For the others, the band 3's other UAs the candidate misses (the
pool's learned UAs whose band-3 cells hold the same digits here: a minimal UA of one grid is a UA
of the other as soon as the grids agree on its cells and on rows 1-6; and those learned on this
band 3), then where its band-3 clues can go (``_band3_room``), then the hitting-set search of the
band-3 sets of z cells meeting all of them and band 3's fixing sets (``_hitting``), and the
check of each. A failed check's minimal UA goes to the log (a socket's) or the pool, to this band
3's list and to the candidate's sets (its search starts again), and, when it lies inside bands
1+2, rules out every candidate that misses it for good.
"""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel
from ..solve import REFILL_SCRATCH, solution_planes
from ._check import is_puzzle, taught_ua
from ._hitting import (FULL27, LAST, LEVELS, STACK27, completions, emit_last, hit_next, hit_start,
                       set_bitmaps, unmet_root)
from ._sockets import (LOG_UAS, MAX_PAIR_SOCKETS, N_SOCKETS, NEED4, PAIR_SOCKET_KEYS, SOCKET_MASK, SOCKET_WORDS,
                       band3_sockets, cell_bits, log_misses, missed_entries, next_bit, pending_misses, socket_key,
                       socket_of)
from ._valid import band_fixing_sets
from .counters import STAT_CANDIDATES, STAT_CHECKS, STAT_FOUND, STAT_LEARNED, STAT_SURVIVORS, STAT_ZSETS

ONE = np.uint64(1)
MASK27 = np.uint64((1 << 27) - 1)
STACK54 = np.array([STACK27[s] | (STACK27[s] << 27) for s in range(3)], np.uint64)
"""Cells of stack s in bands 1+2 (54-bit masks)."""
MAX_B3_UAS = 4096
"""UAs of one band 3 beside its sockets': the pool's that hold on it, those learned on it."""
HIT_WORDS = 4
"""Words of band 3's fixing sets as bitmaps: up to 256 of them."""
X_GROUP_PER_X = 32
"""Candidates per band-1 set X and band 3 (in the mean) from which the socket log is read per X
(compacted) rather than keeping each candidate's missed sockets across bands 3: at 16 a pair of
pass B at rank 288 with four bands 3 and 16 candidates an X took 1.8x as long."""

# the pair's running counts, in one array the helpers share (``st``; ``band3_sockets`` keeps the
# first two): sockets, log entries, those in every candidate's ``msk``, pool UAs, finds, this
# band 3's UAs
NSID, NLOG, APPLIED, NPOOL, NFOUND, NUA = range(6)



@kernel
def _sort_by_size(sets, n, tmp):
    """Stable counting sort of ``sets[:n]`` by popcount (smallest first: the branching set is
    small), through ``tmp``."""
    count = np.zeros(29, np.int64)
    for a in range(n):
        count[popcount(sets[a]) + 1] += 1
    for k in range(1, 29):
        count[k] += count[k - 1]
    for a in range(n):
        k = popcount(sets[a])
        tmp[count[k]] = sets[a]
        count[k] += 1
    for a in range(n):
        sets[a] = tmp[a]


@kernel
def _add_b3_ua(u12, u3, ua12, ua3, notcell, nua):
    """Append a UA to this band 3's list (``ua12``, ``ua3``, per-cell bitmaps ``notcell``)."""
    ua12[nua] = u12
    ua3[nua] = u3
    cell_bits(notcell, u12, nua)
    return nua + 1


@kernel
def _start_pair(cand, ncand, stack_cap, nb3, alive, msk, sid_of_key):
    """Every candidate alive but those with more than ``stack_cap`` clues in a stack, no socket
    known; returns whether the log is read per band-1 set X (``X_GROUP_PER_X``: many candidates
    an X for each band 3, so the cost goes with the Xs and bands 3) rather than kept per candidate
    across bands 3 (few: the cost goes with the candidates)."""
    for i in range(ncand):
        alive[i] = True
        for st in range(3):
            if popcount(cand[i] & STACK54[st]) > stack_cap:
                alive[i] = False
        for w in range(SOCKET_WORDS):
            msk[i, w] = 0
    for k in range(PAIR_SOCKET_KEYS):
        sid_of_key[k] = -1
    ngroups = 0
    for i in range(ncand):
        if i == 0 or (cand[i] & MASK27) != (cand[i - 1] & MASK27):
            ngroups += 1
    return ncand >= X_GROUP_PER_X * ngroups * nb3


@kernel
def _enter_band3(b3, grid, planes, near, BT, relabel, fix3, sort_tmp, fnot):
    """Band 3 ``b3`` into ``grid``, its digits' cells (``planes``), the grid's planes for the
    solver (``near``) and its fixing sets, smallest first, with their bitmaps; returns how many."""
    for q in range(27):
        grid[54 + q] = b3[q]
    for d in range(9):
        planes[d] = 0
    for q in range(27):
        planes[b3[q] - 1] |= np.int64(1) << q
    solution_planes(grid, near)
    nfix3 = min(band_fixing_sets(b3, BT, relabel, fix3), 64 * HIT_WORDS)
    _sort_by_size(fix3, nfix3, sort_tmp)
    set_bitmaps(fix3, nfix3, fnot, np.int64(0), (nfix3 + 63) >> 6)
    return nfix3


@kernel
def _pool_uas(npool, pool12, pool3, poolsig, planes, ua12, ua3, notcell):
    """This band 3's list of UAs: the pool's whose band-3 cells hold the same digits here (a
    minimal UA of one grid is a UA of another that agrees on its cells and on rows 1-6)."""
    nua = np.int64(0)  # typed, not a literal: _add_b3_ua compiled once
    for t in range(npool):
        u3 = pool3[t]
        ok = True
        for d in range(9):
            if (planes[d] & u3) != poolsig[t, d]:
                ok = False
                break
        if ok and nua < MAX_B3_UAS:
            nua = _add_b3_ua(pool12[t], u3, ua12, ua3, notcell, nua)
    return nua


@kernel
def _band1_misses(x1, notcell, nua, miss1):
    """``miss1``: the band 3's UAs (bitmaps ``notcell``, ``nua`` of them) band-1 clues ``x1``
    miss (kept while the candidates' X stays: they come grouped by X)."""
    Wu = (nua + 63) >> 6
    for w in range(Wu):
        miss1[w] = ~np.uint64(0)
    x = x1
    while x:
        c = trailing_zeros(x)
        x &= x - ONE
        for w in range(Wu):
            miss1[w] &= notcell[c, w]


@kernel
def _band3_room(sets, ns, fix3, nfix3, msock, spare, srooms, gmask, gneed):
    """The cells a candidate's band-3 clues can use: -1 when none can do (a necessary condition),
    else a 27-bit mask holding every band-3 set it can take. What it must meet: its missed sockets
    (``msock``, bit mini-row * 4 + type), the band-3 parts of the other UAs it misses
    (``sets[:ns]``) and band 3's fixing sets (``fix3[:nfix3]``); ``spare`` clues beyond the
    sockets' need, ``srooms[st]`` of them at most in stack st.

    The mini-rows with a missed socket take at least their need (1, or 2 when their three pairs
    are missed), so at most ``spare`` clues lie outside them, in stacks with room: n pairwise
    disjoint sets outside them need n <= ``spare``. With no spare clue, each of those mini-rows
    takes exactly its need, where one clue meets all its missed sockets (all three cells for 2);
    with one spare clue and a set outside them, that clue lies in every such set and the rest as
    with none: then every clue's group is known and ``_placed`` propagates the sets. Otherwise the
    spare clues can go anywhere and all 27 cells are left (sharing out 1 or 2 spare clues every
    way and propagating each cut 4 % more of them at rank 411 and cost 14 % more time). At band-1
    rank 411 (pass B) 18.2 M candidates passed the sockets' count, their depth-first searches gave
    59.6 k band-3 sets, and this leaves 5.0 M to search: the sets beside the sockets decide."""
    full = (np.int64(1) << 27) - 1
    crit = np.int64(0)
    allow = np.int64(0)
    for mr in range(9):
        got = (msock >> (4 * mr)) & 15
        if got:
            m = SOCKET_MASK[mr * 4 + 3]
            crit |= m
            if (got & 7) != 7:
                for typ in range(4):
                    if (got >> typ) & 1:
                        m &= SOCKET_MASK[mr * 4 + typ]
            allow |= m
    room = np.int64(0)
    for st in range(3):
        if srooms[st] > 0:
            room |= STACK27[st]
    used = np.int64(0)
    lb = 0
    wa = room  # one spare clue: it lies in every set outside crit
    for q in range(ns + nfix3):
        s = sets[q] if q < ns else fix3[q - ns]
        if (s & crit) == 0:
            av = s & room
            wa &= av
            if (av & used) == 0:
                used |= av
                lb += 1
                if lb > spare or av == 0:
                    return -1
    if spare > 1 or (spare == 1 and lb == 0):
        return full  # the spare clues can go anywhere: left to the depth-first search
    if spare == 1 and wa == 0:
        return -1
    for mr in range(9):
        got = (msock >> (4 * mr)) & 15
        gneed[mr] = NEED4[got]
        gmask[mr] = allow & SOCKET_MASK[mr * 4 + 3]
    gneed[9] = spare
    gmask[9] = wa if spare else 0
    return _placed(sets, ns, fix3, nfix3, gmask, gneed)


@kernel
def _placed(sets, ns, fix3, nfix3, gmask, gneed):
    """Unit propagation where each group of band-3 cells takes a known number of clues (group
    g < 9: mini-row g, cells ``gmask[g]``, ``gneed[g]`` clues; group 9: cells outside them): a
    set met by no placed clue and by one allowed cell only places a clue there; a group whose
    clues are all placed has no other allowed cell. Returns -1 when a set is left with no allowed
    cell, else the allowed cells (every band-3 set meeting the sets and the groups lies inside
    them)."""
    A = np.int64(0)
    F = np.int64(0)  # placed clues
    for g in range(10):
        if gneed[g]:
            A |= gmask[g]
            if popcount(gmask[g]) == gneed[g]:
                F |= gmask[g]
    changed = True
    while changed:
        changed = False
        for q in range(ns + nfix3):
            s = sets[q] if q < ns else fix3[q - ns]
            if s & F:
                continue
            a = s & A
            if a == 0:
                return -1
            if (a & (a - 1)) == 0:
                F |= a
                c = trailing_zeros(a)
                g = 9 if (gmask[9] >> c) & 1 else (c // 9) * 3 + (c % 9) // 3
                if popcount(F & gmask[g]) == gneed[g]:
                    A &= ~(gmask[g] & ~F)  # the group is full
                changed = True
    return A




@kernel
def _band3_sets(sets, ns, fix3, nfix3, fnot, z, base, stack_cap, dead0, out, H):
    """Every band-3 set of z cells, none of ``dead0``, at most ``stack_cap - base[st]`` in stack
    st, meeting each of ``sets[:ns]`` (the candidate's, smallest first) and ``fix3[:nfix3]`` (band
    3's fixing sets, smallest first, their bitmaps ``fnot`` built once per band 3), into ``out``:
    the hitting-set search, the candidate's sets in the first words of the bitmaps and the fixing
    sets after them. Returns how many (-1 when ``out`` is full). ``H``: the search's scratch."""
    notin, unmet, allsets, chosen, dead, rest, nclue, pos, ctl = H
    VW = (ns + 63) >> 6
    FW = (nfix3 + 63) >> 6
    W = VW + FW
    if W > notin.shape[1]:  # many sets (rare): bitmaps of their own; the usual ones stay small, in cache
        notin = np.empty((27, W), np.uint64)
        unmet = np.empty((LEVELS, W), np.uint64)
        allsets = np.empty(W * 64, np.int64)
    set_bitmaps(sets, ns, notin, np.int64(0), VW)
    for c in range(27):
        for w in range(FW):
            notin[c, VW + w] = fnot[c, w]
    for w in range(W):
        unmet[0, w] = 0
    for j in range(ns):
        allsets[j] = sets[j]
    for j in range(nfix3):
        allsets[VW * 64 + j] = fix3[j]
    unmet_root(unmet, np.int64(0), ns)
    unmet_root(unmet, VW, nfix3)
    hit_start(ctl, chosen, dead, rest, nclue, dead0)
    zero = np.int64(0)
    n = np.int64(0)  # typed, not a literal: the helpers below compiled once
    while True:
        ev = hit_next(ctl, allsets, notin, unmet, W, chosen, dead, rest, nclue, z, base, stack_cap, np.int64(2),
                      np.bool_(True))
        if ev < 0:
            return n
        lvl = ctl[0]
        if ev == LAST:
            n = emit_last(zero, zero, chosen[lvl], ctl[2], out, n)
        else:
            n = completions(zero, zero, chosen[lvl], FULL27 & ~chosen[lvl] & ~dead[lvl], z - nclue[lvl], base,
                            stack_cap, pos, out, n)
        if n < 0:
            return -1


@kernel
def _learn(d12, d3, b3, planes, sid_of_key, lg12, lgsid, lgnot, pool12, pool3, poolsig, ua12, ua3, notcell, st):
    """A UA learned on this band 3 (``d12`` bands 1+2, ``d3`` band 3): a socket's to the pair's
    log (every candidate has it from the next band 3 on, on whatever row that band 3 has the
    socket), else to the pool; and to this band 3's list."""
    logged = False
    k = socket_of(d3)
    nlog = st[NLOG]
    if k >= 0 and nlog < lg12.shape[0]:
        sid = sid_of_key[socket_key(b3, k)]
        if sid >= 0:
            lg12[nlog] = d12
            lgsid[nlog] = sid
            cell_bits(lgnot, d12, nlog)
            st[NLOG] = nlog + 1
            logged = True
    npool = st[NPOOL]
    if not logged and npool < pool12.shape[0]:
        pool12[npool] = d12
        pool3[npool] = d3
        for d in range(9):
            poolsig[npool, d] = planes[d] & d3
        st[NPOOL] = npool + 1
    if st[NUA] < MAX_B3_UAS:
        st[NUA] = _add_b3_ua(d12, d3, ua12, ua3, notcell, st[NUA])


@kernel
def _check_candidate(i, b, nb3, cand, ncand, alive, z, stack_cap, dead0, base, ns, fix3, nfix3, fnot, grid, b3,
                     planes, near, P, H, C, found_b, found12, found3, st, stats):
    """The band-3 sets of candidate i (its sets ``P.sets[:ns]``, ``_band3_sets``) and the check
    of each: a find is kept once; a failed check teaches a UA (``_learn``) and the search starts
    again with it, or, when the UA lies inside bands 1+2, rules out every candidate that misses it
    (on the last band 3, those still to come). Returns 0, or -1 when a buffer is full.
    ``C``: the checks' scratch."""
    diff, mcells, mout, mW = C
    c12 = cand[i]
    first = st[NFOUND]  # finds of this candidate (a restart meets them again)
    while True:
        nz = _band3_sets(P.sets, ns, fix3, nfix3, fnot, z, base, stack_cap, dead0, P.zbuf, H)
        if nz < 0:
            return -1
        stats[STAT_ZSETS] += nz
        learned = False
        for a in range(nz):
            zz = P.zbuf[a]
            nfound = st[NFOUND]
            again = False
            for q in range(first, nfound):
                if found3[q] == zz:
                    again = True
            if again:
                continue
            stats[STAT_CHECKS] += 1
            if is_puzzle(P.S, P.ctl, grid, c12, zz, P.puzzle, near, P.sols):
                if nfound >= found12.shape[0]:
                    return -1
                found_b[nfound] = b
                found12[nfound] = c12
                found3[nfound] = zz
                st[NFOUND] = nfound + 1
                continue
            d12, d3 = taught_ua(grid, P.sols, diff, mcells, mout, mW)
            stats[STAT_LEARNED] += 1
            if d3 == 0:
                # inside bands 1+2: rules out every candidate that misses it
                for i2 in range(i + 1 if b == nb3 - 1 else 0, ncand):
                    if (cand[i2] & d12) == 0:
                        alive[i2] = False
                return 0
            _learn(d12, d3, b3, planes, P.sid_of_key, P.lg12, P.lgsid, P.lgnot, P.pool12, P.pool3, P.poolsig, P.ua12,
                   P.ua3, P.notcell, st)
            if ns >= P.sets.shape[0]:
                return -1
            P.sets[ns] = d3
            ns += 1
            learned = True
            break
        if not learned:
            return 0


@kernel
def pair_search(g54, bands3, nb3, cand, ncand, z, stack_cap, kmax_g, max_g, BT, P,
                found_b, found12, found3, stats):
    """The band-3 step for every band 3 of one pair (bands 1+2 ``g54``; ``bands3[:nb3]``, whose
    fixing sets come from ``BT``, see ``band_fixing_sets``) and its XY candidates ``cand[:ncand]``
    (bands 1+2 clue masks; those with more than ``stack_cap`` clues in a stack are left out): the
    module docstring's steps, per band 3, per candidate still alive. Finds go to ``found_b`` (band
    3), ``found12``, ``found3``; ``stats`` are incremented (STAT_*). Returns the number of finds,
    or -1 when an output or ``P``'s buffers are full.

    The tests of each candidate are written out in the loop, not as helpers: inlined, a helper
    costs a reference count per array and call, and these run for every candidate and band 3
    (as helpers they made the step 9 % slower).
    """
    grid = P.grid
    for q in range(54):
        grid[q] = g54[q]
    alive = P.alive  # pair-level: candidates not ruled out by a UA learned inside bands 1+2
    per_x = _start_pair(cand, ncand, stack_cap, nb3, alive, P.msk, P.sid_of_key)
    st = np.zeros(6, np.int64)
    loc = np.zeros(MAX_PAIR_SOCKETS, np.int64)  # this band 3's socket (mini-row * 4 + type) of each
    b3m = np.zeros(SOCKET_WORDS, np.uint64)  # the pair sockets this band 3 has
    mrm = np.zeros((9, SOCKET_WORDS), np.uint64)  # ... per mini-row
    smr = np.zeros(MAX_PAIR_SOCKETS, np.int64)  # this band 3's mini-row of each pair socket, -1 if none
    lmiss1 = np.zeros(LOG_UAS // 64, np.uint64)  # log_misses' scratch
    lmiss = np.zeros(LOG_UAS // 64, np.uint64)
    lend = np.zeros(LOG_UAS, np.int64)
    pidx = np.zeros(LOG_UAS, np.int64)  # the pending socket UAs an X misses (pending_misses)
    psid = np.zeros(LOG_UAS, np.int64)
    pend = np.zeros(LOG_UAS + 1, np.int64)
    pnot = np.zeros((27, LOG_UAS // 64), np.uint64)
    pm = np.zeros(LOG_UAS // 64, np.uint64)
    planes = np.zeros(9, np.int64)
    base = np.zeros(3, np.int64)
    miss = np.zeros(MAX_B3_UAS // 64, np.uint64)
    miss1 = np.zeros(MAX_B3_UAS // 64, np.uint64)  # the band-1 clues' part of ``miss``
    sort_tmp = np.zeros(P.sets.shape[0], np.int64)
    fnot = np.zeros((27, HIT_WORDS), np.uint64)  # band 3's fixing sets as bitmaps
    hw = 2 * HIT_WORDS  # the band-3 search's bitmaps: up to 256 sets of a candidate and 256 fixing sets
    H = (np.empty((27, hw), np.uint64), np.empty((LEVELS, hw), np.uint64), np.empty(hw * 64, np.int64),
         np.empty(LEVELS, np.int64), np.empty(LEVELS, np.int64), np.empty(LEVELS, np.int64),
         np.empty(LEVELS, np.int64), np.zeros(27, np.int64), np.zeros(3, np.int64))
    C = (np.zeros(81, np.bool_), np.zeros(81, np.int64), np.zeros(81, np.int64), np.zeros(REFILL_SCRATCH, np.int64))
    needs = np.zeros(3, np.int64)
    near = np.zeros(27, np.int64)  # the grid's planes: checks follow it (small differences)
    cst = np.zeros(3, np.int64)  # the candidate's clues per stack
    srooms = np.zeros(3, np.int64)
    gmask = np.zeros(10, np.int64)
    gneed = np.zeros(10, np.int64)
    full27 = (np.int64(1) << 27) - 1
    for b in range(nb3):
        nfix3 = _enter_band3(bands3[b], grid, planes, near, BT, P.relabel, P.fix3, sort_tmp, fnot)
        fix3 = P.fix3
        band3_sockets(bands3[b], grid, P.sid_of_key, P.lg12, P.lghi, P.lgsid, P.lgnot, kmax_g, max_g, b3m, mrm, loc,
                      smr, st, stats)
        if not per_x and st[NLOG] > st[APPLIED]:
            log_misses(cand, ncand, alive, P.lg12, P.lgsid, P.lgnot, P.msk, st[APPLIED], st[NLOG], lmiss1, lmiss, lend,
                       pidx, psid, pend, pnot)
            st[APPLIED] = st[NLOG]
        st[NUA] = _pool_uas(st[NPOOL], P.pool12, P.pool3, P.poolsig, planes, P.ua12, P.ua3, P.notcell)
        prev_x = ~np.uint64(0)
        prev_nua = -1
        pend_x = ~np.uint64(0)
        pend_n = -1
        pnc = 0
        for i in range(ncand):
            if not alive[i]:
                continue
            c12 = cand[i]
            x1 = c12 & MASK27
            for s3 in range(3):
                cst[s3] = popcount(c12 & STACK54[s3])
            # per X: the log's entries (all of them; on the pair's last band 3, those learned on
            # it so far: no later band 3 would read them) that X misses, compacted, then this
            # candidate's; the walk stops at z + 1 mini-rows
            if per_x or (b == nb3 - 1 and st[NLOG] > st[APPLIED]):
                if x1 != pend_x or st[NLOG] != pend_n:
                    pnc = pending_misses(x1, P.lg12, P.lgsid, P.lgnot, st[APPLIED], st[NLOG], pidx, psid, pend, pnot)
                    pend_x = x1
                    pend_n = st[NLOG]
                if pnc:
                    mrs = 0
                    nmr = 0
                    PW = (pnc + 63) >> 6
                    missed_entries(c12 >> np.uint64(27), pnot, PW, pm)
                    j = 0
                    while j < pnc:
                        t = next_bit(pm, j, PW)
                        if t < 0:
                            break
                        s = psid[t]
                        P.msk[i, s >> 6] |= ONE << np.uint64(s & 63)
                        r = smr[s]
                        if r >= 0 and not (mrs >> r) & 1:
                            mrs |= 1 << r
                            nmr += 1
                            if nmr > z:
                                break
                        j = pend[t]
            # the missed sockets this band 3 has: each mini-row with one needs a clue, within z and
            # the stack caps above the candidate's own clues (most candidates stop here)
            m0 = P.msk[i, 0] & b3m[0]
            m1 = P.msk[i, 1] & b3m[1]
            m2 = P.msk[i, 2] & b3m[2]
            left = z
            for st3 in range(3):
                srooms[st3] = stack_cap - cst[st3]
            over = False
            for mr in range(9):
                if (m0 & mrm[mr, 0]) | (m1 & mrm[mr, 1]) | (m2 & mrm[mr, 2]):
                    left -= 1
                    srooms[mr % 3] -= 1
                    if left < 0 or srooms[mr % 3] < 0:
                        over = True
                        break
            if over:
                continue
            msock = np.int64(0)
            for w in range(SOCKET_WORDS):
                v = P.msk[i, w] & b3m[w]
                while v:
                    t = trailing_zeros(v)
                    v &= v - ONE
                    msock |= np.int64(1) << loc[w * 64 + t]
            # band-3 clues they need, per stack and in all (a mini-row: 2 when its three pairs
            # are missed, else 1)
            total = 0
            ok = True
            for st3 in range(3):
                need = 0
                for r in range(3):
                    need += NEED4[(msock >> (4 * (r * 3 + st3))) & 15]
                if need > stack_cap - cst[st3]:
                    ok = False
                    break
                needs[st3] = need
                total += need
            if not ok or total > z:
                continue
            # the band 3's other UAs this candidate misses: AND of the per-cell bitmaps of its
            # clues, the band-1 part kept while X stays (candidates come grouped by X)
            nua = st[NUA]
            if x1 != prev_x or nua != prev_nua:
                _band1_misses(x1, P.notcell, nua, miss1)
                prev_x = x1
                prev_nua = nua
            Wu = (nua + 63) >> 6
            for w in range(Wu):
                miss[w] = miss1[w]
            x = c12 & ~MASK27
            while x:
                c = trailing_zeros(x)
                x &= x - ONE
                for w in range(Wu):
                    miss[w] &= P.notcell[c, w]
            ns = np.int64(0)  # typed, not a literal: _check_candidate and the helpers compiled once
            for w in range(Wu):
                v = miss[w]
                if w == Wu - 1 and (nua & 63) != 0:
                    # bits past nua in the last word are a previous band 3's UAs (not this grid's)
                    v &= (ONE << np.uint64(nua & 63)) - ONE
                while v:
                    t = trailing_zeros(v)
                    v &= v - ONE
                    P.sets[ns] = P.ua3[w * 64 + t]
                    ns += 1
            for s3 in range(3):
                srooms[s3] = stack_cap - cst[s3] - needs[s3]
            cells = _band3_room(P.sets, ns, fix3, nfix3, msock, z - total, srooms, gmask, gneed)
            if cells < 0:
                continue
            stats[STAT_SURVIVORS] += 1
            for k in range(N_SOCKETS):  # each missed socket once (its UAs' band-3 part is the socket)
                if (msock >> k) & 1:
                    P.sets[ns] = SOCKET_MASK[k]
                    ns += 1
            _sort_by_size(P.sets, ns, sort_tmp)
            for s3 in range(3):
                base[s3] = cst[s3]
            if _check_candidate(i, b, nb3, cand, ncand, alive, z, stack_cap, full27 & ~cells, base, ns, fix3, nfix3,
                                fnot, grid, bands3[b], planes, near, P, H, C, found_b, found12, found3, st, stats) < 0:
                return -1
    n_alive = 0
    for i in range(ncand):
        if alive[i]:
            n_alive += 1
    stats[STAT_CANDIDATES] += n_alive
    stats[STAT_FOUND] += st[NFOUND]
    return st[NFOUND]
