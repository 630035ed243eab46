"""The hitting-set search: every clue set of a given size that hits all the unavoidable sets of a
grid and has the grid as its unique solution (McGuire, Tugemann and Civario, 2012, with a stronger
bound). A public kernel (:func:`hitting_sets`) that the 17-clue search can reuse.

**Enumeration, each set once.** A node is a clue set C plus a set of *dead* cells that its subtree
may not use. Take an unhit UA B whose live cells are b1 < b2 < ... ; child i adds b_i and makes
b1..b(i-1) dead. Every completion of the node hits B, and the first b_j it holds names the only
child that can produce it, so each clue set comes out exactly once. When no known UA is unhit, the
solver decides: one solution means a puzzle (with fewer clues than asked, every way of adding the
rest from the live cells is one too; none of those is minimal); two solutions give a UA that C
misses (the cells where the second solution differs), which is *learned*: added to the unhit sets
of the node and of every node above it on the path (their clues are a part of C, so it is unhit
there too). Adding valid UAs never loses a puzzle, and dropping one (to reuse its slot) only
weakens the pruning, so the result is complete whatever sets the search starts from.

**Bound.** ``left`` clues remain and we hold ``pk`` pairwise disjoint unhit UAs: each needs its own
clue, so ``pk > left`` ends the node. The packing is greedy in the order of the sets (smallest
first), over a table of which sets are disjoint, one AND of 8 words per set taken. With
``pk == left - 1`` we try 1-for-2 exchanges (two disjoint sets that meet no packed set but P_j
replace P_j), which often makes the node *tight* (``pk == left``): then every clue left goes into
a distinct packed set and nothing else, so every cell outside the packing dies, and an unhit set
left without a live cell ends the node. We branch on the unhit set with the fewest live cells among
the first 16, stopping at one with a single live cell (a forced clue, the usual case deep down:
branch sets average 1.1-1.3 live cells at 2-4 clues left): on a random grid with 15 clues, 5
times fewer nodes than branching on the first unhit set; 16 sets rather than more because the
scan is a quarter of a node's time. The exchanges cut the nodes by a third. Tightness (all
cells outside the packing dead) is what makes deep nodes cheap to refute.

**Representation.** The unhit sets of a node are a bitset over a *universe* of up to 384 sets,
the UAs given (smallest first) then the learned ones: ``hit[c]`` holds the sets with cell c, so a
child is ``unhit & ~hit[c]`` (6 words), and ``disj[i]`` the sets disjoint from set i. Every loop
over the words runs all of them (a fixed trip count LLVM unrolls; skipping the words already zero
in the packing, or sizing the loops by the sets in use, was slower). 384 rather than 512: the same
nodes within 1.5 % (a grid has 230-370 minimal UAs of up to 12 cells) and 5 % faster. A node
costs about 80-120 ns (16 clues: 440 million nodes in 37 s over 12 random grids). Tried and dropped: list nodes with the
live parts of the unhit sets sorted by size and a greedy packing on live parts (5 times fewer
nodes, 8 times the cost per node); a second universe of the live parts of the unhit sets with
their disjointness recomputed, from a few clues before the end (McGuire et al.'s consolidation:
1.6 times fewer nodes, but 450,000 rebuilds at 30 us each made 15 clues 6 times slower); an upper
bound on the sets a few cells can hit (no pruning beyond the packing's); an exact maximum packing
(2 times fewer nodes, far slower).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..solve import REFILL_SCRATCH, SOLVER_DEPTH, SOLVER_WORDS, count_into
from .collect import HI_CELLS, ONE, ZERO, low_cell, second_solution, set_size, shrink_ua

WORDS = 6
"""Words of a bitset over the universe of sets (384)."""
CAPACITY = 64 * WORDS
LEARN_RESERVE = 64
"""Slots kept for learned sets (the others: the smallest UAs given)."""
PICK = 16
"""The branch set: fewest live cells among this many unhit sets, in universe order."""
SHRINK = True
"""Shrink each UA a failed check learns to a minimal one (``shrink_ua``: ``engine.solve.minimal_ua``)
before it joins the universe: 8 times fewer checks on 16 clues, and a little faster."""

STAT_NODES, STAT_CHECKS, STAT_LEARNED, STAT_EVICTIONS, STAT_FOUND, STAT_FULL = range(6)
"""Indices of the ``stats`` array of :func:`hitting_sets`."""
N_STATS = 8


@kernel
def _put_set(ulo, uhi, disj, hit, m, i, a, b):
    """Set (a, b) into slot i of the universe, whose sets are 0..m-1 (i may equal m)."""
    ulo[i] = a
    uhi[i] = b
    w = i >> 6
    bit = ONE << np.uint64(i & 63)
    for q in range(WORDS):
        disj[i, q] = ZERO
    for j in range(max(m, i + 1)):
        if j != i and (ulo[j] & a) == ZERO and (uhi[j] & b) == ZERO:
            disj[i, j >> 6] |= ONE << np.uint64(j & 63)
            disj[j, w] |= bit
    x = a
    while x != ZERO:
        hit[low_cell(x), w] |= bit
        x &= x - ONE
    x = b
    while x != ZERO:
        hit[64 + low_cell(x), w] |= bit
        x &= x - ONE


@kernel
def _learn(ulo, uhi, disj, hit, msize, first, a, b, unhit, top, stats):
    """Add learned set (a, b) to the universe and to the unhit bitsets of levels 0..top. When the
    universe is full, the learned sets are replaced round robin (a set dropped everywhere only
    weakens the pruning)."""
    m = msize[0]
    if m < CAPACITY:
        i = m
        msize[0] = m + 1
    else:
        i = first + msize[1] % (CAPACITY - first)
        msize[1] += 1
        stats[STAT_EVICTIONS] += 1
        w = i >> 6
        keep = ~(ONE << np.uint64(i & 63))
        for c in range(81):
            hit[c, w] &= keep
        for j in range(m):
            disj[j, w] &= keep
        for j in range(top + 1):
            unhit[j, w] &= keep
    _put_set(ulo, uhi, disj, hit, msize[0], i, a, b)
    w = i >> 6
    bit = ONE << np.uint64(i & 63)
    for j in range(top + 1):
        unhit[j, w] |= bit


@kernel
def _emit(out, found, lo, hi):
    if found < out.shape[0]:
        out[found, 0] = lo
        out[found, 1] = hi


@kernel
def _record(record, stats, lo, hi):
    k = stats[STAT_CHECKS]
    stats[STAT_CHECKS] = k + 1
    if k < record.shape[0]:
        record[k, 0] = lo
        record[k, 1] = hi


@kernel
def _is_minimal(grid, lo, hi, puzzle, S, ctl, sols):
    """Every clue of the unique clue set (lo, hi) is needed: without it, 2 solutions or more."""
    for c in range(81):
        on = (lo >> np.uint64(c)) & ONE if c < 64 else (hi >> np.uint64(c - 64)) & ONE
        puzzle[c] = grid[c] if on != ZERO else 0
    for c in range(81):
        v = puzzle[c]
        if v == 0:
            continue
        puzzle[c] = 0
        k = count_into(S, ctl, puzzle, 2, sols)
        puzzle[c] = v
        if k < 2:
            return False
    return True


@kernel
def _emit_supersets(out, found, limit, lo, hi, dlo, dhi, extra, cells, idx):
    """Every way of adding ``extra`` live cells (neither clue nor dead) to the puzzle (lo, hi), in
    lexicographic order, until ``limit`` or ``out`` is full; returns found."""
    nl = 0
    fl = ~(lo | dlo)
    fh = ~(hi | dhi) & HI_CELLS
    while fl != ZERO:
        cells[nl] = low_cell(fl)
        fl &= fl - ONE
        nl += 1
    while fh != ZERO:
        cells[nl] = 64 + low_cell(fh)
        fh &= fh - ONE
        nl += 1
    if extra > nl:
        return found
    for k in range(extra):
        idx[k] = k
    while found < limit and found < out.shape[0]:
        a = lo
        b = hi
        for k in range(extra):
            c = cells[idx[k]]
            if c < 64:
                a |= ONE << np.uint64(c)
            else:
                b |= ONE << np.uint64(c - 64)
        _emit(out, found, a, b)
        found += 1
        k = extra - 1
        while k >= 0 and idx[k] == nl - extra + k:
            k -= 1
        if k < 0:
            break
        idx[k] += 1
        for q in range(k + 1, extra):
            idx[q] = idx[q - 1] + 1
    return found


@kernel
def _root(uas, given_lo, given_hi, dead_lo, dead_hi, n, clo, chi, dlo, dhi, ulo, uhi, disj, hit, msize, unhit,
          first):
    """The root node: the givens, the dead cells, and the live parts of the UAs the givens miss
    (the first ``first`` of them) in the universe, all unhit. False when no clue set can exist."""
    if set_size(given_lo, given_hi) > n or (given_lo & dead_lo) != ZERO or (given_hi & dead_hi) != ZERO:
        return False
    clo[0] = given_lo
    chi[0] = given_hi
    dlo[0] = dead_lo
    dhi[0] = dead_hi & HI_CELLS
    for k in range(uas.shape[0]):
        a = uas[k, 0]
        b = uas[k, 1]
        if (a & given_lo) != ZERO or (b & given_hi) != ZERO:
            continue
        a &= ~dlo[0]
        b &= ~dhi[0]
        if a == ZERO and b == ZERO:
            return False  # a UA with every cell dead: no clue set can hit it
        if msize[0] < first:
            i = msize[0]
            _put_set(ulo, uhi, disj, hit, i, i, a, b)
            msize[0] = i + 1
            unhit[0, i >> 6] |= ONE << np.uint64(i & 63)
    return True


@kernel
def hitting_sets(grid, uas, n_clues, given_lo, given_hi, dead_lo, dead_hi, minimal, limit, out, record, stats):
    """Every set of ``n_clues`` clues of ``grid`` that contains the givens ``(given_lo, given_hi)``,
    avoids the cells ``(dead_lo, dead_hi)`` and has the grid as its unique solution (with
    ``minimal``: only those where no clue can be removed keeping uniqueness).

    ``uas`` (k, 2) uint64: unavoidable sets of the grid, smallest first (any UAs will do: the result
    is the same; more small ones prune better, see :func:`.collect.ua_candidates`); the first
    ``CAPACITY - LEARN_RESERVE`` the givens miss are used. Clue sets go to ``out`` (k, 2) as cell
    sets, at most ``limit``; the search stops when ``out`` is full first (``stats[STAT_FULL] = 1``:
    run again with a larger ``out``). ``record`` (r, 2): the first r clue sets handed to the solver
    (for benchmarks; shape (0, 2) to skip). ``stats`` (N_STATS,) int64 out: nodes, solver checks,
    learned sets, evictions, puzzles found, full. Returns the number of puzzles written.

    Long on purpose: its steps per node (the last clue, the packing and its exchanges, tightness,
    the branch set) as inlined helpers made the search 1.6x slower, a reference count per array
    and call for every node (``bench/bench_unavoidable.py --method hitting``)."""
    for q in range(stats.shape[0]):
        stats[q] = 0
    n = n_clues
    msize = np.zeros(2, np.int64)  # sets in the universe, evictions so far
    ulo = np.zeros(CAPACITY, np.uint64)
    uhi = np.zeros(CAPACITY, np.uint64)
    disj = np.zeros((CAPACITY, WORDS), np.uint64)
    hit = np.zeros((81, WORDS), np.uint64)
    depth = n + 2
    unhit = np.zeros((depth, WORDS), np.uint64)
    clo = np.zeros(depth, np.uint64)  # clues
    chi = np.zeros(depth, np.uint64)
    dlo = np.zeros(depth, np.uint64)  # dead cells
    dhi = np.zeros(depth, np.uint64)
    blo = np.zeros(depth, np.uint64)  # branch cells not tried yet
    bhi = np.zeros(depth, np.uint64)
    tlo = np.zeros(depth, np.uint64)  # branch cells tried
    thi = np.zeros(depth, np.uint64)
    expanded = np.zeros(depth, np.bool_)
    S = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
    ctl = np.zeros(2, np.int64)
    sols = np.zeros((2, 81), np.uint8)
    puzzle = np.zeros(81, np.uint8)
    cand = np.zeros(WORDS, np.uint64)
    alive = np.zeros(WORDS, np.uint64)
    pidx = np.zeros(83, np.int64)
    pre = np.zeros((83, WORDS), np.uint64)
    suf = np.zeros((83, WORDS), np.uint64)
    cells = np.zeros(81, np.int64)
    idx = np.zeros(81, np.int64)
    sdiff = np.zeros(81, np.bool_)  # shrink_ua's scratch
    scells = np.zeros(81, np.int64)
    sout = np.zeros(81, np.int64)
    sW = np.zeros(REFILL_SCRATCH, np.int64)

    first = CAPACITY - LEARN_RESERVE
    if not _root(uas, given_lo, given_hi, dead_lo, dead_hi, n, clo, chi, dlo, dhi, ulo, uhi, disj, hit, msize, unhit,
                 first):
        return 0
    g0 = set_size(given_lo, given_hi)
    found = 0
    t = 0
    while t >= 0:
        if found >= limit:
            break
        if found >= out.shape[0]:
            stats[STAT_FULL] = 1
            break
        if not expanded[t]:
            stats[STAT_NODES] += 1
            left = n - g0 - t
            if set_size(~(clo[t] | dlo[t]), ~(chi[t] | dhi[t]) & HI_CELLS) < left:
                t -= 1  # fewer live cells than clues to place
                continue
            any_unhit = False
            for w in range(WORDS):
                if unhit[t, w] != ZERO:
                    any_unhit = True
                    break
            if not any_unhit:
                # every known UA is hit: the solver decides
                _record(record, stats, clo[t], chi[t])
                unique, xl, xh = second_solution(grid, clo[t], chi[t], puzzle, S, ctl, sols)
                if unique:
                    if left == 0:
                        if not minimal or _is_minimal(grid, clo[t], chi[t], puzzle, S, ctl, sols):
                            _emit(out, found, clo[t], chi[t])
                            found += 1
                    elif not minimal:
                        found = _emit_supersets(out, found, limit, clo[t], chi[t], dlo[t], dhi[t], left, cells, idx)
                    t -= 1
                    continue
                stats[STAT_LEARNED] += 1
                if SHRINK:
                    xl, xh = shrink_ua(grid, xl, xh, sdiff, scells, sout, sW)
                _learn(ulo, uhi, disj, hit, msize, first, xl, xh, unhit, t, stats)
                if left == 0 or ((xl & ~dlo[t]) == ZERO and (xh & ~dhi[t]) == ZERO):
                    t -= 1
                    continue
            if left == 0:
                t -= 1
                continue
            if left == 1:
                # the last clue lies in every unhit set
                il = ~(dlo[t] | clo[t])
                ih = ~(dhi[t] | chi[t]) & HI_CELLS
                for w in range(WORDS):
                    x = unhit[t, w]
                    while x != ZERO and (il != ZERO or ih != ZERO):
                        i = 64 * w + low_cell(x)
                        x &= x - ONE
                        il &= ulo[i]
                        ih &= uhi[i]
                while (il != ZERO or ih != ZERO) and found < limit and found < out.shape[0]:
                    if il != ZERO:
                        bit = il & (~il + ONE)
                        il ^= bit
                        ql = clo[t] | bit
                        qh = chi[t]
                    else:
                        bit = ih & (~ih + ONE)
                        ih ^= bit
                        ql = clo[t]
                        qh = chi[t] | bit
                    _record(record, stats, ql, qh)
                    unique, xl, xh = second_solution(grid, ql, qh, puzzle, S, ctl, sols)
                    if unique:
                        if not minimal or _is_minimal(grid, ql, qh, puzzle, S, ctl, sols):
                            _emit(out, found, ql, qh)
                            found += 1
                    else:
                        stats[STAT_LEARNED] += 1
                        if SHRINK:
                            xl, xh = shrink_ua(grid, xl, xh, sdiff, scells, sout, sW)
                        _learn(ulo, uhi, disj, hit, msize, first, xl, xh, unhit, t, stats)
                        il &= xl  # the other candidates must hit it too
                        ih &= xh
                t -= 1
                continue
            # bound: greedy packing, smallest sets first
            for w in range(WORDS):
                cand[w] = unhit[t, w]
            pk = 0
            ul = ZERO
            uh = ZERO
            w = 0
            while w < WORDS and pk <= left:
                if cand[w] == ZERO:
                    w += 1
                    continue
                i = 64 * w + low_cell(cand[w])
                pidx[pk] = i
                pk += 1
                ul |= ulo[i]
                uh |= uhi[i]
                for w2 in range(WORDS):
                    cand[w2] &= disj[i, w2]
            if pk == left - 1 and pk >= 2:
                # 1-for-2 exchanges: the sets meeting no packed set but P_j, two of them disjoint
                for w2 in range(WORDS):
                    pre[0, w2] = unhit[t, w2]
                for j in range(pk):
                    for w2 in range(WORDS):
                        pre[j + 1, w2] = pre[j, w2] & disj[pidx[j], w2]
                for w2 in range(WORDS):
                    suf[pk, w2] = ~ZERO
                for j in range(pk - 1, -1, -1):
                    for w2 in range(WORDS):
                        suf[j, w2] = suf[j + 1, w2] & disj[pidx[j], w2]
                got = -1
                for j in range(pk):
                    for w2 in range(WORDS):
                        cand[w2] = pre[j, w2] & suf[j + 1, w2]
                    cand[pidx[j] >> 6] &= ~(ONE << np.uint64(pidx[j] & 63))
                    for w2 in range(WORDS):
                        x = cand[w2]
                        while x != ZERO and got < 0:
                            i = 64 * w2 + low_cell(x)
                            x &= x - ONE
                            for w3 in range(WORDS):
                                y = cand[w3] & disj[i, w3]
                                if y != ZERO:
                                    got = i
                                    pidx[j] = i
                                    pidx[pk] = 64 * w3 + low_cell(y)
                                    pk += 1
                                    break
                        if got >= 0:
                            break
                    if got >= 0:
                        break
                if got >= 0:
                    # the new packing, extended greedily
                    ul = ZERO
                    uh = ZERO
                    for w2 in range(WORDS):
                        cand[w2] = unhit[t, w2]
                    for j in range(pk):
                        q = pidx[j]
                        ul |= ulo[q]
                        uh |= uhi[q]
                        for w2 in range(WORDS):
                            cand[w2] &= disj[q, w2]
                    for w2 in range(WORDS):
                        while cand[w2] != ZERO and pk <= left:
                            q = 64 * w2 + low_cell(cand[w2])
                            pidx[pk] = q
                            pk += 1
                            ul |= ulo[q]
                            uh |= uhi[q]
                            for w3 in range(WORDS):
                                cand[w3] &= disj[q, w3]
            if pk > left:
                t -= 1
                continue
            if pk == left:
                # tight: the clues left go one into each packed set, every other cell dies
                dlo[t] |= ~(ul | clo[t])
                dhi[t] |= ~(uh | chi[t]) & HI_CELLS
                for w2 in range(WORDS):
                    alive[w2] = ZERO
                x = ul & ~dlo[t]
                while x != ZERO:
                    c = low_cell(x)
                    x &= x - ONE
                    for w2 in range(WORDS):
                        alive[w2] |= hit[c, w2]
                x = uh & ~dhi[t]
                while x != ZERO:
                    c = 64 + low_cell(x)
                    x &= x - ONE
                    for w2 in range(WORDS):
                        alive[w2] |= hit[c, w2]
                lost = False
                for w2 in range(WORDS):
                    if unhit[t, w2] & ~alive[w2]:
                        lost = True
                        break
                if lost:
                    t -= 1
                    continue
            # branch: the fewest live cells among the first PICK unhit sets
            best = 99
            bl = ZERO
            bh = ZERO
            seen = 0
            for w in range(WORDS):
                x = unhit[t, w]
                while x != ZERO and seen < PICK:
                    i = 64 * w + low_cell(x)
                    x &= x - ONE
                    a = ulo[i] & ~dlo[t]
                    b = uhi[i] & ~dhi[t]
                    sz = set_size(a, b)
                    seen += 1
                    if sz < best:
                        best = sz
                        bl = a
                        bh = b
                        if sz <= 1:
                            seen = PICK  # a forced clue (or none): nothing beats it
                            break
                if seen >= PICK:
                    break
            if best == 0:
                t -= 1
                continue
            blo[t] = bl
            bhi[t] = bh
            tlo[t] = ZERO
            thi[t] = ZERO
            expanded[t] = True
        # the next child of node t
        if blo[t] == ZERO and bhi[t] == ZERO:
            expanded[t] = False
            t -= 1
            continue
        if blo[t] != ZERO:
            bit = blo[t] & (~blo[t] + ONE)
            blo[t] ^= bit
            cl = bit
            ch = ZERO
            c = low_cell(bit)
        else:
            bit = bhi[t] & (~bhi[t] + ONE)
            bhi[t] ^= bit
            cl = ZERO
            ch = bit
            c = 64 + low_cell(bit)
        t1 = t + 1
        for w in range(WORDS):
            unhit[t1, w] = unhit[t, w] & ~hit[c, w]
        clo[t1] = clo[t] | cl
        chi[t1] = chi[t] | ch
        dlo[t1] = dlo[t] | tlo[t]
        dhi[t1] = dhi[t] | thi[t]
        tlo[t] |= cl
        thi[t] |= ch
        expanded[t1] = False
        t = t1
    stats[STAT_FOUND] = found
    return found
