"""Uniqueness tests: unique rectangles and loops (types 1-4) and the bivalue universal grave
(BUG, types 1-4), as Sudoku Explainer finds them.

Unique loops: every loop of cells holding both digits of a bivalue cell is collected by a
depth-first walk from that cell (block, row, column; never twice in a row through the same kind
of region), then tested; among all the hints the one with the lowest difficulty wins, ties going
to the lower type, then to the first found. A quirk kept on purpose: the "extra digits seen so
far" that lets the walk go on through a cell with extra candidates accumulates over the cells
tried at one level of the walk, not only those on the path."""
import numpy as np

from .._bits import LOWBIT, POPCOUNT
from .._jit import kernel
from . import techniques as T
from ._hint import clear_rem, set_hint
from ._tables import CAND, CELL_INDEX, CELL_REGION, COMB9_ALL, COMB9_START, EMPTY, HOUSE, REGION_CELLS, RPOS, SEES, VAL

MAXLOOPS = 4096
MAXLOOP = 64


@kernel
def _find_loops(g, start, v1, v2, loops, lens):
    """``checkForLoops`` from ``start``: the closed loops (cells in walk order), in the order the
    recursive walk finds them; returns how many (at most MAXLOOPS kept)."""
    vmask = (1 << (v1 - 1)) | (1 << (v2 - 1))
    path = np.empty(MAXLOOP + 1, dtype=np.int64)
    in_path = np.zeros(81, dtype=np.bool_)
    allowed = np.empty(MAXLOOP + 1, dtype=np.int64)
    exv = np.empty(MAXLOOP + 1, dtype=np.int64)
    last = np.empty(MAXLOOP + 1, dtype=np.int64)
    kk = np.empty(MAXLOOP + 1, dtype=np.int64)
    ii = np.empty(MAXLOOP + 1, dtype=np.int64)
    nloops = 0
    depth = 0
    path[0] = start
    in_path[start] = True
    allowed[0] = 2
    exv[0] = 0
    last[0] = -1
    kk[0] = 0
    ii[0] = 0
    while depth >= 0:
        cell = path[depth]
        descended = False
        while kk[depth] < 3 and not descended:
            k = kk[depth]
            if k == last[depth]:
                kk[depth] += 1
                ii[depth] = 0
                continue
            reg = CELL_REGION[cell, k]
            while ii[depth] < 9:
                nxt = REGION_CELLS[reg, ii[depth]]
                ii[depth] += 1
                if nxt == path[0] and depth + 1 >= 4:
                    if nloops < MAXLOOPS:
                        for x in range(depth + 1):
                            loops[nloops, x] = path[x]
                        lens[nloops] = depth + 1
                        nloops += 1
                elif not in_path[nxt]:
                    pm = g[CAND + nxt]
                    if pm & vmask == vmask:
                        exv[depth] = (exv[depth] | pm) & ~vmask
                        card = POPCOUNT[pm]
                        if (card == 2 or POPCOUNT[exv[depth]] == 1 or allowed[depth] > 0) and depth < MAXLOOP - 1:
                            d1 = depth + 1
                            path[d1] = nxt
                            in_path[nxt] = True
                            allowed[d1] = allowed[depth] - (1 if card > 2 else 0)
                            exv[d1] = exv[depth]
                            last[d1] = k
                            kk[d1] = 0
                            ii[d1] = 0
                            depth = d1
                            descended = True
                            break
            if not descended:
                kk[depth] += 1
                ii[depth] = 0
        if not descended:
            in_path[cell] = False
            depth -= 1
    return nloops


@kernel
def _valid_loop(loop, n):
    """``isValidLoop``: alternate cells (odd, even) never meet a region twice with the same
    parity, and both parities meet the same regions."""
    odd = 0
    even = 0
    for x in range(n):
        for k in range(3):
            bit = 1 << CELL_REGION[loop[x], k]
            if x & 1:
                if odd & bit:
                    return False
                odd |= bit
            else:
                if even & bit:
                    return False
                even |= bit
    return odd == even


