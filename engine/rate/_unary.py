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
every cycle; the forcing chains' walk merges everything. The hint kept is the first of the least
(difficulty, complexity, sort key) in SE's order; a walk stops once it cannot beat it.
"""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from . import techniques as T
from ._graph import key_less, length_difficulty
from ._tables import CAND, CELL_INDEX, CELL_REGION, HOUSE, IN_BLOCK, REGION_CELLS, RPOS, VAL

MAXOFF = 32768


@kernel
def on_to_off(g, c, d, y, out):
    """``getOnToOff`` of candidate (c, d) (d 0-8): the candidates it excludes, as candidate
    numbers, in SE's order (other candidates of the cell when ``y``, then block, row, column);
    returns how many."""
    n = 0
    if y:
        m = g[CAND + c] & ~(1 << d)
        while m:
            out[n] = 9 * c + LOWBIT[m]
            n += 1
            m &= m - 1
    for k in range(3):
        reg = CELL_REGION[c, k]
        pos = g[RPOS + 9 * reg + d] & ~(1 << CELL_INDEX[c, k]) & ~IN_BLOCK[c, k]
        while pos:
            out[n] = 9 * REGION_CELLS[reg, LOWBIT[pos]] + d
            n += 1
            pos &= pos - 1
    return n


@kernel
def off_to_on(g, c, d, y, x, out, why):
    """``getOffToOn`` of candidate (c, d) without hidden parents: the candidates it forces, in
    SE's order (the cell's other candidate when ``y``, then the other place in block, row,
    column when ``x``), each once; ``why[i]`` the cause (1 cell, 2 block, 3 row, 4 column)."""
    n = 0
    if y:
        m = g[CAND + c]
        if POPCOUNT[m] == 2:
            out[0] = 9 * c + LOWBIT[m & ~(1 << d)]
            why[0] = 1
            n = 1
    if x:
        for k in range(3):
            reg = CELL_REGION[c, k]
            pos = g[RPOS + 9 * reg + d]
            if POPCOUNT[pos] == 2:
                q = 9 * REGION_CELLS[reg, LOWBIT[pos & ~(1 << CELL_INDEX[c, k])]] + d
                dup = False
                for i in range(n):
                    if out[i] == q:
                        dup = True
                if not dup:
                    out[n] = q
                    why[n] = 2 + k
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


@kernel
def _cycle_removals(g, root, j, off_pid, off_par, on_par, rem):
    """Removals of the cycle closed by off node ``j``: candidates of a node's digit, outside the
    loop's cells, that see an "on" node and an "off" node of the loop (root excluded, the
    returning "on" node included). Returns the number of loop cells."""
    in_loop = np.zeros(81, dtype=np.bool_)
    ncells = 0
    # the returning node sits on the root's cell
    rc = root // 9
    in_loop[rc] = True
    ncells = 1
    q = j
    while True:
        c = (off_pid[q] - 729) // 9
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
    forw = np.zeros(729, dtype=np.bool_)
    back = np.zeros(729, dtype=np.bool_)
    # the returning "on" node (the root's candidate)
    _mark(g, rc, root % 9, in_loop, forw)
    q = j
    while True:
        k = off_pid[q] - 729
        _mark(g, k // 9, k % 9, in_loop, back)
        p = off_par[q]
        if on_par[p] < 0:
            break
        _mark(g, p // 9, p % 9, in_loop, forw)
        q = on_par[p]
    for c in range(81):
        rem[c] = 0
    for k in range(729):
        if forw[k] and back[k]:
            rem[k // 9] |= 1 << (k % 9)
    return ncells


@kernel
def _mark(g, c, d, in_loop, out):
    for a in range(20):
        h = HOUSE[c, a]
        if not in_loop[h] and g[CAND + h] >> d & 1:
            out[9 * h + d] = True


@kernel
def _cycles(g, root, y, x, best, rem, scratch):
    """``doCycles`` from candidate ``root`` assumed true; updates ``best`` (difficulty,
    complexity, sort key, cells, found) and ``rem`` when a worthy cycle beats it."""
    on_mem, on_par, on_depth, on_list, chain_off, off_pid, off_par, off_depth, buf, why = scratch
    for k in range(729):
        on_mem[k] = False
    on_mem[root] = True
    on_par[root] = -1
    on_depth[root] = 0
    for w in range(12):
        chain_off[root, w] = 0
    on_list[0] = root
    n_on = 1
    h_on = 0
    n_off = 0
    h_off = 0
    length = 0
    tmp = np.zeros(81, dtype=np.int64)
    while h_on < n_on or h_off < n_off:
        length += 1
        end = n_on
        while h_on < end:
            p = on_list[h_on]
            h_on += 1
            m = on_to_off(g, p // 9, p % 9, y, buf)
            for i in range(m):
                q = buf[i]
                if chain_off[p, q >> 6] >> np.uint64(q & 63) & np.uint64(1):
                    continue  # an ancestor on the way back to the root
                if n_off >= MAXOFF:
                    raise ValueError("cycles: too many off nodes")
                off_pid[n_off] = 729 + q
                off_par[n_off] = p
                off_depth[n_off] = on_depth[p] + 1
                n_off += 1
        length += 1
        if h_off < n_off:
            # every cycle closed in this phase has complexity depth + 1
            dd, sk = _cycle_key(y, x, off_depth[h_off] + 1)
            if not key_less(dd, off_depth[h_off] + 1, sk, best[0], best[1], best[2]):
                return
        end = n_off
        found = False
        while h_off < end:
            j = h_off
            h_off += 1
            k = off_pid[j] - 729
            m = off_to_on(g, k // 9, k % 9, y, x, buf, why)
            for i in range(m):
                q = buf[i]
                if length >= 4 and q == root and not found:
                    comp = off_depth[j] + 1
                    dd, sk = _cycle_key(y, x, comp)
                    ncells = _cycle_removals(g, root, j, off_pid, off_par, on_par, tmp)
                    worthy = False
                    for c in range(81):
                        if tmp[c]:
                            worthy = True
                    if worthy:
                        found = True
                        best[0] = dd
                        best[1] = comp
                        best[2] = sk
                        best[3] = ncells
                        best[4] = 1
                        for c in range(81):
                            rem[c] = tmp[c]
                if not on_mem[q]:
                    on_mem[q] = True
                    on_par[q] = j
                    on_depth[q] = off_depth[j] + 1
                    pp = off_par[j]
                    for w in range(12):
                        chain_off[q, w] = chain_off[pp, w]
                    chain_off[q, k >> 6] |= np.uint64(1) << np.uint64(k & 63)
                    on_list[n_on] = q
                    n_on += 1
        if found:
            return


@kernel
def _forcing(g, root, root_on, y, scratch):
    """``doForcingChains`` from candidate ``root`` assumed true (``root_on``) or false: the depth
    of the first node that contradicts the assumption, -1 when none."""
    on_mem, on_par, on_depth, on_list, chain_off, off_pid, off_par, off_depth, buf, why = scratch
    off_mem = np.zeros(729, dtype=np.bool_)
    off_list = np.empty(729, dtype=np.int64)
    off_d = np.empty(729, dtype=np.int64)
    for k in range(729):
        on_mem[k] = False
    n_on = 0
    n_off = 0
    if root_on:
        on_mem[root] = True
        on_depth[root] = 0
        on_list[0] = root
        n_on = 1
    else:
        off_mem[root] = True
        off_d[root] = 0
        off_list[0] = root
        n_off = 1
    h_on = 0
    h_off = 0
    while h_on < n_on or h_off < n_off:
        while h_on < n_on:
            p = on_list[h_on]
            h_on += 1
            m = on_to_off(g, p // 9, p % 9, y, buf)
            for i in range(m):
                q = buf[i]
                if root_on and q == root:
                    return on_depth[p] + 1
                if not off_mem[q]:
                    off_mem[q] = True
                    off_d[q] = on_depth[p] + 1
                    off_list[n_off] = q
                    n_off += 1
        while h_off < n_off:
            k = off_list[h_off]
            h_off += 1
            m = off_to_on(g, k // 9, k % 9, y, True, buf, why)
            for i in range(m):
                q = buf[i]
                if not root_on and q == root:
                    return off_d[k] + 1
                if not on_mem[q]:
                    on_mem[q] = True
                    on_depth[q] = off_d[k] + 1
                    on_list[n_on] = q
                    n_on += 1
    return -1


@kernel
def new_unary_scratch():
    on_mem = np.zeros(729, dtype=np.bool_)
    on_par = np.zeros(729, dtype=np.int64)
    on_depth = np.zeros(729, dtype=np.int64)
    on_list = np.zeros(729, dtype=np.int64)
    chain_off = np.zeros((729, 12), dtype=np.uint64)
    off_pid = np.zeros(MAXOFF, dtype=np.int64)
    off_par = np.zeros(MAXOFF, dtype=np.int64)
    off_depth = np.zeros(MAXOFF, dtype=np.int64)
    buf = np.zeros(32, dtype=np.int64)
    why = np.zeros(32, dtype=np.int64)
    return on_mem, on_par, on_depth, on_list, chain_off, off_pid, off_par, off_depth, buf, why


@kernel
def unary_chains(g, hi, hd, hrem):
    """The best "Forcing Chains & Cycles" hint, if any (see the module)."""
    scratch = new_unary_scratch()
    best = np.array([1e9, 0.0, 0.0, 0.0, 0.0])
    rem = np.zeros(81, dtype=np.int64)
    kind = 0  # 1 cycle, 2 forcing chain
    kind_mode = 0
    kind_target = 0
    kind_on = 0
    kind_cells = 0
    for mode in range(3):
        y = mode >= 1
        x = mode != 1
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
                best[4] = 0
                _cycles(g, root, y, x, best, rem, scratch)
                if best[4] > 0:
                    kind = 1
                    kind_mode = mode
                    kind_target = root
                    kind_cells = int(best[3])
                if x:
                    for on in (True, False):
                        depth = _forcing(g, root, on, y, scratch)
                        if depth < 0:
                            continue
                        comp = depth + 1
                        dd, sk = _forcing_key(y, x, comp)
                        if key_less(dd, comp, sk, best[0], best[1], best[2]):
                            best[0] = dd
                            best[1] = comp
                            best[2] = sk
                            kind = 2
                            kind_mode = mode
                            kind_target = root
                            kind_on = 0 if on else 1  # the target: off when assumed on
                            kind_cells = comp
    if kind == 0:
        return False
    for c in range(81):
        hrem[c] = 0
    a = 1 if kind_mode == 0 else (2 if kind_mode == 1 else 3)
    hi[0] = T.CYCLE if kind == 1 else T.FORCING_CHAIN
    hi[1] = -1
    hi[2] = 0
    hi[3] = a
    hd[0] = best[0]
    c = kind_target // 9
    d = kind_target % 9
    if kind == 1:
        for cc in range(81):
            hrem[cc] = rem[cc]
        hi[4] = kind_cells
        hi[5] = 0
    else:
        hi[4] = 1 if (kind_mode == 0 and kind_cells == 6) else 0
        hi[5] = 0
        if kind_on:
            hrem[c] = g[CAND + c] & ~(1 << d)
            hi[1] = c
            hi[2] = d + 1
        else:
            hrem[c] = 1 << d
    return True
