"""The solver's search node as a building block for other families' depth-first searches over
partial puzzles (every puzzle on a clue pattern, the neighbourhood of a puzzle): start a node,
place a digit, apply the solver's logic, read a cell's candidates, count the solutions below a
node. A node is a row of ``SOLVER_WORDS`` uint32 words (layout in ``_kernels``); a stack of them
is ``np.zeros((depth, SOLVER_WORDS), np.uint32)``. Digits are 0-8 here (digit ``d + 1`` of a
puzzle), cells 0-80.

A caller places digits on a copy of its parent node (``node_copy``), calls ``node_propagate``
(which uses the next row as scratch, so a stack has one row more than the caller's depth), and
checks a finished assignment with ``node_count`` on a separate scratch stack of
``SOLVER_DEPTH`` rows, so the caller's own stack is left as it was.
"""
import numpy as np

from .._jit import kernel
from ._kernels import ALL27, NO_NEAR, NWORDS, _place, _propagate, _search


@kernel
def node_empty(S, t):
    """Node ``S[t]``: every digit possible everywhere, nothing placed."""
    for w in range(30):
        S[t, w] = ALL27
    S[t, 30] = 0
    S[t, 31] = 0


@kernel
def node_copy(S, src, dst):
    """``S[dst] = S[src]``."""
    for w in range(NWORDS):
        S[dst, w] = S[src, w]


@kernel
def node_place(S, t, d, cell):
    """Place digit ``d`` (0-8) at ``cell`` in node ``S[t]``, without logic (``node_propagate``
    follows); False when ``d`` is no longer a candidate there."""
    res = _place(S, t, d, cell // 27, cell % 27)
    if res < 0:
        return False
    S[t, 30] = S[t, 30] | res
    return True


@kernel
def node_propagate(S, t):
    """The solver's logic (singles, locked candidates, the band permutation rule, triads) to a
    fixed point on node ``S[t]`` from what changed since the last call; False on a
    contradiction. Row ``t + 1`` is scratch."""
    ok = _propagate(S, t) != 0
    S[t, 30] = 0
    return ok


@kernel
def node_candidates(S, t, cell):
    """Bit ``d`` set when digit ``d`` (0-8) is still possible at ``cell`` (a placed cell: its digit)."""
    b = cell // 27
    p = cell % 27
    m = 0
    for d in range(9):
        m |= ((np.int64(S[t, 3 * d + b]) >> p) & 1) << d
    return m


@kernel
def node_open(S, t, cell):
    """Whether ``cell`` is still empty in node ``S[t]`` (logic has not placed a digit there)."""
    return (np.int64(S[t, 27 + cell // 27]) >> (cell % 27)) & 1 == 1


@kernel
def node_count(S, t, X, ctl, limit, sols):
    """Solutions below node ``S[t]``, counted up to ``limit``, on the scratch stack ``X``
    (``SOLVER_DEPTH`` rows) with ``ctl`` (2,) int64; the first ``len(sols)`` solutions go to
    ``sols`` (k, 81) uint8 (digits 1-9). ``S`` is not changed."""
    for w in range(NWORDS):
        X[0, w] = S[t, w]
    ctl[0] = 0
    ctl[1] = 0
    return _search(X, ctl, limit, sols, NO_NEAR)