@kernel
def _loop_diff(n):
    result = 4.5
    if n >= 10:
        result += 0.3
    if n >= 8:
        result += 0.2
    elif n >= 6:
        result += 0.1
    return result


@kernel
def _better(diff, typ, best_diff, best_typ):
    return diff < best_diff or (diff == best_diff and typ < best_typ)


@kernel
def unique_loops(g, hi, hd, hrem):
    """``UniqueLoops``: types 1 (4.5+), 2, 3 (naked / hidden set, + 0.1 per digit beyond one),
    4; loops of 6, 8, 10+ cells add 0.1, 0.2, 0.5."""
    loops = np.empty((MAXLOOPS, MAXLOOP), dtype=np.int64)
    lens = np.empty(MAXLOOPS, dtype=np.int64)
    rem = np.zeros(81, dtype=np.int64)
    best_rem = np.zeros(81, dtype=np.int64)
    best_diff = 1e9
    best_typ = 99
    best_a = 0
    best_b = 0
    best_c = 0
    extra = np.empty(MAXLOOP, dtype=np.int64)
    for c in range(81):
        pm = g[CAND + c]
        if POPCOUNT[pm] != 2:
            continue
        v1 = LOWBIT[pm] + 1
        v2 = LOWBIT[pm & (pm - 1)] + 1
        vmask = pm
        nloops = _find_loops(g, c, v1, v2, loops, lens)
        for L in range(nloops):
            n = lens[L]
            loop = loops[L]
            if not _valid_loop(loop, n):
                continue
            base = _loop_diff(n)
            if base > best_diff:
                continue
            nex = 0
            for x in range(n):
                if POPCOUNT[g[CAND + loop[x]]] > 2:
                    extra[nex] = loop[x]
                    nex += 1
            if nex == 1:
                # type 1: the rescue cell loses both digits
                if _better(base, 1, best_diff, best_typ):
                    best_rem[:] = 0
                    best_rem[extra[0]] = vmask
                    best_diff, best_typ, best_a, best_b, best_c = base, 1, 1, n, extra[0]
            elif nex > 2:
                if _type2(g, extra, nex, vmask, rem) and _better(base, 2, best_diff, best_typ):
                    best_rem[:] = rem
                    best_diff, best_typ, best_a, best_b, best_c = base, 2, 2, n, extra[0]
            elif nex == 2:
                r1 = extra[0]
                r2 = extra[1]
                rpot = (g[CAND + r1] | g[CAND + r2]) & ~vmask
                if POPCOUNT[rpot] == 1:
                    if _type2(g, extra, nex, vmask, rem) and _better(base, 2, best_diff, best_typ):
                        best_rem[:] = rem
                        best_diff, best_typ, best_a, best_b, best_c = base, 2, 2, n, r1
                elif POPCOUNT[rpot] >= 2:
                    # type 3: the extra digits of the two cells with other cells of a shared region
                    d3 = _type3(g, r1, r2, v1, v2, base, best_diff, rem)
                    if d3 > 0.0 and _better(d3, 3, best_diff, best_typ):
                        best_rem[:] = rem
                        best_diff, best_typ, best_a, best_b, best_c = d3, 3, 3, n, r1
                if _type4(g, r1, r2, v1, v2, rem) and _better(base, 4, best_diff, best_typ):
                    best_rem[:] = rem
                    best_diff, best_typ, best_a, best_b, best_c = base, 4, 4, n, r1
    if best_typ == 99:
        return False
    clear_rem(hrem)
    for x in range(81):
        hrem[x] = best_rem[x]
    set_hint(hi, hd, T.UNIQUE_LOOP, best_diff, -1, 0, best_a, best_b, best_c)
    return True


