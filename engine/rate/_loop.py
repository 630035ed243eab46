"""Sudoku Explainer's rating loop (``Solver.getDifficulty``): until the grid is full, ask the
hint producers in SE's fixed order for a hint, apply the first one found, and keep

- ER: the highest difficulty of any step,
- EP: the highest difficulty up to the first step that places a digit,
- ED: the difficulty of the first step.

Producers past ``max_level`` are not asked; when the loop would need them it stops and reports a
lower bound instead of a rating (``status`` ``BOUND``): every such producer's hints are at least
as hard as ``LEVEL_FLOOR[max_level + 1]``.
"""
import numpy as np

from .._jit import kernel
from ._basic import fish, hidden_set, hidden_single, locking, naked_set, naked_single
from ._hint import HI_A, HI_B, HI_C, HI_CELL, HI_CODE, HI_LEN, HI_VALUE
from ._state import init_state, is_solved, place, remove_mask
from ._tables import CAND, GLEN
from ._advanced import adv_basic
from ._multi import make_multi
from ._run import make_run, run0
from ._unary import unary_chains
from ._unique import bug, unique_loops
from ._wings import aligned_exclusion, xy_wing

multi0 = make_multi(run0, "multi0")
run1 = make_run(adv_basic, "run1")
multi1 = make_multi(run1, "multi1")

RATED, BOUND, STUCK = 0, 1, 2
"""``status``: rated; stopped at ``max_level`` (the figures are lower bounds); no producer found
a hint (SE prints 20.0 for ER then)."""

NO_CHAINS = -1
LEVEL_FLOOR = np.array([6.5, 9.0, 9.5, 10.0, 10.5, 11.0, 99.0])
"""``LEVEL_FLOOR[L + 1]``: the least difficulty of a hint needing chain level L (-1: any chain)."""
IMPLEMENTED_LEVEL = 1
"""The deepest chain level the producers below implement."""

MAXSTEPS = 1024
# step record columns
S_CODE, S_CELL, S_VALUE, S_A, S_B, S_C, S_ELIM0, S_NELIM = 0, 1, 2, 3, 4, 5, 6, 7
S_LEN = 8


@kernel
def find_hint(g, hi, hd, hrem, max_level, line2022):
    """The first hint of the producers in Sudoku Explainer's order: 1 found, 0 none, -1 the next
    producer is past ``max_level``."""
    # direct hints
    if hidden_single(g, hi, hd, hrem):
        return 1
    if locking(g, hi, hd, hrem, True, line2022):
        return 1
    if hidden_set(g, hi, hd, hrem, 2, True, line2022):
        return 1
    if naked_single(g, hi, hd, hrem):
        return 1
    if hidden_set(g, hi, hd, hrem, 3, True, line2022):
        return 1
    # indirect hints
    if locking(g, hi, hd, hrem, False, False):
        return 1
    if naked_set(g, hi, hd, hrem, 2):
        return 1
    if fish(g, hi, hd, hrem, 2):
        return 1
    if hidden_set(g, hi, hd, hrem, 2, False, False):
        return 1
    if naked_set(g, hi, hd, hrem, 3):
        return 1
    if fish(g, hi, hd, hrem, 3):
        return 1
    if hidden_set(g, hi, hd, hrem, 3, False, False):
        return 1
    if xy_wing(g, hi, hd, hrem, False):
        return 1
    if xy_wing(g, hi, hd, hrem, True):
        return 1
    if unique_loops(g, hi, hd, hrem):
        return 1
    if naked_set(g, hi, hd, hrem, 4):
        return 1
    if fish(g, hi, hd, hrem, 4):
        return 1
    if hidden_set(g, hi, hd, hrem, 4, False, False):
        return 1
    if bug(g, hi, hd, hrem):
        return 1
    if aligned_exclusion(g, hi, hd, hrem, 2):
        return 1
    if max_level < 0:
        return -1
    nctx = (np.zeros(1, dtype=np.int64),)
    # chaining producers
    if unary_chains(g, hi, hd, hrem):
        return 1
    if aligned_exclusion(g, hi, hd, hrem, 3):
        return 1
    if multi0(g, hi, hd, hrem, 0, True, True, False, nctx):  # Nishio
        return 1
    if multi0(g, hi, hd, hrem, 0, False, False, True, nctx):  # multiple
        return 1
    if multi0(g, hi, hd, hrem, 0, False, True, True, nctx):  # dynamic
        return 1
    if max_level < 1:
        return -1
    if multi1(g, hi, hd, hrem, 1, False, True, True, nctx):  # dynamic (+)
        return 1
    if max_level < 2 or IMPLEMENTED_LEVEL < 2:
        return -1
    return 0


