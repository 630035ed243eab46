"""Kernels of the 17-clue search over the entry: unavoidable sets of a pair of bands, valid band
clue sets, the "XY" candidates and the band-3 step.

Cells: a grid is 81 cells row-major; bands 1+2 are cells 0-53 (a uint64 mask, bit = cell), band 3
cells 54-80 (a 27-bit mask, bit = cell - 54). A band's own cells are 0-26 (rows 0-2).

**Unavoidable sets from digit subsets** (``refill_diffs``). Fix a set D of k digits and the rows
0..R-1 (R = 6: the two bands of a pair; R = 9: a whole grid). Refill the cells that hold D's
digits with D's digits so that every row and box holds each digit of D once and every column
keeps the *set* of D's digits it had in those rows. Any such refilling other than the original
differs from it on an unavoidable set (UA): for R = 9 it is another grid; for R = 6 every band 3
that completes the pair completes the refilled rows too (a band 3 sees only the column sets).
Every minimal UA whose cells hold k digits comes out of some refilling for that D. The cell by
cell search is cheap up to 5 digits; 6 and 7 digits come from the solver instead
(``solver_diffs``: band 3 and 3 or 2 digits given).

**Valid band clue sets** (``valid_sets``). A set of cells of one band fixes the band (given the
grid around it) only if it meets every difference set of the band against the other bands with
its gangster (its *fixing sets*, ``band_fixing_sets``): those are the UAs inside one band.

**XY** (``xy_expand``). A clue set of bands 1+2 with x clues in band 1 and y in band 2 must meet
every UA of the pair: per valid band-1 set X, the band-2 sets Y of y cells that meet the band-2
parts of the UAs X misses and band 2's fixing sets, by a depth-first hitting-set search.

**Band 3** (``pair_search``). The UAs of the grid with cells in band 3: those whose band-3 part is
two or three cells of one mini-row (a *socket*: the digits there can be permuted when rows 1-6
change accordingly), found per socket with the rest of band 3 frozen and cached per pair, and
those learned from the solver. Per candidate the clues its missed sockets need (per mini-row
and stack), then where its band-3 clues can go (``_band3_room``), then the band-3 sets of z
cells that meet what it misses (``_hit_dfs_bits``), and the solver's uniqueness check; a failed
check gives a new UA (``minimal_ua``).
"""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel
from ..core.bandkey import band_key
from ..solve import (REFILL_SCRATCH, SOLVER_WORDS, count_into, count_near, count_plus, givens_node, minimal_ua,
                     solution_planes)

