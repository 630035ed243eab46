"""Slow, obviously correct references for making puzzles: the random stream in plain Python
integers, top-down removal with the solver asked about each removal, the sorted fills of a band
by trying every column order, the 2-digit unavoidable sets by trying every set of rows, and the
minimal puzzles inside a puzzle by trying every subset of its givens."""
from __future__ import annotations

import itertools
import math

import numpy as np

MASK = (1 << 64) - 1


def _splitmix(z: int) -> tuple[int, int]:
    z = (z + 0x9E3779B97F4A7C15) & MASK
    x = z
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return z, x ^ (x >> 31)


class Stream:
    """xoshiro256** (Blackman and Vigna), seeded as ``core.rng.seed_stream`` documents."""

    def __init__(self, seed: int, stream: int):
        a = _splitmix(seed)[1]
        z = _splitmix(a ^ ((stream * 0x9E3779B97F4A7C15) & MASK))[1]
        self.s = []
        for _ in range(4):
            z, x = _splitmix(z)
            self.s.append(x)

    def next(self) -> int:
        s0, s1, s2, s3 = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & MASK  # noqa: E731
        result = (rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        """Uniform in [0, n): Lemire's method on the high 32 bits below 2^32, else modulo with a threshold."""
        if n < 1 << 32:
            while True:
                m = (self.next() >> 32) * n
                if (m & 0xFFFFFFFF) >= (1 << 32) % n:
                    return m >> 32
        while True:
            x = self.next()
            if x >= (1 << 64) % n:
                return x % n

    def shuffle(self, a: list) -> None:
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]


def top_down(grid: np.ndarray, order: list[int], orbits) -> np.ndarray:
    """Remove the orbits in ``order`` from the full grid, each when the solver still counts one
    solution without it."""
    from sudoku_symmetry.engine.solve import count_solutions

    p = np.array(grid, np.uint8).copy()
    for k in order:
        cells = list(orbits[k])
        if (p[cells] == 0).any():
            continue
        saved = p[cells].copy()
        p[cells] = 0
        if count_solutions(p[None], 2).counts[0] != 1:
            p[cells] = saved
    return p


def sorted_fills(cols: list[set[int]]) -> int:
    """Bands with these 9 column sets (3 digits each) whose column 1 is in increasing order: every
    order of the other 8 columns tried, rows checked."""
    n = 0
    perms = [list(p) for p in itertools.permutations(range(3))]

    def rec(j, rows):
        nonlocal n
        if j == 9:
            n += 1
            return
        choices = [sorted(cols[0])] if j == 0 else [[sorted(cols[j])[i] for i in p] for p in perms]
        for digits in choices:
            if any(digits[r] in rows[r] for r in range(3)):
                continue
            rec(j + 1, [rows[r] | {digits[r]} for r in range(3)])

    rec(0, [set(), set(), set()])
    return n


def two_digit_uas(grid: np.ndarray) -> set[frozenset]:
    """Every minimal 2-digit UA: for each pair of digits and each nonempty set of rows, swap the
    two digits in those rows and keep the cell set if the grid stays valid; then the minimal ones."""
    from sudoku_symmetry.engine.validity import is_grid

    g = np.array(grid, np.uint8).reshape(9, 9)
    subsets = np.array([[(s >> r) & 1 for r in range(9)] for s in range(1, 512)], bool)
    found = []
    for a in range(1, 10):
        for b in range(a + 1, 10):
            ca = np.array([int(np.flatnonzero(g[r] == a)[0]) for r in range(9)])
            cb = np.array([int(np.flatnonzero(g[r] == b)[0]) for r in range(9)])
            h = np.repeat(g[None], len(subsets), axis=0)
            for r in range(9):
                h[subsets[:, r], r, ca[r]] = b
                h[subsets[:, r], r, cb[r]] = a
            for k in np.flatnonzero(is_grid(h.reshape(-1, 81))).tolist():
                rows = np.flatnonzero(subsets[k]).tolist()
                found.append(frozenset([9 * r + int(ca[r]) for r in rows] + [9 * r + int(cb[r]) for r in rows]))
    return {s for s in found if not any(t < s for t in found)}


def minimal_inside(puzzle: np.ndarray) -> set[bytes]:
    """Every minimal puzzle whose givens are a subset of ``puzzle``'s: remove givens one at a time
    in every way while unique, keep the subsets from which no given can be removed."""
    from sudoku_symmetry.engine.solve import count_solutions

    start = np.array(puzzle, np.uint8)
    seen, out, todo = {start.tobytes()}, set(), [start]
    while todo:
        p = todo.pop()
        children = []
        for q in np.flatnonzero(p).tolist():
            c = p.copy()
            c[q] = 0
            children.append(c)
        counts = count_solutions(np.array(children), 2).counts if children else np.zeros(0)
        unique = [c for c, n in zip(children, counts) if n == 1]
        if not unique:
            out.add(p.tobytes())
        for c in unique:
            if c.tobytes() not in seen:
                seen.add(c.tobytes())
                todo.append(c)
    return out


def chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees of freedom > x): the regularized upper incomplete gamma
    Q(dof / 2, x / 2), by its series below a + 1 and its continued fraction above."""
    a, z = dof / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    if z < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= z / k
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    b = z + 1 - a
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - math.lgamma(a)) * h
