"""Restricted growth sequences (RGS): the canonical relabeling of digits for a fixed cell order.

Relabeling a sudoku so its digits appear as 1, 2, 3, ... in order of first appearance (along
any cell order) picks one member of each relabeling class: two sudokus differ by a relabeling
exactly when their relabeled forms are equal. The digit strings obtained are the RGS
``s[0] = 1, s[i] <= 1 + max(s[:i])``; with at most k values there are
``S(n, 1) + ... + S(n, k)`` of length n (Stirling numbers of the second kind: an RGS is a set
partition of the n positions into at most k blocks). Ranks are lexicographic positions,
computed from a completion table (``ways[i, m]``), so rank/unrank cost O(n k) each.

API: :func:`relabel` (batch kernel), :func:`count`, :func:`stirling2`, :func:`rank`,
:func:`unrank`, :func:`enumerate_rgs`.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import _rgs_kernels as K

MAX_VALUE = 9


def relabel(batch, order=None) -> np.ndarray:
    """Relabel each row of ``batch`` (uint8, (N, L), 0 = empty) so its digits read 1, 2, 3, ...
    in order of first appearance along ``order`` (default: 0..L-1). Cells outside ``order``
    become 0."""
    a = np.ascontiguousarray(batch, np.uint8)
    one = a.ndim == 1
    if one:
        a = a[None, :]
    if a.ndim != 2:
        raise ValueError("expected a batch of shape (N, L)")
    if a.size and a.max() > 9:
        raise ValueError("digits must be 0..9")
    o = np.arange(a.shape[1], dtype=np.int64) if order is None else np.ascontiguousarray(order, np.int64)
    if o.size and (o.min() < 0 or o.max() >= a.shape[1]):
        raise ValueError("order indexes outside the rows")
    out = np.empty_like(a)
    K.relabel_into(a, o, out)
    return out[0] if one else out


@lru_cache(maxsize=None)
def stirling2(n: int, k: int) -> int:
    """S(n, k): partitions of n things into k non-empty blocks (exact integer)."""
    if n == k:
        return 1
    if k == 0 or k > n:
        return 0
    return k * stirling2(n - 1, k) + stirling2(n - 1, k - 1)


def count(n: int, k: int = MAX_VALUE) -> int:
    """Number of RGS of length n with values <= k: S(n,0) + ... + S(n,k) (1 for n = 0)."""
    return sum(stirling2(n, j) for j in range(0, k + 1))


@lru_cache(maxsize=None)
def _ways(n: int, k: int) -> np.ndarray:
    if count(n, k) >= 2**63:
        raise ValueError(f"RGS of length {n} are too many to rank in int64")
    ways = np.zeros((n + 1, k + 1), np.int64)
    K.completions(n, k, ways)
    return ways


def rank(seqs, k: int = MAX_VALUE) -> np.ndarray:
    """Lexicographic ranks of RGS rows (values 1..k); -1 marks a row that is not an RGS."""
    s = np.ascontiguousarray(seqs, np.int64)
    one = s.ndim == 1
    if one:
        s = s[None, :]
    out = np.empty(s.shape[0], np.int64)
    K.rank_into(s, _ways(s.shape[1], k), out)
    return out[0] if one else out


def unrank(ranks, n: int, k: int = MAX_VALUE) -> np.ndarray:
    """The RGS of length n (values <= k) at these lexicographic ranks, rows of uint8."""
    r = np.ascontiguousarray(ranks, np.int64)
    one = r.ndim == 0
    r = r.reshape(-1)
    total = count(n, k)
    if r.size and (r.min() < 0 or r.max() >= total):
        raise ValueError(f"ranks must be in 0..{total - 1}")
    out = np.zeros((r.shape[0], n), np.uint8)
    K.unrank_into(r, _ways(n, k), out)
    return out[0] if one else out


def enumerate_rgs(n: int, k: int = MAX_VALUE) -> np.ndarray:
    """Every RGS of length n with values <= k, in lexicographic order, as uint8 rows."""
    total = count(n, k)
    if total > 50_000_000:
        raise ValueError(f"{total} sequences are too many to hold at once")
    out = np.zeros((total, n), np.uint8)
    got = K.enumerate_into(n, k, out)
    assert got == total
    return out
