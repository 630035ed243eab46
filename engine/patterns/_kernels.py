"""Kernels of the box-first canonical order: tables, the stabilizer-chain search, enumeration.

Layout (written down here only):

* box b = 3 * (r // 3) + c // 3, cell k = 3 * (r % 3) + c % 3 inside it; a box's *mask* has
  bit 8 - k for cell k, so comparing masks as integers compares the cells in reading order
  (clue before empty: the canonical form packs clues to the top left).
* A position map is a *box-level element* e = 36 t + 6 beta + sigma (transpose t, band order
  PERM3[beta], stack order PERM3[sigma]) and six chute orders rho[0..2] (rows inside image band
  I) and gam[0..2] (columns inside image stack J). Image box (I, J) is source box
  (PERM3[beta][I], PERM3[sigma][J]) of the source (the input, or its transpose when t = 1),
  with cell (r, c) taken from source cell (PERM3[rho[I]][r], PERM3[gam[J]][c]) of that box:
  its mask is IMG[6 rho[I] + gam[J], source mask].
* The chain: image box 0 depends on (rho[0], gam[0]), box 1 adds gam[1], box 2 gam[2], box 3
  rho[1] (boxes 4 and 5 then follow), box 6 rho[2] (boxes 7 and 8 follow): five levels, each
  trying only what ties the best prefix so far. Chute orders that give the same sequence of
  line keys (identical lines, e.g. empty ones) are tried once and counted with their number.

Key order (canonical = the largest): occupancy of the 9 boxes, clue counts per box, box masks
in box order; for configurations then the digits in box-first cell order, as an RGS, smallest.
"""
import numpy as np

from .._bits import PERM3
from .._jit import kernel

P3 = PERM3.astype(np.int64)


def _tables():
    img = np.zeros((36, 512), np.int64)
    trm = np.zeros(512, np.int64)
    for m in range(512):
        cell = [(m >> (8 - k)) & 1 for k in range(9)]
        trm[m] = sum(cell[3 * c + r] << (8 - (3 * r + c)) for r in range(3) for c in range(3))
        for rho in range(6):
            for gam in range(6):
                v = 0
                for r in range(3):
                    for c in range(3):
                        v |= cell[3 * P3[rho, r] + P3[gam, c]] << (8 - (3 * r + c))
                img[6 * rho + gam, m] = v
    best = img.max(axis=0)
    argn = np.zeros(512, np.int64)
    arg = np.zeros((512, 36), np.int64)
    for m in range(512):
        qs = np.nonzero(img[:, m] == best[m])[0]
        argn[m] = len(qs)
        arg[m, : len(qs)] = qs
    return img, trm, best, argn, arg


IMG, TRM, BEST, ARGN, ARG = _tables()
"""IMG[6 rho + gam, m]: box mask m with its rows put in order PERM3[rho] and columns PERM3[gam];
TRM[m]: m transposed; BEST[m]: the largest IMG[q, m]; ARG[m, :ARGN[m]]: the q reaching it."""

LEVEL_START = np.array([0, 1, 2, 3, 6, 9], np.int64)
"""Level L of the chain decides image boxes LEVEL_START[L] .. LEVEL_START[L+1]-1."""

