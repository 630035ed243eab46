"""Singles, intersections (pointing, claiming), naked and hidden subsets and fish, each in
Sudoku Explainer's search order: the first hint found is the one the rating applies, so the
order of regions, digits and combinations below is part of the result.

Every producer takes the state ``g`` and the hint arrays (``_hint``) and returns True when it
wrote a hint. ``direct`` producers place a digit that the technique would make a hidden single
(Sudoku Explainer 1.2.1.3 applies only that placement; ``apply_elims`` = True also removes the
technique's candidates, as the 2022 line does)."""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from . import techniques as T
from ._hint import clear_rem, set_hint
from ._tables import CAND, COMB9_ALL, COMB9_START, CROSS, EMPTY, REGION_CELLS, RPOS, VAL

# region numbers: blocks 0-8, rows 9-17, columns 18-26; Sudoku Explainer walks the region
# types of most rules in the order block, column, row
_BCR = (0, 18, 9)


@kernel
def hidden_single(g, hi, hd, hrem):
    """``HiddenSingle``: first the last empty cell of a region (1.0), then a digit with one place
    left in a block (1.2) or a column or row (1.5)."""
    for alone in (1, 0):
        for base in _BCR:
            for k in range(9):
                reg = base + k
                is_alone = 1 if g[EMPTY + reg] == 1 else 0
                if is_alone != alone:
                    continue
                for d in range(1, 10):
                    pos = g[RPOS + 9 * reg + d - 1]
                    if pos != 0 and pos & (pos - 1) == 0:
                        cell = REGION_CELLS[reg, LOWBIT[pos]]
                        diff = 1.0 if alone else (1.2 if base == 0 else 1.5)
                        clear_rem(hrem)
                        set_hint(hi, hd, T.HIDDEN_SINGLE, diff, cell, d, reg, 0, 0)
                        return True
    return False


@kernel
def naked_single(g, hi, hd, hrem):
    """``NakedSingle`` (2.3): a cell with one candidate, rows first."""
    for c in range(81):
        m = g[CAND + c]
        if m != 0 and m & (m - 1) == 0:
            clear_rem(hrem)
            set_hint(hi, hd, T.NAKED_SINGLE, 2.3, c, LOWBIT[m] + 1, 0, 0, 0)
            return True
    return False


@kernel
def _locking_elims(g, r1, r2, d, hrem):
    """Digit ``d`` leaves the cells of region ``r2`` outside region ``r1``; False when none has it."""
    rest = g[RPOS + 9 * r2 + d - 1] & ~CROSS[r2, r1]
    if rest == 0:
        return False
    clear_rem(hrem)
    while rest:
        hrem[REGION_CELLS[r2, LOWBIT[rest]]] |= 1 << (d - 1)
        rest &= rest - 1
    return True


@kernel
def locking(g, hi, hd, hrem, direct, apply_elims):
    """``Locking``: a digit of a block confined to one row or column of it (pointing), or a digit
    of a row or column confined to one block (claiming). Direct mode: only where removing it
    from the crossing region leaves a hidden single in another block (row, column), which it
    places (1.7 pointing, 1.9 claiming); else the eliminations (2.6, 2.8)."""
    for pair in range(4):
        # (block, column), (block, row), (column, block), (row, block)
        if pair == 0:
            b1, b2 = 0, 18
        elif pair == 1:
            b1, b2 = 0, 9
        elif pair == 2:
            b1, b2 = 18, 0
        else:
            b1, b2 = 9, 0
        for i1 in range(9):
            for i2 in range(9):
                r1 = b1 + i1
                r2 = b2 + i2
                inside = CROSS[r1, r2]
                if inside == 0:
                    continue
                for d in range(1, 10):
                    pos = g[RPOS + 9 * r1 + d - 1]
                    if POPCOUNT[pos] <= 1 or pos & ~inside != 0:
                        continue
                    if direct:
                        for i3 in range(9):
                            if i3 == i1:
                                continue
                            r3 = b1 + i3
                            cross3 = CROSS[r3, r2]
                            if cross3 == 0:
                                continue
                            pos3 = g[RPOS + 9 * r3 + d - 1]
                            if POPCOUNT[pos3] > 1:
                                left = pos3 & ~cross3
                                if left != 0 and left & (left - 1) == 0:
                                    if apply_elims:
                                        _locking_elims(g, r1, r2, d, hrem)
                                    else:
                                        clear_rem(hrem)
                                    code = T.DIRECT_POINTING if b1 == 0 else T.DIRECT_CLAIMING
                                    diff = 1.7 if b1 == 0 else 1.9
                                    set_hint(hi, hd, code, diff, REGION_CELLS[r3, LOWBIT[left]], d, r1, r2, d)
                                    return True
                    elif _locking_elims(g, r1, r2, d, hrem):
                        code = T.POINTING if b1 == 0 else T.CLAIMING
                        set_hint(hi, hd, code, 2.6 if b1 == 0 else 2.8, -1, 0, r1, r2, d)
                        return True
    return False


