"""XY-Wing, XYZ-Wing and the aligned exclusions (pair, triplet) in Sudoku Explainer's order."""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from . import techniques as T
from ._hint import clear_rem, set_hint
from ._tables import CAND, HOUSE, SEES


@kernel
def xy_wing(g, hi, hd, hrem, xyz):
    """``XYWing``: a pivot (2 candidates xy; 3 for XYZ) and two pincers it sees (xz, yz) that
    share z; z leaves every cell seeing both pincers (and the pivot, XYZ). 4.2, 4.4."""
    target = 3 if xyz else 2
    for c in range(81):
        xy = g[CAND + c]
        if POPCOUNT[xy] != target:
            continue
        for a in range(20):
            xz_cell = HOUSE[c, a]
            xz = g[CAND + xz_cell]
            if POPCOUNT[xz] != 2 or POPCOUNT[xy & ~xz] != 1:
                continue
            for b in range(20):
                yz_cell = HOUSE[c, b]
                yz = g[CAND + yz_cell]
                if POPCOUNT[yz] != 2:
                    continue
                union = xy | xz | yz
                inter = xy & xz & yz
                if POPCOUNT[union] != 3 or POPCOUNT[inter] != (1 if xyz else 0):
                    continue
                z = (xz & yz) & -(xz & yz)
                clear_rem(hrem)
                found = False
                for v in range(81):
                    if v == c or v == xz_cell or v == yz_cell:
                        continue
                    if SEES[xz_cell, v] and SEES[yz_cell, v] and (not xyz or SEES[c, v]) and g[CAND + v] & z:
                        hrem[v] = z
                        found = True
                if found:
                    set_hint(hi, hd, T.XYZ_WING if xyz else T.XY_WING, 4.4 if xyz else 4.2, -1, 0, c, xz_cell, yz_cell)
                    return True
    return False


@kernel
def _allowed(g, cells, vals, k, common, ncommon):
    """A combination of digits (one per cell) survives: no two cells that see each other share a
    digit, and no common excluding cell has all its candidates among the digits."""
    for i in range(k):
        for j in range(i + 1, k):
            if vals[i] == vals[j] and SEES[cells[i], cells[j]]:
                return False
    used = 0
    for i in range(k):
        used |= 1 << (vals[i] - 1)
    for e in range(ncommon):
        if g[CAND + common[e]] & ~used == 0:
            return False
    return True


@kernel
def aligned_exclusion(g, hi, hd, hrem, degree):
    """``AlignedPairExclusion`` (6.2) and ``AlignedExclusion(3)`` (7.5): for a pair (triplet) of
    cells with at least two common excluding cells (cells of 2 candidates, or 2-3 for the
    triplet, that see all of them), a candidate of one cell that takes part in no allowed
    combination of digits goes."""
    clist = np.empty(81, dtype=np.int64)
    is_cand = np.zeros(81, dtype=np.bool_)
    excl = np.zeros((81, 20), dtype=np.int64)  # excluders of candidate cell i, in house order
    nexcl = np.zeros(81, dtype=np.int64)
    is_excl = np.zeros((81, 81), dtype=np.bool_)
    n = 0
    for c in range(81):
        if POPCOUNT[g[CAND + c]] < 2:
            continue
        naked = False
        ne = 0
        for a in range(20):
            e = HOUSE[c, a]
            k = POPCOUNT[g[CAND + e]]
            if k == 1:
                naked = True
            elif k >= 2 and k <= degree:
                excl[n, ne] = e
                ne += 1
        if naked or ne == 0:
            continue
        clist[n] = c
        nexcl[n] = ne
        for x in range(ne):
            is_excl[n, excl[n, x]] = True
        is_cand[c] = True
        n += 1
    if n < degree:
        return False
    index_of = np.full(81, -1, dtype=np.int64)
    for i in range(n):
        index_of[clist[i]] = i
    common = np.empty(20, dtype=np.int64)
    twin = np.empty(40, dtype=np.int64)
    in_twin = np.zeros(81, dtype=np.bool_)
    cells = np.empty(3, dtype=np.int64)
    vals = np.empty(3, dtype=np.int64)
    idx = np.empty(3, dtype=np.int64)
    for j in range(1, n):
        for i in range(j):
            if degree == 2:
                ntwin = 1
            else:
                ntwin = 0
                for src in (i, j):
                    for x in range(nexcl[src]):
                        e = excl[src, x]
                        if is_cand[e] and e != clist[i] and e != clist[j] and not in_twin[e]:
                            in_twin[e] = True
                            twin[ntwin] = e
                            ntwin += 1
                for x in range(ntwin):
                    in_twin[twin[x]] = False
            for tt in range(ntwin):
                idx[0] = i
                idx[1] = j
                if degree == 3:
                    idx[2] = index_of[twin[tt]]
                ncommon = 0
                for x in range(nexcl[i]):
                    e = excl[i, x]
                    ok = True
                    for y in range(1, degree):
                        if not is_excl[idx[y], e]:
                            ok = False
                    if ok:
                        common[ncommon] = e
                        ncommon += 1
                if ncommon < 2:
                    continue
                for y in range(degree):
                    cells[y] = clist[idx[y]]
                allowed = np.zeros(3, dtype=np.int64)
                m0 = g[CAND + cells[0]]
                while m0:
                    vals[0] = LOWBIT[m0] + 1
                    m0 &= m0 - 1
                    m1 = g[CAND + cells[1]]
                    while m1:
                        vals[1] = LOWBIT[m1] + 1
                        m1 &= m1 - 1
                        if degree == 2:
                            if _allowed(g, cells, vals, 2, common, ncommon):
                                allowed[0] |= 1 << (vals[0] - 1)
                                allowed[1] |= 1 << (vals[1] - 1)
                            continue
                        m2 = g[CAND + cells[2]]
                        while m2:
                            vals[2] = LOWBIT[m2] + 1
                            m2 &= m2 - 1
                            if _allowed(g, cells, vals, 3, common, ncommon):
                                allowed[0] |= 1 << (vals[0] - 1)
                                allowed[1] |= 1 << (vals[1] - 1)
                                allowed[2] |= 1 << (vals[2] - 1)
                found = False
                for y in range(degree):
                    if g[CAND + cells[y]] & ~allowed[y]:
                        found = True
                if found:
                    clear_rem(hrem)
                    for y in range(degree):
                        hrem[cells[y]] |= g[CAND + cells[y]] & ~allowed[y]
                    code = T.ALIGNED_PAIR if degree == 2 else T.ALIGNED_TRIPLET
                    set_hint(hi, hd, code, 6.2 if degree == 2 else 7.5, -1, 0,
                             cells[0], cells[1], cells[2] if degree == 3 else -1)
                    return True
    return False
