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
target's ancestors) plus, with nested rules, the complexity of each distinct nested chain among
those ancestors; its difficulty is the producer's base (multiple 8.0, dynamic 8.5, Nishio 7.5,
nested levels 9.0 and up) plus the length difficulty. Sudoku Explainer sorts all hints by
(difficulty, complexity, sort key), stably, and applies the first.

``make_multi``: the producer at the top of the rating loop, which keeps the first of the sorted
hints. Runs from a candidate assumed true are shared by the binary, region and cell hints of one
call (SE computes them again for each): a run depends only on the grid and its start.
``make_multi_collect``: the producer nested in a run (``_nested``), which hands every hint to
the run, so it keeps the graphs the hints need (a pool, per cell).
"""
import numpy as np

from .._bits import LOWBIT, POPCOUNT, trailing_zeros
from .._jit import kernel
from . import techniques as T
from ._graph import (ANCN, C_BLOCK, C_NAKED, EXTRA, N_NODES, N_OFF, N_ON, NID, NPID, OFF, W, X_NEW, X_OFF, X_ON, X_WHY,
                     count_pid, count_row, key_less, length_difficulty, level_difficulty, new_graph, pool_graph, row_width,
                     v_cause, v_cnt, v_lst, v_mem, v_nest, v_nid, v_pidof)
from ._hintlist import hl_add, hl_done, hl_emit, hl_removed, nested_sum
from ._tables import CAND, CELL_REGION, GLEN, REGION_CELLS, RPOS, VAL

K_ABSURD_ON, K_ABSURD_OFF, K_DOUBLE, K_REGION, K_CELL = 1, 2, 3, 4, 5
NBUF = 1 << 21
MAXSEEN = 4096


@kernel
def new_cache(nested):
    """The runs of one top-level call: per candidate assumed true, its "on" and "off" lists,
    membership, each potential's complexity and (``nested``) the distinct nested chains among
    its ancestors (fingerprint, complexity pairs in ``nb_fp``/``nb_comp``)."""
    cached = np.zeros(729, dtype=np.bool_)
    c_mem = np.empty((729, W), dtype=np.uint64)
    c_on = np.empty((729, 729), dtype=np.int16)
    c_off = np.empty((729, 729), dtype=np.int16)
    c_n = np.empty((729, 3), dtype=np.int64)  # on count, off count, clash complexity (0: none)
    c_cnt = np.empty((729, NPID), dtype=np.int16)
    nn = 729 if nested else 0
    c_nl0 = np.empty((nn, NPID), dtype=np.int32)
    c_nll = np.empty((nn, NPID), dtype=np.int16)
    nb_fp = np.empty(NBUF if nested else 0, dtype=np.uint64)
    nb_comp = np.empty(NBUF if nested else 0, dtype=np.int64)
    nb_n = np.zeros(1, dtype=np.int64)
    return cached, c_mem, c_on, c_off, c_n, c_cnt, c_nl0, c_nll, nb_fp, nb_comp, nb_n


@kernel
def new_workspace(nested):
    """What a top-level producer reuses from call to call (its graph, its cache of runs, small
    buffers), so that a call does not allocate (and fault in) megabytes anew."""
    return (np.empty(GLEN, dtype=np.int32), new_graph(), new_cache(nested), np.empty(9, dtype=np.int64),
            np.zeros(MAXSEEN, dtype=np.uint64), np.zeros(1, dtype=np.int64), np.empty(9, dtype=np.int64))


@kernel
def _nest_mask(gr, mask):
    """The potentials of the run that a nested chain removed; False when there are none."""
    mem, lst, cnt, nest, nid, anc = v_mem(gr), v_lst(gr), v_cnt(gr), v_nest(gr), v_nid(gr), gr[1]
    any_ = False
    for w in range(W):
        mask[w] = 0
    for i in range(cnt[N_OFF]):
        p = lst[729 + i]
        if nest[p] >= 0:
            node = nid[p]
            mask[node >> 6] |= np.uint64(1) << np.uint64(node & 63)
            any_ = True
    return any_


@kernel
def _nested_of(gr, row, recs, mask, fps, comps, n0, cap):
    """Append to ``fps``/``comps`` (from ``n0``) the distinct nested chains among the ancestors
    of ``anc[row]``; returns the new end."""
    anc = gr[1]
    nest = v_nest(gr)
    pidof = v_pidof(gr)
    rcomp, rfp, rn = recs
    n = n0
    for w in range(row_width(gr, row)):
        x = anc[row, w] & mask[w]
        while x:
            p = pidof[64 * w + trailing_zeros(x)]
            x &= x - np.uint64(1)
            r = nest[p]
            fp = rfp[r]
            dup = False
            for j in range(n0, n):
                if fps[j] == fp:
                    dup = True
                    break
            if not dup:
                if n >= cap:
                    raise ValueError("nested chains: cache list full")
                fps[n] = fp
                comps[n] = rcomp[r]
                n += 1
    return n


@kernel(inline="always")
def _store(gr, cache, k, clash):
    """Keep what the hints need of the run just made from candidate ``k`` assumed true."""
    gi = gr[0]
    lst, cnt = v_lst(gr), v_cnt(gr)
    cached, c_mem, c_on, c_off, c_n, c_cnt, c_nl0, c_nll, nb_fp, nb_comp, nb_n = cache
    cached[k] = True
    for w in range(W):
        c_mem[k, w] = 0
    for side in range(2):
        n = cnt[N_ON] if side == 0 else cnt[N_OFF]
        for i in range(n):
            p = lst[i] if side == 0 else lst[729 + i]
            if side == 0:
                c_on[k, i] = p
            else:
                c_off[k, i] = p
            c_mem[k, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
            c_cnt[k, p] = gi[ANCN + gi[NID + p]]  # count_pid, without a tuple per potential
    c_n[k, 0] = cnt[N_ON]
    c_n[k, 1] = cnt[N_OFF]
    c_n[k, 2] = _clash_flat(gr) if clash else 0


@kernel
def _store_nested(gr, cache, k, clash, recs):
    """With nested rules: the distinct nested chains among each potential's ancestors, and the
    contradiction's complexity with its nested chains."""
    mem, lst, cnt, nest, nid, anc = v_mem(gr), v_lst(gr), v_cnt(gr), v_nest(gr), v_nid(gr), gr[1]
    cached, c_mem, c_on, c_off, c_n, c_cnt, c_nl0, c_nll, nb_fp, nb_comp, nb_n = cache
    mask = np.zeros(W, dtype=np.uint64)
    has_nested = _nest_mask(gr, mask)
    for side in range(2):
        n = cnt[N_ON] if side == 0 else cnt[N_OFF]
        for i in range(n):
            p = lst[i] if side == 0 else lst[729 + i]
            c_nl0[k, p] = nb_n[0]
            e = nb_n[0]
            if has_nested:
                e = _nested_of(gr, nid[p], recs, mask, nb_fp, nb_comp, nb_n[0], nb_fp.shape[0])
            c_nll[k, p] = e - nb_n[0]
            nb_n[0] = e
    if clash and has_nested:
        seen = np.zeros(MAXSEEN, dtype=np.uint64)
        sn = np.zeros(1, dtype=np.int64)
        c_n[k, 2] += nested_sum(gr, _clash_on_row(gr), recs, seen, sn)
        c_n[k, 2] += nested_sum(gr, _clash_off_row(gr), recs, seen, sn)