@kernel
def hidden_set(g, hi, hd, hrem, degree, direct, apply_elims):
    """``HiddenSet``: ``degree`` digits with the same ``degree`` places in a region keep only
    those digits there (pair 3.4, triplet 4.0, quad 5.4). Direct mode (pair 2.0, triplet 2.5):
    where that leaves another digit one place in the region, the placement."""
    for base in _BCR:
        for k in range(9):
            reg = base + k
            n = g[EMPTY + reg]
            if not (n > 2 * degree or (direct and n > degree)):
                continue
            for t in range(COMB9_START[degree], COMB9_START[degree + 1]):
                digits = COMB9_ALL[t]  # bit d - 1
                union = 0
                ok = True
                m = digits
                while m:
                    d0 = LOWBIT[m]
                    m &= m - 1
                    p = g[RPOS + 9 * reg + d0]
                    if POPCOUNT[p] <= 1:
                        ok = False
                        break
                    union |= p
                if not ok or POPCOUNT[union] != degree:
                    continue
                if direct:
                    for w in range(9):
                        if digits >> w & 1:
                            continue
                        p = g[RPOS + 9 * reg + w]
                        if POPCOUNT[p] > 1:
                            left = p & ~union
                            if left != 0 and left & (left - 1) == 0:
                                clear_rem(hrem)
                                if apply_elims:
                                    _hidden_set_elims(g, reg, union, digits, hrem)
                                code = T.DIRECT_HIDDEN_PAIR if degree == 2 else T.DIRECT_HIDDEN_TRIPLET
                                diff = 2.0 if degree == 2 else 2.5
                                set_hint(hi, hd, code, diff, REGION_CELLS[reg, LOWBIT[left]], w + 1, reg, digits, union)
                                return True
                else:
                    clear_rem(hrem)
                    if _hidden_set_elims(g, reg, union, digits, hrem):
                        if degree == 2:
                            code, diff = T.HIDDEN_PAIR, 3.4
                        elif degree == 3:
                            code, diff = T.HIDDEN_TRIPLET, 4.0
                        else:
                            code, diff = T.HIDDEN_QUAD, 5.4
                        set_hint(hi, hd, code, diff, -1, 0, reg, digits, union)
                        return True
    return False


@kernel
def _hidden_set_elims(g, reg, places, digits, hrem):
    found = False
    m = places
    while m:
        cell = REGION_CELLS[reg, LOWBIT[m]]
        m &= m - 1
        rest = g[CAND + cell] & ~digits
        if rest:
            hrem[cell] |= rest
            found = True
    return found


@kernel
def naked_set(g, hi, hd, hrem, degree):
    """``NakedSet``: ``degree`` cells of a region holding ``degree`` digits between them; the
    digits leave the region's other cells (pair 3.0, triplet 3.6, quad 5.0)."""
    for base in _BCR:
        for k in range(9):
            reg = base + k
            if g[EMPTY + reg] < 2 * degree:
                continue
            for t in range(COMB9_START[degree], COMB9_START[degree + 1]):
                places = COMB9_ALL[t]
                union = 0
                ok = True
                m = places
                while m:
                    cell = REGION_CELLS[reg, LOWBIT[m]]
                    m &= m - 1
                    cm = g[CAND + cell]
                    if POPCOUNT[cm] <= 1:
                        ok = False
                        break
                    union |= cm
                if not ok or POPCOUNT[union] != degree:
                    continue
                clear_rem(hrem)
                found = False
                for i in range(9):
                    if places >> i & 1:
                        continue
                    cell = REGION_CELLS[reg, i]
                    rest = g[CAND + cell] & union
                    if rest:
                        hrem[cell] |= rest
                        found = True
                if found:
                    if degree == 2:
                        code, diff = T.NAKED_PAIR, 3.0
                    elif degree == 3:
                        code, diff = T.NAKED_TRIPLET, 3.6
                    else:
                        code, diff = T.NAKED_QUAD, 5.0
                    set_hint(hi, hd, code, diff, -1, 0, reg, union, places)
                    return True
    return False


@kernel
def fish(g, hi, hd, hrem, degree):
    """``Fisherman``: a digit whose places in ``degree`` columns (then rows) lie in ``degree``
    rows (columns); it leaves the rest of those rows (X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2)."""
    occ = np.zeros(10, dtype=np.int64)
    for c in range(81):
        occ[g[VAL + c]] += 1
    for side in range(2):
        base, cover = (18, 9) if side == 0 else (9, 18)
        for t in range(COMB9_START[degree], COMB9_START[degree + 1]):
            lines = COMB9_ALL[t]
            for d in range(1, 10):
                if occ[d] + 2 * degree > 9:
                    continue
                union = 0
                ok = True
                m = lines
                while m:
                    p = g[RPOS + 9 * (base + LOWBIT[m]) + d - 1]
                    m &= m - 1
                    if POPCOUNT[p] <= 1:
                        ok = False
                        break
                    union |= p
                if not ok or POPCOUNT[union] != degree:
                    continue
                clear_rem(hrem)
                found = False
                m = union
                while m:
                    reg = cover + LOWBIT[m]
                    m &= m - 1
                    rest = g[RPOS + 9 * reg + d - 1] & ~lines
                    while rest:
                        hrem[REGION_CELLS[reg, LOWBIT[rest]]] |= 1 << (d - 1)
                        rest &= rest - 1
                        found = True
                if found:
                    if degree == 2:
                        code, diff = T.X_WING, 3.2
                    elif degree == 3:
                        code, diff = T.SWORDFISH, 3.8
                    else:
                        code, diff = T.JELLYFISH, 5.2
                    set_hint(hi, hd, code, diff, -1, 0, d, lines, side)
                    return True
    return False
