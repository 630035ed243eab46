"""The rules a nested run asks when its queues run dry (Sudoku Explainer's
``getAdvancedPotentials``), on the grid the run has reduced: pointing and claiming, hidden pairs,
naked pairs, X-wings, in that order, stopping at the first rule that yields anything.

Every hint of the rule yields, for each candidate it removes, an "off" potential whose parents
are the run's "off" potentials that the rule needed (its "rule parents": the candidates removed
since the run started without which the pattern would not be there); a hint that needs none
yields nothing, since it holds without the run. Sudoku Explainer lists a hint's removals in the
order of a hash map keyed by object identity (different from run to run); this module lists them
by cell, then digit.
"""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from ._graph import C_ADVANCED, OFF, add_node, v_mem
from ._tables import CAND, COMB9_ALL, COMB9_START, CROSS, EMPTY, REGION_CELLS, RPOS, VAL


@kernel
def _emit(gr, rem, par, npar, produced):
    """The potentials of one hint: an "off" for each removal, cell by cell; returns the count
    produced (added or already in the run)."""
    gi, anc = gr
    mem = v_mem(gr)
    for c in range(81):
        m = rem[c]
        while m:
            q = OFF + 9 * c + LOWBIT[m]
            m &= m - 1
            produced += 1
            if mem[q] == 0:
                add_node(gi, anc, q, par, npar, C_ADVANCED)
    return produced


@kernel
def _parent(mem, par, npar, q):
    if mem[q] == 0:
        raise ValueError("nested rule: parent not in the run")
    par[npar] = q
    return npar + 1


def _lock_pairs():
    """The (region, crossing region) pairs of pointing and claiming, in Sudoku Explainer's order:
    block and column, block and row, column and block, row and block, each by first then second
    region; the pairs that do not cross (no candidate in common) left out."""
    out = []
    for b1, b2 in ((0, 18), (0, 9), (18, 0), (9, 0)):
        for i1 in range(9):
            for i2 in range(9):
                if CROSS[b1 + i1, b2 + i2]:
                    out.append((b1 + i1, b2 + i2))
    return np.array(out, dtype=np.int64)


LOCK_PAIRS = _lock_pairs()


@kernel
def adv_locking(g, save, gr, rem, par, chg):
    mem = v_mem(gr)
    produced = 0
    for t in range(LOCK_PAIRS.shape[0]):
        r1 = LOCK_PAIRS[t, 0]
        r2 = LOCK_PAIRS[t, 1]
        inside = CROSS[r1, r2]
        dm = chg[r1]  # a digit whose places in r1 were all there when the run started has no rule parent
        while dm:
            d = LOWBIT[dm]
            dm &= dm - 1
            pos = g[RPOS + 9 * r1 + d]
            if POPCOUNT[pos] <= 1 or pos & ~inside != 0:
                continue
            rest = g[RPOS + 9 * r2 + d] & ~CROSS[r2, r1]
            if rest == 0:
                continue
            for c in range(81):
                rem[c] = 0
            while rest:
                rem[REGION_CELLS[r2, LOWBIT[rest]]] = 1 << d
                rest &= rest - 1
            npar = 0
            gone = (save[RPOS + 9 * r1 + d] & ~pos) & ~inside
            while gone:
                npar = _parent(mem, par, npar, OFF + 9 * REGION_CELLS[r1, LOWBIT[gone]] + d)
                gone &= gone - 1
            if npar > 0:
                produced = _emit(gr, rem, par, npar, produced)
    return produced


@kernel
def adv_hidden_pair(g, save, gr, rem, par, chg):
    mem = v_mem(gr)
    produced = 0
    for base in (0, 18, 9):
        for kr in range(9):
            reg = base + kr
            if g[EMPTY + reg] <= 4 or chg[reg] == 0:
                continue
            two = 0  # the digits with exactly two places: a hidden pair is two of them on the same places
            for d in range(9):
                if POPCOUNT[g[RPOS + 9 * reg + d]] == 2:
                    two |= 1 << d
            if POPCOUNT[two] < 2:
                continue
            for t in range(COMB9_START[2], COMB9_START[3]):
                digits = COMB9_ALL[t]
                if digits & ~two or not digits & chg[reg]:
                    continue
                d1 = LOWBIT[digits]
                d2 = LOWBIT[digits & (digits - 1)]
                p1 = g[RPOS + 9 * reg + d1]
                p2 = g[RPOS + 9 * reg + d2]
                if p1 != p2:  # both have exactly two places (above): a pair when they are the same two
                    continue
                union = p1 | p2
                found = False
                for c in range(81):
                    rem[c] = 0
                m = union
                while m:
                    cell = REGION_CELLS[reg, LOWBIT[m]]
                    m &= m - 1
                    r = g[CAND + cell] & ~digits
                    if r:
                        rem[cell] = r
                        found = True
                if not found:
                    continue
                npar = 0
                for i in range(9):
                    if union >> i & 1:
                        continue
                    cell = REGION_CELLS[reg, i]
                    for dd in (d1, d2):
                        if save[CAND + cell] >> dd & 1:
                            npar = _parent(mem, par, npar, OFF + 9 * cell + dd)
                if npar > 0:
                    produced = _emit(gr, rem, par, npar, produced)
    return produced


