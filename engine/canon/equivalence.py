"""Are two sudokus copies of each other, and which steps turn one into the other?

Two grids (or two puzzles) are equivalent when their canonical forms agree. Every
transformation from A to B is then ``x`` followed by ``t_ab`` for an automorphism ``x`` of A,
so we look through A's automorphisms for the one whose human steps are fewest (ties broken by
the string form, so the answer is reproducible). Puzzles with more than
``MAX_AUTOMORPHISMS_SEARCHED`` automorphisms (nearly empty ones) skip that search.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..group.transform import Transform, compose
from ..text import as_batch
from ..validity import is_grid
from .grid import _canon_one as grid_canon_one
from .grid import automorphisms_from_ties, canon_grid
from .puzzle import automorphisms_from, canon_puzzle

MAX_AUTOMORPHISMS_SEARCHED = 50_000


@dataclass(frozen=True)
class Equivalence:
    equivalent: bool
    kind: str  # "grid" or "puzzle"
    forward: Transform | None = None  # maps A onto B
    backward: Transform | None = None  # maps B onto A
    reason: str = ""  # why not, when not equivalent
    fewest_proven: bool = True  # False when A's automorphisms were too many to search


def _fewest_steps(candidates) -> Transform:
    return min(candidates, key=lambda t: (len(t.steps()), str(t)))


def equivalence(a, b) -> Equivalence:
    """Compare two sudokus (strings or (81,) arrays). A grid and a puzzle raise ValueError."""
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
        autos = [Transform.identity()]
        fewest_proven = False
    candidates = [compose(x, t_ab) for x in autos]
    forward = _fewest_steps(candidates)
    backward = _fewest_steps([t.inverse() for t in candidates])
    if not (np.array_equal(forward.apply(A), B) and np.array_equal(backward.apply(B), A)):
        raise AssertionError("internal error: the transformation found does not map A onto B")
    return Equivalence(True, kind, forward, backward, fewest_proven=fewest_proven)
