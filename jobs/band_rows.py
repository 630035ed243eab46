"""The rows of the 416 bands, computed by the engine for the catalog: the bands (minlex string,
automorphism count, gangster class), their automorphisms, and the 17-clue search's band order
(``valid6``, ``valid5``, ``min_clues``, ``s17_rank``). ``bin/populate`` stores them (step
``bands``), and ``bin/s17-entry`` when a catalog lacks the band order.
"""
from __future__ import annotations

from typing import NamedTuple

from sudoku_symmetry.catalog.bands import automorphism_rows, band_row, store_bands
from sudoku_symmetry.catalog.search17 import load_band_order, store_band_order
from sudoku_symmetry.engine.bands import band_tables
from sudoku_symmetry.engine.search17 import band_order


class BandRowsStored(NamedTuple):
    """Rows new: bands, band automorphisms, bands given their 17-clue search order."""

    bands: int
    automorphisms: int
    order: int


def band_order_rows() -> list[dict]:
    """The 17-clue search's order of the bands (``bands`` columns of migration 0005)."""
    o = band_order()
    return [{"band_index": i, "valid6": int(o.valid6[i]), "valid5": int(o.valid5[i]),
             "min_clues": int(o.min_clues[i]), "s17_rank": int(o.rank[i])} for i in range(len(o.rank))]


def store_band_rows(catalog) -> BandRowsStored:
    """The 416 minlex bands, their automorphisms and their search order into the catalog
    (idempotent: ``ON CONFLICT DO NOTHING``, the order only where still empty)."""
    T = band_tables()
    bands = [band_row(i, T.minlex_string(i), int(T.automorphism_count[i]), int(T.gangster_class[i]))
             for i in range(len(T.minlex))]
    auts = [row for i in range(len(T.minlex)) for row in automorphism_rows(i, map(str, T.automorphisms(i)))]
    new_bands, new_auts = store_bands(catalog, bands, auts)
    # the band order costs seconds to compute: only when the catalog misses some of it
    new_order = store_band_order(catalog, band_order_rows()) if len(load_band_order(catalog)) < len(bands) else 0
    return BandRowsStored(new_bands, new_auts, new_order)
