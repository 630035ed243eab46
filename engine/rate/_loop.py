"""Sudoku Explainer's rating loop (``Solver.getDifficulty``): until the grid is full, ask the
hint producers in SE's fixed order for a hint, apply the first one found, and keep

- ER: the highest difficulty of any step,
- EP: the highest difficulty up to the first step that places a digit,
- ED: the difficulty of the first step.

Producers past ``max_level`` are not asked; when the loop would need them it stops and reports
lower bounds instead (status ``BOUND``): every such producer's hints are at least as hard as
``LEVEL_FLOOR[max_level + 1]``.

The chaining producers are entry points of their own: :func:`loop` returns ``NEED_CHAINS`` when
no producer before them finds a hint; the caller asks :func:`chain_hint` (Python calling each
chaining producer in SE's order: a step that needs chains costs milliseconds, the calls
microseconds) and, when it returns -2, the nested levels (``_nested.find_nested``, compiled
apart and loaded only when a puzzle needs them); it hands the hint to :func:`take` and calls
:func:`loop` again. Numba optimizes each compiled entry point together with everything it calls,
so one kernel over all the producers would compile the whole chain graph once more; the
producers before the chains, cheap and asked at every step, stay in one kernel (``find_hint`` is
inlined into :func:`loop`).

Loop state: the grid ``g`` and ``acc`` (float64[ACC_LEN]: ER, EP, ED, status, steps, EP and ED
bound marks, removals recorded).
"""
import numpy as np

from .._jit import kernel
from ._advanced import adv_basic
from ._basic import fish, hidden_set, hidden_single, locking, naked_set, naked_single
from ._hint import HI_A, HI_B, HI_C, HI_CELL, HI_CODE, HI_LEN, HI_VALUE
from ._multi import make_multi
from ._run import make_run
from ._state import init_state, is_solved, place, remove_mask
from ._tables import CAND, GLEN
from ._unary import unary_chains
from ._unique import bug, unique_loops
from ._wings import aligned_exclusion, xy_wing

run1 = make_run(adv_basic, "run1")
multi1 = make_multi(run1, "multi1", False)
"""The chaining producers of levels 0 and 1 (a level-0 run never asks its nested rules)."""

RATED, BOUND, STUCK = 0, 1, 2
"""``status``: rated; stopped at ``max_level`` (the figures are lower bounds); no producer found
a hint (SE prints 20.0 for ER then)."""
DONE, NEED_CHAINS = 0, 1

LEVEL_FLOOR = np.array([6.5, 9.0, 9.5, 10.0, 10.5, 11.0, 99.0])
"""``LEVEL_FLOOR[L + 1]``: the least difficulty of a hint needing chain level L (-1: any chain)."""

A_ER, A_EP, A_ED, A_STATUS, A_N, A_EP_LOW, A_ED_LOW, A_NE = 0, 1, 2, 3, 4, 5, 6, 7
ACC_LEN = 8

MAXSTEPS = 1024
# step record columns
S_CODE, S_CELL, S_VALUE, S_A, S_B, S_C, S_ELIM0, S_NELIM = 0, 1, 2, 3, 4, 5, 6, 7
S_LEN = 8


@kernel(inline="always")
def find_hint(g, hi, hd, hrem, max_level, line2022):
    """The first hint of the producers in Sudoku Explainer's order up to aligned pair exclusion:
    1 found, -1 the next producer is past ``max_level``, -3 the chaining producers are next
    (:func:`chain_hint`)."""
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
    return -3


