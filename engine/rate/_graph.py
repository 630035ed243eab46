"""The implication graph of one chaining run (Sudoku Explainer's ``doChaining``), and the
difficulty of a chain from its length.

A potential is a candidate assumed true ("on") or false ("off"): its id ``pid`` is the candidate
``k = 9 * cell + d - 1`` when on and ``OFF + k`` when off. A run starts from one potential and
adds, breadth first with "on" potentials before "off" ones, every potential it implies, each once,
with its parents (the potentials that imply it: the one being expanded, plus, in dynamic runs,
the earlier "off" potentials whose removal made the implication possible). Potentials are
numbered as they are added (node ``nid[pid]``, ``pidof[node]``); ``anc[node]`` is the set of the
potential's ancestors, itself included, as bits over node numbers: a chain's complexity in
Sudoku Explainer is the number of distinct potentials among its target's ancestors. A node's
ancestors were all added before it, so its row needs only ``node // 64 + 1`` words.

The graph is two arrays (``new_graph``): ``gi`` (int32, ``GI_LEN``) and ``anc`` (uint64,
``[NPID + 1, W]``: ancestor sets by node, row ``EXTRA`` for the potential a contradiction creates
without adding it, numbered as the next node). ``gi`` holds, at these offsets:

- ``MEM + pid``: 1 for a potential in the run;
- ``LST + i``: the "on" potentials in the order added (``i < n_on``), then from ``LST + 729``
  the "off" ones; each list is also the run's queue;
- ``CNT + N_*``: counters (below);
- ``PSTART + pid``, ``PN + pid``: where a potential's parents are in ``PBUF``, and how many;
- ``CAUSE + pid``: why the potential holds (``C_*``);
- ``NEST + pid``: for a potential a nested chain removed, that chain's record, else -1;
- ``NID + pid``, ``PIDOF + node``: node number of a potential and back;
- ``ANCN + row``: the number of potentials in ``anc[row]`` (the chain's complexity);
- from ``RS_PAR``: a run's scratch (the potentials being made, their causes and parents), so
  that a run allocates nothing.
"""
import numpy as np

from .._bits import popcount
from .._jit import kernel

OFF = 768
NPID = 1536
W = 24
EXTRA = NPID
PBUF_LEN = 1 << 16

N_ON, N_OFF, H_ON, H_OFF, P_LEN, X_ON, X_OFF, X_NEW, X_WHY, N_NODES = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
CNT_LEN = 16
"""``CNT + N_*``: on/off counts and queue heads, parents used; after a contradiction the "on"
and "off" potentials that clash, which of them is new (0 the "on", 1 the "off"; its ancestors
are ``anc[EXTRA]``) and the new one's cause, else -1; nodes added."""

MEM = 0
LST = MEM + NPID
CNT = LST + 2 * 729
PSTART = CNT + CNT_LEN
PN = PSTART + NPID
CAUSE = PN + NPID
NEST = CAUSE + NPID
NID = NEST + NPID
PIDOF = NID + NPID
PBUF = PIDOF + NPID + 1
ANCN = PBUF + PBUF_LEN
RS_PAR = ANCN + NPID + 1
RS_RPAR = RS_PAR + 96
RS_RES = RS_RPAR + 8 * 12
RS_RWHY = RS_RES + 32
RS_RNP = RS_RWHY + 32
GI_LEN = RS_RNP + 8

C_NONE, C_NAKED, C_BLOCK, C_ROW, C_COLUMN, C_ADVANCED = 0, 1, 2, 3, 4, 5
"""``cause``: the start of the run; the cell's only other candidate / the candidate excluded by
a placed one in the cell; a region's only other place (block, row, column); a rule (nested)."""


@kernel
def new_graph():
    gi = np.empty(GI_LEN, dtype=np.int32)
    for p in range(NPID):
        gi[MEM + p] = 0
        gi[NEST + p] = -1
    for i in range(CNT_LEN):
        gi[CNT + i] = 0
    anc = np.empty((NPID + 1, W), dtype=np.uint64)
    return gi, anc


@kernel
def new_pool(n):
    """``n`` graphs stacked: ``pool_graph(pool, i)`` is the i-th, as views."""
    gi = np.empty((n, GI_LEN), dtype=np.int32)
    for i in range(n):
        for p in range(NPID):
            gi[i, MEM + p] = 0
            gi[i, NEST + p] = -1
        for j in range(CNT_LEN):
            gi[i, CNT + j] = 0
    anc = np.empty((n, NPID + 1, W), dtype=np.uint64)
    return gi, anc


@kernel
def pool_graph(pool, i):
    return pool[0][i], pool[1][i]


@kernel
def reset_graph(gr):
    gi = gr[0]
    for i in range(gi[CNT + N_ON]):
        gi[MEM + gi[LST + i]] = 0
    for i in range(gi[CNT + N_OFF]):
        p = gi[LST + 729 + i]
        gi[MEM + p] = 0
        gi[NEST + p] = -1
    for i in range(CNT_LEN):
        gi[CNT + i] = 0
    gi[CNT + X_ON] = -1
    gi[CNT + X_OFF] = -1
    gi[CNT + X_NEW] = -1


