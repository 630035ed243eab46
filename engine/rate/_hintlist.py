"""Every hint of a chaining rule nested in a run, the way Sudoku Explainer hands them to the run
(``getAdvancedPotentials``): all hints of the rule, sorted stably by (difficulty, complexity, sort
key), those with the same removals as an earlier one dropped, then, for each hint that needs some
of the run's "off" potentials (its rule parents), an "off" potential for each candidate it
removes, whose parents are those rule parents and whose nested chain is the hint.

The list (``new_hintlist``) is a tuple of arrays:

- ``hf`` float64[HMAX]: difficulty; ``hi`` int64[HMAX, HI_N]: complexity (with nested chains),
  sort key, first rule parent, number of rule parents; ``hfp`` uint64[HMAX]: the chains'
  fingerprint (Sudoku Explainer's ``FullChain``: same targets, same ancestors);
- ``hrem`` int32[HMAX, 81]: the removals;
- ``hrp`` int32[RPMAX]: rule parents (pids of "off" potentials of the calling run);
- ``hn`` int64[2]: hints, rule parents used.

Nested chain records (``new_records``): ``rcomp`` int64, ``rfp`` uint64 per record, ``rn``
int64[1]: a potential's ``nest`` points at the record of the hint that removed it.
"""
import numpy as np

from .._bits import LOWBIT, trailing_zeros
from .._jit import kernel
from ._graph import C_ADVANCED, C_BLOCK, C_NAKED, OFF, add_node, row_width, v_mem, v_nest, v_pidof
from ._tables import CAND, CELL_REGION, REGION_CELLS, RPOS

HMAX = 16384
RPMAX = 1 << 20
HI_COMP, HI_SORT, HI_RP0, HI_NRP = 0, 1, 2, 3
HI_N = 4
MAXREC = 1 << 20


@kernel
def new_hintlist(n):
    hf = np.zeros(n, dtype=np.float64)
    hi = np.zeros((n, HI_N), dtype=np.int64)
    hfp = np.zeros(n, dtype=np.uint64)
    hrem = np.zeros((n, 81), dtype=np.int32)
    hrp = np.zeros(RPMAX if n > 0 else 0, dtype=np.int32)
    hn = np.zeros(2, dtype=np.int64)
    return hf, hi, hfp, hrem, hrp, hn


@kernel
def new_records(n):
    return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.uint64), np.zeros(1, dtype=np.int64)


@kernel
def hl_add(hl, diff, comp, sortkey, fp, rem):
    """Append a hint (removals ``rem``, int array of 81 masks); returns its index. Its rule
    parents are appended next with ``hl_parent``."""
    hf, hi, hfp, hrem, hrp, hn = hl
    i = hn[0]
    if i >= hf.shape[0]:
        raise ValueError("nested chains: hint list full")
    hf[i] = diff
    hi[i, HI_COMP] = comp
    hi[i, HI_SORT] = sortkey
    hi[i, HI_RP0] = hn[1]
    hi[i, HI_NRP] = 0
    hfp[i] = fp
    for c in range(81):
        hrem[i, c] = rem[c]
    hn[0] = i + 1
    return i


@kernel
def hl_removed(hl, i, g, save, mem, c, d, why, mark):
    """The rule parents an "on" potential (c, d) with cause ``why`` brings (``collectRuleParents``):
    the candidates of its cell (naked) or of its digit in its region (hidden) that the run has
    removed; each once per hint (``mark``: int8[1536], cleared by ``hl_done``)."""
    hf, hi, hfp, hrem, hrp, hn = hl
    if why == C_NAKED:
        m = save[CAND + c] & ~g[CAND + c]
        while m:
            q = OFF + 9 * c + LOWBIT[m]
            m &= m - 1
            _push(hl, i, mem, q, mark)
    elif why >= C_BLOCK and why < C_ADVANCED:
        reg = CELL_REGION[c, why - C_BLOCK]
        m = save[RPOS + 9 * reg + d] & ~g[RPOS + 9 * reg + d]
        while m:
            q = OFF + 9 * REGION_CELLS[reg, LOWBIT[m]] + d
            m &= m - 1
            _push(hl, i, mem, q, mark)


@kernel
def _push(hl, i, mem, q, mark):
    hf, hi, hfp, hrem, hrp, hn = hl
    if mark[q]:
        return
    if mem[q] == 0:
        raise ValueError("nested chains: rule parent not in the run")
    mark[q] = 1
    if hn[1] >= hrp.shape[0]:
        raise ValueError("nested chains: rule parent list full")
    hrp[hn[1]] = q
    hn[1] += 1
    hi[i, HI_NRP] += 1


