"""Forcing chains and bidirectional cycles from one candidate (Sudoku Explainer's
``Chaining(false, false, false, 0)``, "Forcing Chains & Cycles"): X-links only (a digit's two
places in a region), Y-links only (a cell's two candidates; cycles from bivalue cells), then both.

From each candidate assumed true, a breadth-first walk of implications finds

- cycles: the walk comes back to the candidate after 4 links or more; a candidate of the loop's
  digit (X) that sees an "on" and an "off" node of the loop goes (6.5, XY 7.0);
- forcing chains: the candidate assumed true implies itself false (it goes), or assumed false
  implies itself true (it is placed) (6.6, XY 7.0);

plus the chain length's difficulty. The walk of cycles does not merge "off" nodes reached twice
(only one on the way back to the start is refused), which Sudoku Explainer relies on to find
every cycle; the forcing chains' walk merges everything.

At the top level the hint kept is the first of the least (difficulty, complexity, sort key) in
SE's order, and a walk stops once it cannot beat it. Nested in a run (``unary_collect``), every
hint goes to the run, with the candidates the run removed that its links needed.
"""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from . import techniques as T
from ._graph import C_BLOCK, C_NAKED, key_less, length_difficulty, v_mem
from ._hintlist import hl_add, hl_done, hl_emit, hl_removed
from ._tables import CAND, CELL_INDEX, CELL_REGION, HOUSE, IN_BLOCK, REGION_CELLS, RPOS, VAL

MAXOFF = 32768
FP_MUL = np.uint64(0x100000001B3)


OB = 32
"""A walk's buffer of the potentials one node implies: ``buf[o + i]`` the i-th, ``buf[o + OB + i]``
its cause (one array: a kernel inlined per node takes as few arrays as it can, each costing
reference counts)."""


@kernel(inline="always")
def on_to_off(g, c, d, y, buf, o):
    """``getOnToOff`` of candidate (c, d) (d 0-8): the candidates it excludes, as candidate
    numbers, in SE's order (other candidates of the cell when ``y``, then block, row, column),
    with their causes, into ``buf`` from ``o`` (see ``OB``); returns how many."""
    n = 0
    if y:
        m = g[CAND + c] & ~(1 << d)
        while m:
            buf[o + n] = 9 * c + LOWBIT[m]
            buf[o + OB + n] = C_NAKED
            n += 1
            m &= m - 1
    for k in range(3):
        reg = CELL_REGION[c, k]
        pos = g[RPOS + 9 * reg + d] & ~(1 << CELL_INDEX[c, k]) & ~IN_BLOCK[c, k]
        while pos:
            buf[o + n] = 9 * REGION_CELLS[reg, LOWBIT[pos]] + d
            buf[o + OB + n] = C_BLOCK + k
            n += 1
            pos &= pos - 1
    return n


@kernel(inline="always")
def off_to_on(g, c, d, y, x, buf, o):
    """``getOffToOn`` of candidate (c, d) without hidden parents: the candidates it forces, in
    SE's order (the cell's other candidate when ``y``, then the other place in block, row,
    column when ``x``), each once, with their causes, into ``buf`` from ``o``."""
    n = 0
    if y:
        m = g[CAND + c]
        if POPCOUNT[m] == 2:
            buf[o] = 9 * c + LOWBIT[m & ~(1 << d)]
            buf[o + OB] = C_NAKED
            n = 1
    if x:
        for k in range(3):
            reg = CELL_REGION[c, k]
            pos = g[RPOS + 9 * reg + d]
            if POPCOUNT[pos] == 2:
                q = 9 * REGION_CELLS[reg, LOWBIT[pos & ~(1 << CELL_INDEX[c, k])]] + d
                dup = False
                for i in range(n):
                    if buf[o + i] == q:
                        dup = True
                if not dup:
                    buf[o + n] = q
                    buf[o + OB + n] = C_BLOCK + k
                    n += 1
    return n


