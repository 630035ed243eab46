"""Kernels of the group: the array layout of a transformation and apply / compose / invert.

Array form, ``uint8[SIZE]`` (the offsets are the only place the layout is written down)::

    t[TRANSPOSE]              1 when the input is transposed first
    t[ROWS + i]  (i = 0..8)   input row that becomes output row i
    t[COLS + j]  (j = 0..8)   input column that becomes output column j
    t[DIGITS + d] (d = 0..9)  label of digit d; t[DIGITS] = 0 keeps empty cells empty

    out[i][j] = t[DIGITS + src[t[ROWS + i]][t[COLS + j]]],  src = input or its transpose

``compose_into(a, b, out)`` is "apply a, then b". Enumerations compose in hot loops, so these
write into caller-owned arrays and allocate nothing.
"""
from .._jit import kernel

TRANSPOSE = 0
ROWS = 1
COLS = 10
DIGITS = 19
SIZE = 29


@kernel
def set_identity(t):
    t[TRANSPOSE] = 0
    for i in range(9):
        t[ROWS + i] = i
        t[COLS + i] = i
    for d in range(10):
        t[DIGITS + d] = d


@kernel
def write_transform(t, transposed, rows, cols, digits):
    """t = (transposed, rows[0:9], cols[0:9], digits[1:10]); digit 0 stays 0."""
    t[TRANSPOSE] = 1 if transposed else 0
    for i in range(9):
        t[ROWS + i] = rows[i]
        t[COLS + i] = cols[i]
    t[DIGITS] = 0
    for d in range(1, 10):
        t[DIGITS + d] = digits[d]


@kernel
def copy_transform(src, dst):
    for q in range(SIZE):
        dst[q] = src[q]


@kernel
def apply_into(t, src, dst):
    """dst = t(src) for one transformation and one sudoku (81 cells)."""
    tr = t[TRANSPOSE]
    for i in range(9):
        r = t[ROWS + i]
        for j in range(9):
            c = t[COLS + j]
            v = src[c * 9 + r] if tr else src[r * 9 + c]
            dst[i * 9 + j] = t[DIGITS + v]


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
