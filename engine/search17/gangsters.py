"""Gangsters: how many bands 3 complete a pair of bands 1+2, from the pair's column sets alone.

Under bands 1+2, column j of band 3 must hold the 3 digits the pair left it (``colset3[j]``);
those 9 sets are the *gangster*. Every band 3 with that gangster completes the pair, so their
number depends on the gangster only, and it does not change when the digits are relabeled,
the columns of a stack permuted or the stacks permuted. Write digit x's *signature* as the
triple (column of x in stack 1, in stack 2, in stack 3), each 0-2, and N[a, b, c] for the number
of digits with signature (a, b, c): the 3 x 3 x 3 table N is the gangster up to relabeling, and
the group acts on it by permuting the values of each axis and the axes.

The invariant used here: the multiset, over the 27 entries of N, of (N[a, b, c], the sorted
triple of the projections N[a, b, :].sum(), N[a, :, c].sum(), N[:, b, c].sum()), folded into
one 64-bit number by summing a fixed random word per element (a multiset hash). It takes
44 values over all gangsters, the 44 gangster classes known to the Sudoku literature, and
it decides the count. Both facts are checked when the table is built, over every gangster
whose stack 1 has the columns {1,2,3}, {4,5,6}, {7,8,9}: the other two stacks' 280 partitions
each, 78,400 gangsters. Every gangster can be relabeled into that form, and neither the
invariant nor the count changes, so the check covers them all. The counts come from a second,
independent count: the row sets of stacks 1 and 2, met in the middle with stack 3's, sorted.

Use: variant C keeps every band 3 of a pair whose stabilizer is trivial (no stack is ever below
band 1 there), so its count-only run takes the count from this table instead of enumerating
the bands 3 (``bench/bench_s17.py``).
Counts are for band 3's column 1 in increasing order, as the enumeration fixes it: 1/6 of the
bands with that gangster.
"""
from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from itertools import combinations

import numpy as np

from .._bits import PERM3, POPCOUNT
from .._cache import stored_tables
from .._jit import kernel

GangsterTable = namedtuple("GangsterTable", "zobrist keys counts")
"""``zobrist`` (256,) the random word of each element code; ``keys`` (44,) the classes'
invariants, sorted; ``counts`` (44,) bands 3 per gangster of that class (column 1 sorted)."""

ALL_ROWS = 0x3FE | (0x3FE << 10) | (0x3FE << 20)  # the digits 1-9 in each of 3 rows (10 bits a row)


@kernel(inline="always")
def gangster_key(colset3, zobrist):
    """The invariant of the gangster ``colset3`` (9 digit masks, bits 1-9)."""
    key = np.int64(0)
    for a in range(3):
        for b in range(3):
            ab = colset3[a] & colset3[3 + b]
            pab = POPCOUNT[ab]
            for c in range(3):
                v = POPCOUNT[ab & colset3[6 + c]]
                p = pab
                q = POPCOUNT[colset3[a] & colset3[6 + c]]
                r = POPCOUNT[colset3[3 + b] & colset3[6 + c]]
                # sort the three projections (a network of three compare-exchanges)
                if p > q:
                    p, q = q, p
                if q > r:
                    q, r = r, q
                if p > q:
                    p, q = q, p
                key += zobrist[v * 64 + p * 16 + q * 4 + r]
    return key


@kernel(inline="always")
def gangster_count(colset3, G):
    """Bands 3 (column 1 sorted) with the gangster ``colset3``, from the table ``G``; -1 if its
    invariant is not there (cannot happen for a gangster of a real pair)."""
    key = gangster_key(colset3, G.zobrist)
    k = np.searchsorted(G.keys, key)
    if k < G.keys.shape[0] and G.keys[k] == key:
        return G.counts[k]
    return -1


