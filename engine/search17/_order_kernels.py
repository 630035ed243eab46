"""Kernels of the band order: how many k-clue sub-puzzles of a band fix it given its gangster.

A band B and its gangster (the digit set of each of its 9 columns) admit a few other bands B'
with the same gangster (each column holds its set in another order, rows still 1-9; boxes are
automatic because a stack's three column sets are disjoint). A set S of cells, with B's digits
there, fixes B iff every such B' differs from B somewhere in S, i.e. S meets every difference
set D(B') = {cells where B' != B}. Only inclusion-minimal difference sets matter, so the count
of k-subsets is a loop over the C(27, k) masks (Gosper's hack) testing a handful of minimal sets.
"""
import numpy as np

from .._bits import PERM3
from .._jit import kernel

MAX_SAME_GANGSTER = 1 << 14  # bands with one gangster (measured at most a few thousand)


@kernel
def same_gangster_diffs(band, out):
    """27-bit masks of the cells where each other band with ``band``'s gangster differs from it,
    into ``out``; returns how many (or -1 if ``out`` is too small). Columns are filled one at a
    time (6 orders of each column's 3 digits) keeping the rows free of repeats."""
    col3 = np.zeros((9, 3), np.int64)
    for j in range(9):
        for r in range(3):
            col3[j, r] = band[r * 9 + j]
    choice = np.zeros(10, np.int64)
    rowm = np.zeros((10, 3), np.int64)  # row masks before column j
    n = 0
    j = 0
    choice[0] = -1
    while j >= 0:
        choice[j] += 1
        if choice[j] >= 6:
            j -= 1
            continue
        o = choice[j]
        ok = True
        for r in range(3):
            if (rowm[j, r] >> col3[j, PERM3[o, r]]) & 1:
                ok = False
        if not ok:
            continue
        for r in range(3):
            rowm[j + 1, r] = rowm[j, r] | (np.int64(1) << col3[j, PERM3[o, r]])
        if j < 8:
            j += 1
            choice[j] = -1
            continue
        # a complete band with this gangster: its difference set
        diff = np.int64(0)
        for jj in range(9):
            for r in range(3):
                if col3[jj, PERM3[choice[jj], r]] != col3[jj, r]:
                    diff |= np.int64(1) << (r * 9 + jj)
        if diff != 0:
            if n >= out.shape[0]:
                return -1
            out[n] = diff
            n += 1
    return n


@kernel
def count_fixing_subsets(minimal, n_min, k):
    """Number of k-subsets of the 27 cells meeting every mask in ``minimal[:n_min]``."""
    if k == 0:
        return 1 if n_min == 0 else 0
    s = (np.int64(1) << k) - 1
    top = np.int64(1) << 27
    count = 0
    while s < top:
        ok = True
        for t in range(n_min):
            if (s & minimal[t]) == 0:
                ok = False
                break
        if ok:
            count += 1
        # next mask with k bits (Gosper)
        c = s & -s
        r = s + c
        s = (((r ^ s) >> 2) // c) | r
    return count
