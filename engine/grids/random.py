"""Random solution grids for tests and benchmarks (randomized backtracking, then a random
group element; varied essentially different grids, though not exactly uniform over them)."""
from __future__ import annotations

import numpy as np

from .._jit import kernel


@kernel
def _fill(seed, out):
    np.random.seed(seed)
    order = np.zeros((81, 9), np.uint8)
    pos = np.zeros(81, np.int64)
    rows = np.zeros(9, np.int64)
    cols = np.zeros(9, np.int64)
    boxes = np.zeros(9, np.int64)
    for n in range(out.shape[0]):
        g = out[n]
        for i in range(9):
            rows[i] = 0
            cols[i] = 0
            boxes[i] = 0
        for p in range(81):
            perm = np.random.permutation(9)
            for k in range(9):
                order[p, k] = perm[k] + 1
            pos[p] = 0
            g[p] = 0
        p = 0
        while p < 81:
            i, j = p // 9, p % 9
            b = (i // 3) * 3 + j // 3
            if g[p]:  # undo this cell's digit before trying the next
                bit = 1 << g[p]
                rows[i] ^= bit
                cols[j] ^= bit
                boxes[b] ^= bit
                g[p] = 0
            placed = False
            while pos[p] < 9:
                v = order[p, pos[p]]
                pos[p] += 1
                bit = 1 << v
                if not (rows[i] & bit or cols[j] & bit or boxes[b] & bit):
                    g[p] = v
                    rows[i] |= bit
                    cols[j] |= bit
                    boxes[b] |= bit
                    placed = True
                    break
            if placed:
                p += 1
            else:
                pos[p] = 0
                p -= 1


def random_grids(n: int, seed: int = 0) -> np.ndarray:
    """``n`` random valid solution grids, shape (n, 81) uint8."""
    out = np.zeros((n, 81), np.uint8)
    _fill(seed, out)
    return out
