"""The 416 minlex bands and their automorphisms in the catalog (tables ``bands`` and
``band_automorphisms``, migration 0001).

This module takes plain rows; the caller computes them from the engine (``bin/populate.py``
does, from ``sudoku_symmetry.engine.bands.band_tables()``), because the catalog never imports the engine.

* :func:`store_bands` inserts with ``ON CONFLICT DO NOTHING``: idempotent, returns how many new.
* :func:`band_summary` gives the facts ``populate`` prints (and tests check):
  416 bands, 44 gangster classes, sum of 1/|Aut| = 336, automorphism rows = sum of counts.

SQL a user can run::

    SELECT band_index, minlex, automorphism_count FROM bands ORDER BY automorphism_count DESC LIMIT 3;
    SELECT gangster_class, count(*), sum(class_size) FROM bands GROUP BY gangster_class;
    SELECT transformation FROM band_automorphisms WHERE band_index = 0 ORDER BY ordinal;
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from sqlalchemy import func, select

from ._dml import connection_of, insert_new
from .models import Band, BandAutomorphism

BANDS = Band.__table__
AUTOMORPHISMS = BandAutomorphism.__table__
N_BANDS = 416  # the one definition on the catalog's side (test_layout checks it against the engine's)
N_MAPS = 7776  # position maps of a band: 6 row orders x 6^4 column maps


def band_row(index: int, minlex: str, automorphism_count: int, gangster_class: int) -> dict:
    """A ``bands`` row (``class_size`` = 7,776 / |Aut| is derived here)."""
    if len(minlex) != 27 or N_MAPS % int(automorphism_count):
        raise ValueError(f"bad band {index}: {minlex!r} with {automorphism_count} automorphisms")
    return {"band_index": int(index), "minlex": minlex, "automorphism_count": int(automorphism_count),
            "class_size": N_MAPS // int(automorphism_count), "gangster_class": int(gangster_class)}


def automorphism_rows(index: int, transformations: Iterable[str]) -> list[dict]:
    """``band_automorphisms`` rows of one band, ordinals 0, 1, ... in the given order."""
    return [{"band_index": int(index), "ordinal": k, "transformation": str(t)} for k, t in enumerate(transformations)]


def store_bands(target, bands: Sequence[Mapping], automorphisms: Sequence[Mapping] = ()) -> tuple[int, int]:
    """Insert band rows and automorphism rows, skipping those present; returns (new bands, new automorphisms).

    ``target``: an Engine (committed here) or a Connection / Session (the caller commits)."""
    with connection_of(target) as conn:
        new_bands = insert_new(conn, BANDS, [dict(b) for b in bands], ["band_index"])
        new_auts = insert_new(conn, AUTOMORPHISMS, [dict(a) for a in automorphisms], ["band_index", "ordinal"])
    return new_bands, new_auts


@dataclass
class BandSummary:
    bands: int
    automorphisms: int
    automorphism_sum: int  # sum of bands.automorphism_count (should equal ``automorphisms``)
    gangster_classes: int
    inverse_aut_sum: Fraction  # sum of 1/|Aut| over the bands: 336 for the full table

    @property
    def complete(self) -> bool:
        return (self.bands == N_BANDS and self.automorphisms == self.automorphism_sum
                and self.inverse_aut_sum == 336)


def band_summary(target) -> BandSummary:
    with connection_of(target) as conn:
        n, aut_sum, classes, size_sum = conn.execute(select(
            func.count(), func.coalesce(func.sum(BANDS.c.automorphism_count), 0),
            func.count(func.distinct(BANDS.c.gangster_class)),
            func.coalesce(func.sum(BANDS.c.class_size), 0))).one()
        n_auts = conn.scalar(select(func.count()).select_from(AUTOMORPHISMS))
    # sum of 1/|Aut| = sum(class_size) / 7776, exact in integers
    return BandSummary(int(n), int(n_auts), int(aut_sum), int(classes), Fraction(int(size_sum), N_MAPS))
