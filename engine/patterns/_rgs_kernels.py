"""Kernels of restricted growth sequences (RGS): relabel, rank, unrank, enumerate.

An RGS of length n with values at most k: s[0] = 1 and s[i] <= 1 + max(s[0..i-1]), s[i] <= k.
Ranks are positions in lexicographic order; ``ways[i, m]`` (from :func:`_completions`) is the
number of ways to finish an RGS whose first i entries have maximum m.
"""
import numpy as np

from .._jit import kernel


@kernel
def relabel_into(batch, order, out):
    """out[k] = batch[k] with digits renamed 1, 2, 3, ... in order of first appearance along
    ``order`` (cell indexes); cells not in ``order`` and empty cells (0) are copied as 0."""
    label = np.zeros(10, np.uint8)
    for k in range(batch.shape[0]):
        for d in range(10):
            label[d] = 0
        nxt = 1
        for j in range(batch.shape[1]):
            out[k, j] = 0
        for q in range(order.shape[0]):
            c = order[q]
            v = batch[k, c]
            if v == 0:
                continue
            if label[v] == 0:
                label[v] = nxt
                nxt += 1
            out[k, c] = label[v]


@kernel
def completions(n, k, ways):
    """ways[i, m] = RGS completions of length n - i when the first i entries have maximum m."""
    for m in range(k + 1):
        ways[n, m] = 1
    for i in range(n - 1, -1, -1):
        for m in range(k + 1):
            w = m * ways[i + 1, m]
            if m < k:
                w += ways[i + 1, m + 1]
            ways[i, m] = w


@kernel
def rank_into(seqs, ways, out):
    """out[j] = lexicographic rank of the RGS seqs[j] (values 1..k); -1 for a non-RGS row."""
    n = seqs.shape[1]
    k = ways.shape[1] - 1
    for j in range(seqs.shape[0]):
        r = 0
        m = 0
        bad = False
        for i in range(n):
            v = np.int64(seqs[j, i])
            if v < 1 or v > m + 1 or v > k:
                bad = True
                break
            # the sequences with a smaller value here come first
            for u in range(1, v):
                r += ways[i + 1, max(m, u)]
            if v > m:
                m = v
        out[j] = -1 if bad else r


@kernel
def unrank_into(ranks, ways, out):
    """out[j] = the RGS of rank ranks[j] (ranks must be in range)."""
    n = out.shape[1]
    k = ways.shape[1] - 1
    for j in range(ranks.shape[0]):
        r = ranks[j]
        m = 0
        for i in range(n):
            top = min(m + 1, k)
            for u in range(1, top + 1):
                w = ways[i + 1, max(m, u)]
                if r < w:
                    out[j, i] = u
                    if u > m:
                        m = u
                    break
                r -= w


@kernel
def enumerate_into(n, k, out):
    """Every RGS of length n with values <= k, in lexicographic order, into out (rows)."""
    if n == 0:
        return 1
    s = np.ones(n, np.int64)
    mx = np.ones(n, np.int64)  # mx[i] = max of s[0..i]
    for i in range(n):
        s[i] = 1
        mx[i] = 1
    count = 0
    while True:
        for i in range(n):
            out[count, i] = s[i]
        count += 1
        # advance: rightmost position that can still grow
        i = n - 1
        while i >= 1:
            if s[i] <= mx[i - 1] and s[i] < k:
                break
            i -= 1
        if i < 1:
            return count
        s[i] += 1
        mx[i] = max(mx[i - 1], s[i])
        for q in range(i + 1, n):
            s[q] = 1
            mx[q] = mx[i]