@kernel
def _stack_rows(colset3, s, first_fixed, out):
    """Row sets of stack ``s`` for every order of its columns (column 1 of stack 1 fixed when
    ``first_fixed``): row r's 3 digits in bits 10 r + 1 .. 10 r + 9; returns how many."""
    d = np.zeros((3, 3), np.int64)
    for c in range(3):
        m = colset3[3 * s + c]
        k = 0
        for x in range(1, 10):
            if (m >> x) & 1:
                d[c, k] = x
                k += 1
    n = 0
    for o0 in range(1 if first_fixed else 6):
        for o1 in range(6):
            for o2 in range(6):
                v = np.int64(0)
                for r in range(3):
                    v |= ((np.int64(1) << d[0, PERM3[o0, r]]) | (np.int64(1) << d[1, PERM3[o1, r]])
                          | (np.int64(1) << d[2, PERM3[o2, r]])) << (10 * r)
                out[n] = v
                n += 1
    return n


@kernel
def count_bands3(colset3):
    """Bands 3 with gangster ``colset3``, column 1 sorted: pairs (stack 1, stack 2) of disjoint
    row sets whose complement is a row set of stack 3 (binary search in stack 3's, sorted)."""
    s0 = np.zeros(216, np.int64)
    s1 = np.zeros(216, np.int64)
    s2 = np.zeros(216, np.int64)
    n0 = _stack_rows(colset3, 0, True, s0)
    n1 = _stack_rows(colset3, 1, False, s1)
    n2 = _stack_rows(colset3, 2, False, s2)
    s2 = np.sort(s2[:n2])
    total = 0
    for a in range(n0):
        for b in range(n1):
            if s0[a] & s1[b]:
                continue
            need = ALL_ROWS & ~(s0[a] | s1[b])
            k = np.searchsorted(s2, need)
            while k < n2 and s2[k] == need:
                total += 1
                k += 1
    return total


@kernel
def _build(parts, zobrist, keys, counts):
    """Invariant and count of every gangster with stack 1 = {1,2,3} {4,5,6} {7,8,9} and
    stacks 2 and 3 from ``parts`` (row i: the three 3-digit masks of partition i)."""
    n = parts.shape[0]
    colset3 = np.zeros(9, np.int64)
    colset3[0] = 0b1110
    colset3[1] = 0b1110000
    colset3[2] = 0b1110000000
    for i in range(n):
        for j in range(n):
            for k in range(3):
                colset3[3 + k] = parts[i, k]
                colset3[6 + k] = parts[j, k]
            keys[i * n + j] = gangster_key(colset3, zobrist)
            counts[i * n + j] = count_bands3(colset3)


def partitions() -> np.ndarray:
    """The 280 partitions of the digits 1-9 into 3 sets of 3, as (280, 3) digit masks."""
    digits = range(1, 10)
    out = []
    for a in combinations(digits, 3):
        if 1 not in a:
            continue
        rest = [x for x in digits if x not in a]
        for b in combinations(rest, 3):
            if rest[0] not in b:
                continue
            c = [x for x in rest if x not in b]
            out.append([sum(1 << x for x in s) for s in (a, b, c)])
    return np.array(out, np.int64)


def _gangster_arrays() -> dict:
    zobrist = np.random.default_rng(20261124).integers(-(1 << 62), 1 << 62, 256, dtype=np.int64)
    parts = partitions()
    n = len(parts) ** 2
    keys = np.zeros(n, np.int64)
    counts = np.zeros(n, np.int64)
    _build(parts, zobrist, keys, counts)
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    first = np.ones(n, bool)
    first[1:] = keys[1:] != keys[:-1]
    cls_keys, cls_counts = keys[first], counts[first]
    starts = np.flatnonzero(first)
    if not np.array_equal(counts, np.repeat(cls_counts, np.diff(np.append(starts, n)))):
        raise RuntimeError("gangster invariant does not decide the number of bands 3")
    if len(cls_keys) != 44:
        raise RuntimeError(f"expected the 44 gangster classes, the invariant gives {len(cls_keys)}")
    return {"zobrist": zobrist, "keys": cls_keys, "counts": cls_counts}


@lru_cache(maxsize=None)
def gangster_table() -> GangsterTable:
    """The table of the 44 gangster classes, built and checked (module docstring): 78,400
    gangsters, about a second, so stored once per version of the engine's sources
    (``_cache.stored_tables``)."""
    t = stored_tables("s17-gangsters", None, _gangster_arrays)
    return GangsterTable(t["zobrist"], t["keys"], t["counts"])