@kernel
def _type2(g, extra, nex, vmask, rem):
    """Type 2: the extra digit (the first extra cell's) leaves every cell seeing all extra cells."""
    rem[:] = 0
    x = g[CAND + extra[0]] & ~vmask
    value = x & -x
    found = False
    for v in range(81):
        ok = True
        for e in range(nex):
            if v == extra[e] or not SEES[extra[e], v]:
                ok = False
                break
        if ok and g[CAND + v] & value:
            rem[v] = value
            found = True
    return found


@kernel
def _contains_first(places, i1, i2):
    # SE's containsFirst: holds index1 and not index2
    return (places >> i1) & 1 == 1 and (places >> i2) & 1 == 0


@kernel
def _type3(g, c1, c2, v1, v2, base, best_diff, rem):
    """Type 3 (a naked or hidden set with the two extra cells' digits): the first worthy hint of
    the lowest difficulty in Sudoku Explainer's order, or 0.0; its removals in ``rem``. A naked
    set adds 0.1 per digit beyond one; a hidden set 0.1 per place beyond one, the first extra cell's
    place not counted."""
    vmask = (1 << (v1 - 1)) | (1 << (v2 - 1))
    extra = (g[CAND + c1] | g[CAND + c2]) & ~vmask
    nextra = POPCOUNT[extra]
    found_diff = 0.0
    tmp = np.zeros(81, dtype=np.int64)
    for degree in range(nextra, 8):
        for k in range(3):
            reg = CELL_REGION[c1, k]
            if reg != CELL_REGION[c2, k]:
                continue
            nempty = g[EMPTY + reg]
            i1 = CELL_INDEX[c1, k]
            i2 = CELL_INDEX[c2, k]
            if degree * 2 <= nempty:
                for t in range(COMB9_START[degree], COMB9_START[degree + 1]):
                    places = COMB9_ALL[t]
                    if not _contains_first(places, i1, i2):
                        continue
                    naked = extra & g[CAND + c1] & g[CAND + c2]
                    ok = True
                    union = 0
                    m = places
                    while m:
                        i = LOWBIT[m]
                        m &= m - 1
                        if i == i1:
                            p = extra
                        else:
                            p = g[CAND + REGION_CELLS[reg, i]]
                            naked |= p
                        if POPCOUNT[p] <= 1:
                            ok = False
                        union |= p
                    if POPCOUNT[naked] != degree or not ok or POPCOUNT[union] != degree:
                        continue
                    diff = base + (degree - 1) * 0.1
                    if diff > best_diff or (found_diff > 0.0 and diff >= found_diff):
                        continue
                    tmp[:] = 0
                    any_rem = False
                    for i in range(9):
                        if (places >> i) & 1 and i != i1:
                            continue
                        cell = REGION_CELLS[reg, i]
                        if cell == c1 or cell == c2:
                            continue
                        r = g[CAND + cell] & union
                        if r:
                            tmp[cell] = r
                            any_rem = True
                    if any_rem:
                        found_diff = diff
                        rem[:] = tmp
            if degree * 2 < nempty:
                others = 0x1FF & ~vmask & ~extra  # digits in neither the loop nor the extras
                nrem = POPCOUNT[others]
                if degree - 2 <= nrem:
                    for t in range(COMB9_START[degree - 2], COMB9_START[degree - 1]):
                        pick = COMB9_ALL[t]
                        if pick >= (1 << nrem):
                            break
                        digits = vmask
                        m = others
                        x = 0
                        while m:
                            d0 = LOWBIT[m]
                            m &= m - 1
                            if (pick >> x) & 1:
                                digits |= 1 << d0
                            x += 1
                        union = 0
                        ok = True
                        m = digits
                        while m:
                            d0 = LOWBIT[m]
                            m &= m - 1
                            p = g[RPOS + 9 * reg + d0] & ~(1 << i2)
                            if p == 0:
                                ok = False
                            union |= p
                        if not ok or POPCOUNT[union] != degree:
                            continue
                        places = union & ~(1 << i1)
                        diff = base + (POPCOUNT[places] - 1) * 0.1
                        if diff > best_diff or (found_diff > 0.0 and diff >= found_diff):
                            continue
                        tmp[:] = 0
                        any_rem = False
                        m = places
                        while m:
                            cell = REGION_CELLS[reg, LOWBIT[m]]
                            m &= m - 1
                            if cell == c1 or cell == c2:
                                continue
                            r = g[CAND + cell] & ~digits
                            if r:
                                tmp[cell] = r
                                any_rem = True
                        if any_rem:
                            found_diff = diff
                            rem[:] = tmp
    return found_diff


