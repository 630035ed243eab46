"""Are two sudokus copies of each other, and which steps turn one into the other?

Two grids (or two puzzles) are equivalent when their canonical forms agree. Every
transformation from A to B is then ``x`` followed by ``t_ab`` for an automorphism ``x`` of A,
so we look through A's automorphisms for the one whose human steps are fewest (ties broken by
the string form, so the answer is reproducible).

Puzzles with more than ``MAX_AUTOMORPHISMS_SEARCHED`` automorphisms (nearly empty ones: a
180-degree turn of a 2-given puzzle must come out as 1 step) are searched by step count instead
(:func:`fewest_step_transform`): every transformation made of 0 steps, then 1, 2, ... (the steps
of :meth:`Transform.steps`: a rotation, reordering bands, stacks, rows inside a band, columns
inside a stack, relabelling digits) is tried, vectorized, until one maps A onto B; the first step
count that works is the exact minimum. That search covers the whole group, so ``fewest_proven``
is always True today; it stays in the result (and the command prints a warning when it is
False) for a search given a level limit.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np

from ..group.transform import Transform, compose
from ..text import as_batch
from ..validity import is_grid
from .grid import _canon_one as grid_canon_one
from .grid import automorphisms_from_ties, canon_grid
from .puzzle import automorphisms_from, canon_puzzle

MAX_AUTOMORPHISMS_SEARCHED = 1_000  # above this, the search by step count is faster


@dataclass(frozen=True)
class Equivalence:
    equivalent: bool
    kind: str  # "grid" or "puzzle"
    forward: Transform | None = None  # maps A onto B
    backward: Transform | None = None  # maps B onto A
    reason: str = ""  # why not, when not equivalent
    fewest_proven: bool = True  # False when the search by step count stopped at its level limit

    def __bool__(self) -> bool:
        return self.equivalent

    @property
    def steps(self) -> list[str]:
        """The fewest steps from A to B, in words (empty when not equivalent, or A is B)."""
        return [str(s) for s in self.forward.steps()] if self.forward is not None else []


def _fewest_steps(candidates) -> Transform:
    return min(candidates, key=lambda t: (len(t.steps()), str(t)))


def equivalence(a, b, max_level: int = 10) -> Equivalence:
    """Compare two sudokus (strings or (81,) arrays). A grid and a puzzle raise ValueError.

    ``max_level``: the most steps the search by step count goes to (nearly empty puzzles only);
    past it the transformation from the canonical forms is returned, not proven fewest."""
    A, B = as_batch(a)[0], as_batch(b)[0]
    grid_a, grid_b = (bool(x) for x in is_grid(np.stack([A, B])))
    if grid_a != grid_b:
        which = "A is a grid and B a puzzle" if grid_a else "A is a puzzle and B a grid"
        raise ValueError(f"{which}: a grid and a puzzle are never copies of each other")
    grids = grid_a
    kind = "grid" if grids else "puzzle"
    na, nb = int((A > 0).sum()), int((B > 0).sum())
    if na != nb:
        return Equivalence(False, kind, reason=f"different numbers of givens ({na} and {nb})")
    fewest_proven = True
    if grids:
        fa, ta_arr, ties = grid_canon_one(A)
        fb, tb, _ = canon_grid(B)
        ta = Transform.from_array(ta_arr)
    else:
        fa, ta, count = canon_puzzle(A)
        fb, tb, _ = canon_puzzle(B)
    if not np.array_equal(fa, fb):
        return Equivalence(False, kind, reason="their canonical forms differ")
    t_ab = compose(ta, tb.inverse())
    if grids:
        autos = automorphisms_from_ties(ta_arr, ties)
    elif count <= MAX_AUTOMORPHISMS_SEARCHED:
        autos = automorphisms_from(np.ascontiguousarray(A), ta)
    else:
        forward = fewest_step_transform(A, B, max_level)
        backward = fewest_step_transform(B, A, max_level)
        if forward is None or backward is None:
            fewest_proven = False
            forward = forward or t_ab
            backward = backward or t_ab.inverse()
        autos = None
    if autos is not None:
        candidates = [compose(x, t_ab) for x in autos]
        forward = _fewest_steps(candidates)
        backward = _fewest_steps([t.inverse() for t in candidates])
    if not (np.array_equal(forward.apply(A), B) and np.array_equal(backward.apply(B), A)):
        raise AssertionError("internal error: the transformation found does not map A onto B")
    return Equivalence(True, kind, forward, backward, fewest_proven=fewest_proven)


# -- search by step count ------------------------------------------------------------------------
_PERMS = [tuple(p) for p in permutations(range(3))]  # _PERMS[0] is the identity
_TABLES: tuple | None = None


def _tables():
    """Every non-transposing position map as 8 permutation indices (band order, stack order, rows
    inside bands 1-3, columns inside stacks 1-3), by level (how many are not the identity):
    (row table (1296, 9), column table (1296, 9), row index, column index, level start offsets)."""
    global _TABLES
    if _TABLES is None:
        line = np.zeros((1296, 9), np.intp)  # chute order * 216 + inner orders -> line map
        for code in range(1296):
            order, i0, i1, i2 = code // 216, code // 36 % 6, code // 6 % 6, code % 6
            inner = (i0, i1, i2)
            line[code] = [3 * _PERMS[order][b] + _PERMS[inner[b]][k] for b in range(3) for k in range(3)]
        codes = np.arange(6**8, dtype=np.int32)
        slot = [(codes // 6**(7 - k)) % 6 for k in range(8)]
        level = sum((x != 0).astype(np.int8) for x in slot)
        ridx = (slot[0] * 216 + slot[2] * 36 + slot[3] * 6 + slot[4]).astype(np.int16)
        cidx = (slot[1] * 216 + slot[5] * 36 + slot[6] * 6 + slot[7]).astype(np.int16)
        order = np.argsort(level, kind="stable")
        starts = np.searchsorted(level[order], np.arange(10))
        _TABLES = (line, ridx[order], cidx[order], starts)
    return _TABLES


def _level_matches(rotated: np.ndarray, B: np.ndarray, j: int, chunk: int = 100_000):
    """Position maps of level ``j`` taking ``rotated`` onto B up to a relabelling: (row maps,
    column maps, relabel needed) arrays."""
    line, ridx, cidx, starts = _tables()
    grid = rotated.reshape(9, 9)
    given = np.flatnonzero(B)
    bi, bj, bv = given // 9, given % 9, B[given].astype(np.intp)
    found = []
    for lo in range(int(starts[j]), int(starts[j + 1]), chunk):
        hi = min(lo + chunk, int(starts[j + 1]))
        R, C = line[ridx[lo:hi]], line[cidx[lo:hi]]
        vals = grid[R[:, bi], C[:, bj]].astype(np.intp)  # (N, givens)
        ok = (vals > 0).all(axis=1)
        if not ok.any():
            continue
        idx = np.flatnonzero(ok)
        vals = vals[idx]
        b = np.broadcast_to(bv, vals.shape)
        rows = np.arange(len(idx))[:, None]
        fwd = np.zeros((len(idx), 10), np.intp)
        fwd[rows, vals] = b
        back = np.zeros((len(idx), 10), np.intp)
        back[rows, b] = vals
        good = (fwd[rows, vals] == b).all(axis=1) & (back[rows, b] == vals).all(axis=1)
        idx, vals = idx[good], vals[good]
        if len(idx):
            found.append((R[idx], C[idx], (vals != bv).any(axis=1)))
    if not found:
        return None
    return tuple(np.concatenate(parts) for parts in zip(*found))


def _transform_of(n: int, rows, cols, A: np.ndarray, B: np.ndarray) -> Transform:
    """Rotation ``n``, then the line maps, then the relabelling that makes the result B."""
    position = compose(Transform.rotation(n), Transform(False, rows, cols, range(10)))
    moved = position.apply(A)
    given = B > 0
    pairs = dict(zip(moved[given].tolist(), B[given].tolist()))
    digits = list(range(10))
    if any(k != v for k, v in pairs.items()):
        for k, v in pairs.items():
            digits[k] = v
        free_src = [d for d in range(1, 10) if d not in pairs]
        free_dst = [d for d in range(1, 10) if d not in pairs.values()]
        for k, v in zip(free_src, free_dst):
            digits[k] = v
    return compose(position, Transform(False, range(9), range(9), digits))


def fewest_step_transform(a, b, max_level: int = 10) -> Transform | None:
    """A transformation with the fewest steps (as counted by :meth:`Transform.steps`) taking
    sudoku ``a`` onto ``b`` (ties: the smallest string form); None when there is none (or none
    within ``max_level``).

    A transformation is a rotation by ``n`` quarter turns (a step when ``n`` is not 0), then
    ``j`` reorderings that are not the identity, then maybe a relabelling: ``[n != 0] + j +
    [relabel]`` steps. Level ``L`` tries every position map with ``[n != 0] + j == L`` (all of
    them, vectorized: the map is read only at B's givens), levels in increasing order; once a
    match of ``s`` steps is known the search stops at level ``s``, so ``s`` is the fewest. Levels
    0 to 9 hold the whole group (2 x 6^8 position maps, each rotation written both ways), so the
    search is exact for every pair; it is fast when few steps are needed or there are few givens.
    """
    A, B = as_batch(a)[0], as_batch(b)[0]
    if int((A > 0).sum()) != int((B > 0).sum()):
        return None
    rotated = [Transform.rotation(n).apply(A) for n in range(4)]
    best: tuple | None = None  # (steps, string, transform)
    level = 0
    while (best is None or level < best[0]) and level <= min(max_level, 9):
        for n in range(4):
            j = level - (n != 0)
            if not 0 <= j <= 8:
                continue
            hit = _level_matches(rotated[n], B, j)
            if hit is None:
                continue
            R, C, relabel = hit
            fewest = level + int(relabel.min())
            if best is not None and fewest > best[0]:
                continue
            for k in np.flatnonzero(level + relabel == fewest):
                t = _transform_of(n, R[k].tolist(), C[k].tolist(), A, B)
                key = (len(t.steps()), str(t))
                if best is None or key < best[:2]:
                    best = (*key, t)
        level += 1
    if best is None:
        return None
    t = best[2]
    if not np.array_equal(t.apply(A), B):
        raise AssertionError("internal error: the transformation found does not map A onto B")
    return t