@kernel
def adv_naked_pair(g, save, gr, rem, par, chg):
    mem = v_mem(gr)
    produced = 0
    for base in (0, 18, 9):
        for kr in range(9):
            reg = base + kr
            if g[EMPTY + reg] < 4 or chg[reg] == 0:
                continue
            two = 0  # the places whose cell has exactly two candidates: a naked pair is two of them alike
            for i in range(9):
                if POPCOUNT[g[CAND + REGION_CELLS[reg, i]]] == 2:
                    two |= 1 << i
            if POPCOUNT[two] < 2:
                continue
            for t in range(COMB9_START[2], COMB9_START[3]):
                places = COMB9_ALL[t]
                if places & ~two:
                    continue
                i1 = LOWBIT[places]
                i2 = LOWBIT[places & (places - 1)]
                c1 = REGION_CELLS[reg, i1]
                c2 = REGION_CELLS[reg, i2]
                m1 = g[CAND + c1]
                m2 = g[CAND + c2]
                if m1 != m2:  # both have exactly two candidates (above): a pair when they are the same two
                    continue
                union = m1 | m2
                found = False
                for c in range(81):
                    rem[c] = 0
                for i in range(9):
                    if places >> i & 1:
                        continue
                    cell = REGION_CELLS[reg, i]
                    r = g[CAND + cell] & union
                    if r:
                        rem[cell] = r
                        found = True
                if not found:
                    continue
                npar = 0
                for cell in (c1, c2):
                    gone = save[CAND + cell] & ~union
                    while gone:
                        npar = _parent(mem, par, npar, OFF + 9 * cell + LOWBIT[gone])
                        gone &= gone - 1
                if npar > 0:
                    produced = _emit(gr, rem, par, npar, produced)
    return produced


@kernel
def adv_x_wing(g, save, gr, rem, par, chg):
    mem = v_mem(gr)
    produced = 0
    occ = np.zeros(9, dtype=np.int64)
    for c in range(81):
        if g[VAL + c]:
            occ[g[VAL + c] - 1] += 1
    two = np.zeros(9, dtype=np.int64)
    for side in range(2):
        base, cover = (18, 9) if side == 0 else (9, 18)
        anyd = 0  # the digits with two base lines of exactly two places (an X-wing needs two alike)
        for d in range(9):
            two[d] = 0
            if occ[d] + 4 > 9:
                continue
            for ln in range(9):
                if POPCOUNT[g[RPOS + 9 * (base + ln) + d]] == 2:
                    two[d] |= 1 << ln
            if POPCOUNT[two[d]] >= 2:
                anyd |= 1 << d
        if anyd == 0:
            continue
        for t in range(COMB9_START[2], COMB9_START[3]):
            lines = COMB9_ALL[t]
            l1 = LOWBIT[lines]
            l2 = LOWBIT[lines & (lines - 1)]
            both = (chg[base + l1] | chg[base + l2]) & anyd
            while both:
                d = LOWBIT[both]
                both &= both - 1
                if lines & ~two[d]:
                    continue
                p1 = g[RPOS + 9 * (base + l1) + d]
                p2 = g[RPOS + 9 * (base + l2) + d]
                if p1 != p2:  # both have exactly two places (above): a pair when they are the same two
                    continue
                union = p1 | p2
                found = False
                for c in range(81):
                    rem[c] = 0
                m = union
                while m:
                    reg = cover + LOWBIT[m]
                    m &= m - 1
                    rest = g[RPOS + 9 * reg + d] & ~lines
                    while rest:
                        rem[REGION_CELLS[reg, LOWBIT[rest]]] = 1 << d
                        rest &= rest - 1
                        found = True
                if not found:
                    continue
                npar = 0
                for ln in (l1, l2):
                    reg = base + ln
                    # places of the base line lost since the run started, outside the cover lines
                    gone = save[RPOS + 9 * reg + d] & ~g[RPOS + 9 * reg + d] & ~union
                    while gone:
                        npar = _parent(mem, par, npar, OFF + 9 * REGION_CELLS[reg, LOWBIT[gone]] + d)
                        gone &= gone - 1
                if npar > 0:
                    produced = _emit(gr, rem, par, npar, produced)
    return produced


@kernel
def adv_basic(g, save, gr, level, nctx):
    """Level 1 ("Dynamic Forcing Chains (+)"): the four basic rules. Each looks only at regions
    and digits that lost a place since the run started (``chg``, a digit mask per region): a hint
    whose places are as they were needs none of the run's removals (it has no rule parent) and
    yields nothing."""
    chg = np.zeros(27, dtype=np.int64)  # per region, the digits that lost a place
    anych = 0
    for i in range(243):
        if g[RPOS + i] != save[RPOS + i]:
            chg[i // 9] |= 1 << (i % 9)
            anych = 1
    if anych == 0:
        return False
    rem = np.zeros(81, dtype=np.int64)
    par = np.empty(96, dtype=np.int32)
    if adv_locking(g, save, gr, rem, par, chg):
        return True
    if adv_hidden_pair(g, save, gr, rem, par, chg):
        return True
    if adv_naked_pair(g, save, gr, rem, par, chg):
        return True
    return adv_x_wing(g, save, gr, rem, par, chg) > 0