CELL_OF_BOXPOS = np.array([27 * (b // 3) + 3 * (b % 3) + 9 * (k // 3) + k % 3
                           for b in range(9) for k in range(9)], np.int64)
"""Row-major cell index of position 9 b + k of the box-first cell order."""

@kernel
def box_masks(cells, masks):
    """masks[b] = mask of box b of an 81-cell array (non-zero = clue)."""
    for b in range(9):
        v = 0
        for k in range(9):
            if cells[CELL_OF_BOXPOS[9 * b + k]] != 0:
                v |= 1 << (8 - k)
        masks[b] = v


@kernel
def _orient(masks, known, srcmask, srcknown):
    """srcmask[t, 3a + b]: mask of box (a, b) of the source in orientation t (t = 1: transposed)."""
    for a in range(3):
        for b in range(3):
            srcmask[0, 3 * a + b] = masks[3 * a + b]
            srcknown[0, 3 * a + b] = known[3 * a + b]
            srcmask[1, 3 * a + b] = TRM[masks[3 * b + a]]
            srcknown[1, 3 * a + b] = known[3 * b + a]


@kernel
def _line_dedupe(keys, ok, mult):
    """For source lines with keys[t, line]: ok[t, chute, p] = 1 when order p of the chute's
    lines gives a key sequence no earlier order gives; mult[t, chute] = orders per sequence."""
    for t in range(2):
        for ch in range(3):
            distinct = 0
            for p in range(6):
                dup = False
                for p2 in range(p):
                    same = True
                    for r in range(3):
                        if keys[t, 3 * ch + P3[p, r]] != keys[t, 3 * ch + P3[p2, r]]:
                            same = False
                    if same:
                        dup = True
                        break
                ok[t, ch, p] = 0 if dup else 1
                if not dup:
                    distinct += 1
            mult[t, ch] = 6 // distinct


@kernel
def mask_line_keys(masks, keys):
    """keys[0, i] = the clues of row i as 9 bits, keys[1, i] = those of column i (row i of
    the transposed source): lines with equal keys are interchangeable for the pattern."""
    for i in range(9):
        vr = 0
        vc = 0
        for j in range(9):
            # row i, column j
            b = 3 * (i // 3) + j // 3
            k = 3 * (i % 3) + j % 3
            bit = (masks[b] >> (8 - k)) & 1
            vr |= bit << j
            b2 = 3 * (j // 3) + i // 3
            k2 = 3 * (j % 3) + i % 3
            vc |= ((masks[b2] >> (8 - k2)) & 1) << j
        keys[0, i] = vr
        keys[1, i] = vc


@kernel
def index_line_keys(masks, keys):
    """Keys that tell every non-empty line apart (empty lines share key 0): used where the
    cell map matters (digits), not only the image pattern."""
    mask_line_keys(masks, keys)
    for t in range(2):
        for i in range(9):
            if keys[t, i] != 0:
                keys[t, i] = 1 + i


@kernel
def check_search(masks, known, elems, keys, record, out_maps, out_weights):
    """Is the prefix ``masks`` (boxes with known[b] = 1 are decided) still the largest under
    the box-level elements ``elems`` and all chute orders? Returns -1 as soon as one image is
    larger on the decided boxes. Otherwise returns the number of group elements (weighted by
    the orders deduplicated) whose image equals masks on all 9 boxes (0 unless all are known);
    with ``record``, also writes those elements as (t, rows[9], cols[9]) into out_maps (19
    entries; rows[i] = source line of image row i) and their weights, and returns -2 if
    out_maps is too small."""
    srcmask = np.empty((2, 9), np.int64)
    srcknown = np.empty((2, 9), np.int64)
    _orient(masks, known, srcmask, srcknown)
    rok = np.empty((2, 3, 6), np.int64)
    rmult = np.empty((2, 3), np.int64)
    cok = np.empty((2, 3, 6), np.int64)
    cmult = np.empty((2, 3), np.int64)
    rkeys = np.empty((2, 9), np.int64)
    ckeys = np.empty((2, 9), np.int64)
    for i in range(9):
        rkeys[0, i] = keys[0, i]
        rkeys[1, i] = keys[1, i]
        ckeys[0, i] = keys[1, i]
        ckeys[1, i] = keys[0, i]
    _line_dedupe(rkeys, rok, rmult)
    _line_dedupe(ckeys, cok, cmult)
    rho = np.zeros(3, np.int64)
    gam = np.zeros(3, np.int64)
    idx = np.zeros(5, np.int64)
    ties = 0
    n_rec = 0
    for ei in range(elems.shape[0]):
        e = elems[ei]
        t = e // 36
        bb = P3[(e // 6) % 6]
        ss = P3[e % 6]
        # boxes beyond the first undecided one (on either side) cannot be compared
        depth = 9
        for j in range(9):
            if known[j] == 0 or srcknown[t, 3 * bb[j // 3] + ss[j % 3]] == 0:
                depth = j
                break
        if depth == 0:
            continue
        m0 = srcmask[t, 3 * bb[0] + ss[0]]
        if BEST[m0] > masks[0]:
            return -1
        if BEST[m0] < masks[0]:
            continue
        weight = 1
        for c in range(3):
            weight *= rmult[t, bb[c]] * cmult[t, ss[c]]
        lvl = 0
        idx[0] = -1
        while lvl >= 0:
            idx[lvl] += 1
            i = idx[lvl]
            if lvl == 0:
                if i >= ARGN[m0]:
                    lvl -= 1
                    continue
                q = ARG[m0, i]
                rho[0] = q // 6
                gam[0] = q % 6
                if rok[t, bb[0], rho[0]] == 0 or cok[t, ss[0], gam[0]] == 0:
                    continue
            else:
                if i >= 6:
                    lvl -= 1
                    continue
                if lvl == 1 or lvl == 2:
                    gam[lvl] = i
                    if cok[t, ss[lvl], i] == 0:
                        continue
                else:
                    rho[lvl - 2] = i
                    if rok[t, bb[lvl - 2], i] == 0:
                        continue
            # compare the boxes this level decides
            state = 0  # 0 equal, 1 smaller, 2 undecidable
            for j in range(LEVEL_START[lvl], LEVEL_START[lvl + 1]):
                if j >= depth:
                    state = 2
                    break
                I = j // 3
                J = j % 3
                v = IMG[6 * rho[I] + gam[J], srcmask[t, 3 * bb[I] + ss[J]]]
                if v > masks[j]:
                    return -1
                if v < masks[j]:
                    state = 1
                    break
            if state != 0:
                continue
            if lvl < 4:
                lvl += 1
                idx[lvl] = -1
                continue
            ties += weight
            if record:
                if n_rec >= out_maps.shape[0]:
                    return -2
                out_maps[n_rec, 0] = t
                for I in range(3):
                    for r in range(3):
                        out_maps[n_rec, 1 + 3 * I + r] = 3 * bb[I] + P3[rho[I], r]
                        out_maps[n_rec, 10 + 3 * I + r] = 3 * ss[I] + P3[gam[I], r]
                out_weights[n_rec] = weight
                n_rec += 1
    return ties if not record else n_rec


@kernel
def canon_search(masks, elems, keys, cells, digits, best_masks, best_digits, best_map):
    """The largest image of ``masks`` under the box-level elements ``elems`` and all chute
    orders (branch and bound on the chain: a branch is followed only while it ties the best
    image so far). With ``digits`` (cells holds the digits, keys from index_line_keys), among
    the maps reaching the largest pattern, the one whose image digits in box-first order give
    the smallest RGS. Writes best_masks[9], best_digits[81] (box-first order, RGS-relabeled;
    0 for no clue), best_map (t, rows, cols of one best element) and returns the number of
    group elements reaching the best (weighted)."""
    known = np.ones(9, np.int64)
    srcmask = np.empty((2, 9), np.int64)
    srcknown = np.empty((2, 9), np.int64)
    _orient(masks, known, srcmask, srcknown)
    rok = np.empty((2, 3, 6), np.int64)
    rmult = np.empty((2, 3), np.int64)
    cok = np.empty((2, 3, 6), np.int64)
    cmult = np.empty((2, 3), np.int64)
    rkeys = np.empty((2, 9), np.int64)
    ckeys = np.empty((2, 9), np.int64)
    for i in range(9):
        rkeys[0, i] = keys[0, i]
        rkeys[1, i] = keys[1, i]
        ckeys[0, i] = keys[1, i]
        ckeys[1, i] = keys[0, i]
    _line_dedupe(rkeys, rok, rmult)
    _line_dedupe(ckeys, cok, cmult)
    for j in range(9):
        best_masks[j] = -1
    for p in range(81):
        best_digits[p] = 0
    have_digits = False
    rho = np.zeros(3, np.int64)
    gam = np.zeros(3, np.int64)
    idx = np.zeros(5, np.int64)
    rows = np.zeros(9, np.int64)
    cols = np.zeros(9, np.int64)
    label = np.zeros(10, np.int64)
    img = np.zeros(81, np.int64)
    ties = 0
    for ei in range(elems.shape[0]):
        e = elems[ei]
        t = e // 36
        bb = P3[(e // 6) % 6]
        ss = P3[e % 6]
        m0 = srcmask[t, 3 * bb[0] + ss[0]]
        if BEST[m0] < best_masks[0]:
            continue
        weight = 1
        for c in range(3):
            weight *= rmult[t, bb[c]] * cmult[t, ss[c]]
        lvl = 0
        idx[0] = -1
        while lvl >= 0:
            idx[lvl] += 1
            i = idx[lvl]
            if lvl == 0:
                if i >= ARGN[m0]:
                    lvl -= 1
                    continue
                q = ARG[m0, i]
                rho[0] = q // 6
                gam[0] = q % 6
                if rok[t, bb[0], rho[0]] == 0 or cok[t, ss[0], gam[0]] == 0:
                    continue
            else:
                if i >= 6:
                    lvl -= 1
                    continue
                if lvl == 1 or lvl == 2:
                    gam[lvl] = i
                    if cok[t, ss[lvl], i] == 0:
                        continue
                else:
                    rho[lvl - 2] = i
                    if rok[t, bb[lvl - 2], i] == 0:
                        continue
            state = 0  # 0 tie, 1 smaller (prune)
            for j in range(LEVEL_START[lvl], LEVEL_START[lvl + 1]):
                I = j // 3
                J = j % 3
                v = IMG[6 * rho[I] + gam[J], srcmask[t, 3 * bb[I] + ss[J]]]
                if v < best_masks[j]:
                    state = 1
                    break
                if v > best_masks[j]:
                    # a new best prefix: what came after it is void
                    best_masks[j] = v
                    for j2 in range(j + 1, 9):
                        best_masks[j2] = -1
                    ties = 0
                    have_digits = False
            if state != 0:
                continue
            if lvl < 4:
                lvl += 1
                idx[lvl] = -1
                continue
            # a leaf that ties the best pattern
            for I in range(3):
                for r in range(3):
                    rows[3 * I + r] = 3 * bb[I] + P3[rho[I], r]
                    cols[3 * I + r] = 3 * ss[I] + P3[gam[I], r]
            cmp = 0
            if digits:
                for d in range(10):
                    label[d] = 0
                nxt = 1
                cmp = 0 if have_digits else -1
                for p in range(81):
                    c = CELL_OF_BOXPOS[p]
                    i9 = c // 9
                    j9 = c % 9
                    src = rows[i9] * 9 + cols[j9] if t == 0 else cols[j9] * 9 + rows[i9]
                    v = cells[src]
                    if v != 0:
                        if label[v] == 0:
                            label[v] = nxt
                            nxt += 1
                        v = label[v]
                    img[p] = v
                    if cmp == 0:
                        if v < best_digits[p]:
                            cmp = -1
                        elif v > best_digits[p]:
                            cmp = 1
                            break  # larger: this leaf loses, the rest of its image is not needed
                if cmp == 1:
                    continue
                if cmp == -1:
                    for p in range(81):
                        best_digits[p] = img[p]
                    have_digits = True
                    ties = 0
            if cmp == -1 or ties == 0:
                best_map[0] = t
                for q in range(9):
                    best_map[1 + q] = rows[q]
                    best_map[10 + q] = cols[q]
            ties += weight
    return ties


@kernel
def digit_dfs(n, conflicts, n_conf, maps, weights, n_maps, out_digits, out_auts, cap, max_value):
    """Configurations on one canonical pattern of n cells (positions 0..n-1 in box-first order):
    digit strings d that are RGS (d[0] = 1, d[k] <= 1 + max so far, <= max_value), have no two
    equal digits on conflicting positions (conflicts[k, :n_conf[k]]: earlier positions sharing
    a row, column or box), and are the smallest RGS among their images under the pattern's
    automorphisms (maps[a, k] = position whose digit lands on position k). Each kept d goes
    to out_digits (up to cap rows) with its automorphism count (weighted maps fixing it up to
    relabeling, times the relabelings of the unused digits); returns how many were kept."""
    fact = np.ones(10, np.int64)
    for k in range(1, 10):
        fact[k] = fact[k - 1] * k
    if n == 0:
        if cap > 0:
            aut = 0
            for a in range(n_maps):
                aut += weights[a]
            out_auts[0] = aut * fact[9]
        return 1
    d = np.zeros(n, np.int64)
    mx = np.zeros(n + 1, np.int64)
    label = np.zeros(10, np.int64)
    count = 0
    k = 0
    d[0] = 0
    while k >= 0:
        d[k] += 1
        top = mx[k] + 1
        if top > max_value:
            top = max_value
        if d[k] > top:
            d[k] = 0
            k -= 1
            continue
        bad = False
        for q in range(n_conf[k]):
            if d[conflicts[k, q]] == d[k]:
                bad = True
                break
        if bad:
            continue
        mx[k + 1] = mx[k] if mx[k] > d[k] else d[k]
        # prefix 0..k decided: any automorphism whose image RGS is smaller rejects it
        aut = 0
        for a in range(n_maps):
            for v in range(10):
                label[v] = 0
            nxt = 1
            state = 0  # 0 equal so far, 1 larger, 2 undecidable
            for p in range(k + 1):
                src = maps[a, p]
                if src > k:
                    state = 2
                    break
                v = d[src]
                if label[v] == 0:
                    label[v] = nxt
                    nxt += 1
                w = label[v]
                if w < d[p]:
                    state = -1
                    break
                if w > d[p]:
                    state = 1
                    break
            if state == -1:
                bad = True
                break
            if state == 0 and k == n - 1:
                aut += weights[a]
        if bad:
            continue
        if k == n - 1:
            if count < cap:
                for p in range(n):
                    out_digits[count, p] = d[p]
                out_auts[count] = aut * fact[9 - mx[n]]
            count += 1
            continue
        k += 1
        d[k] = 0
    return count


MASKS_BY_COUNT = np.zeros((10, 126), np.int64)
"""MASKS_BY_COUNT[c, :C(9, c)]: the box masks with c clues, largest first."""
NMASK = np.zeros(10, np.int64)
for _m in range(511, -1, -1):
    _c = bin(_m).count("1")
    MASKS_BY_COUNT[_c, NMASK[_c]] = _m
    NMASK[_c] += 1
POP9 = np.array([bin(m).count("1") for m in range(512)], np.int64)


@kernel
def box_vector_image(vec, e, out):
    """out[j] = vec at the source box of image box j under box-level element e (any per-box
    values: occupancy, clue counts)."""
    t = e // 36
    bb = P3[(e // 6) % 6]
    ss = P3[e % 6]
    for j in range(9):
        a = bb[j // 3]
        b = ss[j % 3]
        out[j] = vec[3 * a + b] if t == 0 else vec[3 * b + a]


@kernel
def canonical_into(batch, digits, out, auts, maps):
    """Box-first canonical form of each row (81 cells, 0 empty; with ``digits`` the values are
    kept, else every clue is 1): out[k] the canonical cells (digits as an RGS in box-first
    order), auts[k] the number of group elements (relabelings included when ``digits``) mapping
    the row to its canonical form, maps[k] one such element (group layout, 29 entries)."""
    masks = np.zeros(9, np.int64)
    counts = np.zeros(9, np.int64)
    stab = np.zeros(72, np.int64)
    best_counts = np.zeros(9, np.int64)
    keys = np.zeros((2, 9), np.int64)
    best_masks = np.zeros(9, np.int64)
    best_digits = np.zeros(81, np.int64)
    best_map = np.zeros(19, np.int64)
    label = np.zeros(10, np.int64)
    used = np.zeros(10, np.int64)
    fact = np.ones(10, np.int64)
    for q in range(1, 10):
        fact[q] = fact[q - 1] * q
    for k in range(batch.shape[0]):
        cells = batch[k]
        box_masks(cells, masks)
        for b in range(9):
            counts[b] = POP9[masks[b]]
        ns = box_optimum(counts, stab, best_counts)
        if digits:
            index_line_keys(masks, keys)
        else:
            mask_line_keys(masks, keys)
        ties = canon_search(masks, stab[:ns], keys, cells, digits, best_masks, best_digits, best_map)
        t = best_map[0]
        # the element: positions from best_map, digits relabeled in box-first order of the image
        maps[k, 0] = t
        for q in range(9):
            maps[k, 1 + q] = best_map[1 + q]
            maps[k, 10 + q] = best_map[10 + q]
        for d in range(10):
            label[d] = 0
            used[d] = 0
        nxt = 1
        for p in range(81):
            c = CELL_OF_BOXPOS[p]
            i9 = c // 9
            j9 = c % 9
            r = best_map[1 + i9]
            cc = best_map[10 + j9]
            v = cells[r * 9 + cc] if t == 0 else cells[cc * 9 + r]
            if v != 0 and label[v] == 0:
                label[v] = nxt
                used[nxt] = 1
                nxt += 1
            out[k, c] = (label[v] if digits else 1) if v != 0 else 0
        distinct = nxt - 1
        # unused digits take the unused labels in increasing order, so the map is a permutation
        free = 1
        for d in range(1, 10):
            if label[d] == 0:
                while used[free]:
                    free += 1
                label[d] = free
                used[free] = 1
        maps[k, 19] = 0
        for d in range(1, 10):
            maps[k, 19 + d] = label[d]
        auts[k] = ties * fact[9 - distinct] if digits else ties


@kernel
def box_optimum(counts, out, best):
    """The box-level elements (of all 72) reaching the largest (occupancy, counts) key of the
    per-box clue counts ``counts``: written to out, their number returned; the key reached goes
    to best (``counts`` is canonical when best equals it)."""
    img = np.zeros(9, np.int64)
    for j in range(9):
        best[j] = -1
    n = 0
    for e in range(72):
        box_vector_image(counts, e, img)
        cmp = 0
        for j in range(9):  # occupancy first, then the counts
            a = 1 if img[j] > 0 else 0
            b = -1 if best[j] < 0 else (1 if best[j] > 0 else 0)
            if a != b:
                cmp = 1 if a > b else -1
                break
        if cmp == 0:
            for j in range(9):
                if img[j] != best[j]:
                    cmp = 1 if img[j] > best[j] else -1
                    break
        if cmp < 0:
            continue
        if cmp > 0:
            for j in range(9):
                best[j] = img[j]
            n = 0
        out[n] = e
        n += 1
    return n
