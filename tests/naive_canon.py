"""Slow, obviously correct canonical forms of puzzles: every one of the 3,359,232 position maps.

A position map is (transpose, row chute map, column chute map): 2 x 1,296 x 1,296.  The
lexicographically smallest string over all of them (each relabelled in order of first
appearance) is found cell by cell: at output cell 0, 1, ..., 80 compute the (relabelled) value
of every position map still alive and keep those reaching the smallest value.  Whatever is
alive at the end reaches the form; each of them combines with (9 - #digits)! relabellings, so
the automorphism count is alive x (9 - #digits)!.  Pattern-first first does the same with
value = (cell is given), then the digit pass over the survivors.

Vectorized with numpy; a puzzle takes a few seconds.  Use on a small sample only.
"""
from __future__ import annotations

from itertools import permutations
from math import factorial

import numpy as np

_P3 = list(permutations(range(3)))
# the 1,296 chute maps: band order, then the order inside each band
CHUTE = np.array(
    [[3 * bo[b] + inner[b][k] for b in range(3) for k in range(3)] for bo in _P3 for inner in
     [(x, y, z) for x in _P3 for y in _P3 for z in _P3]],
    dtype=np.int16,
)
assert CHUTE.shape == (1296, 9)


def _all_maps():
    m = np.arange(2 * 1296 * 1296, dtype=np.int64)
    return (m // (1296 * 1296)).astype(np.int16), ((m // 1296) % 1296).astype(np.int16), (m % 1296).astype(np.int16)


def naive_canon(puzzle, pattern_first: bool = False):
    """(form (81,) uint8, automorphism count, one survivor (t, row map, col map))."""
    p = np.asarray(puzzle, dtype=np.uint8).reshape(9, 9)
    src = np.concatenate([p.ravel(), p.T.ravel()])  # src[81 t + 9 r + c]
    T, R, C = _all_maps()
    form = np.zeros(81, np.uint8)

    def values(i, j):
        # output cell (i, j) of every alive map reads source cell (CHUTE[R, i], CHUTE[C, j])
        return src[T.astype(np.int32) * 81 + CHUTE[R, i].astype(np.int32) * 9 + CHUTE[C, j]]

    if pattern_first:
        for cell in range(81):
            v = values(cell // 9, cell % 9) > 0
            if v.all() or not v.any():
                continue
            keep = ~v
            T, R, C = T[keep], R[keep], C[keep]
    labels = np.zeros((len(T), 10), np.uint8)  # digit -> label, 0 = none yet
    nxt = np.ones(len(T), np.uint8)
    for cell in range(81):
        v = values(cell // 9, cell % 9)
        if not v.any():
            continue  # empty in every alive map: form[cell] = 0, nobody dropped
        rows = np.arange(len(T))
        lab = labels[rows, v]
        new = (v > 0) & (lab == 0)
        lab[new] = nxt[new]
        labels[rows[new], v[new]] = nxt[new]
        nxt[new] += 1
        best = lab.min()
        form[cell] = best
        keep = lab == best
        if not keep.all():
            T, R, C, labels, nxt = T[keep], R[keep], C[keep], labels[keep], nxt[keep]
    ndig = len({int(d) for d in p.ravel() if d})
    return form, len(T) * factorial(9 - ndig), (int(T[0]), CHUTE[R[0]].tolist(), CHUTE[C[0]].tolist())
