"""The hint a producer hands to the rating loop: arrays the loop owns, written only on success.

- ``hi`` (int64, ``HI_LEN``): technique code, the placed cell (-1 for none) and digit, and three
  technique-specific numbers (see ``techniques``);
- ``hd`` (float64, 1): the difficulty, as Sudoku Explainer computes it (a double, rounded only
  when printed);
- ``hrem`` (int32, 81): the candidates the hint removes, a mask per cell (bit d - 1)."""
from .._jit import kernel

HI_CODE, HI_CELL, HI_VALUE, HI_A, HI_B, HI_C = 0, 1, 2, 3, 4, 5
HI_LEN = 8


@kernel
def set_hint(hi, hd, code, diff, cell, value, a, b, c):
    hi[HI_CODE] = code
    hi[HI_CELL] = cell
    hi[HI_VALUE] = value
    hi[HI_A] = a
    hi[HI_B] = b
    hi[HI_C] = c
    hd[0] = diff


@kernel
def clear_rem(hrem):
    for c in range(81):
        hrem[c] = 0