@kernel
def _type4(g, c1, c2, v1, v2, rem):
    """Type 4: one loop digit confined to the two extra cells in a region they share (the last
    such region type, block/row/column); the other loop digit leaves both."""
    r1 = -1
    r2 = -1
    b1 = 1 << (v1 - 1)
    b2 = 1 << (v2 - 1)
    for k in range(3):
        reg = CELL_REGION[c1, k]
        if reg != CELL_REGION[c2, k]:
            continue
        has1 = False
        has2 = False
        for i in range(9):
            cell = REGION_CELLS[reg, i]
            if cell != c1 and cell != c2:
                if g[CAND + cell] & b1:
                    has1 = True
                if g[CAND + cell] & b2:
                    has2 = True
        if not has1:
            r1 = reg
        if not has2:
            r2 = reg
    rem[:] = 0
    if r1 >= 0:
        rem[c1] = b2
        rem[c2] = b2
        return True
    if r2 >= 0:
        rem[c1] = b1
        rem[c2] = b1
        return True
    return False


@kernel
def bug(g, hi, hd, hrem):
    """``BivalueUniversalGrave``: removing the BUG cells' extra digits would leave every empty
    cell with two candidates and every digit twice in each region; types 1 (5.6), 2, 4 (5.7) and
    3 (5.7 + 0.1 per digit of the naked set beyond one)."""
    temp = np.empty(81, dtype=np.int64)
    for c in range(81):
        temp[c] = g[CAND + c]
    bug_cells = np.empty(81, dtype=np.int64)
    nbug = 0
    is_bug = np.zeros(81, dtype=np.bool_)
    bug_vals = np.zeros(81, dtype=np.int64)
    all_bug = 0
    common = np.zeros(81, dtype=np.bool_)
    has_common = False
    for base in (0, 9, 18):
        for k in range(9):
            reg = base + k
            for d in range(1, 10):
                pos = g[RPOS + 9 * reg + d - 1]
                card = POPCOUNT[pos]
                if card == 0 or card == 2:
                    continue
                nnew = 0
                newcell = -1
                m = pos
                while m:
                    cell = REGION_CELLS[reg, LOWBIT[m]]
                    m &= m - 1
                    if POPCOUNT[g[CAND + cell]] >= 3:
                        nnew += 1
                        newcell = cell
                if nnew == 1:
                    cell = newcell
                    if not is_bug[cell]:
                        is_bug[cell] = True
                        bug_cells[nbug] = cell
                        nbug += 1
                    bug_vals[cell] |= 1 << (d - 1)
                    all_bug |= 1 << (d - 1)
                    temp[cell] &= ~(1 << (d - 1))
                    if not has_common:
                        has_common = True
                        for a in range(20):
                            common[HOUSE[cell, a]] = True
                    else:
                        for v in range(81):
                            if common[v] and not SEES[cell, v]:
                                common[v] = False
                    ncommon = 0
                    for v in range(81):
                        if is_bug[v]:
                            common[v] = False
                        if common[v]:
                            ncommon += 1
                    if nbug > 1 and POPCOUNT[all_bug] > 1 and ncommon == 0:
                        return False
                if nnew == 0:
                    return False
    for c in range(81):
        if _is_empty(g, c) and POPCOUNT[temp[c]] != 2:
            return False
    for reg in range(27):
        for d in range(9):
            cnt = 0
            for i in range(9):
                if temp[REGION_CELLS[reg, i]] >> d & 1:
                    cnt += 1
            if cnt != 0 and cnt != 2:
                return False
    ncommon = 0
    for v in range(81):
        if common[v]:
            ncommon += 1
    if nbug == 1:
        cell = bug_cells[0]
        clear_rem(hrem)
        hrem[cell] = g[CAND + cell] & ~all_bug
        set_hint(hi, hd, T.BUG, 5.6, -1, 0, 1, cell, all_bug)
        return True
    if POPCOUNT[all_bug] == 1:
        if has_common and ncommon > 0:
            clear_rem(hrem)
            found = False
            for v in range(81):
                if common[v] and g[CAND + v] & all_bug:
                    hrem[v] = all_bug
                    found = True
            if found:
                set_hint(hi, hd, T.BUG, 5.7, -1, 0, 2, bug_cells[0], all_bug)
                return True
        if nbug == 2:
            if _bug4(g, hi, hd, hrem, bug_cells, bug_vals, all_bug):
                return True
        return False
    if has_common and ncommon > 0:
        if nbug == 2:
            if _bug4(g, hi, hd, hrem, bug_cells, bug_vals, all_bug):
                return True
        return _bug3(g, hi, hd, hrem, bug_cells, nbug, all_bug, common)
    return False


