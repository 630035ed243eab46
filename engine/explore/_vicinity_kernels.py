"""Kernels of the neighbourhood: the puzzles a base (a puzzle with some clues removed) becomes
unique with one or two more givens.

A base with ``s`` solutions, all known, becomes unique with givens X exactly when one of its
solutions agrees with X; so one pass over the solutions tallies every single addition (cell,
digit) and, grouping them by the digit in one cell, every pair. When the base has too many
solutions to list, each addition is checked by the solver instead (``singles_by_solver``).
Cells are 0-80, digits 1-9; an addition is written as ``9 * cell + digit - 1``.
"""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel
from ..solve import node_candidates, node_copy, node_count, node_empty, node_place, node_propagate

N_STATS = 3
STAT_CHECKS = 0  # finished candidates counted by the solver
STAT_DEAD = 1  # additions the solver's logic refuted before the last one
STAT_UNIQUE = 2  # candidates with exactly one solution


@kernel
def additions_into(base, empties, ne, plus, S, X, ctl, chosen, out, stats):
    """Every set of ``plus`` givens added to ``base`` (cells from ``empties[:ne]``, in increasing
    order; digits the base's logic still allows) that leaves exactly one solution. Writes each as
    ``plus`` codes ``9 * cell + digit - 1`` to a row of ``out``; returns how many, or -1 if
    ``out`` is too small. ``S``: (plus + 2, SOLVER_WORDS) nodes, ``X``: (SOLVER_DEPTH,
    SOLVER_WORDS) scratch, ``ctl`` (2,), ``chosen`` (3 * plus + 2,) int64 scratch."""
    sols = np.zeros((0, 81), np.uint8)
    node_empty(S, 0)
    for q in range(81):
        v = base[q]
        if v and not node_place(S, 0, v - 1, q):
            return 0
    S[0, 30] = (1 << 27) - 1
    if not node_propagate(S, 0) or ne == 0 or plus == 0:
        return 0
    code = chosen[0:plus]
    ci = chosen[plus:2 * plus + 1]
    cm = chosen[2 * plus + 1:]
    found = 0
    j = 0
    ci[0] = 0
    cm[0] = node_candidates(S, 0, empties[0])
    while j >= 0:
        if ci[j] >= ne:
            j -= 1
            continue
        if cm[j] == 0:
            ci[j] += 1
            if ci[j] < ne:
                cm[j] = node_candidates(S, j, empties[ci[j]])
            continue
        d = trailing_zeros(cm[j])
        cm[j] &= cm[j] - 1
        e = empties[ci[j]]
        code[j] = 9 * e + d
        node_copy(S, j, j + 1)
        if j == plus - 1:
            if not node_place(S, j + 1, d, e):
                continue
            stats[STAT_CHECKS] += 1
            if node_count(S, j + 1, X, ctl, 2, sols) == 1:
                stats[STAT_UNIQUE] += 1
                if found >= out.shape[0]:
                    return -1
                for a in range(plus):
                    out[found, a] = code[a]
                found += 1
            continue
        if not node_place(S, j + 1, d, e) or not node_propagate(S, j + 1):
            stats[STAT_DEAD] += 1
            continue
        j += 1
        ci[j] = ci[j - 1] + 1
        cm[j] = node_candidates(S, j, empties[ci[j]]) if ci[j] < ne else 0
    return found


@kernel
def count_candidates(base, empties, ne, plus):
    """How many sets of ``plus`` givens (cells from ``empties[:ne]``, any digit that repeats no
    digit of its row, column or box, the base's or another added one's) can be added to
    ``base``: the candidate puzzles of one base, counted without the solver."""
    rows = np.zeros(9, np.int64)
    cols = np.zeros(9, np.int64)
    boxes = np.zeros(9, np.int64)
    for q in range(81):
        v = base[q]
        if v:
            bit = 1 << (v - 1)
            rows[q // 9] |= bit
            cols[q % 9] |= bit
            boxes[q // 27 * 3 + q % 9 // 3] |= bit
    ci = np.zeros(plus + 1, np.int64)
    cm = np.zeros(plus + 1, np.int64)
    dg = np.zeros(plus + 1, np.int64)
    if plus == 0 or ne == 0:
        return 1 if plus == 0 else 0
    total = 0
    j = 0
    ci[0] = 0
    q = empties[0]
    cm[0] = 511 & ~(rows[q // 9] | cols[q % 9] | boxes[q // 27 * 3 + q % 9 // 3])
    while j >= 0:
        if ci[j] >= ne:
            j -= 1
            if j >= 0:  # take the previous level's digit back out of the units
                q = empties[ci[j]]
                bit = 1 << dg[j]
                rows[q // 9] &= ~bit
                cols[q % 9] &= ~bit
                boxes[q // 27 * 3 + q % 9 // 3] &= ~bit
            continue
        if cm[j] == 0:
            ci[j] += 1
            if ci[j] < ne:
                q = empties[ci[j]]
                cm[j] = 511 & ~(rows[q // 9] | cols[q % 9] | boxes[q // 27 * 3 + q % 9 // 3])
            continue
        if j == plus - 1:
            total += popcount(cm[j])
            cm[j] = 0
            continue
        d = trailing_zeros(cm[j])
        cm[j] &= cm[j] - 1
        dg[j] = d
        q = empties[ci[j]]
        bit = 1 << d
        rows[q // 9] |= bit
        cols[q % 9] |= bit
        boxes[q // 27 * 3 + q % 9 // 3] |= bit
        j += 1
        ci[j] = ci[j - 1] + 1
        if ci[j] < ne:
            q = empties[ci[j]]
            cm[j] = 511 & ~(rows[q // 9] | cols[q % 9] | boxes[q // 27 * 3 + q % 9 // 3])
        else:
            cm[j] = 0
    return total
