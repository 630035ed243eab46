"""Symmetries of a clue pattern: the named groups of cell maps a symmetric puzzle's givens obey.

    >>> from sudoku_symmetry.engine.generate.symmetry import orbits
    >>> o = orbits("rotate180")
    >>> len(o), sorted({len(x) for x in o})          # 40 pairs and the centre
    (41, [1, 2])

A pattern is symmetric under a group when every map of the group takes it onto itself, i.e. it is
a union of the group's *orbits* (the sets of cells the maps move one cell among). The square's
own symmetries are the 8 of the dihedral group; each of its 10 subgroups is a name here. A cell is
(r, c), rows and columns 0-8 from the top left:

* ``none``; ``rotate180`` (r, c) -> (8 - r, 8 - c); ``rotate90`` (r, c) -> (c, 8 - r), which
  includes rotate180;
* ``horizontal``: mirrored across the horizontal middle line, (r, c) -> (8 - r, c);
  ``vertical``: across the vertical middle line, (r, c) -> (r, 8 - c); ``orthogonal``: both;
* ``diagonal``: mirrored across the diagonal from the top left to the bottom right (r1c1-r9c9),
  (r, c) -> (c, r); ``antidiagonal``: across the other one (r9c1-r1c9), (r, c) -> (8 - c, 8 - r);
  ``bidiagonal``: both;
* ``dihedral``: all eight.

And three that are symmetries of the sudoku but not of the square: ``bands`` (a band moved onto
the next, (r, c) -> (r + 3 mod 9, c)), ``stacks`` (likewise across stacks) and ``boxes`` (both:
the 9 cells at one place of the 9 boxes form an orbit). Other common names are aliases
(:data:`ALIASES`: ``180``, ``central``, ``90``, ``full``, ...).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np


def _map(f) -> np.ndarray:
    """The cell map q -> 9 r' + c' of (r, c) -> f(r, c)."""
    return np.array([9 * r + c for r, c in (f(q // 9, q % 9) for q in range(81))], np.int64)


_R180 = _map(lambda r, c: (8 - r, 8 - c))
_R90 = _map(lambda r, c: (c, 8 - r))
_H = _map(lambda r, c: (8 - r, c))
_V = _map(lambda r, c: (r, 8 - c))
_D = _map(lambda r, c: (c, r))
_A = _map(lambda r, c: (8 - c, 8 - r))
_BANDS = _map(lambda r, c: ((r + 3) % 9, c))
_STACKS = _map(lambda r, c: (r, (c + 3) % 9))

GENERATORS: dict[str, tuple[np.ndarray, ...]] = {
    "none": (),
    "rotate180": (_R180,),
    "rotate90": (_R90,),
    "horizontal": (_H,),
    "vertical": (_V,),
    "orthogonal": (_H, _V),
    "diagonal": (_D,),
    "antidiagonal": (_A,),
    "bidiagonal": (_D, _A),
    "dihedral": (_R90, _H),
    "bands": (_BANDS,),
    "stacks": (_STACKS,),
    "boxes": (_BANDS, _STACKS),
}
"""Each symmetry's group, by generators (cell q -> map[q])."""

DESCRIPTIONS = {
    "none": "no symmetry",
    "rotate180": "a half turn (central symmetry)",
    "rotate90": "a quarter turn (and so a half turn)",
    "horizontal": "mirrored top to bottom",
    "vertical": "mirrored left to right",
    "orthogonal": "mirrored top to bottom and left to right",
    "diagonal": "mirrored across the diagonal r1c1-r9c9",
    "antidiagonal": "mirrored across the diagonal r9c1-r1c9",
    "bidiagonal": "mirrored across both diagonals",
    "dihedral": "every symmetry of the square",
    "bands": "each band the same as the next",
    "stacks": "each stack the same as the next",
    "boxes": "every box the same",
}

ALIASES = {"180": "rotate180", "central": "rotate180", "rotational": "rotate180", "90": "rotate90",
           "mirror": "vertical", "hv": "orthogonal", "dd": "bidiagonal", "full": "dihedral", "all": "dihedral",
           "asymmetric": "none"}

NAMES = tuple(GENERATORS)


def canonical_name(name: str) -> str:
    """The symmetry's name (aliases resolved, case ignored), or ValueError listing the names."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in GENERATORS:
        raise ValueError(f"unknown symmetry {name!r}: one of {', '.join(NAMES)} (or {', '.join(ALIASES)})")
    return key


@lru_cache(maxsize=None)
def orbits(name: str) -> tuple[tuple[int, ...], ...]:
    """The orbits of the symmetry's group on the 81 cells, each a sorted tuple, in the order of
    their first cell."""
    gens = GENERATORS[canonical_name(name)]
    seen = np.full(81, -1, np.int64)
    out = []
    for q in range(81):
        if seen[q] >= 0:
            continue
        orbit, todo = {q}, [q]
        while todo:
            x = todo.pop()
            for g in gens:
                y = int(g[x])
                if y not in orbit:
                    orbit.add(y)
                    todo.append(y)
        for x in orbit:
            seen[x] = len(out)
        out.append(tuple(sorted(orbit)))
    return tuple(out)


def orbit_table(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(cells, sizes)``: the orbits as rows of ``cells`` (n, 9) int64 (-1 past ``sizes[k]``)."""
    orb = orbits(name)
    cells = np.full((len(orb), 9), -1, np.int64)
    for k, o in enumerate(orb):
        cells[k, : len(o)] = o
    return cells, np.array([len(o) for o in orb], np.int64)


def is_symmetric(pattern, name: str) -> bool:
    """Whether a pattern (81 values, nonzero = a given) is its own image under the symmetry."""
    given = np.asarray(pattern).reshape(81) != 0
    return all(bool((given[g] == given).all()) for g in GENERATORS[canonical_name(name)])
