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
from ._graph import (C_BLOCK, C_NAKED, CNT, H_OFF, H_ON, LST, MEM, N_OFF, N_ON, NID, OFF, RS_PAR, RS_RES, RS_RNP,
                     RS_RPAR, RS_RWHY, X_NEW, X_OFF, X_ON, X_WHY, anc_clear, anc_close, anc_one, anc_or, new_node,
                     reset_graph, set_extra)
from ._state import copy_state, remove
from ._tables import CAND, CELL_INDEX, CELL_REGION, IN_BLOCK, REGION_CELLS, RPOS


@kernel(inline="always")
def _hidden_cell(g, save, gi, c, o, npar):
    """Parents of an "on" forced in cell ``c``: the cell's candidates removed since the run
    started (value order), appended to the parents at ``gi[o:]``; returns their count."""
    m = save[CAND + c] & ~g[CAND + c]
    while m:
        q = OFF + 9 * c + LOWBIT[m]
        m &= m - 1
        if gi[MEM + q] == 0:
            raise ValueError("chaining: hidden parent not found")
        gi[o + npar] = q
        npar += 1
    return npar


@kernel(inline="always")
def _hidden_region(g, save, gi, reg, d, o, npar):
    m = save[RPOS + 9 * reg + d] & ~g[RPOS + 9 * reg + d]
    while m:
        q = OFF + 9 * REGION_CELLS[reg, LOWBIT[m]] + d
        m &= m - 1
        if gi[MEM + q] == 0:
            raise ValueError("chaining: hidden parent not found")
        gi[o + npar] = q
        npar += 1
    return npar


def make_run(adv, name):
    """The run kernel whose nested rules are ``adv``."""

    def run(g, save, gr, start, level, dynamic, nishio, nctx):
        """Run from potential ``start`` (pid); True on a contradiction (``cnt[X_*]``). The graph
        is read at its offsets (``gi[MEM + pid]``...), not through views: a view is an array whose
        reference counts a run would pay each time."""
        gi, anc = gr
        reset_graph(gr)
        copy_state(g, save)
        # scratch: RS_PAR the parent of an "on" potential's implications; for an "off" one, the
        # "on" potentials it forces (RS_RES), their causes, parents (rows of 12) and counts
        node = new_node(gi, start, gi, RS_PAR, 0, 0)
        anc_clear(anc, node, node)
        anc_close(gi, anc, node, node)
        y = not nishio
        clash = False
        while gi[CNT + H_ON] < gi[CNT + N_ON] or gi[CNT + H_OFF] < gi[CNT + N_OFF]:
            if gi[CNT + H_ON] < gi[CNT + N_ON]:
                p = gi[LST + gi[CNT + H_ON]]
                gi[CNT + H_ON] += 1
                c = p // 9
                d = p % 9
                gi[RS_PAR] = p
                # the cell's other candidates
                if y:
                    m = g[CAND + c] & ~(1 << d)
                    while m:
                        q = OFF + 9 * c + LOWBIT[m]
                        m &= m - 1
                        if gi[MEM + q - OFF]:
                            gi[CNT + X_ON] = q - OFF
                            gi[CNT + X_OFF] = q
                            gi[CNT + X_NEW] = 1
                            set_extra(gr, q, gi[RS_PAR:RS_PAR + 1], 1)
                            clash = True
                            break
                        if gi[MEM + q] == 0:
                            node = new_node(gi, q, gi, RS_PAR, 1, C_NAKED)
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
                        if gi[MEM + q - OFF]:
                            gi[CNT + X_ON] = q - OFF
                            gi[CNT + X_OFF] = q
                            gi[CNT + X_NEW] = 1
                            set_extra(gr, q, gi[RS_PAR:RS_PAR + 1], 1)
                            clash = True
                            break
                        if gi[MEM + q] == 0:
                            node = new_node(gi, q, gi, RS_PAR, 1, C_BLOCK + k)
                            anc_one(gi, anc, node, node, gi[NID + p])
                    if clash:
                        break
                if clash:
                    break
            else:
                p = gi[LST + 729 + gi[CNT + H_OFF]]
                gi[CNT + H_OFF] += 1
                k0 = p - OFF
                c = k0 // 9
                d = k0 % 9
                nres = 0
                if y and POPCOUNT[g[CAND + c]] == 2:
                    gi[RS_RES] = 9 * c + LOWBIT[g[CAND + c] & ~(1 << d)]
                    gi[RS_RWHY] = C_NAKED
                    gi[RS_RPAR] = p
                    gi[RS_RNP] = _hidden_cell(g, save, gi, c, RS_RPAR, 1)
                    nres = 1
                for k in range(3):
                    reg = CELL_REGION[c, k]
                    pos = g[RPOS + 9 * reg + d]
                    if POPCOUNT[pos] == 2:
                        q = 9 * REGION_CELLS[reg, LOWBIT[pos & ~(1 << CELL_INDEX[c, k])]] + d
                        dup = False
                        for i in range(nres):
                            if gi[RS_RES + i] == q:
                                dup = True
                        if not dup:
                            gi[RS_RES + nres] = q
                            gi[RS_RWHY + nres] = C_BLOCK + k
                            gi[RS_RPAR + 12 * nres] = p
                            gi[RS_RNP + nres] = _hidden_region(g, save, gi, reg, d, RS_RPAR + 12 * nres, 1)
                            nres += 1
                if dynamic:
                    remove(g, c, d + 1)
                for i in range(nres):
                    q = int(gi[RS_RES + i])
                    o = RS_RPAR + 12 * i
                    npar = int(gi[RS_RNP + i])
                    if gi[MEM + OFF + q]:
                        gi[CNT + X_ON] = q
                        gi[CNT + X_OFF] = OFF + q
                        gi[CNT + X_NEW] = 0
                        gi[CNT + X_WHY] = gi[RS_RWHY + i]
                        set_extra(gr, q, gi[o:o + npar], npar)
                        clash = True
                        break
                    if gi[MEM + q] == 0:
                        # add_node, its steps written out (see _graph: no loop in a loop inlined)
                        node = new_node(gi, q, gi, o, npar, int(gi[RS_RWHY + i]))
                        if npar == 1:
                            anc_one(gi, anc, node, node, gi[NID + p])
                        else:
                            anc_clear(anc, node, node)
                            for j in range(npar):
                                anc_or(anc, node, gi[NID + gi[o + j]])
                            anc_close(gi, anc, node, node)
                if clash:
                    break
            if level > 0 and gi[CNT + H_ON] == gi[CNT + N_ON] and gi[CNT + H_OFF] == gi[CNT + N_OFF]:
                adv(g, save, gr, level, nctx)
        copy_state(save, g)
        return clash

    run.__name__ = name
    run.__qualname__ = name
    return kernel(run)