def chain_hint(g, hi, hd, hrem, max_level, nctx, ws):
    """The first hint of the chaining producers of levels 0 and 1, in Sudoku Explainer's order:
    1 found, -1 the next producer is past ``max_level``, -2 the nested levels are next. ``nctx``:
    ``(new_records(0),)`` (levels 0 and 1 nest no chain: their runs need only the record count);
    ``ws``: ``_multi.new_workspace(False)``, reused from step to step."""
    if unary_chains(g, hi, hd, hrem):
        return 1
    if aligned_exclusion(g, hi, hd, hrem, 3):
        return 1
    if multi1(g, hi, hd, hrem, 0, True, True, False, nctx, ws):  # Nishio
        return 1
    if multi1(g, hi, hd, hrem, 0, False, False, True, nctx, ws):  # multiple
        return 1
    if multi1(g, hi, hd, hrem, 0, False, True, True, nctx, ws):  # dynamic
        return 1
    if max_level < 1:
        return -1
    if multi1(g, hi, hd, hrem, 1, False, True, True, nctx, ws):  # dynamic (+)
        return 1
    if max_level < 2:
        return -1
    return -2


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
def start(g, acc, puzzle):
    """The state before the first step."""
    init_state(g, puzzle)
    for i in range(ACC_LEN):
        acc[i] = 0.0
    acc[A_ER] = -1.0


@kernel
def take(g, acc, hi, hd, hrem, steps, sdiff, elims, record):
    """Apply the hint as a step: ER, EP, ED kept, the step recorded; False when it changed
    nothing (the loop then stops as stuck)."""
    d = hd[0]
    if d > acc[A_ER]:
        acc[A_ER] = d
    n = int(acc[A_N])
    if record and n < steps.shape[0]:
        ne = int(acc[A_NE])
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
                if m >> dd & 1 and ne < elims.shape[0]:
                    elims[ne] = 9 * c + dd
                    ne += 1
                    k += 1
        steps[n, S_NELIM] = k
        sdiff[n] = d
        acc[A_NE] = ne
    acc[A_N] = n + 1
    if not _apply(g, hi, hrem):
        return False
    if acc[A_EP] == 0.0:
        if acc[A_ED] == 0.0:
            acc[A_ED] = acc[A_ER]
        if hi[HI_CELL] >= 0:
            acc[A_EP] = acc[A_ER]
    return True


@kernel
def finish(acc, found, max_level):
    """End of the loop: ``found`` 1 solved, 0 stuck (ER 20.0, as SE), -1 stopped at
    ``max_level`` (lower bounds)."""
    if found < 0:
        acc[A_STATUS] = BOUND
        floor = LEVEL_FLOOR[max_level + 1]
        if floor > acc[A_ER]:
            acc[A_ER] = floor
        if acc[A_EP] == 0.0:
            acc[A_EP] = acc[A_ER]
            acc[A_EP_LOW] = 1.0
        if acc[A_ED] == 0.0:
            acc[A_ED] = floor
            acc[A_ED_LOW] = 1.0
    elif found == 0:
        acc[A_STATUS] = STUCK
        acc[A_ER] = 20.0
    else:
        acc[A_STATUS] = RATED
    if acc[A_ER] < 0.0:
        acc[A_ER] = 0.0  # a full grid: no step


@kernel
def loop(g, acc, max_level, line2022, steps, sdiff, elims, record):
    """Go on rating from state (``g``, ``acc``): DONE (the figures in ``acc``), or NEED_CHAINS
    when no producer before the chains finds a hint (the caller asks :func:`chain_hint`, hands
    its hint to :func:`take`, and calls this again)."""
    hi = np.zeros(HI_LEN, dtype=np.int64)
    hd = np.zeros(1, dtype=np.float64)
    hrem = np.zeros(81, dtype=np.int32)
    while not is_solved(g):
        found = find_hint(g, hi, hd, hrem, max_level, line2022)
        if found == -3:
            return NEED_CHAINS
        if found <= 0:
            finish(acc, found, max_level)
            return DONE
        if not take(g, acc, hi, hd, hrem, steps, sdiff, elims, record):
            finish(acc, 0, max_level)
            return DONE
    finish(acc, 1, max_level)
    return DONE


@kernel
def store_row(acc, out, i):
    """ER, EP, ED, status, the two bound marks and the path's length into row ``i`` of ``out``."""
    out[i, 0] = acc[A_ER]
    out[i, 1] = acc[A_EP]
    out[i, 2] = acc[A_ED]
    out[i, 3] = acc[A_STATUS]
    out[i, 4] = acc[A_EP_LOW]
    out[i, 5] = acc[A_ED_LOW]
    out[i, 6] = acc[A_N]
