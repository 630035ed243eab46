"""Kernels of the group: apply / compose / invert transformations in their array form.

The array layout and the kernels other families call on it (``write_transform``,
``copy_transform``, ``apply_into``) live in ``engine/core/layout.py``::

    out[i][j] = t[DIGITS + src[t[ROWS + i]][t[COLS + j]]],  src = input or its transpose

``compose_into(a, b, out)`` is "apply a, then b". Enumerations compose in hot loops, so these
write into caller-owned arrays and allocate nothing.
"""
from .._jit import kernel
from ..core.layout import COLS, DIGITS, ROWS, TRANSPOSE, apply_into
from ..core.layout import SIZE, copy_transform, write_transform  # noqa: F401  (the group's kernels, all in one place)


@kernel
def set_identity(t):
    t[TRANSPOSE] = 0
    for i in range(9):
        t[ROWS + i] = i
        t[COLS + i] = i
    for d in range(10):
        t[DIGITS + d] = d


@kernel
def apply_one_to_batch(t, batch, out):
    for k in range(batch.shape[0]):
        apply_into(t, batch[k], out[k])


@kernel
def apply_each(ts, batch, out):
    for k in range(batch.shape[0]):
        apply_into(ts[k], batch[k], out[k])


@kernel
def compose_into(a, b, out):
    """out = a then b. With b transposing, b's row map picks among a's (transposed) columns."""
    bt = b[TRANSPOSE]
    out[TRANSPOSE] = a[TRANSPOSE] ^ bt
    for i in range(9):
        if bt:
            out[ROWS + i] = a[COLS + b[ROWS + i]]
            out[COLS + i] = a[ROWS + b[COLS + i]]
        else:
            out[ROWS + i] = a[ROWS + b[ROWS + i]]
            out[COLS + i] = a[COLS + b[COLS + i]]
    for d in range(10):
        out[DIGITS + d] = b[DIGITS + a[DIGITS + d]]


@kernel
def invert_into(t, out):
    """out = t^-1. Inverting a transposing map swaps the roles of its row and column maps."""
    tr = t[TRANSPOSE]
    out[TRANSPOSE] = tr
    for i in range(9):
        if tr:
            out[COLS + t[ROWS + i]] = i
            out[ROWS + t[COLS + i]] = i
        else:
            out[ROWS + t[ROWS + i]] = i
            out[COLS + t[COLS + i]] = i
    for d in range(10):
        out[DIGITS + t[DIGITS + d]] = d


@kernel
def compose_each(a, b, out):
    for k in range(a.shape[0]):
        compose_into(a[k], b[k], out[k])


@kernel
def invert_each(t, out):
    for k in range(t.shape[0]):
        invert_into(t[k], out[k])
