"""Minlex form of solution grids, with the transformation and the automorphism count.

    >>> from sudoku_symmetry.engine.canon import canon_grid
    >>> form, t, n_aut = canon_grid("123456789456789123789123456214365897365897214897214365531642978642978531978531642")
    >>> n_aut
    3
"""
from __future__ import annotations

import numpy as np

from .._bits import FACT as _FACT
from ..bands import band_tables
from ..core.layout import SIZE
from ..group.transform import Transform, compose
from ..text import as_batch, format_sudoku
from . import _grid_kernels as K
from .results import CanonBatch, CanonOne


class InvalidGridError(ValueError):
    """Not a complete grid with every row, column and box holding 1-9 once."""


def _tables():
    T = band_tables()
    return (T.row2_rank_to_id, _FACT, T.table, T.aut_offsets, T.aut_maps,
            T.maps_rows, T.maps_cols)


def canon_grids(grids, *, check: bool = True) -> CanonBatch:
    """Minlex forms of a batch of grids in one compiled call.

    Returns :class:`CanonBatch` ``(forms, transforms, automorphisms)``
    with ``apply_batch(transforms, grids) == forms``. With ``check`` an invalid grid raises
    :class:`InvalidGridError`; without, its automorphism count is 0 and its form is zeros.
    """
    batch = as_batch(grids)
    n = len(batch)
    forms = np.zeros((n, 81), np.uint8)
    transforms = np.zeros((n, SIZE), np.uint8)
    counts = np.zeros(n, np.int64)
    K.canon_grids(batch, *_tables(), forms, transforms, counts)
    if check and n and counts.min() == 0:
        k = int(np.argmin(counts))
        raise InvalidGridError(f"grid {k + 1} ({format_sudoku(batch[k])}) is not a valid complete grid")
    return CanonBatch(forms, transforms, counts)


def _canon_one(grid):
    cells = as_batch(grid)[0]
    row2_rank_to_id, fact, table, aut_offsets, aut_maps, maps_rows, maps_cols = _tables()
    scratch = np.zeros(200, np.int64)
    keys = np.zeros(6, np.int64)
    K.chute_keys(cells, scratch, row2_rank_to_id, fact, keys)
    entries = np.where(keys >= 0, table[np.maximum(keys, 0)], 0).astype(np.uint32)
    form = np.zeros(81, np.uint8)
    transform = np.zeros(SIZE, np.uint8)
    ties = np.zeros((K.MAX_CANDIDATES, SIZE), np.uint8)
    count = K.canon_grid_into(cells, keys, entries, aut_offsets, aut_maps, maps_rows, maps_cols, scratch,
                              form, transform, ties, True)
    if count == 0:
        raise InvalidGridError(f"{format_sudoku(cells)} is not a valid complete grid")
    return form, transform, ties[:count]


def canon_grid(grid) -> CanonOne:
    """(minlex form (81,), transformation onto it, automorphism count) of one grid."""
    form, transform, ties = _canon_one(grid)
    return CanonOne(form, Transform.from_array(transform), len(ties))


def grid_automorphisms(grid) -> list[Transform]:
    """Every transformation that maps the grid onto itself (the identity included)."""
    _, transform, ties = _canon_one(grid)
    return automorphisms_from_ties(transform, ties)


def automorphisms_from_ties(transform: np.ndarray, ties: np.ndarray) -> list[Transform]:
    """Every tie t (a transformation onto the same form) followed by the inverse of ``transform``."""
    back = Transform.from_array(transform).inverse()
    return [compose(Transform.from_array(t), back) for t in ties]
