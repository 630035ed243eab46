"""One chaining run (Sudoku Explainer's ``doChaining``) from a potential, in the graph of
``_graph``: every potential it implies, "on" potentials expanded before "off" ones, until the
queues are empty or two implied potentials clash (a contradiction: the run stops there).

- An "on" candidate excludes the cell's other candidates (not in Nishio runs) and its digit's
  other places in its block, row and column.
- An "off" candidate forces the cell's other candidate when two are left (not in Nishio runs)
  and its digit's other place in a block, row or column that has two left.
- Dynamic runs remove each "off" candidate from the grid as it is expanded, so later
  implications see the grid reduced by the assumption; the removals that made an implication
  possible become its extra ("hidden") parents. The grid is restored at the end.
- Nested runs (level > 0), whenever the queues run dry, ask other rules (``adv``) on the reduced
  grid for more "off" potentials and go on.

``make_run(adv)`` builds the run for one choice of nested rules, so that a run nested in a rule
nested in a run is a different compiled function (no recursion in the compiled code).
"""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from ._graph import (C_BLOCK, C_NAKED, CNT, CNT_LEN, H_OFF, H_ON, LST, MEM, N_OFF, N_ON, NID, NPID, OFF, RS_PAR, RS_RES,
                     RS_RNP, RS_RPAR, RS_RWHY, X_NEW, X_OFF, X_ON, X_WHY, add_node, anc_clear, anc_close, anc_one, anc_or,
                     new_node, reset_graph, set_extra)
from ._state import copy_state, remove
from ._tables import CAND, CELL_INDEX, CELL_REGION, IN_BLOCK, REGION_CELLS, RPOS


@kernel(inline="always")
def _hidden_cell(g, save, mem, c, d, par, npar):
    """Parents of an "on" forced in cell ``c``: the cell's candidates removed since the run
    started (value order)."""
    m = save[CAND + c] & ~g[CAND + c]
    while m:
        v = LOWBIT[m]
        m &= m - 1
        q = OFF + 9 * c + v
        if mem[q] == 0:
            raise ValueError("chaining: hidden parent not found")
        par[npar] = q
        npar += 1
    return npar


@kernel(inline="always")
def _hidden_region(g, save, mem, reg, d, par, npar):
    m = save[RPOS + 9 * reg + d] & ~g[RPOS + 9 * reg + d]
    while m:
        q = OFF + 9 * REGION_CELLS[reg, LOWBIT[m]] + d
        m &= m - 1
        if mem[q] == 0:
            raise ValueError("chaining: hidden parent not found")
        par[npar] = q
        npar += 1
    return npar