@kernel
def _cycle_key(y, x, complexity):
    base = 7.0 if (x and y) else 6.5
    return base + length_difficulty(complexity), 4 if (x and y) else (3 if y else 2)


@kernel
def _forcing_key(y, x, complexity):
    base = 7.0 if (x and y) else 6.6
    return base + length_difficulty(complexity), 4 if (x and y) else (3 if y else 2)


@kernel(inline="always")
def _can_beat(y, x, complexity, best):
    dd, sk = _forcing_key(y, x, complexity)
    return key_less(dd, complexity, sk, best[0], best[1], best[2])


@kernel
def _mark(g, c, d, in_loop, out):
    """Candidates of digit ``d`` outside the loop that see cell ``c``, into ``out`` (a digit mask
    per cell)."""
    for a in range(20):
        h = HOUSE[c, a]
        if not in_loop[h] and g[CAND + h] >> d & 1:
            out[h] |= 1 << d


@kernel
def _cycle_removals(g, root, j, sc, rem):
    """Removals of the cycle closed by off node ``j``: candidates of a node's digit, outside the
    loop's cells, that see an "on" node and an "off" node of the loop (root excluded, the
    returning "on" node included). Returns the number of loop cells."""
    on_mem, on_par, on_depth, on_list, on_why, chain_off, off_pid, off_par, off_depth, off_why, buf, why = _views(sc)
    in_loop = np.zeros(81, dtype=np.bool_)
    rc = root // 9
    in_loop[rc] = True
    ncells = 1
    q = j
    while True:
        c = off_pid[q] // 9
        if not in_loop[c]:
            in_loop[c] = True
            ncells += 1
        p = off_par[q]
        if on_par[p] < 0:
            break
        c = p // 9
        if not in_loop[c]:
            in_loop[c] = True
            ncells += 1
        q = on_par[p]
    forw = np.zeros(81, dtype=np.int64)
    back = np.zeros(81, dtype=np.int64)
    _mark(g, rc, root % 9, in_loop, forw)  # the returning "on" node, on the root's candidate
    q = j
    while True:
        k = off_pid[q]
        _mark(g, k // 9, k % 9, in_loop, back)
        p = off_par[q]
        if on_par[p] < 0:
            break
        _mark(g, p // 9, p % 9, in_loop, forw)
        q = on_par[p]
    for c in range(81):
        rem[c] = forw[c] & back[c]
    return ncells


@kernel
def _fp_step(h, v):
    return (h ^ np.uint64(v)) * FP_MUL


@kernel
def _collect_cycle(hl, g, save, mem, root, j, ret_why, sc, rem, y, x, mark):
    """Nested mode: the cycle closed by off node ``j`` (the returning node's cause
    ``ret_why``) into the hint list, with its rule parents (both directions of the loop)."""
    on_mem, on_par, on_depth, on_list, on_why, chain_off, off_pid, off_par, off_depth, off_why, buf, why = _views(sc)
    comp = off_depth[j] + 1
    dd, sk = _cycle_key(y, x, comp)
    h = np.uint64(1469598103934665603)
    # the forward chain: the returning node, then back to the root
    h = _fp_step(h, root)
    q = j
    while True:
        h = _fp_step(h, 768 + off_pid[q])
        p = off_par[q]
        h = _fp_step(h, p)
        if on_par[p] < 0:
            break
        q = on_par[p]
    i = hl_add(hl, dd, comp, sk, h, rem)
    # rule parents: the "on" nodes of the forward chain (the returning one, then back) ...
    hl_removed(hl, i, g, save, mem, root // 9, root % 9, ret_why, mark)
    q = j
    while True:
        p = off_par[q]
        if on_par[p] < 0:
            break
        hl_removed(hl, i, g, save, mem, p // 9, p % 9, on_why[p], mark)
        q = on_par[p]
    # ... then the "off" nodes, which are "on" in the reversed chain, from the root's side
    nq = 0
    q = j
    while True:
        buf[nq] = q
        nq += 1
        p = off_par[q]
        if on_par[p] < 0:
            break
        q = on_par[p]
    for t in range(nq - 1, -1, -1):
        q = buf[t]
        k = off_pid[q]
        hl_removed(hl, i, g, save, mem, k // 9, k % 9, off_why[q], mark)
    hl_done(hl, i, mark)


F_PAR, F_DEPTH, F_WHY, F_LIST, F_BUF = 1458, 2 * 1458, 3 * 1458, 4 * 1458, 5 * 1458
F_STAMP = F_BUF + 2 * OB
F_LEN = F_STAMP + 1
"""``_forcing``'s scratch ``fs`` (int64, zeros at first): per potential (0-728 on, 729-1457 off)
the walk that reached it last (from 0: a potential is in this walk when it holds this walk's
stamp, so nothing is cleared between walks), parent, depth, cause; the queue (on from
``F_LIST``, off from ``F_LIST + 729``); the buffer of ``on_to_off``/``off_to_on``; the last
walk's stamp."""


@kernel(inline="always")
def _forcing(g, root, root_on, y, x, best, fs):
    """``doForcingChains`` from candidate ``root`` assumed true (``root_on``) or false. Returns
    (depth of the node that contradicts the assumption, its parent, its cause), depth -1 when
    none, or when it could not beat ``best`` (difficulty, complexity, sort key): the walk is
    breadth first, so the complexity of what it finds only grows. ``fs``: scratch (``F_*``)."""
    stamp = fs[F_STAMP] + 1
    fs[F_STAMP] = stamp
    n_on = 0
    n_off = 0
    start = root if root_on else 729 + root
    fs[start] = stamp
    fs[F_PAR + start] = -1
    fs[F_DEPTH + start] = 0
    fs[F_WHY + start] = 0
    if root_on:
        fs[F_LIST] = root
        n_on = 1
    else:
        fs[F_LIST + 729] = 729 + root
        n_off = 1
    h_on = 0
    h_off = 0
    depth = -1
    found = -1
    fpar = -1
    fwhy = 0
    while found < 0 and (h_on < n_on or h_off < n_off):
        while found < 0 and h_on < n_on:
            p = fs[F_LIST + h_on]
            h_on += 1
            if fs[F_DEPTH + p] != depth:
                depth = fs[F_DEPTH + p]
                if not _can_beat(y, x, depth + 2, best):
                    return -1, -1, 0
            m = on_to_off(g, p // 9, p % 9, y, fs, F_BUF)
            for i in range(m):
                q = 729 + fs[F_BUF + i]
                if root_on and q == 729 + root:
                    found, fpar, fwhy = depth + 1, p, fs[F_BUF + OB + i]
                    break
                if fs[q] != stamp:
                    fs[q] = stamp
                    fs[F_PAR + q] = p
                    fs[F_DEPTH + q] = depth + 1
                    fs[F_WHY + q] = fs[F_BUF + OB + i]
                    fs[F_LIST + 729 + n_off] = q
                    n_off += 1
        while found < 0 and h_off < n_off:
            p = fs[F_LIST + 729 + h_off]
            h_off += 1
            if fs[F_DEPTH + p] != depth:
                depth = fs[F_DEPTH + p]
                if not _can_beat(y, x, depth + 2, best):
                    return -1, -1, 0
            k = p - 729
            m = off_to_on(g, k // 9, k % 9, y, True, fs, F_BUF)
            for i in range(m):
                q = fs[F_BUF + i]
                if not root_on and q == root:
                    found, fpar, fwhy = depth + 1, p, fs[F_BUF + OB + i]
                    break
                if fs[q] != stamp:
                    fs[q] = stamp
                    fs[F_PAR + q] = p
                    fs[F_DEPTH + q] = depth + 1
                    fs[F_WHY + q] = fs[F_BUF + OB + i]
                    fs[F_LIST + n_on] = q
                    n_on += 1
    return found, fpar, fwhy


U_ON = 5 * 729
U_BUF = U_ON + 1024
U_OFF = U_BUF + 1458


@kernel
def new_unary_scratch(maxoff):
    """The walks' scratch: an int64 array (per "on" node: reached, parent, depth, list, cause;
    two buffers; per "off" node, ``maxoff`` of them: potential, parent, depth, cause; the forcing
    walks' scratch) and the "off" potentials on each "on" node's way back to the root (uint64
    [729, 12])."""
    si = np.empty(U_OFF + 4 * maxoff + F_LEN, dtype=np.int64)
    si[U_OFF + 4 * maxoff:] = 0  # ``_forcing``'s scratch (``F_*``), at the end: zeros at first
    chain_off = np.empty((729, 12), dtype=np.uint64)
    return si, chain_off


@kernel(inline="always")
def _views(sc):
    si, chain_off = sc
    maxoff = (si.shape[0] - U_OFF - F_LEN) // 4
    o = U_OFF
    return (si[0:729], si[729:1458], si[1458:2187], si[2187:2916], si[2916:3645], chain_off,
            si[o:o + maxoff], si[o + maxoff:o + 2 * maxoff], si[o + 2 * maxoff:o + 3 * maxoff],
            si[o + 3 * maxoff:o + 4 * maxoff], si[U_ON:U_BUF], si[U_BUF:U_OFF])


def _make_walk(collect, name):
    """The walk of every start (``walk``) and its cycles' walk (``cycles``); ``collect`` (a
    constant of the compiled code): every hint into a hint list (nested), else the best one only."""

    def cycles(g, root, y, x, best, rem, sc, hl, save, mem, mark, tmp, ob, stamp):
        """``doCycles`` from candidate ``root`` assumed true. Top level: updates ``best``
        (difficulty, complexity, sort key, cells, found) and ``rem`` when a worthy cycle beats it;
        ``collect``: every worthy cycle into ``hl``. An "on" node is in this walk when its mark
        (``_views``'s ``on_mem``) holds its ``stamp`` (one per walk: nothing is cleared between walks)."""
        # the scratch read at its offsets (``_views``'s layout), not through views: views made
        # at every start would each pay reference counts
        si, chain_off = sc
        maxoff = (si.shape[0] - U_OFF - F_LEN) // 4
        o_par = U_OFF + maxoff
        o_dep = U_OFF + 2 * maxoff
        o_why = U_OFF + 3 * maxoff
        si[root] = stamp
        si[729 + root] = -1
        si[1458 + root] = 0
        si[2916 + root] = 0
        for w in range(12):
            chain_off[root, w] = 0
        si[2187 + 0] = root
        n_on = 1
        h_on = 0
        n_off = 0
        h_off = 0
        length = 0
        while h_on < n_on or h_off < n_off:
            length += 1
            end = n_on
            while h_on < end:
                p = si[2187 + h_on]
                h_on += 1
                m = on_to_off(g, p // 9, p % 9, y, ob, 0)
                for i in range(m):
                    q = ob[i]
                    if chain_off[p, q >> 6] >> np.uint64(q & 63) & np.uint64(1):
                        continue  # an ancestor on the way back to the root
                    if n_off >= maxoff:
                        raise ValueError("cycles: too many off nodes")
                    si[U_OFF + n_off] = q
                    si[o_par + n_off] = p
                    si[o_dep + n_off] = si[1458 + p] + 1
                    si[o_why + n_off] = ob[OB + i]
                    n_off += 1
            length += 1
            if h_off < n_off and not collect:
                # every cycle closed in this phase has complexity depth + 1
                dd, sk = _cycle_key(y, x, si[o_dep + h_off] + 1)
                if not key_less(dd, si[o_dep + h_off] + 1, sk, best[0], best[1], best[2]):
                    return
            end = n_off
            while h_off < end:
                j = h_off
                h_off += 1
                k = si[U_OFF + j]
                m = off_to_on(g, k // 9, k % 9, y, x, ob, 0)
                for i in range(m):
                    q = ob[i]
                    if length >= 4 and q == root:
                        ncells = _cycle_removals(g, root, j, sc, tmp)
                        worthy = False
                        for c in range(81):
                            if tmp[c]:
                                worthy = True
                        if worthy:
                            if collect:
                                _collect_cycle(hl, g, save, mem, root, j, ob[OB + i], sc, tmp, y, x, mark)
                            else:
                                comp = si[o_dep + j] + 1
                                dd, sk = _cycle_key(y, x, comp)
                                best[0] = dd
                                best[1] = comp
                                best[2] = sk
                                best[3] = ncells
                                best[4] = 1
                                for c in range(81):
                                    rem[c] = tmp[c]
                                return
                    if si[q] != stamp:
                        si[q] = stamp
                        si[729 + q] = j
                        si[1458 + q] = si[o_dep + j] + 1
                        si[2916 + q] = ob[OB + i]
                        pp = si[o_par + j]
                        for w in range(12):
                            chain_off[q, w] = chain_off[pp, w]
                        chain_off[q, k >> 6] |= np.uint64(1) << np.uint64(k & 63)
                        si[2187 + n_on] = q
                        n_on += 1

    cycles.__name__ = cycles.__qualname__ = name + "_cycles"
    cycles = kernel(inline="always")(cycles)  # a call per start: its arrays' reference counts cost more than a short walk

    def walk(g, sc, hl, save, mem, mark, best, rem, state):
        """Every start of SE's three passes (X, Y, XY), cell by cell, digit by digit. Top level: the
        best hint so far in ``best``/``rem``/``state`` (kind, pass, root, on-target)."""
        on_mem, on_par, on_depth, on_list, on_why, chain_off, off_pid, off_par, off_depth, off_why, buf, why = _views(sc)
        fs = sc[0][sc[0].shape[0] - F_LEN:]  # kept from call to call: its stamps only grow
        frem = np.zeros(81, dtype=np.int64)
        tmp = np.zeros(81, dtype=np.int64)
        ob = np.empty(2 * OB, dtype=np.int64)
        for k in range(729):
            on_mem[k] = 0
        stamp = 0
        for mode in range(3):
            y = mode >= 1
            x = mode != 1
            if not collect:
                # every walk of the pass stops before it finds anything when the shortest chain
                # (complexity 2) cannot beat the best: the XY pass after an X or Y hint below 7.0
                dd, sk = _cycle_key(y, x, 2)
                if not key_less(dd, 2, sk, best[0], best[1], best[2]) and not _can_beat(y, x, 2, best):
                    continue
            for c in range(81):
                if g[VAL + c] != 0:
                    continue
                card = POPCOUNT[g[CAND + c]]
                if card <= 1:
                    continue
                if card > 2 and not x:
                    continue  # Y-cycles start in bivalue cells only
                for d in range(9):
                    if not (g[CAND + c] >> d & 1):
                        continue
                    root = 9 * c + d
                    # a walk comes back to the root (a cycle, or the root forced true) only
                    # through an "off" potential that forces it: one of its strong links
                    linked = off_to_on(g, c, d, y, x, ob, 0) > 0
                    best[4] = 0
                    if linked:
                        stamp += 1
                        cycles(g, root, y, x, best, rem, sc, hl, save, mem, mark, tmp, ob, stamp)
                    if best[4] > 0:
                        state[0] = 1
                        state[1] = mode
                        state[2] = root
                        state[4] = int(best[3])
                    if not x:
                        continue
                    for on in (True, False):
                        if not on and not linked:
                            continue
                        depth, par, twhy = _forcing(g, root, on, y, x, best, fs)
                        if depth < 0:
                            continue
                        comp = depth + 1
                        dd, sk = _forcing_key(y, x, comp)
                        if collect:
                            for cc in range(81):
                                frem[cc] = 0
                            if on:
                                frem[c] = 1 << d
                            else:
                                frem[c] = g[CAND + c] & ~(1 << d)
                            h = np.uint64(1469598103934665603)
                            h = _fp_step(h, root if not on else 768 + root)
                            p = par
                            while p >= 0:
                                h = _fp_step(h, p if p < 729 else 768 + p - 729)
                                p = fs[F_PAR + p]
                            i = hl_add(hl, dd, comp, sk, h, frem)
                            if not on:
                                hl_removed(hl, i, g, save, mem, c, d, twhy, mark)
                            p = par
                            while p >= 0:
                                if p < 729 and fs[F_PAR + p] >= 0:
                                    hl_removed(hl, i, g, save, mem, p // 9, p % 9, fs[F_WHY + p], mark)
                                p = fs[F_PAR + p]
                            hl_done(hl, i, mark)
                        elif key_less(dd, comp, sk, best[0], best[1], best[2]):
                            best[0] = dd
                            best[1] = comp
                            best[2] = sk
                            state[0] = 2
                            state[1] = mode
                            state[2] = root
                            state[3] = 0 if on else 1  # the target: off when assumed on
                            state[4] = comp

    walk.__name__ = walk.__qualname__ = name
    return kernel(walk)


_walk_best = _make_walk(False, "_walk_best")
_walk_collect = _make_walk(True, "_walk_collect")


@kernel
def unary_chains(g, hi, hd, hrem):
    """The best "Forcing Chains & Cycles" hint, if any (see the module)."""
    sc = new_unary_scratch(MAXOFF)
    best = np.array([1e9, 0.0, 0.0, 0.0, 0.0])
    rem = np.zeros(81, dtype=np.int64)
    state = np.zeros(5, dtype=np.int64)  # kind (1 cycle, 2 forcing chain), pass, root, on-target, cells/complexity
    hl_dummy_f = np.zeros(0, dtype=np.float64)
    hl = (hl_dummy_f, np.zeros((0, 4), dtype=np.int64), np.zeros(0, dtype=np.uint64), np.zeros((0, 81), dtype=np.int32),
          np.zeros(0, dtype=np.int32), np.zeros(2, dtype=np.int64))
    _walk_best(g, sc, hl, g, np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int8), best, rem, state)
    kind = state[0]
    if kind == 0:
        return False
    mode = state[1]
    root = state[2]
    for c in range(81):
        hrem[c] = 0
    hi[0] = T.CYCLE if kind == 1 else T.FORCING_CHAIN
    hi[1] = -1
    hi[2] = 0
    hi[3] = 1 if mode == 0 else (2 if mode == 1 else 3)
    hd[0] = best[0]
    c = root // 9
    d = root % 9
    hi[5] = 0
    if kind == 1:
        for cc in range(81):
            hrem[cc] = rem[cc]
        hi[4] = state[4]
    else:
        hi[4] = 1 if (mode == 0 and state[4] == 6) else 0
        if state[3]:
            hrem[c] = g[CAND + c] & ~(1 << d)
            hi[1] = c
            hi[2] = d + 1
        else:
            hrem[c] = 1 << d
    return True


@kernel
def unary_collect(g, save, gr, recs, hl, sc, mark):
    """Nested in a run (graph ``gr``, grid ``g`` reduced from ``save``): every forcing chain and
    cycle hint of the reduced grid handed to the run; returns the potentials produced."""
    mem = v_mem(gr)
    hn = hl[5]
    hn[0] = 0
    hn[1] = 0
    best = np.array([1e9, 0.0, 0.0, 0.0, 0.0])
    rem = np.zeros(81, dtype=np.int64)
    state = np.zeros(5, dtype=np.int64)
    _walk_collect(g, sc, hl, save, mem, mark, best, rem, state)
    return hl_emit(hl, gr, recs)
