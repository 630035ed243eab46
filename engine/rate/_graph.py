"""The implication graph of one chaining run (Sudoku Explainer's ``doChaining``), and the
difficulty of a chain from its length.

A potential is a candidate assumed true ("on") or false ("off"): its id ``pid`` is the candidate
``k = 9 * cell + d - 1`` when on and ``OFF + k`` when off. A run starts from one potential and
adds, breadth first with "on" potentials before "off" ones, every potential it implies, each once,
with its parents (the potentials that imply it: the one being expanded, plus, in dynamic runs,
the earlier "off" potentials whose removal made the implication possible). ``anc[pid]`` is the set
of the potential's ancestors, itself included, as 24 words of bits: a chain's complexity in
Sudoku Explainer is the number of distinct potentials among its target's ancestors.

The graph is a tuple of arrays (``new_graph``):

- ``mem`` int8[NPID]: 1 for a potential in the run;
- ``lst`` int32[2 * 729]: the "on" potentials in the order added (``lst[0:n_on]``), then the
  "off" ones (``lst[729:729 + n_off]``); each list is also the run's queue;
- ``cnt`` int64[CNT_LEN]: counters (below);
- ``pstart``, ``pn`` int32[NPID], ``pbuf`` int32[PBUF]: each potential's parents;
- ``anc`` uint64[NPID + 1, W]: ancestor sets (row ``EXTRA`` for the potential a contradiction
  creates without adding it);
- ``cause`` int8[NPID]: why the potential holds (``C_*``);
- ``nest`` int32[NPID]: for a potential a nested chain removed, that chain's record, else -1.
"""
import numpy as np

from .._jit import kernel

OFF = 768
NPID = 1536
W = 24
EXTRA = NPID
PBUF = 1 << 16

N_ON, N_OFF, H_ON, H_OFF, P_LEN, X_ON, X_OFF, X_NEW, X_WHY = 0, 1, 2, 3, 4, 5, 6, 7, 8
CNT_LEN = 9
"""``cnt``: on/off counts and queue heads, parents used; after a contradiction the "on" and
"off" potentials that clash, which of them is new (0 the "on", 1 the "off"; its ancestors are
``anc[EXTRA]``) and the new one's cause, else -1."""

C_NONE, C_NAKED, C_BLOCK, C_ROW, C_COLUMN, C_ADVANCED = 0, 1, 2, 3, 4, 5
"""``cause``: the start of the run; the cell's only other candidate / the candidate excluded by
a placed one in the cell; a region's only other place (block, row, column); a rule (nested)."""


@kernel
def new_graph():
    mem = np.zeros(NPID, dtype=np.int8)
    lst = np.zeros(2 * 729, dtype=np.int32)
    cnt = np.zeros(CNT_LEN, dtype=np.int64)
    pstart = np.zeros(NPID, dtype=np.int32)
    pn = np.zeros(NPID, dtype=np.int32)
    pbuf = np.zeros(PBUF, dtype=np.int32)
    anc = np.zeros((NPID + 1, W), dtype=np.uint64)
    cause = np.zeros(NPID, dtype=np.int8)
    nest = np.full(NPID, -1, dtype=np.int32)
    return mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest


@kernel
def new_pool(n):
    """``n`` graphs stacked: ``pool_graph(pool, i)`` is the i-th, as views."""
    mem = np.zeros((n, NPID), dtype=np.int8)
    lst = np.zeros((n, 2 * 729), dtype=np.int32)
    cnt = np.zeros((n, CNT_LEN), dtype=np.int64)
    pstart = np.zeros((n, NPID), dtype=np.int32)
    pn = np.zeros((n, NPID), dtype=np.int32)
    pbuf = np.zeros((n, PBUF), dtype=np.int32)
    anc = np.zeros((n, NPID + 1, W), dtype=np.uint64)
    cause = np.zeros((n, NPID), dtype=np.int8)
    nest = np.full((n, NPID), -1, dtype=np.int32)
    return mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest


@kernel
def pool_graph(pool, i):
    mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = pool
    return mem[i], lst[i], cnt[i], pstart[i], pn[i], pbuf[i], anc[i], cause[i], nest[i]


@kernel
def reset_graph(gr):
    mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = gr
    for i in range(cnt[N_ON]):
        mem[lst[i]] = 0
    for i in range(cnt[N_OFF]):
        p = lst[729 + i]
        mem[p] = 0
        nest[p] = -1
    for i in range(CNT_LEN):
        cnt[i] = 0
    cnt[X_ON] = -1
    cnt[X_OFF] = -1
    cnt[X_NEW] = -1


@kernel
def set_ancestors(gr, row, pid, parents, npar):
    """``anc[row]`` = the potential ``pid`` and the ancestors of its parents."""
    mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = gr
    for w in range(W):
        anc[row, w] = 0
    anc[row, pid >> 6] |= np.uint64(1) << np.uint64(pid & 63)
    for j in range(npar):
        q = parents[j]
        for w in range(W):
            anc[row, w] |= anc[q, w]


@kernel
def add_node(gr, pid, parents, npar, why):
    """Add potential ``pid`` (not in the run yet) with its parents, at the end of its list."""
    mem, lst, cnt, pstart, pn, pbuf, anc, cause, nest = gr
    mem[pid] = 1
    if pid >= OFF:
        lst[729 + cnt[N_OFF]] = pid
        cnt[N_OFF] += 1
    else:
        lst[cnt[N_ON]] = pid
        cnt[N_ON] += 1
    start = cnt[P_LEN]
    if start + npar > PBUF:
        raise ValueError("chaining: parent buffer full")
    pstart[pid] = start
    pn[pid] = npar
    for j in range(npar):
        pbuf[start + j] = parents[j]
    cnt[P_LEN] = start + npar
    cause[pid] = why
    set_ancestors(gr, pid, pid, parents, npar)


@kernel
def count_bits(anc, row):
    """Number of potentials in an ancestor set: the chain complexity of its potential."""
    n = 0
    for w in range(W):
        x = anc[row, w]
        while x:
            x &= x - np.uint64(1)
            n += 1
    return n


@kernel
def length_difficulty(complexity):
    """``ChainingHint.getLengthDifficulty``: 0.1 for each step of 4, 6, 8, 12, 16, 24, ... that
    the chain's length (complexity - 2) exceeds."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        if not odd:
            ceil = (ceil * 3) // 2
        else:
            ceil = (ceil * 4) // 3
        odd = not odd
    return added


@kernel
def level_difficulty(level, nishio, dynamic, multiple):
    """``Chaining.getDifficulty``: the base of a multiple / dynamic chain hint."""
    if level >= 2:
        return 9.5 + 0.5 * (level - 2)
    if level > 0:
        return 8.5 + 0.5 * level
    if nishio:
        return 7.5
    if dynamic:
        return 8.5
    return 8.0


@kernel
def key_less(d1, c1, s1, d2, c2, s2):
    """Sudoku Explainer's order of chain hints: difficulty, then complexity, then sort key."""
    if d1 != d2:
        return d1 < d2
    if c1 != c2:
        return c1 < c2
    return s1 < s2