def make_run(adv, name):
    """The run kernel whose nested rules are ``adv``."""

    def run(g, save, gr, start, level, dynamic, nishio, nctx):
        """Run from potential ``start`` (pid); True on a contradiction (``cnt[X_*]``)."""
        gi, anc = gr
        mem = gi[MEM:MEM + NPID]
        lst = gi[LST:LST + 2 * 729]
        cnt = gi[CNT:CNT + CNT_LEN]
        reset_graph(gr)
        copy_state(g, save)
        par = gi[RS_PAR:RS_PAR + 96]
        res = gi[RS_RES:RS_RES + 8]  # the "on" potentials an "off" one forces, their causes,
        rwhy = gi[RS_RWHY:RS_RWHY + 8]  # parents (rows of 12) and parent counts
        rpar = gi[RS_RPAR:RS_RPAR + 8 * 12]
        rnp = gi[RS_RNP:RS_RNP + 8]
        add_node(gi, anc, start, par, 0, 0)
        y = not nishio
        clash = False
        while cnt[H_ON] < cnt[N_ON] or cnt[H_OFF] < cnt[N_OFF]:
            if cnt[H_ON] < cnt[N_ON]:
                p = lst[cnt[H_ON]]
                cnt[H_ON] += 1
                c = p // 9
                d = p % 9
                par[0] = p
                # the cell's other candidates
                if y:
                    m = g[CAND + c] & ~(1 << d)
                    while m:
                        q = OFF + 9 * c + LOWBIT[m]
                        m &= m - 1
                        if mem[q - OFF]:
                            cnt[X_ON] = q - OFF
                            cnt[X_OFF] = q
                            cnt[X_NEW] = 1
                            set_extra(gr, q, par, 1)
                            clash = True
                            break
                        if mem[q] == 0:
                            node = new_node(gi, q, par, 1, C_NAKED)
                            anc_one(gi, anc, node, node, gi[NID + p])
                    if clash:
                        break
                # the digit's other places: block, row, column
                for k in range(3):
                    reg = CELL_REGION[c, k]
                    pos = g[RPOS + 9 * reg + d] & ~(1 << CELL_INDEX[c, k]) & ~IN_BLOCK[c, k]
                    while pos:
                        q = OFF + 9 * REGION_CELLS[reg, LOWBIT[pos]] + d
                        pos &= pos - 1
                        if mem[q - OFF]:
                            cnt[X_ON] = q - OFF
                            cnt[X_OFF] = q
                            cnt[X_NEW] = 1
                            set_extra(gr, q, par, 1)
                            clash = True
                            break
                        if mem[q] == 0:
                            node = new_node(gi, q, par, 1, C_BLOCK + k)
                            anc_one(gi, anc, node, node, gi[NID + p])
                    if clash:
                        break
                if clash:
                    break
            else:
                p = lst[729 + cnt[H_OFF]]
                cnt[H_OFF] += 1
                k0 = p - OFF
                c = k0 // 9
                d = k0 % 9
                nres = 0
                if y and POPCOUNT[g[CAND + c]] == 2:
                    res[0] = 9 * c + LOWBIT[g[CAND + c] & ~(1 << d)]
                    rwhy[0] = C_NAKED
                    rpar[0] = p
                    rnp[0] = _hidden_cell(g, save, mem, c, d, rpar[0:12], 1)
                    nres = 1
                for k in range(3):
                    reg = CELL_REGION[c, k]
                    pos = g[RPOS + 9 * reg + d]
                    if POPCOUNT[pos] == 2:
                        q = 9 * REGION_CELLS[reg, LOWBIT[pos & ~(1 << CELL_INDEX[c, k])]] + d
                        dup = False
                        for i in range(nres):
                            if res[i] == q:
                                dup = True
                        if not dup:
                            res[nres] = q
                            rwhy[nres] = C_BLOCK + k
                            rpar[12 * nres] = p
                            rnp[nres] = _hidden_region(g, save, mem, reg, d, rpar[12 * nres:12 * nres + 12], 1)
                            nres += 1
                if dynamic:
                    remove(g, c, d + 1)
                for i in range(nres):
                    q = int(res[i])
                    if mem[OFF + q]:
                        cnt[X_ON] = q
                        cnt[X_OFF] = OFF + q
                        cnt[X_NEW] = 0
                        cnt[X_WHY] = rwhy[i]
                        set_extra(gr, q, rpar[12 * i:12 * i + 12], int(rnp[i]))
                        clash = True
                        break
                    if mem[q] == 0:
                        # add_node, its steps written out (see _graph: no loop in a loop inlined)
                        npar = int(rnp[i])
                        node = new_node(gi, q, rpar[12 * i:12 * i + 12], npar, int(rwhy[i]))
                        if npar == 1:
                            anc_one(gi, anc, node, node, gi[NID + p])
                        else:
                            anc_clear(anc, node, node)
                            for j in range(npar):
                                anc_or(anc, node, gi[NID + rpar[12 * i + j]])
                            anc_close(gi, anc, node, node)
                if clash:
                    break
            if level > 0 and cnt[H_ON] == cnt[N_ON] and cnt[H_OFF] == cnt[N_OFF]:
                adv(g, save, gr, level, nctx)
        copy_state(save, g)
        return clash

    run.__name__ = name
    run.__qualname__ = name
    return kernel(run)