CELL_ROW = np.array([c // 9 for c in range(81)], np.int64)
CELL_COL = np.array([c % 9 for c in range(81)], np.int64)
CELL_BOX = np.array([(c // 27) * 3 + (c % 9) // 3 for c in range(81)], np.int64)
STACK27 = np.array([sum(1 << (r * 9 + 3 * s + j) for r in range(3) for j in range(3)) for s in range(3)], np.int64)
"""Cells of stack s inside one band (27-bit masks)."""
STACK54 = np.array([STACK27[s] | (STACK27[s] << 27) for s in range(3)], np.uint64)
ONE = np.uint64(1)
MASK27 = np.uint64((1 << 27) - 1)
NO_CAP_K = 99  # no stack cap


@kernel
def refill_diffs(g, nrows, req, kmax, frozen3, max_size, lo, hi, n, start):
    """Append to ``lo``/``hi`` from ``n`` the difference sets of the refillings of rows
    0..nrows-1 of ``g`` over every digit subset D that contains the digits ``req`` (bits 0-8)
    and has 2..``kmax`` digits (module docstring), with the band-3 cells ``frozen3`` (27-bit)
    kept as they are. A refilling in which a digit of D outside ``req`` keeps its cells belongs to
    a smaller D and is skipped; with ``req`` every band-3 cell not frozen must change (the
    *socket*). A partial refilling whose difference already contains a set of
    ``lo``/``hi``[start:n] is cut (its completions are not minimal). Cells are filled band 3
    first, then rows 0-5, so the frozen cells prune at once. Returns the new count (at most
    ``len(lo)``; further sets are dropped)."""
    ncell = nrows * 9
    colset = np.zeros(9, np.int64)
    cells = np.zeros(81, np.int64)
    choice = np.zeros(82, np.int64)
    avail = np.zeros(82, np.int64)
    plo = np.zeros(82, np.uint64)  # difference so far, below each level
    phi = np.zeros(82, np.int64)
    rowm = np.zeros(9, np.int64)
    colm = np.zeros(9, np.int64)
    boxm = np.zeros(9, np.int64)
    moved = np.zeros(10, np.int64)
    socket = 0
    if req != 0 and nrows == 9:
        socket = ((np.int64(1) << 27) - 1) & ~frozen3
    cap = lo.shape[0]
    for sub in range(1, 512):
        if (sub & req) != req:
            continue
        k = popcount(sub)
        if k < 2 or k > kmax:
            continue
        m = 0
        if nrows == 9:
            for c in range(54, 81):
                if (sub >> (g[c] - 1)) & 1:
                    cells[m] = c
                    m += 1
        for c in range(min(ncell, 54)):
            if (sub >> (g[c] - 1)) & 1:
                cells[m] = c
                m += 1
        for j in range(9):
            colset[j] = 0
        for q in range(m):
            c = cells[q]
            colset[CELL_COL[c]] |= 1 << (g[c] - 1)
        for i in range(9):
            rowm[i] = 0
            colm[i] = 0
            boxm[i] = 0
        for d in range(10):
            moved[d] = 0
        lvl = 0
        plo[0] = np.uint64(0)
        phi[0] = np.int64(0)
        c = cells[0]
        avail[0] = sub & colset[CELL_COL[c]]
        while lvl >= 0:
            c = cells[lvl]
            r = CELL_ROW[c]
            j = CELL_COL[c]
            b = CELL_BOX[c]
            a = avail[lvl] & ~(rowm[r] | colm[j] | boxm[b])
            if c >= 54:
                own = 1 << (g[c] - 1)
                if (frozen3 >> (c - 54)) & 1:
                    a &= own  # frozen: keeps its digit
                elif (socket >> (c - 54)) & 1:
                    a &= ~own  # the socket changes
            if a == 0:
                lvl -= 1
                if lvl < 0:
                    break
                c = cells[lvl]
                d = choice[lvl]
                bit = 1 << d
                rowm[CELL_ROW[c]] &= ~bit
                colm[CELL_COL[c]] &= ~bit
                boxm[CELL_BOX[c]] &= ~bit
                if d != g[c] - 1:
                    moved[g[c] - 1] -= 1
                continue
            d = trailing_zeros(a)
            bit = 1 << d
            avail[lvl] &= ~bit
            ch = d != g[c] - 1
            nlo = plo[lvl]
            nhi = phi[lvl]
            if ch:
                if c < 54:
                    nlo |= ONE << np.uint64(c)
                else:
                    nhi |= np.int64(1) << (c - 54)
                if popcount(nlo) + popcount(nhi) > max_size:
                    continue
                sup = False
                for t in range(start, min(n, cap)):
                    if (lo[t] & ~nlo) == 0 and (hi[t] & ~nhi) == 0:
                        sup = True
                        break
                if sup:
                    continue
            choice[lvl] = d
            rowm[r] |= bit
            colm[j] |= bit
            boxm[b] |= bit
            if ch:
                moved[g[c] - 1] += 1
            if lvl == m - 1:
                ok = nlo != 0 or nhi != 0
                for dd in range(9):
                    if (sub >> dd) & 1 and not (req >> dd) & 1 and moved[dd] == 0:
                        ok = False
                if ok:
                    if n < cap:
                        lo[n] = nlo
                        hi[n] = nhi
                        n += 1
                rowm[r] &= ~bit
                colm[j] &= ~bit
                boxm[b] &= ~bit
                if ch:
                    moved[g[c] - 1] -= 1
                continue
            plo[lvl + 1] = nlo
            phi[lvl + 1] = nhi
            lvl += 1
            c2 = cells[lvl]
            avail[lvl] = sub & colset[CELL_COL[c2]]
    return n


@kernel
def solver_diffs(grid, nfixed, cap, lo, n, S, ctl, sols, puzzle):
    """Append to ``lo`` from ``n`` the UAs inside bands 1+2 whose digits are 9 - ``nfixed``: for
    every set F of ``nfixed`` digits, the grid with band 3 given and, in rows 1-6, only F's cells
    given; every other solution (up to ``cap`` per F) differs from ``grid`` inside rows 1-6 only,
    with rows 1-6 keeping every column's digit set (band 3 fixes them), so its difference is a UA
    of the pair (it holds for every band 3). The solver finds them much faster than the cell by
    cell refilling when many digits move. A set containing one already in ``lo`` is skipped.
    Returns the new count (at most ``len(lo)``)."""
    for sub in range(1, 512):
        if popcount(sub) != nfixed:
            continue
        for q in range(81):
            puzzle[q] = grid[q] if (q >= 54 or (sub >> (grid[q] - 1)) & 1) else 0
        ctl[0] = 0
        ctl[1] = 0
        m = count_into(S, ctl, puzzle, cap, sols)
        for t in range(min(m, sols.shape[0])):
            d = np.uint64(0)
            for q in range(54):
                if sols[t, q] != grid[q]:
                    d |= ONE << np.uint64(q)
            if d == 0:
                continue
            sup = False
            for u in range(n):
                if (lo[u] & ~d) == 0:
                    sup = True
                    break
            if not sup and n < lo.shape[0]:
                lo[n] = d
                n += 1
    return n


@kernel
def minimal_sets(lo, hi, n, out_lo, out_hi, cap):
    """The inclusion-minimal distinct sets among (``lo``, ``hi``)[:n] (two-word masks), by
    increasing size, at most ``cap`` of them, into ``out_lo``/``out_hi``; returns how many."""
    size = np.zeros(n, np.int64)
    for i in range(n):
        size[i] = popcount(lo[i]) + popcount(hi[i])
    order = np.argsort(size, kind="mergesort")
    m = 0
    for t in range(n):
        i = order[t]
        a = lo[i]
        b = hi[i]
        keep = True
        for q in range(m):
            if (out_lo[q] & ~a) == 0 and (out_hi[q] & ~b) == 0:
                keep = False  # a kept set (smaller or equal) is inside this one
                break
        if keep:
            out_lo[m] = a
            out_hi[m] = b
            m += 1
            if m >= cap:
                break
    return m


@kernel
def band_fixing_sets(band, BT, relabel, out):
    """The minimal fixing sets of a band (27 digits, any of the 2.6 M forms), in its own cells:
    its minlex band's (``BT.fix``, ``BT.fix_offsets`` by index) carried through the table's map.
    Returns how many (at most ``len(out)``)."""
    key = band_key(band, relabel, BT.row2_rank_to_id, BT.fact)
    e = np.int64(BT.table[key])
    idx = e & 0xFFFF
    m = e >> 16
    a = BT.fix_offsets[idx]
    n = min(BT.fix_offsets[idx + 1] - a, out.shape[0])
    for t in range(n):
        s = BT.fix[a + t]
        o = np.int64(0)
        while s:
            c = trailing_zeros(s)
            s &= s - 1
            o |= np.int64(1) << (BT.maps_rows[m, c // 9] * 9 + BT.maps_cols[m, c % 9])
        out[t] = o
    return n


@kernel
def valid_sets(fix, nfix, k, out):
    """Every k-subset of the 27 cells of a band meeting each of ``fix[:nfix]`` (27-bit masks),
    into ``out``; returns how many (-1 if ``out`` is too small). Branch on the first set not met,
    the set's earlier cells excluded in later branches; complete freely when all are met."""
    chosen = np.zeros(32, np.int64)
    dead = np.zeros(32, np.int64)
    rest = np.zeros(32, np.int64)  # cells of the branching set still to try
    nclue = np.zeros(32, np.int64)
    pos = np.zeros(27, np.int64)
    n = 0
    lvl = 0
    chosen[0] = 0
    dead[0] = 0
    nclue[0] = 0
    rest[0] = -1  # not expanded yet
    full = (np.int64(1) << 27) - 1
    while lvl >= 0:
        if rest[lvl] == -1:
            s = chosen[lvl]
            f = 0
            while f < nfix and (fix[f] & s) != 0:
                f += 1
            if f == nfix:
                # all met: add k - |s| free cells among those neither chosen nor dead
                need = k - nclue[lvl]
                free = full & ~s & ~dead[lvl]
                if popcount(free) >= need:
                    if need == 0:
                        if n >= out.shape[0]:
                            return -1
                        out[n] = s
                        n += 1
                    else:
                        # Gosper over the free cells: enumerate need-subsets of 'free'
                        nf = popcount(free)
                        q = 0
                        ff = free
                        while ff:
                            pos[q] = trailing_zeros(ff)
                            ff &= ff - 1
                            q += 1
                        comb = (np.int64(1) << need) - 1
                        top = np.int64(1) << nf
                        while comb < top:
                            x = s
                            cc = comb
                            while cc:
                                x |= np.int64(1) << pos[trailing_zeros(cc)]
                                cc &= cc - 1
                            if n >= out.shape[0]:
                                return -1
                            out[n] = x
                            n += 1
                            lo = comb & -comb
                            r = comb + lo
                            comb = (((r ^ comb) >> 2) // lo) | r
                lvl -= 1
                continue
            if nclue[lvl] >= k:
                lvl -= 1
                continue
            rest[lvl] = fix[f] & ~dead[lvl]
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
        rest[lvl + 1] = -1
        lvl += 1
    return n


(STAT_FOUND, STAT_LEARNED, STAT_CHECKS, STAT_SURVIVORS, STAT_ZSETS, STAT_GUA_DFS, STAT_CANDIDATES, STAT_XY_CHECKS,
 STAT_XY_LEARNED) = range(9)
N_STATS = 9
"""Counters of the search (``stats`` of ``xy_expand`` and ``pair_search``)."""
XY_WORDS = 8
XY_CHECK_FROM = 1
"""``xy_expand`` checks validity where at least this many band-2 clues are still to be placed: 1,
not the whole sets (0), because the band-3 step's own checks rule out the rest: at band-1 rank
411 (pass A), 0 gives 3.9 M candidates from 5.3 M solver calls and 0.86 M UAs learned (16.7 s),
1 gives 7.9 M candidates from 66 k calls (6.6 s), and the band-3 step costs less than the
difference."""
"""Words of one X's local set bitmaps in ``xy_expand``: up to 512 band-2 sets (``max_sets`` parts
of pair UAs, band 2's fixing sets, the UAs learned under this X)."""


@kernel
def _disjoint_bound(unmet, lvl, W, sets, dead, need):
    """Clues still needed by the sets whose bits are set in ``unmet[lvl, :W]``: n pairwise
    disjoint ones need n (greedy, smallest first, on their cells not ``dead``; 99 when one has
    none left); the count stops once above ``need``. (The row by its index, not a slice: a
    slice's reference counting was 14 % of the XY step.)"""
    used = np.int64(0)
    lb = 0
    for w in range(W):
        v = unmet[lvl, w]
        while v:
            t = trailing_zeros(v)
            v &= v - ONE
            av = sets[w * 64 + t] & ~dead
            if av == 0:
                return 99
            if (av & used) == 0:
                used |= av
                lb += 1
                if lb > need:
                    return lb
    return lb


@kernel
def _meeting_all(cells, unmet, lvl, notin, W):
    """The cells of ``cells`` that meet every set whose bit is set in ``unmet[lvl, :W]``
    (``notin[c]``: the sets cell c is not in): where one clue is left, the clues that complete
    the node."""
    out = np.int64(0)
    v = cells
    while v:
        c = trailing_zeros(v)
        v &= v - 1
        hit = True
        for w in range(W):
            if unmet[lvl, w] & notin[c, w]:
                hit = False
                break
        if hit:
            out |= np.int64(1) << c
    return out


@kernel
def _x_base(grid, x, puzzle, base):
    """The solver's node of band 3 given whole and band-1 clues ``x`` (27-bit mask) of ``grid``,
    unpropagated: what every check of X's band-2 sets shares (``count_plus`` adds them)."""
    for q in range(54):
        puzzle[q] = 0
    for q in range(54, 81):
        puzzle[q] = grid[q]
    v = x
    while v:
        q = trailing_zeros(v)
        v &= v - 1
        puzzle[q] = grid[q]
    givens_node(puzzle, base)


@kernel
def _emit_completions(x, chosen, free, need, pos, out, n):
    """Append X | Y << 27 to ``out`` from ``n`` for every Y = ``chosen`` plus ``need`` cells of
    ``free`` (Gosper's next combination); returns the new count, -1 when ``out`` is full."""
    nf = 0
    while free:
        pos[nf] = trailing_zeros(free)
        free &= free - 1
        nf += 1
    if nf < need:
        return n
    comb = (np.int64(1) << need) - 1
    top = np.int64(1) << nf
    while comb < top:
        yy = chosen
        cc = comb
        while cc:
            yy |= np.int64(1) << pos[trailing_zeros(cc)]
            cc &= cc - 1
        if n >= out.shape[0]:
            return -1
        out[n] = np.uint64(x) | (np.uint64(yy) << np.uint64(27))
        n += 1
        if need == 0:
            break
        lo = comb & -comb
        r = comb + lo
        comb = (((r ^ comb) >> 2) // lo) | r
    return n


@kernel
def _ua_bit(u, d1, d2, nb1, live, inb1):
    """Slot ``u`` of ``xy_expand``'s UA bitmaps now holds the UA with band-1 part ``d1`` and
    band-2 part ``d2``."""
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
def xy_expand(X, nx, at, p1, p2, nua, fix2, nfix2, y, max_sets, check_from, grid, S, ctl, sols, puzzle, out, sets,
              stats):
    """The XY candidates without the X x Y product. For each band-1 set X, a depth-first search
    over band-2 sets Y of y cells: branch on the smallest set not yet met among the band-2 parts
    of the UAs X misses (the first ``max_sets``: the learned ones newest first, then the pair's
    ``p1``/``p2``[:nua[0]]) and band 2's fixing sets, tracked as bitmaps (a node ANDs one word
    per 64 sets); n pairwise disjoint unmet sets need n more clues. The caller orders the pair's
    UAs by the size of their band-2 parts, so that the ``max_sets`` kept are the smallest. Where every known set is met
    with at least ``check_from`` clues still to place, the solver decides (``grid``: band 3 given
    whole): rows 1-6 unique, every completion of the node is written out (more clues keep them
    unique); not unique, the other filling differs on a UA of the pair (rows 1-6 only, so every
    band 3 of the pair completes it, whatever band 3 ``grid`` holds), kept in the ring of learned
    UAs after ``nua[0]`` (``nua[1]`` counts them) and branched on here; a UA met only by band 1
    that X misses ends X. With ``check_from`` 0 the output is exactly the pairs valid for rows
    1-6; with more, nodes with fewer clues to place are written out unchecked (a superset, cut
    later by the band-3 step's checks). The lists cannot do this alone: the UAs those candidates
    miss have 6-9 digits and 20-37 cells (3 in 4 candidates at band-1 rank 411 before).

    The UAs X misses are the AND of per-cell bitmaps over its clues (a bit per UA: the cell is
    not in its band-1 part), not a scan of the list: a pair has thousands of UAs (4,488 at
    band-1 rank 411, pass A) and an X misses a few hundred (the median 154 of 210,299 5-clue
    sets there): that pair's two XY calls 3.4 -> 2.1 CPU-s. The solver's node of band 3 and X
    is built once per X and each check adds only Y's clues (``count_plus``): pass A, rank 64,
    his slice 0 (2.6 M checks) 10.6 -> 9.8 CPU-s outside the band-3 step, the same counters.

    Starts at X ``at[0]`` and writes X | Y << 27 to ``out`` for whole Xs only: returns how many,
    with ``at[0]`` the first X not done (``nx`` when all are; 0 written and ``at[0]`` unchanged:
    one X's candidates do not fit in ``out``), so a full buffer costs no work done again (before,
    the call started over on a buffer twice as large: 1.2 of A:411's 4.6 XY seconds). UAs
    learned stay. ``stats``: [STAT_XY_CHECKS] and
    [STAT_XY_LEARNED] incremented."""
    W = XY_WORDS
    notin = np.zeros((27, W), np.uint64)  # bit j: cell not in local set j
    unmet = np.zeros((33, W), np.uint64)
    chosen = np.zeros(33, np.int64)
    dead = np.zeros(33, np.int64)
    rest = np.zeros(33, np.int64)
    nclue = np.zeros(33, np.int64)
    pos = np.zeros(27, np.int64)
    diff = np.zeros(81, np.bool_)
    bucket = np.zeros(28, np.int64)
    tmp = np.zeros(W * 64, np.int64)
    base = np.zeros(SOLVER_WORDS, np.uint32)  # the solver's node of band 3 and X (``_x_base``)
    base_x = -1  # the X it holds
    ycells = np.zeros(27, np.int64)
    full = (np.int64(1) << 27) - 1
    ring = p1.shape[0] - nua[0]  # learned UAs: a ring after the pair's nua[0]
    # the UAs as bitmaps: nb1[c] bit u, cell c not in p1[u]; live: slots holding a UA; inb1:
    # UAs inside band 1 (an X that misses one has no Y)
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
    n = 0
    for a in range(at[0], nx):
        x = X[a]
        n0 = n
        for w in range(NW):
            miss[w] = live[w]
        v = x
        while v:
            c = trailing_zeros(v)
            v &= v - 1
            for w in range(NW):
                miss[w] &= nb1[c, w]
        xdead = False
        for w in range(NW):
            if miss[w] & inb1[w]:
                xdead = True  # a learned UA inside band 1 that X misses
        if xdead:
            continue
        # the local sets: parts of the UAs X misses, then band 2's fixing sets, smallest first
        nm = 0
        for w in range(NW):
            v = miss[w]
            while v:
                ml[nm] = w * 64 + trailing_zeros(v)
                v &= v - ONE
                nm += 1
        # the learned UAs first, newest first (those of the X just before are the likeliest to
        # be missed again: slots head-1 down to the ring's start, then its end down to head),
        # then the pair's in their order (smallest band-2 part first, as the caller gives them)
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
            if m < W * 64:
                tmp[m] = fix2[f]
                m += 1
        # smallest first (a stable counting sort)
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
        ns = m
        for c in range(27):
            for w in range(W):
                notin[c, w] = ~np.uint64(0)
        for w in range(W):
            unmet[0, w] = np.uint64(0)
        for j in range(ns):
            unmet[0, j >> 6] |= ONE << np.uint64(j & 63)
            v = sets[j]
            while v:
                c = trailing_zeros(v)
                v &= v - 1
                notin[c, j >> 6] &= ~(ONE << np.uint64(j & 63))
        lvl = 0
        chosen[0] = 0
        dead[0] = 0
        nclue[0] = 0
        rest[0] = -1
        while lvl >= 0:
            if rest[lvl] == -1:
                need = y - nclue[lvl]
                f = -1
                for w in range(W):
                    if unmet[lvl, w]:
                        f = w * 64 + trailing_zeros(unmet[lvl, w])
                        break
                if f < 0:
                    ok = need < check_from
                    if not ok:
                        # rows 1-6 with band 3 given whole: X's part placed once per X
                        stats[STAT_XY_CHECKS] += 1
                        if base_x != a:
                            _x_base(grid, x, puzzle, base)
                            base_x = a
                        ny = 0
                        v = chosen[lvl]
                        while v:
                            ycells[ny] = 27 + trailing_zeros(v)
                            v &= v - 1
                            ny += 1
                        ok = count_plus(S, ctl, base, grid, ycells, ny, 2, sols) == 1
                    if not ok:
                        # the UA where the other filling differs (rows 1-6), shrunk
                        other = 1 if _same(sols[0], grid) else 0
                        for q in range(81):
                            diff[q] = sols[other, q] != grid[q]
                        d1 = np.int64(0)
                        d2 = np.int64(0)
                        for q in range(27):
                            if diff[q]:
                                d1 |= np.int64(1) << q
                            if diff[27 + q]:
                                d2 |= np.int64(1) << q
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
                            # a new local set, unmet at this node and at every node above it
                            j = ns
                            ns += 1
                            sets[j] = d2
                            bj = ONE << np.uint64(j & 63)
                            v = d2
                            while v:
                                c = trailing_zeros(v)
                                v &= v - 1
                                notin[c, j >> 6] &= ~bj
                            for l2 in range(lvl + 1):
                                unmet[l2, j >> 6] |= bj
                            f = j
                        else:
                            ok = True  # no room: left unchecked to the band-3 step's learning
                    if ok:
                        # every completion by free cells (the dead ones are the siblings')
                        n = _emit_completions(x, chosen[lvl], full & ~chosen[lvl] & ~dead[lvl], need, pos, out, n)
                        if n < 0:
                            at[0] = a  # out is full: this X again next time
                            return n0
                        lvl -= 1
                        continue
                if need <= 0:
                    lvl -= 1
                    continue
                if need == 1 and check_from >= 1:
                    # one clue left: a cell of the branching set that meets every unmet set (what
                    # the children would find one by one, unchecked since none is left to place)
                    v = _meeting_all(sets[f] & ~dead[lvl], unmet, lvl, notin, W)
                    while v:
                        c = trailing_zeros(v)
                        v &= v - 1
                        if n >= out.shape[0]:
                            at[0] = a
                            return n0
                        out[n] = np.uint64(x) | (np.uint64(chosen[lvl] | (np.int64(1) << c)) << np.uint64(27))
                        n += 1
                    lvl -= 1
                    continue
                # the bound scans every unmet set; with two clues left the children (one clue
                # left, resolved at once) cost less than the scan (XY 26.6 -> 24.4 s at B:411)
                if need > 2 and _disjoint_bound(unmet, lvl, W, sets, dead[lvl], need) > need:
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


@kernel
def _complete_z(s, free, need, base, stack_cap, pos, out, n):
    """Append to ``out`` from ``n`` every ``s`` plus ``need`` cells of ``free`` (Gosper's next
    combination) with at most ``stack_cap - base[st]`` cells in each stack st; returns the new
    count, -1 when ``out`` is full."""
    if need == 0:
        if n >= out.shape[0]:
            return -1
        out[n] = s
        return n + 1
    if popcount(free) < need:
        return n
    nf = 0
    while free:
        pos[nf] = trailing_zeros(free)
        free &= free - 1
        nf += 1
    comb = (np.int64(1) << need) - 1
    top = np.int64(1) << nf
    while comb < top:
        x = s
        cc = comb
        while cc:
            x |= np.int64(1) << pos[trailing_zeros(cc)]
            cc &= cc - 1
        ok = True
        for st in range(3):
            if popcount(x & STACK27[st]) + base[st] > stack_cap:
                ok = False
        if ok:
            if n >= out.shape[0]:
                return -1
            out[n] = x
            n += 1
        lo = comb & -comb
        r = comb + lo
        comb = (((r ^ comb) >> 2) // lo) | r
    return n


@kernel
def _hit_dfs(sets, ns, z, base, stack_cap, dead0, out):
    """Every z-subset of band 3's cells meeting each of ``sets[:ns]``, with at most
    ``stack_cap - base[s]`` cells in stack s, into ``out``; returns how many (-1 if ``out`` is
    too small); no cell of ``dead0`` is used."""
    chosen = np.zeros(32, np.int64)
    dead = np.zeros(32, np.int64)
    rest = np.zeros(32, np.int64)
    nclue = np.zeros(32, np.int64)
    pos = np.zeros(27, np.int64)
    n = 0
    lvl = 0
    dead[0] = dead0
    rest[0] = -1
    full = (np.int64(1) << 27) - 1
    while lvl >= 0:
        if rest[lvl] == -1:
            s = chosen[lvl]
            over = False
            for st in range(3):
                if popcount(s & STACK27[st]) + base[st] > stack_cap:
                    over = True
            if over:
                lvl -= 1
                continue
            f = 0
            while f < ns and (sets[f] & s) != 0:
                f += 1
            if f < ns:
                # n pairwise disjoint unmet sets need n more clues (greedy, on their cells still open)
                used = np.int64(0)
                lb = 0
                for q in range(f, ns):
                    if (sets[q] & s) != 0:
                        continue
                    av = sets[q] & ~dead[lvl]
                    if av == 0:
                        lb = 99
                        break
                    if (av & used) == 0:
                        used |= av
                        lb += 1
                if lb > z - nclue[lvl]:
                    lvl -= 1
                    continue
            if f == ns:
                n = _complete_z(s, full & ~s & ~dead[lvl], z - nclue[lvl], base, stack_cap, pos, out, n)
                if n < 0:
                    return -1
                lvl -= 1
                continue
            if nclue[lvl] >= z:
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
        dead[lvl] |= bit
        nclue[lvl + 1] = nclue[lvl] + 1
        rest[lvl + 1] = -1
        lvl += 1
    return n


HIT_WORDS = 4
"""Words per part in ``_hit_dfs_bits``: up to 256 sets a candidate leaves, 256 fixing sets."""


@kernel
def _set_bitmaps(sets, n, notin, w0):
    """Bit j of word ``w0 + j // 64`` of ``notin[c]``: cell c is not in ``sets[j]`` (j < n);
    words ``w0..`` of every cell reset first."""
    W = (n + 63) >> 6
    for c in range(27):
        for w in range(W):
            notin[c, w0 + w] = ~np.uint64(0)
    for j in range(n):
        bj = ONE << np.uint64(j & 63)
        v = sets[j]
        while v:
            c = trailing_zeros(v)
            v &= v - 1
            notin[c, w0 + (j >> 6)] &= ~bj


@kernel
def _hit_dfs_bits(sets, ns, fsets, nfs, fnot, z, base, stack_cap, dead0, out, notin, unmet, allsets):
    """``_hit_dfs`` with the sets tracked as bitmaps: ``sets[:ns]`` (at most 64 * HIT_WORDS, the
    candidate's, smallest first) then ``fsets[:nfs]`` (band 3's fixing sets, smallest first,
    their per-cell bitmaps ``fnot`` built once per band 3); a node ANDs one word per 64 sets
    where ``_hit_dfs`` scans them all to find the first unmet one. Same output."""
    VW = (ns + 63) >> 6
    FW = (nfs + 63) >> 6
    W = VW + FW
    _set_bitmaps(sets, ns, notin, 0)
    for c in range(27):
        for w in range(FW):
            notin[c, VW + w] = fnot[c, w]
    for w in range(W):
        unmet[0, w] = np.uint64(0)
    for j in range(ns):
        allsets[j] = sets[j]
        unmet[0, j >> 6] |= ONE << np.uint64(j & 63)
    for j in range(nfs):
        allsets[VW * 64 + j] = fsets[j]
        unmet[0, VW + (j >> 6)] |= ONE << np.uint64(j & 63)
    chosen = np.zeros(33, np.int64)
    dead = np.zeros(33, np.int64)
    rest = np.zeros(33, np.int64)
    nclue = np.zeros(33, np.int64)
    pos = np.zeros(27, np.int64)
    n = 0
    lvl = 0
    dead[0] = dead0
    rest[0] = -1
    full = (np.int64(1) << 27) - 1
    while lvl >= 0:
        if rest[lvl] == -1:
            s = chosen[lvl]
            over = False
            for st in range(3):
                if popcount(s & STACK27[st]) + base[st] > stack_cap:
                    over = True
            if over:
                lvl -= 1
                continue
            need = z - nclue[lvl]
            f = -1
            for w in range(W):
                if unmet[lvl, w]:
                    f = w * 64 + trailing_zeros(unmet[lvl, w])
                    break
            if f < 0:
                n = _complete_z(s, full & ~s & ~dead[lvl], need, base, stack_cap, pos, out, n)
                if n < 0:
                    return -1
                lvl -= 1
                continue
            if need <= 0:
                lvl -= 1
                continue
            if need == 1:
                # one clue left: a cell of the branching set that meets every unmet set, under its
                # stack's cap (what the children would find one by one)
                v = _meeting_all(allsets[f] & ~dead[lvl], unmet, lvl, notin, W)
                while v:
                    c = trailing_zeros(v)
                    v &= v - 1
                    st = (c % 9) // 3
                    if popcount(s & STACK27[st]) + 1 + base[st] <= stack_cap:
                        if n >= out.shape[0]:
                            return -1
                        out[n] = s | (np.int64(1) << c)
                        n += 1
                lvl -= 1
                continue
            if _disjoint_bound(unmet, lvl, W, allsets, dead[lvl], need) > need:
                lvl -= 1
                continue
            rest[lvl] = allsets[f] & ~dead[lvl]
        if rest[lvl] == 0:
            lvl -= 1
            continue
        c = trailing_zeros(rest[lvl])
        bit = np.int64(1) << c
        rest[lvl] &= ~bit
        chosen[lvl + 1] = chosen[lvl] | bit
        dead[lvl + 1] = dead[lvl]
        dead[lvl] |= bit
        nclue[lvl + 1] = nclue[lvl] + 1
        for w in range(W):
            unmet[lvl + 1, w] = unmet[lvl, w] & notin[c, w]
        rest[lvl + 1] = -1
        lvl += 1
    return n


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
a pair's missing third). A socket's UAs (its refillings) depend on its stack, type and digits
only, not on its row nor on the rest of band 3: rows 1-6 see band 3 through the column sets
alone. So the bands 3 of a pair share them, and a pair has at most 81 two-cell sockets (per pair
of columns of a stack, a digit of each column's band-3 set) and 81 three-cell ones."""
MAX_PAIR_SOCKETS = 192
SOCKET_WORDS = MAX_PAIR_SOCKETS // 64
"""Words of a candidate's missed-socket bitmap (bit = the pair's socket id; 3, written out in
``pair_search``)."""
LOG_UAS = 1 << 14
"""The socket UAs of one pair (refilled and learned), at most: further ones are dropped (a UA only
prunes; one not known leaves more to the solver, never a wrong answer)."""
MAX_B3_UAS = 4096
"""UAs of one band 3 beside its sockets': the pool's that hold on it, those learned on it."""


@kernel
def _socket_of(u3):
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
def _socket_key(band3, k):
    """The pair socket key (``PAIR_SOCKET_KEYS``) of socket k = mini-row * 4 + type of ``band3``."""
    mr = k >> 2
    typ = k & 3
    key = ((mr % 3) * 4 + typ) * 1000 + band3[MINIROW[mr, SOCKET_CELLS[typ, 0]]] * 100
    key += band3[MINIROW[mr, SOCKET_CELLS[typ, 1]]] * 10
    if typ == 3:
        key += band3[MINIROW[mr, 2]]
    return key


@kernel
def _cell_bits(notcell, u12, e):
    """Entry e's bit in per-cell bitmaps over a list of UAs: bit e of ``notcell[c]`` is set when
    cell c is not in the entry's bands 1+2 part ``u12``."""
    w = e >> 6
    bit = ONE << np.uint64(e & 63)
    for c in range(54):
        if (u12 >> np.uint64(c)) & ONE:
            notcell[c, w] &= ~bit
        else:
            notcell[c, w] |= bit


@kernel
def _log_misses(cand, ncand, alive, lg12, lgsid, lgnot, msk, v0, v1, miss1, miss, lend, pidx, psid, pend, pnot):
    """Sets bit s of ``msk[i]`` for every live candidate i that misses a UA of pair socket s
    among log entries ``v0..v1-1`` (socket ``lgsid[e]``, bands 1+2 part ``lg12[e]``, per-cell
    bitmaps ``lgnot``), a band-1 set X at a time (candidates come grouped by X): the entries X
    misses, then per candidate the first missed entry of each run of one socket's entries. An X
    with ``LOG_GROUP`` candidates or more has the entries it misses compacted first
    (``_pending_misses``, scratch ``pidx``, ``psid``, ``pend``, ``pnot``), so its candidates AND a few
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
            pnc = _pending_misses(x1, lg12, lgsid, lgnot, v0, v1, pidx, psid, pend, pnot)
            if pnc:
                PW = (pnc + 63) >> 6
                for k in range(i, j):
                    if alive[k]:
                        _missed_by(cand[k] >> np.uint64(27), pnot, PW, miss)
                        _mark_missed(miss, 0, pnc, PW, psid, pend, msk, k)
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
            _mark_missed(miss, v0, v1, w1, lgsid, lend, msk, k)
        i = j


@kernel(inline="always")
def _mark_missed(miss, e, stop, nw, sid, ends, msk, k):
    """Sets bit s of ``msk[k]`` for each run of one socket's entries among ``e..stop-1`` (socket
    ``sid[t]`` of entry t, ``ends[t]`` the end of its run) that holds an entry of ``miss``
    (bitmap, words ``:nw``): the first missed entry of a run stands for it."""
    while e < stop:
        t = _next_bit(miss, e, nw)
        if t < 0:
            break
        s = sid[t]
        msk[k, s >> 6] |= ONE << np.uint64(s & 63)
        e = ends[t]


@kernel(inline="always")
def _next_bit(words, j, nw):
    """The first set bit at or after bit ``j`` of ``words[:nw]`` (bit j of word j >> 6), or -1."""
    w = j >> 6
    v = words[w] & ~((ONE << np.uint64(j & 63)) - ONE)
    while v == 0 and w + 1 < nw:
        w += 1
        v = words[w]
    if v == 0:
        return -1
    return w * 64 + trailing_zeros(v)


X_GROUP_PER_X = 32
"""Candidates per band-1 set X and band 3 (in the mean) from which ``pair_search`` reads the
socket UAs per X (compacted) rather than keeping each candidate's missed sockets across bands 3.
At 16, pass B's pair at rank 288, band 2 556615 (16.2 an X and band 3, four bands 3) took 11.3
CPU-s, 6.3 at 32; A:410's pair (40-88, one band 3) 3.8 either way."""


LOG_GROUP = 16
"""Candidates of one band-1 set X from which ``_log_misses`` compacts the log entries X misses
before its candidates read them. The 33 pairs of passes A and B sampled at ranks 96-256 (the
ranks where the whole search's time is): 53.5-54.5 CPU-s without, 53.7 from 4, 52.2 from 8,
51.4-51.8 from 16, 51.5 from 32; the same counters."""


@kernel(inline="always")
def _missed_by(y, pnot, nw, out):
    """``out[:nw]``: the AND of ``pnot[c, :nw]`` over the band-2 cells c of ``y`` (27-bit): the
    compacted entries (``_pending_misses``) that a candidate's band-2 clues all miss."""
    for w in range(nw):
        out[w] = ~np.uint64(0)
    while y:
        c = trailing_zeros(y)
        y &= y - ONE
        for w in range(nw):
            out[w] &= pnot[c, w]


@kernel
def _pending_misses(x1, lg12, lgsid, lgnot, v0, v1, pidx, psid, pend, pnot):
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
def _add_b3_ua(u12, u3, ua12, ua3, notcell, nua):
    """Append a UA to this band 3's list (``ua12``, ``ua3``, per-cell bitmaps ``notcell``)."""
    ua12[nua] = u12
    ua3[nua] = u3
    _cell_bits(notcell, u12, nua)
    return nua + 1


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
def pair_search(g54, bands3, nb3, cand, ncand, z, stack_cap, kmax_g, max_g, BT, P,
                found_b, found12, found3, stats):
    """The band-3 step for every band 3 of one pair (bands 1+2 ``g54``; ``bands3[:nb3]``, whose
    fixing sets come from ``BT``, see ``band_fixing_sets``) and its XY candidates ``cand[:ncand]``
    (bands 1+2 clue masks; those with more than ``stack_cap`` clues in a stack are left out).

    Sockets (two or three cells of a band-3 mini-row whose digits can be permuted) are the pair's:
    a socket's UAs (``refill_diffs`` with the rest of band 3 frozen) depend on its stack, type
    and digits, not on its row (``PAIR_SOCKET_KEYS``), so each is refilled once per pair, the
    first time a band 3 has it, into the pair's log; a UA learned whose band-3 part is a socket
    goes there too. Per candidate, a bitmap of the pair's sockets with a UA it misses
    (``P.msk``), brought up to date with the log's new entries once per band 3 (``_log_misses``):
    the candidates' work on sockets is done once per pair, not once per band 3 (pass B, rank 64,
    his slice 0: 14 bands 3 a pair). Where the candidates are many for their band-1 sets and
    bands 3 (``X_GROUP_PER_X``: a high rank's pair with one band 3 and millions of candidates),
    the log is read per X instead, at each band 3, compacted to what X misses, and a UA learned
    counts at once. Per band 3 and candidate, its missed sockets are that bitmap AND the band 3's
    own; a band-3 mini-row then needs one clue when a socket of it is missed,
    two when its three pairs are; per stack these must fit under the stack cap above the
    candidate's own clues, and in total under z. Most candidates stop there. For the others, the
    band 3's other UAs it misses (the pool's learned UAs whose band-3 cells hold the same digits
    here: a minimal UA of one grid is a UA of the other as soon as the grids agree on its cells
    and on rows 1-6; and those learned on this band 3), then ``_band3_room`` (where the band-3
    clues can go), then a depth-first enumeration of the band-3 sets of z cells inside those
    cells that meet the band-3 parts of the UAs it misses and band 3's fixing sets
    (``_hit_dfs_bits``), and the solver (``count_near``: following the grid first, so a failed
    check's other solution differs little); a failed check adds its minimal UA (``minimal_ua``)
    to the log or the pool, to this band 3's list and to the candidate's sets (restart), and,
    when it lies inside bands 1+2, to the pair's rule that drops candidates for good.

    Finds go to ``found_b`` (band 3), ``found12``, ``found3``; ``stats`` are incremented (STAT_*).
    Returns the number of finds, or -1 when an output or ``P``'s buffers are full."""
    grid = P.grid
    for q in range(54):
        grid[q] = g54[q]
    alive = P.alive  # pair-level: candidates not ruled out by a UA learned inside bands 1+2
    for i in range(ncand):
        alive[i] = True
        for st in range(3):
            if popcount(cand[i] & STACK54[st]) > stack_cap:
                alive[i] = False
        for w in range(SOCKET_WORDS):
            P.msk[i, w] = 0
    for k in range(PAIR_SOCKET_KEYS):
        P.sid_of_key[k] = -1
    # many candidates an X for each band 3 (A:410, one band 3: 40-88): everything per X, the log
    # read whole at each band 3, X's misses compacted (the cost goes with X's and bands 3); few
    # (pass B, rank 64: 9-18 an X, 14 bands 3): each candidate's missed sockets kept across bands
    # 3 (``_log_misses`` at each band 3's start: the cost goes with the candidates)
    ngroups = 0
    for i in range(ncand):
        if i == 0 or (cand[i] & MASK27) != (cand[i - 1] & MASK27):
            ngroups += 1
    per_x = ncand >= X_GROUP_PER_X * ngroups * nb3
    nsid = 0
    nlog = 0
    applied = 0  # log entries already in every live candidate's ``P.msk``
    npool = 0
    nfound = 0
    loc = np.zeros(MAX_PAIR_SOCKETS, np.int64)  # this band 3's socket (mini-row * 4 + type) of each
    b3m = np.zeros(SOCKET_WORDS, np.uint64)  # the pair sockets this band 3 has
    mrm = np.zeros((9, SOCKET_WORDS), np.uint64)  # ... per mini-row
    lmiss1 = np.zeros(LOG_UAS // 64, np.uint64)  # _log_misses' scratch
    lmiss = np.zeros(LOG_UAS // 64, np.uint64)
    lend = np.zeros(LOG_UAS, np.int64)
    pidx = np.zeros(LOG_UAS, np.int64)  # the pending socket UAs an X misses (_pending_misses)
    psid = np.zeros(LOG_UAS, np.int64)
    pend = np.zeros(LOG_UAS + 1, np.int64)
    pnot = np.zeros((27, LOG_UAS // 64), np.uint64)
    pm = np.zeros(LOG_UAS // 64, np.uint64)
    smr = np.zeros(MAX_PAIR_SOCKETS, np.int64)  # this band 3's mini-row of each pair socket, -1 if none
    planes = np.zeros(9, np.int64)
    base = np.zeros(3, np.int64)
    diff = np.zeros(81, np.bool_)
    miss = np.zeros(MAX_B3_UAS // 64, np.uint64)
    miss1 = np.zeros(MAX_B3_UAS // 64, np.uint64)  # the band-1 clues' part of ``miss``
    sort_tmp = np.zeros(P.sets.shape[0], np.int64)
    fnot = np.zeros((27, HIT_WORDS), np.uint64)  # band 3's fixing sets as bitmaps
    hnot = np.zeros((27, 2 * HIT_WORDS), np.uint64)  # _hit_dfs_bits' scratch
    hunmet = np.zeros((33, 2 * HIT_WORDS), np.uint64)
    hsets = np.zeros(128 * HIT_WORDS, np.int64)
    needs = np.zeros(3, np.int64)
    near = np.zeros(27, np.int64)  # the grid's planes: checks follow it (small differences)
    mcells = np.zeros(81, np.int64)  # minimal_ua's scratch
    mout = np.zeros(81, np.int64)
    mW = np.zeros(REFILL_SCRATCH, np.int64)
    cst = np.zeros(3, np.int64)  # the candidate's clues per stack
    srooms = np.zeros(3, np.int64)
    gmask = np.zeros(10, np.int64)
    gneed = np.zeros(10, np.int64)
    full27 = (np.int64(1) << 27) - 1
    for b in range(nb3):
        for q in range(27):
            grid[54 + q] = bands3[b, q]
        for d in range(9):
            planes[d] = 0
        for q in range(27):
            planes[bands3[b, q] - 1] |= np.int64(1) << q
        solution_planes(grid, near)
        nfix3 = min(band_fixing_sets(bands3[b], BT, P.relabel, P.fix3), 64 * HIT_WORDS)
        fix3 = P.fix3
        _sort_by_size(fix3, nfix3, sort_tmp)
        _set_bitmaps(fix3, nfix3, fnot, 0)
        # this band 3's sockets among the pair's
        for w in range(SOCKET_WORDS):
            b3m[w] = 0
            for mr in range(9):
                mrm[mr, w] = 0
        for sid in range(MAX_PAIR_SOCKETS):
            smr[sid] = -1
        for k in range(N_SOCKETS):
            key = _socket_key(bands3[b], k)
            sid = P.sid_of_key[key]
            if sid < 0:
                if nsid >= MAX_PAIR_SOCKETS:
                    continue
                sid = nsid
                nsid += 1
                P.sid_of_key[key] = sid
                # refilled once, when the pair first meets it
                stats[STAT_GUA_DFS] += 1
                req = 0
                v = SOCKET_MASK[k]
                while v:
                    q = trailing_zeros(v)
                    v &= v - 1
                    req |= 1 << (bands3[b, q] - 1)
                n2 = refill_diffs(grid, 9, req, kmax_g, full27 & ~SOCKET_MASK[k], max_g, P.lg12, P.lghi, nlog, nlog)
                for e in range(nlog, n2):
                    P.lgsid[e] = sid
                    _cell_bits(P.lgnot, P.lg12[e], e)
                nlog = n2
            b3m[sid >> 6] |= ONE << np.uint64(sid & 63)
            mrm[k >> 2, sid >> 6] |= ONE << np.uint64(sid & 63)
            loc[sid] = k
            smr[sid] = k >> 2
        if not per_x and nlog > applied:
            _log_misses(cand, ncand, alive, P.lg12, P.lgsid, P.lgnot, P.msk, applied, nlog, lmiss1, lmiss, lend, pidx,
                        psid, pend, pnot)
            applied = nlog
        # the pool's UAs whose band-3 cells hold the same digits here
        nua = 0
        for t in range(npool):
            u3 = P.pool3[t]
            ok = True
            for d in range(9):
                if (planes[d] & u3) != P.poolsig[t, d]:
                    ok = False
                    break
            if ok and nua < MAX_B3_UAS:
                nua = _add_b3_ua(P.pool12[t], u3, P.ua12, P.ua3, P.notcell, nua)
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
            for st in range(3):
                cst[st] = popcount(c12 & STACK54[st])
            # the missed sockets this band 3 has; stops as soon as the mini-rows met so far need
            # more clues than band 3 or a stack can take (each needs one at least): most
            # candidates end here
            # per X: the log's entries (all of them; on the pair's last band 3, those learned on
            # it so far: no later band 3 would read them) that X misses, compacted, then this
            # candidate's; the walk stops at z + 1 mini-rows
            if per_x or (b == nb3 - 1 and nlog > applied):
                if x1 != pend_x or nlog != pend_n:
                    pnc = _pending_misses(x1, P.lg12, P.lgsid, P.lgnot, applied, nlog, pidx, psid, pend, pnot)
                    pend_x = x1
                    pend_n = nlog
                if pnc:
                    mrs = 0
                    nmr = 0
                    PW = (pnc + 63) >> 6
                    _missed_by(c12 >> np.uint64(27), pnot, PW, pm)
                    j = 0
                    while j < pnc:
                        t = _next_bit(pm, j, PW)
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
            m0 = P.msk[i, 0] & b3m[0]
            m1 = P.msk[i, 1] & b3m[1]
            m2 = P.msk[i, 2] & b3m[2]
            left = z
            for st in range(3):
                srooms[st] = stack_cap - cst[st]
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
            for st in range(3):
                need = 0
                for r in range(3):
                    need += NEED4[(msock >> (4 * (r * 3 + st))) & 15]
                if need > stack_cap - cst[st]:
                    ok = False
                    break
                needs[st] = need
                total += need
            if not ok or total > z:
                continue
            # the band 3's other UAs this candidate misses: AND of the per-cell bitmaps of its
            # clues, the band-1 part kept while X stays (candidates come grouped by X) and the
            # list too
            Wu = (nua + 63) >> 6
            if x1 != prev_x or nua != prev_nua:
                for w in range(Wu):
                    miss1[w] = ~np.uint64(0)
                x = x1
                while x:
                    c = trailing_zeros(x)
                    x &= x - ONE
                    for w in range(Wu):
                        miss1[w] &= P.notcell[c, w]
                prev_x = x1
                prev_nua = nua
            for w in range(Wu):
                miss[w] = miss1[w]
            x = c12 & ~MASK27
            while x:
                c = trailing_zeros(x)
                x &= x - ONE
                for w in range(Wu):
                    miss[w] &= P.notcell[c, w]
            spare = z - total
            ns = 0
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
            for st in range(3):
                srooms[st] = stack_cap - cst[st] - needs[st]
            cells = _band3_room(P.sets, ns, fix3, nfix3, msock, spare, srooms, gmask, gneed)
            if cells < 0:
                continue
            dead0 = full27 & ~cells
            stats[STAT_SURVIVORS] += 1
            # and each missed socket once (its UAs' band-3 part is the socket)
            for k in range(N_SOCKETS):
                if (msock >> k) & 1:
                    P.sets[ns] = SOCKET_MASK[k]
                    ns += 1
            _sort_by_size(P.sets, ns, sort_tmp)
            for s3 in range(3):
                base[s3] = cst[s3]
            dead = False
            restart = True
            first = nfound  # finds of this candidate (a restart meets them again)
            while restart and not dead:
                restart = False
                if ns <= 64 * HIT_WORDS:
                    nz = _hit_dfs_bits(P.sets, ns, fix3, nfix3, fnot, z, base, stack_cap, dead0, P.zbuf, hnot, hunmet,
                                       hsets)
                else:
                    if ns + nfix3 > P.sets.shape[0]:
                        return -1
                    for f in range(nfix3):
                        P.sets[ns + f] = fix3[f]
                    nz = _hit_dfs(P.sets, ns + nfix3, z, base, stack_cap, dead0, P.zbuf)
                if nz < 0:
                    return -1
                stats[STAT_ZSETS] += nz
                for a in range(nz):
                    zz = P.zbuf[a]
                    again = False
                    for q in range(first, nfound):
                        if found3[q] == zz:
                            again = True
                    if again:
                        continue
                    puzzle = P.puzzle
                    for q in range(81):
                        puzzle[q] = 0
                    x = c12
                    while x:
                        q = trailing_zeros(x)
                        x &= x - ONE
                        puzzle[q] = grid[q]
                    y = zz
                    while y:
                        q = trailing_zeros(y)
                        y &= y - 1
                        puzzle[54 + q] = grid[54 + q]
                    stats[STAT_CHECKS] += 1
                    # the solver follows the grid first: the other solution it finds differs
                    # little, so the UA learned is small (pass B, rank 64, his slice 0: 39 % fewer
                    # failed checks; A:411 and A:410 about half)
                    nsol = count_near(P.S, P.ctl, puzzle, near, 2, P.sols)
                    if nsol == 1:
                        if nfound >= found12.shape[0]:
                            return -1
                        found_b[nfound] = b
                        found12[nfound] = c12
                        found3[nfound] = zz
                        nfound += 1
                        continue
                    other = 1 if _same(P.sols[0], grid) else 0
                    for q in range(81):
                        diff[q] = P.sols[other, q] != grid[q]
                    minimal_ua(grid, diff, mcells, mout, mW)
                    d12 = np.uint64(0)
                    d3 = np.int64(0)
                    for q in range(81):
                        if diff[q]:
                            if q < 54:
                                d12 |= ONE << np.uint64(q)
                            else:
                                d3 |= np.int64(1) << (q - 54)
                    stats[STAT_LEARNED] += 1
                    if d3 == 0:
                        # inside bands 1+2: rules out every candidate that misses it (on the
                        # last band 3, those still to come)
                        for i2 in range(i + 1 if b == nb3 - 1 else 0, ncand):
                            if (cand[i2] & d12) == 0:
                                alive[i2] = False
                        dead = True
                        break
                    # a socket's: to the pair's log (every candidate has it from the next band 3
                    # on, on whatever row that band 3 has the socket); else to the pool
                    logged = False
                    k = _socket_of(d3)
                    if k >= 0 and nlog < P.lg12.shape[0]:
                        sid = P.sid_of_key[_socket_key(bands3[b], k)]
                        if sid >= 0:
                            P.lg12[nlog] = d12
                            P.lgsid[nlog] = sid
                            _cell_bits(P.lgnot, d12, nlog)
                            nlog += 1
                            logged = True
                    if not logged and npool < P.pool12.shape[0]:
                        P.pool12[npool] = d12
                        P.pool3[npool] = d3
                        for d in range(9):
                            P.poolsig[npool, d] = planes[d] & d3
                        npool += 1
                    if nua < MAX_B3_UAS:
                        nua = _add_b3_ua(d12, d3, P.ua12, P.ua3, P.notcell, nua)
                    if ns >= P.sets.shape[0]:
                        return -1
                    P.sets[ns] = d3
                    ns += 1
                    restart = True
                    break
    n_alive = 0
    for i in range(ncand):
        if alive[i]:
            n_alive += 1
    stats[STAT_CANDIDATES] += n_alive
    stats[STAT_FOUND] += nfound
    return nfound
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
def _same(a, b):
    for q in range(81):
        if a[q] != b[q]:
            return False
    return True