@kernel
def _clash_on_row(gr):
    cnt = v_cnt(gr)
    return v_nid(gr)[cnt[X_ON]] if cnt[X_NEW] == 1 else EXTRA


@kernel
def _clash_off_row(gr):
    cnt = v_cnt(gr)
    return EXTRA if cnt[X_NEW] == 1 else v_nid(gr)[cnt[X_OFF]]


@kernel
def _clash_flat(gr):
    return count_row(gr, _clash_on_row(gr)) + count_row(gr, _clash_off_row(gr))


@kernel(inline="always")
def _has(c_mem, k, p):
    return (c_mem[k, p >> 6] >> np.uint64(p & 63)) & np.uint64(1) != np.uint64(0)


@kernel(inline="always")
def _worthy(g, p):
    """A hint whose target is "on" removes the cell's other candidates: worthy when it has some."""
    if p >= OFF:
        return True
    return g[CAND + p // 9] & ~(1 << (p % 9)) != 0


@kernel
def _cached_nested(cache, ks, nk, p, seen, sn):
    """Add the distinct nested chains of potential ``p`` in the cached runs ``ks[:nk]``."""
    cached, c_mem, c_on, c_off, c_n, c_cnt, c_nl0, c_nll, nb_fp, nb_comp, nb_n = cache
    total = 0
    for t in range(nk):
        k = ks[t]
        o = c_nl0[k, p]
        for j in range(o, o + c_nll[k, p]):
            fp = nb_fp[j]
            dup = False
            for u in range(sn[0]):
                if seen[u] == fp:
                    dup = True
                    break
            if not dup:
                seen[sn[0]] = fp
                sn[0] += 1
                total += nb_comp[j]
    return total


@kernel
def _region_of(c, k):
    # block, row, column: SE's getRegionTypes order
    if k == 0:
        return (c // 27) * 3 + (c % 9) // 3
    if k == 1:
        return 9 + c // 9
    return 18 + c % 9


@kernel
def _target_removals(g, t, rem):
    """A chain hint's removals from its target: an "on" target's other candidates, or the
    "off" target's candidate."""
    for x in range(81):
        rem[x] = 0
    if t >= OFF:
        rem[(t - OFF) // 9] = 1 << ((t - OFF) % 9)
    else:
        rem[t // 9] = g[CAND + t // 9] & ~(1 << (t % 9))


def make_multi(run, name, nested):
    """The top-level producer whose runs are ``run``; ``nested`` (a constant of the compiled
    code): whether its runs nest chains, whose complexity counts."""

    def on_run(g, save, gr, cache, k, level, dynamic, nishio, nctx):
        """The run from candidate ``k`` assumed true, into the cache (the caller asks only for
        one not cached: a call, not inlined, so that its reference counts are paid per run)."""
        cached = cache[0]
        recs = nctx[0]
        recs[2][0] = 0  # records live for one top-level run: what the cache needs is copied
        clash = run(g, save, gr, k, level, dynamic, nishio, nctx)
        if nishio and not nested:
            # a Nishio hint is a contradiction: its complexity is all the run has to keep
            cached[k] = True
            cache[4][k, 2] = _clash_flat(gr) if clash else 0
        else:
            _store(gr, cache, k, clash)
            if nested:
                _store_nested(gr, cache, k, clash, recs)

    on_run.__name__ = name + "_on_run"
    on_run.__qualname__ = name + "_on_run"
    on_run = kernel(on_run)

    def multi(g, hi, hd, hrem, level, nishio, dynamic, multiple, nctx, ws):
        """The first hint of the producer in SE's order (see the module); False when none.
        ``ws``: ``new_workspace(nested)``, reused from call to call."""
        recs = nctx[0]
        save, gr, cache, places, seen, sn, ks = ws
        gi = gr[0]
        mem, lst, cnt, nest, nid, anc = v_mem(gr), v_lst(gr), v_cnt(gr), v_nest(gr), v_nid(gr), gr[1]
        cached, c_mem, c_on, c_off, c_n, c_cnt, c_nl0, c_nll, nb_fp, nb_comp, nb_n = cache
        for k in range(729):
            cached[k] = False
        nb_n[0] = 0
        base = level_difficulty(level, nishio, dynamic, multiple)
        best_d = 1e9
        best_c = 0
        best_s = 0
        best_kind = 0
        best_target = 0
        best_src = 0
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
                if not cached[k]:
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
                    recs[2][0] = 0
                    clash = run(g, save, gr, OFF + k, level, dynamic, nishio, nctx)
                    if contra and clash:
                        comp = _clash_flat(gr)
                        if nested:
                            sn[0] = 0
                            comp += nested_sum(gr, _clash_on_row(gr), recs, seen, sn)
                            comp += nested_sum(gr, _clash_off_row(gr), recs, seen, sn)
                        dd = base + length_difficulty(comp)
                        if key_less(dd, comp, 7, best_d, best_c, best_s):
                            best_d, best_c, best_s = dd, comp, 7
                            best_kind, best_target, best_src = K_ABSURD_OFF, k, k
                    if double:
                        ks[0] = k
                        for side in range(2):
                            nl = c_n[k, side]
                            for i in range(nl):
                                p = c_on[k, i] if side == 0 else c_off[k, i]
                                if not mem[p] or not _worthy(g, p):
                                    continue
                                comp = c_cnt[k, p] + gi[ANCN + nid[p]]
                                if nested:
                                    sn[0] = 0
                                    comp += _cached_nested(cache, ks, 1, p, seen, sn)
                                    comp += nested_sum(gr, nid[p], recs, seen, sn)
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
                            if not cached[places[i]]:
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
                                if nested:
                                    sn[0] = 0
                                    comp += _cached_nested(cache, places, npl, p, seen, sn)
                                dd = base + length_difficulty(comp)
                                if key_less(dd, comp, 6, best_d, best_c, best_s):
                                    best_d, best_c, best_s = dd, comp, 6
                                    best_kind, best_target, best_src = K_REGION, p, reg
            if not nishio and (card == 2 or (multiple and card > 2)):
                nv = 0
                mm = cm
                while mm:
                    ks[nv] = 9 * c + LOWBIT[mm]
                    nv += 1
                    mm &= mm - 1
                k0 = ks[0]
                for side in range(2):
                    nl = c_n[k0, side]
                    for i in range(nl):
                        p = c_on[k0, i] if side == 0 else c_off[k0, i]
                        comp = 0
                        inall = True
                        for j in range(nv):
                            kk = ks[j]
                            if not _has(c_mem, kk, p):
                                inall = False
                                break
                            comp += c_cnt[kk, p]
                        if not inall or not _worthy(g, p):
                            continue
                        if nested:
                            sn[0] = 0
                            comp += _cached_nested(cache, ks, nv, p, seen, sn)
                        dd = base + length_difficulty(comp)
                        if key_less(dd, comp, 5, best_d, best_c, best_s):
                            best_d, best_c, best_s = dd, comp, 5
                            best_kind, best_target, best_src = K_CELL, p, c
        if best_kind == 0:
            return False
        _target_removals(g, best_target, hrem)
        t = best_target
        if t >= OFF:
            hi[1] = -1
            hi[2] = 0
        else:
            hi[1] = t // 9
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
def _collect_parents(hl, i, g, save, mem_out, gr, row, root_why, mark):
    """Rule parents of one chain target (``collectRuleParents``): for each "on" potential among
    its ancestors with a cause, the candidates the calling run removed in its cell or region.
    ``root_why``: the cause given to the chain's start (cell and region hints), or 0."""
    anc = gr[1]
    cause = v_cause(gr)
    cnt = v_cnt(gr)
    pidof = v_pidof(gr)
    for w in range(row_width(gr, row)):
        x = anc[row, w]
        while x:
            node = 64 * w + trailing_zeros(x)
            x &= x - np.uint64(1)
            p = pidof[node]
            if p >= 729:
                continue
            why = cause[p]
            if row == EXTRA and node == cnt[N_NODES] and cnt[X_NEW] == 0:
                why = cnt[X_WHY]  # the clashing "on" potential made without being added
            elif why == 0:
                why = root_why
            if why != 0:
                hl_removed(hl, i, g, save, mem_out, p // 9, p % 9, why, mark)


def make_multi_collect(run, name, run_nests=True):
    """The producer nested in a run, whose own runs are ``run``: every hint it finds on the
    run's reduced grid ``g`` goes to the run's graph ``gr_out`` (see ``_hintlist``); returns the
    potentials produced. Its graphs: ``pool_graph(pool, i)``, 0-8 the runs of the cell's
    candidates, 9-17 the other places of a region, 18 a candidate assumed false. ``run_nests``
    False: its runs ask no nested rules, so they are handed an empty scratch, not ``nctx``
    (a run pays reference counts on every array it is handed)."""
    if run_nests:
        def ctx_of(nctx):
            return nctx
    else:
        def ctx_of(nctx):
            return ()
    ctx_of.__name__ = ctx_of.__qualname__ = name + "_ctx"
    ctx_of = kernel(inline="always")(ctx_of)

    def collect(g, save, gr_out, level, nishio, dynamic, multiple, nctx):
        recs, hlu, hl, usc, mark, pool, seen = nctx
        rctx = ctx_of(nctx)
        rn0 = recs[2][0]
        hn = hl[5]
        hn[0] = 0
        hn[1] = 0
        mem_out = gr_out[0]
        save2 = np.empty(GLEN, dtype=np.int32)
        base = level_difficulty(level, nishio, dynamic, multiple)
        sn = np.zeros(1, dtype=np.int64)
        rem = np.zeros(81, dtype=np.int64)
        places = np.empty(9, dtype=np.int64)
        slots = np.empty(9, dtype=np.int64)
        for c in range(81):
            if g[VAL + c] != 0:
                continue
            cm = g[CAND + c]
            card = POPCOUNT[cm]
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            nv = 0
            m = cm
            while m:
                d = LOWBIT[m]
                m &= m - 1
                k = 9 * c + d
                sa = nv
                nv += 1
                ga = pool_graph(pool, sa)
                clash_a = run(g, save2, ga, k, level, dynamic, nishio, rctx)
                contra = dynamic or nishio
                double = card >= 3 and not nishio and dynamic
                if contra and clash_a:
                    _add_clash(hl, g, save, mem_out, ga, OFF + k, base, recs, seen, sn, mark, rem)
                if contra or double:
                    gb = pool_graph(pool, 18)
                    clash_b = run(g, save2, gb, OFF + k, level, dynamic, nishio, rctx)
                    if contra and clash_b:
                        _add_clash(hl, g, save, mem_out, gb, k, base, recs, seen, sn, mark, rem)
                    if double:
                        cnt_a = v_cnt(ga)
                        lst_a = v_lst(ga)
                        for side in range(2):
                            nl = cnt_a[N_ON] if side == 0 else cnt_a[N_OFF]
                            for i in range(nl):
                                p = lst_a[i] if side == 0 else lst_a[729 + i]
                                if not v_mem(gb)[p] or not _worthy(g, p):
                                    continue
                                ra = v_nid(ga)[p]
                                rb = v_nid(gb)[p]
                                comp = count_row(ga, ra) + count_row(gb, rb)
                                sn[0] = 0
                                comp += nested_sum(ga, ra, recs, seen, sn) + nested_sum(gb, rb, recs, seen, sn)
                                dd = base + length_difficulty(comp)
                                _target_removals(g, p, rem)
                                h = _fp_step(_fp_row(ga, ra), _fp_row(gb, rb))
                                j = hl_add(hl, dd, comp, 1, h, rem)
                                _collect_parents(hl, j, g, save, mem_out, ga, ra, 0, mark)
                                _collect_parents(hl, j, g, save, mem_out, gb, rb, 0, mark)
                                hl_done(hl, j, mark)
                if not nishio:
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
                        slots[0] = sa
                        for i in range(1, npl):
                            slots[i] = 8 + i
                            run(g, save2, pool_graph(pool, 8 + i), places[i], level, dynamic, nishio, rctx)
                        why = C_BLOCK + kr
                        _region_or_cell(hl, g, save, mem_out, pool, slots, npl, base, 6, why, recs, seen, sn,
                                        mark, rem)
            if not nishio and (card == 2 or (multiple and card > 2)):
                for i in range(nv):
                    slots[i] = i
                _region_or_cell(hl, g, save, mem_out, pool, slots, nv, base, 5, C_NAKED, recs, seen, sn, mark, rem)
        recs[2][0] = rn0  # the records of this call's own runs are no longer needed
        return hl_emit(hl, gr_out, recs)

    collect.__name__ = name
    collect.__qualname__ = name
    return kernel(collect)


@kernel
def _fp_row(gr, row):
    """A fingerprint of one chain: its target and the potentials among its ancestors (part of
    Sudoku Explainer's ``FullChain`` identity of a hint, used to count a nested chain once)."""
    anc = gr[1]
    pidof = v_pidof(gr)
    h = np.uint64(0)
    for w in range(row_width(gr, row)):
        x = anc[row, w]
        while x:
            p = pidof[64 * w + trailing_zeros(x)]
            x &= x - np.uint64(1)
            h += (np.uint64(p) + np.uint64(0x9E3779B97F4A7C15)) * np.uint64(0xBF58476D1CE4E5B9)
    node = row if row != EXTRA else v_cnt(gr)[N_NODES]
    return _fp_step(h, pidof[node])


@kernel
def _fp_step(h, v):
    return (h ^ np.uint64(v)) * np.uint64(0x100000001B3)


@kernel
def _add_clash(hl, g, save, mem_out, gr, target, base, recs, seen, sn, mark, rem):
    """A contradiction hint of run ``gr`` (target: the start, "off" when it was assumed true)."""
    on_row = _clash_on_row(gr)
    off_row = _clash_off_row(gr)
    comp = _clash_flat(gr)
    sn[0] = 0
    comp += nested_sum(gr, on_row, recs, seen, sn) + nested_sum(gr, off_row, recs, seen, sn)
    dd = base + length_difficulty(comp)
    _target_removals(g, target, rem)
    h = _fp_step(_fp_row(gr, on_row), _fp_row(gr, off_row))
    j = hl_add(hl, dd, comp, 7, h, rem)
    _collect_parents(hl, j, g, save, mem_out, gr, on_row, 0, mark)
    _collect_parents(hl, j, g, save, mem_out, gr, off_row, 0, mark)
    hl_done(hl, j, mark)


@kernel
def _region_or_cell(hl, g, save, mem_out, pool, slots, n, base, sortkey, root_why, recs, seen, sn, mark, rem):
    """The hints implied by every one of the runs ``slots[:n]`` (region: sort key 6, the root's
    cause the region's; cell: 5, naked), in the first run's order."""
    g0 = pool_graph(pool, slots[0])
    cnt0 = v_cnt(g0)
    lst0 = v_lst(g0)
    for side in range(2):
        nl = cnt0[N_ON] if side == 0 else cnt0[N_OFF]
        for i in range(nl):
            p = lst0[i] if side == 0 else lst0[729 + i]
            comp = 0
            inall = True
            for j in range(n):
                gj = pool_graph(pool, slots[j])
                if not v_mem(gj)[p]:
                    inall = False
                    break
                comp += count_pid(gj, p)
            if not inall or not _worthy(g, p):
                continue
            sn[0] = 0
            h = np.uint64(1469598103934665603)
            for j in range(n):
                gj = pool_graph(pool, slots[j])
                comp += nested_sum(gj, v_nid(gj)[p], recs, seen, sn)
                h = _fp_step(h, _fp_row(gj, v_nid(gj)[p]))
            dd = base + length_difficulty(comp)
            _target_removals(g, p, rem)
            t = hl_add(hl, dd, comp, sortkey, h, rem)
            for j in range(n):
                gj = pool_graph(pool, slots[j])
                _collect_parents(hl, t, g, save, mem_out, gj, v_nid(gj)[p], root_why, mark)
            hl_done(hl, t, mark)
