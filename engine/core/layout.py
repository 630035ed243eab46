"""The array layout of a transformation, and the few kernels on it that several families call.

Array form, ``uint8[SIZE]`` (the offsets are the only place the layout is written down)::

    t[TRANSPOSE]              1 when the input is transposed first
    t[ROWS + i]  (i = 0..8)   input row that becomes output row i
    t[COLS + j]  (j = 0..8)   input column that becomes output column j
    t[DIGITS + d] (d = 0..9)  label of digit d; t[DIGITS] = 0 keeps empty cells empty

    out[i][j] = t[DIGITS + src[t[ROWS + i]][t[COLS + j]]],  src = input or its transpose

``group`` composes and inverts them; ``bands`` and ``canon`` write them (``write_transform``)
and ``canon`` applies them inside its kernels (``apply_into``). They write into caller-owned
arrays and allocate nothing.
"""
from .._jit import kernel

TRANSPOSE = 0
ROWS = 1
COLS = 10
DIGITS = 19
SIZE = 29


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
