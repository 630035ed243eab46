"""Counts of essentially different (ED) clue patterns by Burnside's lemma, without enumerating.

The positional group G (order 2 x 6^8 = 3,359,232) is W x W (row maps x column maps, W = S3 wr S3
of order 1,296 acting on 9 lines) plus its transposed coset. The number of orbits of n-cell
patterns is (1/|G|) sum_g fix_n(g), where fix_n(g), the number of n-cell patterns g maps to
themselves, is the coefficient of x^n in prod over g's cycles on the 81 cells of (1 + x^len).
That depends only on g's cycle type, and the cycle types come from conjugacy classes:

* g = (R, C) without transpose: a row cycle of length a and a column cycle of length b give
  gcd(a, b) cell cycles of length lcm(a, b), so the type depends on the cycle types of R and C
  in W (a few dozen pairs, not 1.7 million elements).
* g = transpose then (R, C): conjugating by (u, R^-1 u^-1)... turns it into (id, C o R), so the
  1,296^2 transposed elements fall into 1,296 classes of c = C o R, each of 1,296 elements,
  with the cell map (i, j) -> (c(j), i).

Everything is exact integer arithmetic; all 82 counts take well under a second.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations
from math import gcd

GROUP_ORDER = 2 * 6**8
W_ORDER = 6**4


def chute_maps():
    """The 1,296 maps of 9 lines that keep the 3 chutes together (W = S3 wr S3), as tuples."""
    p3 = list(permutations(range(3)))
    out = []
    for beta in p3:
        for r0 in p3:
            for r1 in p3:
                for r2 in p3:
                    rs = (r0, r1, r2)
                    out.append(tuple(3 * beta[b] + rs[b][k] for b in range(3) for k in range(3)))
    return out


def cycle_type(perm) -> tuple:
    """Sorted cycle lengths of a permutation given as a sequence (perm[x] = image of x)."""
    seen = [False] * len(perm)
    lengths = []
    for s in range(len(perm)):
        if seen[s]:
            continue
        n, x = 0, s
        while not seen[x]:
            seen[x] = True
            x = perm[x]
            n += 1
        lengths.append(n)
    return tuple(sorted(lengths))


@lru_cache(maxsize=None)
def cell_cycle_types() -> tuple[tuple[tuple, int], ...]:
    """(cycle type on the 81 cells, number of elements of G with it), summing to |G|."""
    w = chute_maps()
    line_types = Counter(cycle_type(m) for m in w)
    types: Counter = Counter()
    for ta, na in line_types.items():
        for tb, nb in line_types.items():
            cells = []
            for a in ta:
                for b in tb:
                    g = gcd(a, b)
                    cells += [a * b // g] * g
            types[tuple(sorted(cells))] += na * nb
    for c in w:
        # (i, j) -> (c(j), i): the representative of its class of 1,296 transposed elements
        perm = [0] * 81
        for i in range(9):
            for j in range(9):
                perm[i * 9 + j] = c[j] * 9 + i
        types[cycle_type(perm)] += W_ORDER
    assert sum(types.values()) == GROUP_ORDER
    return tuple(sorted(types.items()))


def _fixed_polynomial(cycles: tuple) -> list[int]:
    """Coefficients of prod (1 + x^len) over the cycles: fixed patterns by size."""
    poly = [1] + [0] * 81
    for length in cycles:
        for n in range(81, length - 1, -1):
            poly[n] += poly[n - length]
    return poly


@lru_cache(maxsize=None)
def pattern_counts() -> tuple[int, ...]:
    """ED patterns with n cells for n = 0..81 (exact): 1, 1, 5, 21, 109, ..."""
    total = [0] * 82
    for cycles, mult in cell_cycle_types():
        poly = _fixed_polynomial(cycles)
        for n in range(82):
            total[n] += mult * poly[n]
    out = []
    for n, t in enumerate(total):
        q, r = divmod(t, GROUP_ORDER)
        assert r == 0, f"Burnside sum for n={n} is not divisible by |G|"
        out.append(q)
    return tuple(out)


def pattern_count(n: int) -> int:
    if not 0 <= n <= 81:
        raise ValueError("n must be in 0..81")
    return pattern_counts()[n]
