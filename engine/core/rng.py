"""A seeded random stream for kernels: xoshiro256** (Blackman and Vigna), seeded by splitmix64.

Why our own and not ``np.random`` inside the kernels: a stream here is an explicit ``uint64[4]``
state the caller owns, so a result depends only on ``(seed, stream)``, never on which thread ran
it or on Numba's internal generator, and many streams can run side by side (one per chunk of a
long run, one per Dask task) and each be replayed alone. :func:`seed_stream` derives the state of
stream ``k`` of a seed; :func:`below` draws an integer in ``[0, n)`` exactly uniformly (by rejection:
the values that would make some results more likely than others are redrawn); :func:`shuffle` is Fisher-Yates on
it. ``tests/naive_generate.py`` holds a plain-Python xoshiro256** the kernels are checked against.
"""
import numpy as np

from .._jit import kernel

STATE_WORDS = 4
"""Words of a stream's state (``np.zeros(STATE_WORDS, np.uint64)``)."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@kernel(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel(inline="always")
def _splitmix(z):
    """(next splitmix64 counter, its output)."""
    z = z + _GOLDEN
    x = z
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    return z, x ^ (x >> np.uint64(31))


@kernel
def seed_stream(state, seed, stream):
    """Stream ``stream`` of ``seed`` (both below 2^63) into ``state``: splitmix64 started at a
    mix of the two, as xoshiro's authors advise (an all-zero state cannot come out)."""
    a = _splitmix(np.uint64(seed))[1]
    z = _splitmix(a ^ (np.uint64(stream) * _GOLDEN))[1]
    for i in range(STATE_WORDS):
        z, x = _splitmix(z)
        state[i] = x


@kernel(inline="always")
def next_u64(state):
    """The next 64-bit word of the stream (xoshiro256**)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@kernel(inline="always")
def below(state, n):
    """An integer in ``[0, n)``, each exactly equally likely (1 <= n < 2^63), as int64.

    Below 2^32 by Lemire's multiply-and-shift: the high half of x * n for a 32-bit x, redrawn
    when the low half falls under 2^32 mod n (computed only then), so usually no division;
    above, the 64-bit word modulo n after the same kind of threshold."""
    if n < 4294967296:
        un = np.uint64(n)
        while True:
            m = (next_u64(state) >> np.uint64(32)) * un
            low = m & np.uint64(0xFFFFFFFF)
            if low >= un or low >= (np.uint64(4294967296) - un) % un:
                return np.int64(m >> np.uint64(32))
    un = np.uint64(n)
    threshold = (np.uint64(0) - un) % un  # 2^64 mod n
    while True:
        x = next_u64(state)
        if x >= threshold:
            return np.int64(x % un)


@kernel
def shuffle(state, a, n):
    """Fisher-Yates on ``a[:n]`` in place: each of the n! orders equally likely."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
