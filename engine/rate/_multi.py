"""Multiple, dynamic and Nishio forcing chains (Sudoku Explainer's ``getMultipleChainsHintList``):
from every candidate of every cell, a run assuming it true and a run assuming it false (``_run``):

- contradiction (dynamic, Nishio): the assumption implies a potential both on and off, so the
  candidate goes (or, assumed false, is placed); sort key 7;
- double forcing (dynamic, cells of 3+ candidates): a potential implied by both assumptions;
  sort key 1;
- region forcing (not Nishio): a potential implied by every place of a digit in a region, looked
  at from the region's first place; sort key 6;
- cell forcing (not Nishio): a potential implied by every candidate of a cell; sort key 5.

A hint's complexity is the sum of its chains' (each the number of distinct potentials among its
target's ancestors); its difficulty is the producer's base (multiple 8.0, dynamic 8.5, Nishio 7.5,
nested levels 9.0 and up) plus the length difficulty. Sudoku Explainer sorts all hints by
(difficulty, complexity, sort key), stably, and applies the first: this module keeps that one.

Runs from a candidate assumed true are shared by the binary, region and cell hints of one call
(SE computes them again for each): a run depends only on the grid and its start.
"""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from . import techniques as T
from ._graph import EXTRA, N_OFF, N_ON, NPID, OFF, W, X_NEW, X_OFF, X_ON, count_bits, key_less, length_difficulty, level_difficulty, new_graph
from ._tables import CAND, GLEN, REGION_CELLS, RPOS, VAL

K_ABSURD_ON, K_ABSURD_OFF, K_DOUBLE, K_REGION, K_CELL = 1, 2, 3, 4, 5


@kernel
def new_cache():
    cached = np.zeros(729, dtype=np.bool_)
    c_mem = np.zeros((729, W), dtype=np.uint64)
    c_on = np.zeros((729, 729), dtype=np.int16)
    c_off = np.zeros((729, 729), dtype=np.int16)
    c_n = np.zeros((729, 3), dtype=np.int64)  # on count, off count, clash complexity (0: none)
    c_cnt = np.zeros((729, NPID), dtype=np.int16)
    return cached, c_mem, c_on, c_off, c_n, c_cnt


