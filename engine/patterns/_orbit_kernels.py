"""Kernel of the generic orbit filter: walk each orbit once through the generators."""
import numpy as np

from .._jit import kernel


@kernel
def orbits_into(gens, key, maximize, reps, sizes):
    """For elements 0..M-1 (M = gens.shape[1]) and generators gens[h, x] (image of x):
    one representative per orbit (the member with the largest key, or smallest when not
    ``maximize``; ties go to the smallest element) and its orbit size, in order of each
    orbit's smallest element. Returns the number of orbits. A visited bitmap marks elements
    once, so the work is O(M * generators), whatever the group's order."""
    m = gens.shape[1]
    h = gens.shape[0]
    seen = np.zeros((m + 63) >> 6, np.uint64)
    queue = np.empty(m, np.int64)
    n_orbits = 0
    one = np.uint64(1)
    for start in range(m):
        if (seen[start >> 6] >> np.uint64(start & 63)) & one:
            continue
        seen[start >> 6] |= one << np.uint64(start & 63)
        queue[0] = start
        head = 0
        tail = 1
        best = start
        while head < tail:
            x = queue[head]
            head += 1
            kx = key[x]
            kb = key[best]
            if (kx > kb if maximize else kx < kb) or (kx == kb and x < best):
                best = x
            for g in range(h):
                y = np.int64(gens[g, x])
                w = y >> 6
                b = one << np.uint64(y & 63)
                if not (seen[w] & b):
                    seen[w] |= b
                    queue[tail] = y
                    tail += 1
        reps[n_orbits] = best
        sizes[n_orbits] = tail
        n_orbits += 1
    return n_orbits
