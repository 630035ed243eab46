"""The box-first canonical form of clue patterns and configurations.

Key, compared in this order, the canonical member of a class being the one with the largest
key over the whole group (transpose, band and stack orders, row and column orders inside them,
and for configurations relabeling):

1. the number of non-empty boxes (the same for a whole class: it orders the classes);
2. the 3x3 box-occupancy matrix, box by box (occupied before empty);
3. the clue counts per box, box by box (more first);
4. the occupied cells inside each box, box by box, each box's cells in reading order (clue
   before empty), so clues gather at the top left;
5. for configurations, the digits read box by box (box-first cell order) as a restricted
   growth sequence (RGS), the smallest: the canonical digits read 1, 2, 3, ... in that order.

Stabilizer chain: the occupancy and counts are optimized over the 72 box-level elements
(transpose x band orders x stack orders) first; only the elements reaching the optimum act on
the cells, box 0 choosing (rows of band 0, columns of stack 0), box 1 the columns of stack 1,
box 2 those of stack 2, box 3 the rows of band 1, box 6 those of band 2, each level following
only the choices that tie the best image so far. Chute orders that permute identical lines
(empty ones, above all) are tried once and counted with their multiplicity. For
configurations, the digits are compared only among the elements that reach the canonical
pattern (the pattern's automorphisms, applied after one map to it).

Text: 81 characters, ``.`` (or ``0``) for an empty cell; a pattern's clues are ``x`` (any
non-empty character is a clue), a configuration's are digits. :func:`canonical_forms` returns
the canonical cells, the number of group elements mapping each input to it (its automorphism
count: relabelings included for configurations) and one such element (``engine.group`` array
layout), so ``apply_batch(maps, rows) == canonical`` holds.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..text import utf8_problem
from . import _kernels as K

class BoxFirstForms(NamedTuple):
    cells: np.ndarray  # uint8 (N, 81): 1 for a pattern's clue, RGS digits for a configuration
    automorphisms: np.ndarray  # int64 (N,): group elements mapping the row onto its canonical form
    maps: np.ndarray  # uint8 (N, 29): one such element in engine.group's layout


def canonical_forms(cells, digits: bool = False) -> BoxFirstForms:
    """Box-first canonical forms of a batch of patterns (``digits=False``: any non-zero cell
    is a clue) or configurations (``digits=True``: values 1..9 kept; rows must have no row,
    column or box conflict for the result to be a configuration class, which is not checked)."""
    a = np.ascontiguousarray(cells, np.uint8)
    one = a.ndim == 1
    if one:
        a = a[None, :]
    if a.ndim != 2 or a.shape[1] != 81:
        raise ValueError("expected rows of 81 cells")
    if a.size and a.max() > 9:
        raise ValueError("cell values must be 0..9")
    out = np.zeros_like(a)
    auts = np.zeros(a.shape[0], np.int64)
    maps = np.zeros((a.shape[0], 29), np.int64)
    K.canonical_into(a, bool(digits), out, auts, maps)
    res = BoxFirstForms(out, auts, maps.astype(np.uint8))
    return BoxFirstForms(*(x[0] for x in res)) if one else res


def parse_line(line: str) -> tuple[np.ndarray, bool]:
    """81 characters -> (cells, has_digits): ``.`` or ``0`` empty, a digit 1-9 a configuration's
    clue, ``x`` or ``X`` a pattern's clue. Mixing digits and ``x``
    or any other character is an error (ValueError with the reason)."""
    s = line.strip()
    problem = None if s.isascii() else utf8_problem(s)
    if problem is not None:
        raise ValueError(problem)
    if len(s) != 81:
        raise ValueError(f"expected 81 characters, got {len(s)}")
    cells = np.zeros(81, np.uint8)
    has_x = has_digit = False
    for i, ch in enumerate(s):
        if ch in ".0":
            continue
        if ch in "xX":
            has_x = True
            cells[i] = 1
        elif "1" <= ch <= "9":
            has_digit = True
            cells[i] = ord(ch) - 48
        else:
            raise ValueError(f"character {i + 1} is {ch!r}: expected '.', 'x' or a digit")
    if has_x and has_digit:
        raise ValueError("mixes 'x' clues and digits: give a pattern or a configuration")
    return cells, has_digit


def format_cells(cells, digits: bool) -> list[str]:
    """Rows of 81 cells -> text: ``.`` empty, ``x`` a pattern's clue or the digit."""
    a = np.asarray(cells, np.uint8)
    if a.ndim == 1:
        a = a[None, :]
    if digits:
        table = np.frombuffer(b".123456789", np.uint8)
    else:
        table = np.frombuffer(b".xxxxxxxxx", np.uint8)
    text = table[a]
    return [row.tobytes().decode("ascii") for row in text]


def has_conflict(cells) -> bool:
    """True when two equal digits share a row, column or box."""
    g = np.asarray(cells).reshape(9, 9)
    for unit in (g, g.T, g.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)):
        for line in unit:
            v = line[line > 0]
            if len(v) != len(set(v.tolist())):
                return True
    return False
