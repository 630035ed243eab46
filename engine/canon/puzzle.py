"""Canonical forms of puzzles (partial grids), with the transformation and automorphism count.

Two conventions (docs/design.md, "Puzzles and their canonical forms"):

* **pure minlex** (default): the smallest 81-character string reachable by the group, empty
  cells counted as 0;
* **pattern-first** (``pattern_first=True``): the smallest given/empty pattern first (empty
  before given), then, among the position maps reaching it, the smallest digit string.

Digits are relabelled in order of first appearance (restricted growth), so a form always
reads its digits 1, 2, 3, ... in order.  The transformation ``T`` returned (array form, see
:mod:`..group.transform`) satisfies ``apply_batch(T, puzzles) == forms`` exactly; digits that do
not occur in a puzzle are mapped to the free labels in increasing order.  The automorphism
count is the number of group elements (relabelling included) that map the puzzle to itself;
it does not depend on the convention.

Note: the shared 17-clue list is not all in one form: 47,653 of its lines are their own pure-minlex
form.  For the other 1,505 the group reaches a strictly smaller
string (checked by brute force over all 3,359,232 position maps, see the tests), so this
module returns that smaller string for them.

Puzzles must not repeat a digit inside a row or a column (box repeats are allowed): such
inputs raise ``ValueError``.  Full grids work (a grid is a puzzle with 81 givens) but a
dedicated grid algorithm is faster.
"""
from __future__ import annotations

import numpy as np

from ..core.layout import SIZE
from ..group.transform import Transform, compose
from ..text import as_batch
from . import _puzzle_kernels as _k
from .results import CanonBatch, CanonOne

_CAP = 4096  # candidate buffer rows; a puzzle needing more is retried with a larger buffer
_MAX_CAP = 1 << 21


def _check(autos: np.ndarray) -> None:
    """Raise ValueError for the puzzles the kernel flagged (-2: a repeat, -3: a bad cell)."""
    bad = np.flatnonzero(autos <= -2)
    if len(bad):
        k = int(bad[0])
        if autos[k] == -3:
            raise ValueError(f"puzzle {k}: cell values must be 0 (empty) or 1-9")
        raise ValueError(f"puzzle {k} repeats a digit in a row or column")


def _batch(puzzles) -> np.ndarray:
    """``as_batch`` without its extra pass over a ready uint8 (N, 81) array (the kernel checks
    the cell values itself)."""
    if isinstance(puzzles, np.ndarray) and puzzles.dtype == np.uint8 and puzzles.ndim == 2 and puzzles.shape[1] == 81:
        return np.ascontiguousarray(puzzles)
    return as_batch(puzzles)


def canon_puzzles(puzzles, pattern_first: bool = False, want_automorphisms: bool = True) -> CanonBatch:
    """Canonical forms of a batch.

    Returns :class:`CanonBatch` ``(forms (N, 81), transforms (N, SIZE), automorphisms (N,))``.
    ``want_automorphisms`` is accepted for API stability; the counts come for free.
    """
    batch = _batch(puzzles)
    n = len(batch)
    forms = np.empty((n, 81), np.uint8)  # the kernel writes every row it accepts
    trans = np.empty((n, SIZE), np.uint8)
    autos = np.empty(n, np.int64)
    mode = 1 if pattern_first else 0
    if n:
        _k.canon_batch(batch, mode, _CAP, forms, trans, autos)
    _check(autos)
    cap = _CAP
    todo = np.flatnonzero(autos == -1)
    while len(todo):
        cap *= 8
        if cap > _MAX_CAP:
            raise RuntimeError("candidate buffer limit exceeded")
        f = np.zeros((len(todo), 81), np.uint8)
        t = np.zeros((len(todo), SIZE), np.uint8)
        a = np.zeros(len(todo), np.int64)
        _k.canon_batch(np.ascontiguousarray(batch[todo]), mode, cap, f, t, a)
        forms[todo], trans[todo], autos[todo] = f, t, a
        todo = todo[a == -1]
    return CanonBatch(forms, trans, autos)


def canon_puzzle(puzzle, pattern_first: bool = False) -> CanonOne:
    """One puzzle (string or (81,) array) -> ``(form (81,), Transform, automorphism_count)``."""
    forms, trans, autos = canon_puzzles(as_batch(puzzle), pattern_first)
    return CanonOne(forms[0], Transform.from_array(trans[0]), int(autos[0]))


def _survivors(puzzle: np.ndarray, mode: int):
    cap = _CAP
    while cap <= _MAX_CAP:
        out = np.zeros((cap, SIZE), np.uint8)
        ties = np.zeros(cap, np.int32)
        n = _k.canon_survivors(puzzle, mode, cap, out, ties)
        _check(np.array([n]))
        if n >= 0:
            return out[:n], ties[:n]
        cap *= 8
    raise RuntimeError("candidate buffer limit exceeded")


def _tie_orders(tie: int):
    """All column orders (as position permutations) that the tie bits allow."""
    from itertools import permutations

    def runs(bits, starts):
        out = []
        for base in starts:
            t1 = (bits >> (base + 1)) & 1
            t2 = (bits >> (base + 2)) & 1
            if t1 and t2:
                out.append([(base + a, base + b, base + c) for a, b, c in permutations(range(3))])
            elif t1:
                out.append([(base, base + 1, base + 2), (base + 1, base, base + 2)])
            elif t2:
                out.append([(base, base + 1, base + 2), (base, base + 2, base + 1)])
            else:
                out.append([(base, base + 1, base + 2)])
        return out

    inner = runs(tie, (0, 3, 6))
    stack = runs(tie >> 9 << 1, (0,))[0]  # bits 9, 10 -> positions 1, 2 of a 3-run
    result = []
    for so in stack:
        for a in inner[0]:
            for b in inner[1]:
                for c in inner[2]:
                    inside = a + b + c
                    result.append(tuple(inside[3 * so[s] + j] for s in range(3) for j in range(3)))
    return result


def puzzle_automorphisms(puzzle, pattern_first: bool = False, limit: int = 1_000_000) -> list[Transform]:
    """Every group element (relabelling included) mapping the puzzle to itself.

    Raises ValueError when there are more than ``limit`` of them (an empty puzzle has
    3,359,232 x 9!).
    """
    p = np.ascontiguousarray(as_batch(puzzle)[0])
    _, t0, count = canon_puzzle(p, pattern_first)
    if count > limit:
        raise ValueError(f"{count} automorphisms, more than limit={limit}")
    return automorphisms_from(p, t0, pattern_first)


def automorphisms_from(p: np.ndarray, t0: Transform, pattern_first: bool = False) -> list[Transform]:
    """The automorphisms of puzzle ``p`` (81,) uint8 whose canonical transformation ``t0`` is
    known (callers that canonicalized already do not canonicalize again)."""
    from itertools import permutations

    back = t0.inverse()
    out, ties = _survivors(p, 1 if pattern_first else 0)
    used = sorted({int(d) for d in p if d})
    free = [d for d in range(1, 10) if d not in used]
    result = []
    for arr, tie in zip(out, ties):
        base = Transform.from_array(arr)
        for order in _tie_orders(int(tie)):
            cols = tuple(base.cols[q] for q in order)
            for fp in permutations(free):
                digits = list(base.digits)
                for d, e in zip(free, fp):
                    digits[d] = base.digits[e]
                result.append(compose(Transform(base.transpose, base.rows, cols, digits), back))
    return result