@kernel
def hl_done(hl, i, mark):
    """Clear the marks of hint ``i``'s rule parents."""
    hf, hi, hfp, hrem, hrp, hn = hl
    for j in range(hi[i, HI_RP0], hi[i, HI_RP0] + hi[i, HI_NRP]):
        mark[hrp[j]] = 0


@kernel
def _before(hf, hi, a, b):
    # SE's comparator (difficulty, complexity, sort key), ties by list order
    if hf[a] != hf[b]:
        return hf[a] < hf[b]
    if hi[a, HI_COMP] != hi[b, HI_COMP]:
        return hi[a, HI_COMP] < hi[b, HI_COMP]
    if hi[a, HI_SORT] != hi[b, HI_SORT]:
        return hi[a, HI_SORT] < hi[b, HI_SORT]
    return a < b


@kernel
def hl_order(hl):
    """Indices of the hints in Sudoku Explainer's order (a stable merge sort)."""
    hf, hi, hfp, hrem, hrp, hn = hl
    n = hn[0]
    idx = np.arange(n)
    tmp = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi_ = min(lo + 2 * width, n)
            a = lo
            b = mid
            k = lo
            while a < mid and b < hi_:
                if _before(hf, hi, idx[b], idx[a]):
                    tmp[k] = idx[b]
                    b += 1
                else:
                    tmp[k] = idx[a]
                    a += 1
                k += 1
            while a < mid:
                tmp[k] = idx[a]
                a += 1
                k += 1
            while b < hi_:
                tmp[k] = idx[b]
                b += 1
                k += 1
            lo += 2 * width
        for j in range(n):
            idx[j] = tmp[j]
        width *= 2
    return idx


@kernel
def _same_removals(hrem, a, b):
    for c in range(81):
        if hrem[a, c] != hrem[b, c]:
            return False
    return True


@kernel
def hl_emit(hl, gr, recs):
    """Hand the hints to the run ``gr``: sorted, duplicates dropped, an "off" potential per
    removal of each hint that has rule parents (added unless the run has it). Returns how
    many potentials were produced (added or not)."""
    hf, hi, hfp, hrem, hrp, hn = hl
    rcomp, rfp, rn = recs
    gi, anc = gr
    mem = v_mem(gr)
    nest = v_nest(gr)
    order = hl_order(hl)
    n = hn[0]
    kept = np.empty(n, dtype=np.int64)
    nkept = 0
    sig = np.empty(n, dtype=np.int64)
    produced = 0
    for t in range(n):
        i = order[t]
        s = 0
        for c in range(81):
            s = s * 1000003 + hrem[i, c]
        dup = False
        for u in range(nkept):
            if sig[u] == s and _same_removals(hrem, kept[u], i):
                dup = True
                break
        if dup:
            continue
        kept[nkept] = i
        sig[nkept] = s
        nkept += 1
        if hi[i, HI_NRP] == 0:
            continue
        r = rn[0]
        if r >= rcomp.shape[0]:
            raise ValueError("nested chains: record table full")
        rcomp[r] = hi[i, HI_COMP]
        rfp[r] = hfp[i]
        rn[0] = r + 1
        p0 = hi[i, HI_RP0]
        npar = hi[i, HI_NRP]
        for c in range(81):
            m = hrem[i, c]
            while m:
                q = OFF + 9 * c + LOWBIT[m]
                m &= m - 1
                produced += 1
                if mem[q] == 0:
                    add_node(gi, anc, q, hrp[p0:p0 + npar], npar, C_ADVANCED)
                    nest[q] = r
    return produced


@kernel
def nested_sum(gr, row, recs, seen_fp, seen_n):
    """Add to the distinct chains seen (``seen_fp[:seen_n[0]]``) those nested among the
    ancestors of ``anc[row]`` (a node, or ``EXTRA``); returns the complexity they add."""
    anc = gr[1]
    nest = v_nest(gr)
    pidof = v_pidof(gr)
    rcomp, rfp, rn = recs
    total = 0
    for w in range(row_width(gr, row)):
        x = anc[row, w]
        while x:
            b = trailing_zeros(x)
            x &= x - np.uint64(1)
            r = nest[pidof[64 * w + b]]
            if r < 0:
                continue
            fp = rfp[r]
            dup = False
            for j in range(seen_n[0]):
                if seen_fp[j] == fp:
                    dup = True
                    break
            if dup:
                continue
            seen_fp[seen_n[0]] = fp
            seen_n[0] += 1
            total += rcomp[r]
    return total
