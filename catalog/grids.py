"""Counts of the essentially different grids (tables ``ed_grid_prefixes`` and ``ed_grid_bands``,
migration 0004). Plain rows in, plain numbers out: the engine computes them, ``bin/`` passes them.

* :func:`store_prefix_counts` and :func:`store_band_total` insert with ``ON CONFLICT DO
  NOTHING`` (counts are deterministic: a recomputed chunk writes the same rows).
* :func:`load_totals` and :func:`load_prefix_counts` give what rank <-> grid needs: each
  complete band 1's total, and one band 1's counts per prefix.

SQL a user can run::

    -- grids per band 1, and the bands 1 with no grid
    SELECT band1, grids, automorphic FROM ed_grid_bands ORDER BY band1;
    SELECT band1 FROM ed_grid_bands WHERE grids = 0;
    -- how far the catalog is: bands done, grids counted (5,472,730,538 when complete)
    SELECT count(*), sum(grids), sum(automorphic) FROM ed_grid_bands;
    -- the automorphism histogram of band 1 = 0 (JSON: automorphism count -> grids)
    SELECT automorphism_histogram FROM ed_grid_bands WHERE band1 = 0;
"""
from __future__ import annotations

import json
from typing import Iterable, Mapping

from sqlalchemy import func, select

from ._dml import connection_of, insert_new
from .models import EdGridBand, EdGridPrefix, utcnow

PREFIXES = EdGridPrefix.__table__
BANDS = EdGridBand.__table__


def store_prefix_counts(target, band1: int, first_prefix: int, rows4: Iterable[str], counts: Iterable[int]) -> int:
    """Counts of prefixes ``first_prefix, first_prefix + 1, ...`` of ``band1``; returns how many were new."""
    rows = [{"band1": int(band1), "prefix": first_prefix + k, "row4": r, "grids": int(c)}
            for k, (r, c) in enumerate(zip(rows4, counts))]
    with connection_of(target) as conn:
        return insert_new(conn, PREFIXES, rows, ["band1", "prefix"])


def store_band_total(target, band1: int, grids: int, prefixes: int, histogram: Mapping[int, int]) -> int:
    """A complete band 1: its total, number of prefixes and automorphism histogram."""
    hist = {str(k): int(v) for k, v in sorted((int(k), v) for k, v in histogram.items()) if v}
    automorphic = sum(v for k, v in hist.items() if int(k) > 1)
    row = {"band1": int(band1), "grids": int(grids), "prefixes": int(prefixes), "automorphic": automorphic,
           "automorphism_histogram": json.dumps(hist, separators=(",", ":")), "computed_at": utcnow()}
    with connection_of(target) as conn:
        return insert_new(conn, BANDS, [row], ["band1"])


def load_totals(target) -> dict[int, int]:
    """Grids of each complete band 1."""
    with connection_of(target) as conn:
        return {int(b): int(g) for b, g in conn.execute(select(BANDS.c.band1, BANDS.c.grids))}


def load_prefix_counts(target, band1: int) -> list[int]:
    """Grids under each prefix of ``band1``, in prefix order (empty when none are stored)."""
    with connection_of(target) as conn:
        return [int(g) for g in conn.scalars(select(PREFIXES.c.grids).where(PREFIXES.c.band1 == int(band1))
                                             .order_by(PREFIXES.c.prefix))]


def coverage(target) -> tuple[int, int, int]:
    """(bands 1 complete, their grids, their grids with a non-trivial automorphism)."""
    with connection_of(target) as conn:
        n, g, a = conn.execute(select(func.count(), func.coalesce(func.sum(BANDS.c.grids), 0),
                                      func.coalesce(func.sum(BANDS.c.automorphic), 0))).one()
    return int(n), int(g), int(a)