@kernel
def _apply(g, hi, hrem):
    """``hint.apply()``: the removals, then the placement; False when nothing changed."""
    changed = False
    for c in range(81):
        m = hrem[c] & g[CAND + c]
        if m:
            remove_mask(g, c, m)
            changed = True
    cell = hi[HI_CELL]
    if cell >= 0:
        place(g, cell, hi[HI_VALUE])
        changed = True
    return changed


@kernel
def rate_puzzle(puzzle, max_level, line2022, res, steps, sdiff, elims, record):
    """Rate one puzzle (81 digits, 0 empty). ``res``: ER, EP, ED, status, number of steps
    (float64[5]); with ``record``, each step in ``steps`` (int64[MAXSTEPS, S_LEN]), its
    difficulty in ``sdiff`` and its removed candidates (``9 * cell + d - 1``) in ``elims``
    (int64[729]). ER starts below every difficulty, as in SE; a full grid rates 0.0/0.0/0.0."""
    g = np.empty(GLEN, dtype=np.int32)
    init_state(g, puzzle)
    hi = np.zeros(HI_LEN, dtype=np.int64)
    hd = np.zeros(1, dtype=np.float64)
    hrem = np.zeros(81, dtype=np.int32)
    er = -1.0
    ep = 0.0
    ed = 0.0
    status = RATED
    n = 0
    ne = 0
    while not is_solved(g):
        found = find_hint(g, hi, hd, hrem, max_level, line2022)
        if found <= 0:
            if found < 0:
                status = BOUND
                floor = LEVEL_FLOOR[min(max_level, IMPLEMENTED_LEVEL) + 1]
                if floor > er:
                    er = floor
                if ep == 0.0:
                    ep = er
                if ed == 0.0:
                    ed = floor
            else:
                status = STUCK
                er = 20.0
            break
        d = hd[0]
        if d > er:
            er = d
        if record and n < MAXSTEPS:
            steps[n, S_CODE] = hi[HI_CODE]
            steps[n, S_CELL] = hi[HI_CELL]
            steps[n, S_VALUE] = hi[HI_VALUE]
            steps[n, S_A] = hi[HI_A]
            steps[n, S_B] = hi[HI_B]
            steps[n, S_C] = hi[HI_C]
            steps[n, S_ELIM0] = ne
            k = 0
            for c in range(81):
                m = hrem[c] & g[CAND + c]
                for dd in range(9):
                    if m >> dd & 1 and ne < 729:
                        elims[ne] = 9 * c + dd
                        ne += 1
                        k += 1
            steps[n, S_NELIM] = k
            sdiff[n] = d
        n += 1
        if not _apply(g, hi, hrem):
            status = STUCK
            er = 20.0
            break
        if ep == 0.0:
            if ed == 0.0:
                ed = er
            if hi[HI_CELL] >= 0:
                ep = er
    if er < 0.0:
        er = 0.0
    res[0] = er
    res[1] = ep
    res[2] = ed
    res[3] = status
    res[4] = n


@kernel
def rate_batch(puzzles, max_level, line2022, out):
    """ER, EP, ED, status for each row of ``puzzles`` (N, 81); ``out`` float64 (N, 4)."""
    res = np.zeros(5, dtype=np.float64)
    steps = np.zeros((1, S_LEN), dtype=np.int64)
    sdiff = np.zeros(1, dtype=np.float64)
    elims = np.zeros(1, dtype=np.int64)
    for i in range(puzzles.shape[0]):
        rate_puzzle(puzzles[i], max_level, line2022, res, steps, sdiff, elims, False)
        for k in range(4):
            out[i, k] = res[k]
