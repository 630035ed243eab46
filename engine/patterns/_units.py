"""Kernels of the enumeration of essentially different patterns and configurations of n clues,
one unit at a time (a unit: the patterns with given clue counts per box): every canonical pattern
of a unit with its digits (``enumerate_unit``), from the orbit searches of ``_kernels``."""
import numpy as np

from .._jit import kernel
from ._kernels import CELL_OF_BOXPOS, MASKS_BY_COUNT, NMASK, check_search, digit_dfs, index_line_keys, mask_line_keys


@kernel
def _position_maps(recs, n_rec, clue_cells, n, pos_of_cell, maps):
    """maps[a, k] = position (0..n-1, box-first) of the source of position k's cell under the
    recorded automorphism a (t, rows, cols)."""
    for a in range(n_rec):
        t = recs[a, 0]
        for k in range(n):
            c = clue_cells[k]
            i9 = c // 9
            j9 = c % 9
            r = recs[a, 1 + i9]
            cc = recs[a, 10 + j9]
            src = r * 9 + cc if t == 0 else cc * 9 + r
            maps[a, k] = pos_of_cell[src]


MAX_RECORDS = 1 << 15


@kernel
def enumerate_unit(counts, elems, digits, max_value, out_masks, out_digits, out_auts, cap):
    """Every canonical pattern with these clue counts per box (``counts`` canonical, ``elems``
    its box-level stabilizer), boxes filled in order with masks largest first, a prefix dropped
    as soon as an image beats it. With ``digits``, every canonical configuration on each of
    them (:func:`digit_dfs`). Results go to out_masks / out_digits (box-first digits) /
    out_auts up to ``cap`` rows; returns how many there are (-1: too many automorphisms)."""
    masks = np.zeros(9, np.int64)
    known = np.zeros(9, np.int64)
    ob = np.zeros(9, np.int64)
    k = 0
    for b in range(9):
        if counts[b] == 0:
            known[b] = 1
        else:
            ob[k] = b
            k += 1
    keys = np.zeros((2, 9), np.int64)
    recs = np.zeros((MAX_RECORDS if digits else 1, 19), np.int64)
    weights = np.zeros(recs.shape[0], np.int64)
    n_cells = 0
    for b in range(9):
        n_cells += counts[b]
    clue_cells = np.zeros(81, np.int64)
    pos_of_cell = np.zeros(81, np.int64)
    conflicts = np.zeros((81, 81), np.int64)
    n_conf = np.zeros(81, np.int64)
    pmaps = np.zeros((recs.shape[0], max(n_cells, 1)), np.int64)
    idx = np.zeros(10, np.int64)
    count = 0
    lvl = 0
    idx[0] = -1
    while lvl >= 0:
        complete = False
        if k == 0:
            complete = True  # the empty pattern
            lvl = -1
        else:
            idx[lvl] += 1
            b = ob[lvl]
            c = counts[b]
            if idx[lvl] >= NMASK[c]:
                known[b] = 0
                masks[b] = 0
                lvl -= 1
                continue
            masks[b] = MASKS_BY_COUNT[c, idx[lvl]]
            known[b] = 1
            mask_line_keys(masks, keys)
            r = check_search(masks, known, elems, keys, False, recs, weights)
            if r < 0:
                continue
            if lvl < k - 1:
                lvl += 1
                idx[lvl] = -1
                continue
            complete = True
        if not complete:
            continue
        if not digits:
            mask_line_keys(masks, keys)
            aut = check_search(masks, known, elems, keys, False, recs, weights)
            if count < cap:
                for j in range(9):
                    out_masks[count, j] = masks[j]
                out_auts[count] = aut
            count += 1
            continue
        index_line_keys(masks, keys)
        n_rec = check_search(masks, known, elems, keys, True, recs, weights)
        if n_rec < 0:
            return -1
        n = 0
        for p in range(81):
            b = p // 9
            if (masks[b] >> (8 - p % 9)) & 1:
                clue_cells[n] = CELL_OF_BOXPOS[p]
                pos_of_cell[CELL_OF_BOXPOS[p]] = n
                n += 1
        for q in range(n):
            n_conf[q] = 0
            ci = clue_cells[q]
            for q2 in range(q):
                cj = clue_cells[q2]
                if (ci // 9 == cj // 9 or ci % 9 == cj % 9
                        or (ci // 27 == cj // 27 and (ci % 9) // 3 == (cj % 9) // 3)):
                    conflicts[q, n_conf[q]] = q2
                    n_conf[q] += 1
        _position_maps(recs, n_rec, clue_cells, n, pos_of_cell, pmaps)
        room = cap - count
        if room < 0:
            room = 0
        got = digit_dfs(n, conflicts, n_conf, pmaps, weights, n_rec,
                        out_digits[count:, :], out_auts[count:], room, max_value)
        for q in range(min(got, room)):
            for j in range(9):
                out_masks[count + q, j] = masks[j]
        count += got
    return count
