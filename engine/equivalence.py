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

from .grid_canon import canon_grid, grid_automorphisms
from .puzzle_canon import canon_puzzle, puzzle_automorphisms
from .text import as_batch
from .transform import Transform, compose
from .validity import is_valid

MAX_AUTOMORPHISMS_SEARCHED = 50_000


@dataclass(frozen=True)
class Equivalence:
    equivalent: bool
    kind: str  # "grid" or "puzzle"
    forward: Transform | None = None  # maps A onto B
    backward: Transform | None = None  # maps B onto A
    reason: str = ""  # why not, when not equivalent


def _is_grid(cells: np.ndarray) -> bool:
    return bool((cells > 0).all() and is_valid(cells)[0])


def _fewest_steps(candidates) -> Transform:
    return min(candidates, key=lambda t: (len(t.steps()), str(t)))


def equivalence(a, b) -> Equivalence:
    """Compare two sudokus (strings or (81,) arrays)."""
    A, B = as_batch(a)[0], as_batch(b)[0]
    na, nb = int((A > 0).sum()), int((B > 0).sum())
    grids = _is_grid(A) and _is_grid(B)
    kind = "grid" if grids else "puzzle"
    if na != nb:
        return Equivalence(False, kind, reason=f"different numbers of givens ({na} and {nb})")
    if grids:
        fa, ta, count = canon_grid(A)
        fb, tb, _ = canon_grid(B)
    else:
        fa, ta, count = canon_puzzle(A)
        fb, tb, _ = canon_puzzle(B)
    if not np.array_equal(fa, fb):
        return Equivalence(False, kind, reason="their canonical forms differ")
    t_ab = compose(ta, tb.inverse())
    if grids:
        autos = grid_automorphisms(A)
    elif count <= MAX_AUTOMORPHISMS_SEARCHED:
        autos = puzzle_automorphisms(A)
    else:
        autos = [Transform.identity()]
    candidates = [compose(x, t_ab) for x in autos]
    forward = _fewest_steps(candidates)
    backward = _fewest_steps([t.inverse() for t in candidates])
    if not (np.array_equal(forward.apply(A), B) and np.array_equal(backward.apply(B), A)):
        raise AssertionError("internal error: the transformation found does not map A onto B")
    return Equivalence(True, kind, forward, backward)
