"""Cell sets as bit masks, the kernels several families share: a set of cells is two ``uint64``
words (word 0 cells 0-63, word 1 cells 64-80; a band's 27 cells fit in word 0 alone)."""
import numpy as np

from .._jit import kernel

ZERO = np.uint64(0)


@kernel
def minimal_sets(sets, n, keep):
    """``sets[:n]`` ((n, 2) uint64) sorted by size, no two equal: ``keep[:k]`` = the indices of
    those containing no earlier set (the inclusion-minimal ones); returns k."""
    k = 0
    for i in range(n):
        a = sets[i, 0]
        b = sets[i, 1]
        ok = True
        for j in range(k):
            q = keep[j]
            if (sets[q, 0] & ~a) == ZERO and (sets[q, 1] & ~b) == ZERO:
                ok = False
                break
        if ok:
            keep[k] = i
            k += 1
    return k