@kernel(inline="always")
def v_mem(gr):
    return gr[0][MEM:MEM + NPID]


@kernel(inline="always")
def v_lst(gr):
    return gr[0][LST:LST + 2 * 729]


@kernel(inline="always")
def v_cnt(gr):
    return gr[0][CNT:CNT + CNT_LEN]


@kernel(inline="always")
def v_cause(gr):
    return gr[0][CAUSE:CAUSE + NPID]


@kernel(inline="always")
def v_nest(gr):
    return gr[0][NEST:NEST + NPID]


@kernel(inline="always")
def v_nid(gr):
    return gr[0][NID:NID + NPID]


@kernel(inline="always")
def v_pidof(gr):
    return gr[0][PIDOF:PIDOF + NPID + 1]


# The steps of adding a node are kernels of at most one loop each, inlined where a run adds a
# node: Numba prunes the reference counts of the arrays handed to such a kernel, not those of
# one holding a loop in a loop (two atomic operations per array and node).


@kernel(inline="always")
def anc_one(gi, anc, row, node, q):
    """``anc[row]`` = node ``node`` and the ancestors of node ``q``, its one parent (every
    potential of a static run): the count is q's plus one."""
    wq = (q >> 6) + 1
    for w in range((node >> 6) + 1):
        anc[row, w] = anc[q, w] if w < wq else np.uint64(0)
    anc[row, node >> 6] |= np.uint64(1) << np.uint64(node & 63)
    gi[ANCN + row] = gi[ANCN + q] + 1


@kernel(inline="always")
def anc_clear(anc, row, node):
    """``anc[row]`` empty over the words node ``node`` uses, before ``anc_or``."""
    for w in range((node >> 6) + 1):
        anc[row, w] = 0


@kernel(inline="always")
def anc_or(anc, row, q):
    """Add the ancestors of node ``q`` (a parent) to ``anc[row]``."""
    for w in range((q >> 6) + 1):
        anc[row, w] |= anc[q, w]


@kernel(inline="always")
def anc_close(gi, anc, row, node):
    """Add node ``node`` itself to ``anc[row]`` and count the set."""
    anc[row, node >> 6] |= np.uint64(1) << np.uint64(node & 63)
    n = 0
    for w in range((node >> 6) + 1):
        n += popcount(anc[row, w])
    gi[ANCN + row] = n


@kernel(inline="always")
def set_ancestors(gi, anc, row, node, parents, npar):
    """``anc[row]`` = node ``node`` and the ancestors of its parents (pids), and their number."""
    if npar == 1:
        anc_one(gi, anc, row, node, gi[NID + parents[0]])
    else:
        anc_clear(anc, row, node)
        for j in range(npar):
            anc_or(anc, row, gi[NID + parents[j]])
        anc_close(gi, anc, row, node)


@kernel
def set_extra(gr, pid, parents, npar):
    """``anc[EXTRA]``: the potential a contradiction makes without adding it, as the next node."""
    gi = gr[0]
    node = gi[CNT + N_NODES]
    gi[PIDOF + node] = pid
    set_ancestors(gi, gr[1], EXTRA, node, parents, npar)


@kernel(inline="always")
def row_width(gr, row):
    """Words in use in ``anc[row]``."""
    if row == EXTRA:
        return (gr[0][CNT + N_NODES] >> 6) + 1
    return (row >> 6) + 1


@kernel(inline="always")
def count_row(gr, row):
    """Number of potentials in an ancestor set: the chain complexity of its potential."""
    return gr[0][ANCN + row]


@kernel(inline="always")
def count_pid(gr, pid):
    """The complexity of potential ``pid`` of the run."""
    return count_row(gr, gr[0][NID + pid])


@kernel(inline="always")
def new_node(gi, pid, src, o, npar, why):
    """Add potential ``pid`` (not in the run yet) with its parents (``src[o:o + npar]``), at the
    end of its list, in the graph ``(gi, anc)``; returns its node number, whose ancestors are set
    next (``set_ancestors``, or its steps)."""
    gi[MEM + pid] = 1
    if pid >= OFF:
        gi[LST + 729 + gi[CNT + N_OFF]] = pid
        gi[CNT + N_OFF] += 1
    else:
        gi[LST + gi[CNT + N_ON]] = pid
        gi[CNT + N_ON] += 1
    start = gi[CNT + P_LEN]
    if start + npar > PBUF_LEN:
        raise ValueError("chaining: parent buffer full")
    gi[PSTART + pid] = start
    gi[PN + pid] = npar
    for j in range(npar):
        gi[PBUF + start + j] = src[o + j]
    gi[CNT + P_LEN] = start + npar
    gi[CAUSE + pid] = why
    node = gi[CNT + N_NODES]
    gi[NID + pid] = node
    gi[PIDOF + node] = pid
    gi[CNT + N_NODES] = node + 1
    return node


@kernel(inline="always")
def add_node(gi, anc, pid, parents, npar, why):
    """Add potential ``pid`` with its parents and ancestors (``new_node``, ``set_ancestors``)."""
    node = new_node(gi, pid, parents, 0, npar, why)
    set_ancestors(gi, anc, node, node, parents, npar)


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
