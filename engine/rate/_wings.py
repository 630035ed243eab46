"""XY-Wing, XYZ-Wing and the aligned exclusions (pair, triplet) in Sudoku Explainer's order."""
import numpy as np

from .._bits import LOWBIT, POPCOUNT, popcount, trailing_zeros
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
def _bits81(cells, n):
    lo = np.uint64(0)
    hi = np.uint64(0)
    for x in range(n):
        c = cells[x]
        if c < 64:
            lo |= np.uint64(1) << np.uint64(c)
        else:
            hi |= np.uint64(1) << np.uint64(c - 64)
    return lo, hi


@kernel(inline="always")
def _triplet_key(i, j, t, n):
    """The triplet of candidate cells ``i``, ``j``, ``t`` (indexes below ``n``) as one number,
    whatever their order."""
    a, b, c = i, j, t
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return (a * n + b) * n + c


@kernel
def _pop64(x):
    return popcount(x)


@kernel
def aligned_exclusion(g, hi, hd, hrem, degree):
    """``AlignedPairExclusion`` (6.2) and ``AlignedExclusion(3)`` (7.5): for a pair (triplet) of
    cells with at least two common excluding cells (cells of 2 candidates, or 2-3 for the
    triplet, that see all of them), a candidate of one cell that takes part in no allowed
    combination of digits goes. A pair with fewer than two common excluders is skipped before
    its triplets are built (none of them can have two)."""
    clist = np.empty(81, dtype=np.int64)
    is_cand = np.zeros(81, dtype=np.bool_)
    excl = np.empty((81, 20), dtype=np.int64)  # excluders of candidate cell i, in house order
    nexcl = np.empty(81, dtype=np.int64)
    ex_lo = np.empty(81, dtype=np.uint64)  # the same as a set of cells
    ex_hi = np.empty(81, dtype=np.uint64)
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
        ex_lo[n], ex_hi[n] = _bits81(excl[n], ne)
        is_cand[c] = True
        n += 1
    if n < degree:
        return False
    index_of = np.full(81, -1, dtype=np.int64)
    for i in range(n):
        index_of[clist[i]] = i
    cmask = np.empty(20, dtype=np.int64)  # candidates of the common excluders
    twin = np.empty(40, dtype=np.int64)
    in_twin = np.zeros(81, dtype=np.bool_)
    cells = np.empty(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    bad = np.empty(9, dtype=np.int64)
    tri = np.empty(20, dtype=np.int64)
    # a triplet is reached from each of its pairs: looked at once (it found nothing the first time)
    visited = np.zeros((n * n * n + 63) // 64 if degree == 3 else 0, dtype=np.uint64)
    for j in range(1, n):
        for i in range(j):
            lo = ex_lo[i] & ex_lo[j]
            hi_ = ex_hi[i] & ex_hi[j]
            if _pop64(lo) + _pop64(hi_) < 2:
                continue
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
                clo = lo
                chi = hi_
                if degree == 3:
                    t = index_of[twin[tt]]
                    key = _triplet_key(i, j, t, n)
                    bit = np.uint64(1) << np.uint64(key & 63)
                    if visited[key >> 6] & bit:
                        continue
                    visited[key >> 6] |= bit
                    clo &= ex_lo[t]
                    chi &= ex_hi[t]
                    if _pop64(clo) + _pop64(chi) < 2:
                        continue
                ncommon = 0
                while clo:
                    cmask[ncommon] = g[CAND + trailing_zeros(clo)]
                    clo &= clo - np.uint64(1)
                    ncommon += 1
                while chi:
                    cmask[ncommon] = g[CAND + 64 + trailing_zeros(chi)]
                    chi &= chi - np.uint64(1)
                    ncommon += 1
                cells[0] = clist[i]
                cells[1] = clist[j]
                cells[2] = twin[tt] if degree == 3 else cells[1]
                f0 = g[CAND + cells[0]]
                f1 = g[CAND + cells[1]]
                f2 = g[CAND + cells[2]] if degree == 3 else 0
                s01 = SEES[cells[0], cells[1]]
                s02 = SEES[cells[0], cells[2]]
                s12 = SEES[cells[1], cells[2]]
                # the common excluders as refused digit pairs (bad[v]: the digits refused beside
                # v) and refused triples: a combination is refused when two of its digits are a
                # refused pair, or its three digits a refused triple; for each allowed (b0, b1)
                # the allowed digits of the third cell come as one mask
                for v in range(9):
                    bad[v] = 0
                n3 = 0
                for e in range(ncommon):
                    mk = cmask[e]
                    if POPCOUNT[mk] == 2:
                        lo_ = mk & -mk
                        bad[LOWBIT[lo_]] |= mk ^ lo_
                        bad[LOWBIT[mk ^ lo_]] |= lo_
                    else:
                        tri[n3] = mk
                        n3 += 1
                a0 = 0
                a1 = 0
                a2 = 0
                full = False  # every candidate allowed: nothing to remove, stop
                m0 = f0
                while m0 and not full:
                    b0 = m0 & -m0
                    m0 &= m0 - 1
                    m1 = f1 & ~bad[LOWBIT[b0]]
                    if s01:
                        m1 &= ~b0
                    if degree == 2:
                        if m1:
                            a0 |= b0
                            a1 |= m1
                            full = a0 == f0 and a1 == f1
                        continue
                    while m1:
                        b1 = m1 & -m1
                        m1 &= m1 - 1
                        m2 = f2 & ~bad[LOWBIT[b0]] & ~bad[LOWBIT[b1]]
                        if s02:
                            m2 &= ~b0
                        if s12:
                            m2 &= ~b1
                        if b0 != b1:
                            u = b0 | b1
                            for x in range(n3):
                                if tri[x] & u == u:
                                    m2 &= ~(tri[x] ^ u)
                        if m2:
                            a0 |= b0
                            a1 |= b1
                            a2 |= m2
                            if a0 == f0 and a1 == f1 and a2 == f2:
                                full = True
                                break
                if full:
                    continue
                allowed[0] = a0
                allowed[1] = a1
                allowed[2] = a2
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