@kernel
def _store(gr, cache, k, clash):
    """Keep what the hints need of the run just made from candidate ``k`` assumed true."""
    mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = gr
    cached, c_mem, c_on, c_off, c_n, c_cnt = cache
    cached[k] = True
    for w in range(W):
        c_mem[k, w] = 0
    for i in range(cnt[N_ON]):
        p = lst[i]
        c_on[k, i] = p
        c_mem[k, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        c_cnt[k, p] = count_bits(anc, p)
    for i in range(cnt[N_OFF]):
        p = lst[729 + i]
        c_off[k, i] = p
        c_mem[k, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        c_cnt[k, p] = count_bits(anc, p)
    c_n[k, 0] = cnt[N_ON]
    c_n[k, 1] = cnt[N_OFF]
    c_n[k, 2] = _clash_complexity(gr) if clash else 0


@kernel
def _clash_complexity(gr):
    mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = gr
    if cnt[X_NEW] == 1:
        return count_bits(anc, cnt[X_ON]) + count_bits(anc, EXTRA)
    return count_bits(anc, EXTRA) + count_bits(anc, cnt[X_OFF])


@kernel
def _has(c_mem, k, p):
    return (c_mem[k, p >> 6] >> np.uint64(p & 63)) & np.uint64(1) != np.uint64(0)


@kernel
def _worthy(g, p):
    """A hint whose target is "on" removes the cell's other candidates: worthy when it has some."""
    if p >= OFF:
        return True
    return g[CAND + p // 9] & ~(1 << (p % 9)) != 0


def make_multi(run, name):
    """The producer whose runs are ``run``."""

    def on_run(g, save, gr, cache, k, level, dynamic, nishio, nctx):
        cached = cache[0]
        if not cached[k]:
            clash = run(g, save, gr, k, level, dynamic, nishio, nctx)
            _store(gr, cache, k, clash)

    on_run.__name__ = name + "_on_run"
    on_run.__qualname__ = name + "_on_run"
    on_run = kernel(on_run)

    def multi(g, hi, hd, hrem, level, nishio, dynamic, multiple, nctx):
        """The best hint of the producer (see the module); False when it finds none."""
        save = np.empty(GLEN, dtype=np.int32)
        gr = new_graph()
        mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = gr
        cache = new_cache()
        cached, c_mem, c_on, c_off, c_n, c_cnt = cache
        base = level_difficulty(level, nishio, dynamic, multiple)
        best_d = 1e9
        best_c = 0
        best_s = 0
        best_kind = 0
        best_target = 0
        best_src = 0
        places = np.empty(9, dtype=np.int64)
        for c in range(81):
            if g[VAL + c] != 0:
                continue
            cm = g[CAND + c]
            card = POPCOUNT[cm]
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            m = cm
            while m:
                d = LOWBIT[m]
                m &= m - 1
                k = 9 * c + d
                on_run(g, save, gr, cache, k, level, dynamic, nishio, nctx)
                contra = dynamic or nishio
                double = card >= 3 and not nishio and dynamic
                if contra and c_n[k, 2] > 0:
                    comp = c_n[k, 2]
                    dd = base + length_difficulty(comp)
                    if key_less(dd, comp, 7, best_d, best_c, best_s):
                        best_d, best_c, best_s = dd, comp, 7
                        best_kind, best_target, best_src = K_ABSURD_ON, OFF + k, k
                if contra or double:
                    clash = run(g, save, gr, OFF + k, level, dynamic, nishio, nctx)
                    if contra and clash:
                        comp = _clash_complexity(gr)
                        dd = base + length_difficulty(comp)
                        if key_less(dd, comp, 7, best_d, best_c, best_s):
                            best_d, best_c, best_s = dd, comp, 7
                            best_kind, best_target, best_src = K_ABSURD_OFF, k, k
                    if double:
                        for i in range(c_n[k, 0]):
                            p = c_on[k, i]
                            if mem[p] and _worthy(g, p):
                                comp = c_cnt[k, p] + count_bits(anc, p)
                                dd = base + length_difficulty(comp)
                                if key_less(dd, comp, 1, best_d, best_c, best_s):
                                    best_d, best_c, best_s = dd, comp, 1
                                    best_kind, best_target, best_src = K_DOUBLE, p, k
                        for i in range(c_n[k, 1]):
                            p = c_off[k, i]
                            if mem[p]:
                                comp = c_cnt[k, p] + count_bits(anc, p)
                                dd = base + length_difficulty(comp)
                                if key_less(dd, comp, 1, best_d, best_c, best_s):
                                    best_d, best_c, best_s = dd, comp, 1
                                    best_kind, best_target, best_src = K_DOUBLE, p, k
                if not nishio:
                    # region chains: regions where this cell is the digit's first place
                    for kr in range(3):
                        reg = _region_of(c, kr)
                        pos = g[RPOS + 9 * reg + d]
                        pc = POPCOUNT[pos]
                        if not (pc == 2 or (multiple and pc > 2)):
                            continue
                        if REGION_CELLS[reg, LOWBIT[pos]] != c:
                            continue
                        npl = 0
                        while pos:
                            places[npl] = 9 * REGION_CELLS[reg, LOWBIT[pos]] + d
                            npl += 1
                            pos &= pos - 1
                        for i in range(npl):
                            on_run(g, save, gr, cache, places[i], level, dynamic, nishio, nctx)
                        for side in range(2):
                            nl = c_n[k, side]
                            for i in range(nl):
                                p = c_on[k, i] if side == 0 else c_off[k, i]
                                comp = 0
                                inall = True
                                for j in range(npl):
                                    kk = places[j]
                                    if not _has(c_mem, kk, p):
                                        inall = False
                                        break
                                    comp += c_cnt[kk, p]
                                if not inall or not _worthy(g, p):
                                    continue
                                dd = base + length_difficulty(comp)
                                if key_less(dd, comp, 6, best_d, best_c, best_s):
                                    best_d, best_c, best_s = dd, comp, 6
                                    best_kind, best_target, best_src = K_REGION, p, reg
            if not nishio and (card == 2 or (multiple and card > 2)):
                k0 = 9 * c + LOWBIT[cm]
                for side in range(2):
                    nl = c_n[k0, side]
                    for i in range(nl):
                        p = c_on[k0, i] if side == 0 else c_off[k0, i]
                        comp = 0
                        inall = True
                        mm = cm
                        while mm:
                            kk = 9 * c + LOWBIT[mm]
                            mm &= mm - 1
                            if not _has(c_mem, kk, p):
                                inall = False
                                break
                            comp += c_cnt[kk, p]
                        if not inall or not _worthy(g, p):
                            continue
                        dd = base + length_difficulty(comp)
                        if key_less(dd, comp, 5, best_d, best_c, best_s):
                            best_d, best_c, best_s = dd, comp, 5
                            best_kind, best_target, best_src = K_CELL, p, c
        if best_kind == 0:
            return False
        for x in range(81):
            hrem[x] = 0
        t = best_target
        if t >= OFF:
            hrem[(t - OFF) // 9] = 1 << ((t - OFF) % 9)
            hi[1] = -1
            hi[2] = 0
        else:
            tc = t // 9
            hrem[tc] = g[CAND + tc] & ~(1 << (t % 9))
            hi[1] = tc
            hi[2] = t % 9 + 1
        if best_kind == K_ABSURD_ON or best_kind == K_ABSURD_OFF:
            hi[0] = T.NISHIO if nishio else T.CONTRADICTION_FORCING
        elif best_kind == K_DOUBLE:
            hi[0] = T.DOUBLE_FORCING
        elif best_kind == K_REGION:
            hi[0] = T.REGION_FORCING
        else:
            hi[0] = T.CELL_FORCING
        hi[3] = best_src
        hi[4] = 1 if dynamic else 0
        hi[5] = level
        hd[0] = best_d
        return True

    multi.__name__ = name
    multi.__qualname__ = name
    return kernel(multi)


@kernel
def _region_of(c, k):
    # block, row, column: SE's getRegionTypes order
    if k == 0:
        return (c // 27) * 3 + (c % 9) // 3
    if k == 1:
        return 9 + c // 9
    return 18 + c % 9
