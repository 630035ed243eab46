"""Small bit and permutation tables every kernel family shares, and the bit-scan intrinsics.

Module-level arrays are compile-time constants inside kernels, so a table costs one load.
Digits sit on bits 1-9 of a 10-bit mask in some kernels and on bits 0-8 in others: the
tables cover 10 bits so both index them directly.
"""
from itertools import permutations

import numpy as np
from numba import types
from numba.cpython.unsafe import numbers as _unsafe_numbers
from numba.extending import intrinsic, overload

from ._jit import OVERLOAD_OPTIONS

POPCOUNT = np.array([bin(m).count("1") for m in range(1024)], dtype=np.int64)
"""Set bits of a mask below 2^10."""

LOWBIT = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 1024)], dtype=np.int64)
"""Index of the lowest set bit of a mask below 2^10 (0 for 0)."""

FACT = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880], dtype=np.int64)
"""k! for k = 0..9."""

PERM3 = np.array(list(permutations(range(3))), dtype=np.uint8)
"""The 6 orders of 3 things, in lexicographic order (PERM3[rank] for rank 0..5)."""

PERMS = np.array(
    [[[0, 1, 2]] * 6,
     [[0, 1, 2]] * 6,
     [[0, 1, 2], [1, 0, 2]] + [[0, 1, 2]] * 4,
     [list(p) for p in permutations(range(3))]],
    dtype=np.int64,
)
"""PERMS[k, i]: the i-th order (i < k!) of the first k of 3 positions, the rest in place."""


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


def popcount(x):
    """Number of set bits (compiled: one popcnt instruction; plain Python for ``py_func`` paths)."""
    return bin(int(x)).count("1")


def trailing_zeros(x):
    """Index of the lowest set bit of a nonzero mask (compiled: one tzcnt instruction)."""
    return (int(x) & -int(x)).bit_length() - 1


@overload(popcount, jit_options=OVERLOAD_OPTIONS)
def _popcount_ol(x):
    return lambda x: _ctpop(x)


@overload(trailing_zeros, jit_options=OVERLOAD_OPTIONS)
def _trailing_zeros_ol(x):
    return lambda x: _unsafe_numbers.trailing_zeros(x)