@kernel
def _is_empty(g, c):
    return g[VAL + c] == 0


@kernel
def _bug4(g, hi, hd, hrem, bug_cells, bug_vals, all_bug):
    c1 = bug_cells[0]
    c2 = bug_cells[1]
    common = g[CAND + c1] & g[CAND + c2] & ~all_bug
    if POPCOUNT[common] != 1:
        return False
    for k in range(3):
        if CELL_REGION[c1, k] == CELL_REGION[c2, k]:
            clear_rem(hrem)
            hrem[c1] = g[CAND + c1] & ~bug_vals[c1] & ~common
            hrem[c2] = g[CAND + c2] & ~bug_vals[c2] & ~common
            set_hint(hi, hd, T.BUG, 5.7, -1, 0, 4, c1, c2)
            return True
    return False


@kernel
def _bug3(g, hi, hd, hrem, bug_cells, nbug, all_bug, common):
    # the common cells in the first BUG cell's house order (SE's LinkedHashSet)
    first = bug_cells[0]
    for k in range(3):
        reg = CELL_REGION[first, k]
        shared = True
        for b in range(1, nbug):
            if CELL_REGION[bug_cells[b], k] != reg:
                shared = False
        if not shared:
            continue
        rcells = np.empty(20, dtype=np.int64)
        nr = 0
        for a in range(20):
            v = HOUSE[first, a]
            if common[v] and CELL_REGION[v, k] == reg:
                rcells[nr] = v
                nr += 1
        for degree in range(2, 7):
            if nr < degree:
                continue
            for t in range(COMB9_START[degree - 1], COMB9_START[degree]):
                pick = COMB9_ALL[t]
                if pick >= (1 << nr):
                    break
                other = 0
                ok = True
                union = all_bug
                if POPCOUNT[all_bug] <= 1:
                    ok = False
                for x in range(nr):
                    if (pick >> x) & 1:
                        p = g[CAND + rcells[x]]
                        other |= p
                        union |= p
                        if POPCOUNT[p] <= 1:
                            ok = False
                if POPCOUNT[other] != degree or not ok or POPCOUNT[union] != degree:
                    continue
                clear_rem(hrem)
                found = False
                for x in range(nr):
                    if (pick >> x) & 1:
                        continue
                    v = rcells[x]
                    r = g[CAND + v] & union
                    if r:
                        hrem[v] = r
                        found = True
                if found:
                    set_hint(hi, hd, T.BUG, 5.7 + (POPCOUNT[union] - 1) * 0.1, -1, 0, 3, first, union)
                    return True
    return False
