"""Counts of the essentially different grids (tables ``ed_grid_prefixes`` and ``ed_grid_bands``,
migration 0004). Plain rows in, plain numbers out: the engine computes them, ``bin/`` passes them.

* :func:`store_prefix_counts` and :func:`store_band_total` insert with ``ON CONFLICT DO
  NOTHING`` (counts are deterministic: a recomputed chunk writes the same rows).
* :func:`load_totals` and :func:`load_prefix_counts` give what rank <-> grid needs: each
  complete band 1's total, and one band 1's counts per prefix.
* :func:`close_band`: a band 1 counted in pieces (a distributed run) gets its total once every
  piece is stored, checked against its stored prefixes, under :func:`lock_band`.

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
from .errors import CatalogError
from .models import EdGridBand, EdGridFine, EdGridPrefix, utcnow

PREFIXES = EdGridPrefix.__table__
BANDS = EdGridBand.__table__
FINE = EdGridFine.__table__
_BAND_LOCK = 0x5D0C2  # PostgreSQL advisory lock class: one band total decided at a time


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


def lock_band(conn, band1: int) -> None:
    """Inside the caller's transaction: one band 1's total is decided by one transaction at a time
    (a PostgreSQL advisory lock; on SQLite the transaction already holds the write lock)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_BAND_LOCK}, {int(band1)})")


def close_band(conn, band1: int, prefixes: int, histogram: Mapping[int, int]) -> int:
    """Store the total of a band 1 whose ``prefixes`` prefix counts are all stored, with its
    automorphism histogram; raises :class:`CatalogError` when the stored prefixes and the histogram
    do not add up (a piece counted twice or lost), or when the catalog holds another total for it.
    Returns 1 if new."""
    n, grids = conn.execute(select(func.count(), func.coalesce(func.sum(PREFIXES.c.grids), 0))
                            .where(PREFIXES.c.band1 == int(band1))).one()
    total = sum(int(v) for v in histogram.values())
    if int(n) != prefixes or int(grids) != total:
        raise CatalogError(f"band 1 {band1}: {n} of {prefixes} prefixes stored, {grids} grids, histogram {total}: "
                           f"the pieces do not add up")
    held = conn.scalar(select(BANDS.c.grids).where(BANDS.c.band1 == int(band1)))
    if held is not None and int(held) != total:
        raise CatalogError(f"band 1 {band1}: the recount gives {total:,} grids, the catalog {int(held):,}")
    return store_band_total(conn, band1, total, prefixes, histogram)


def load_totals(target) -> dict[int, int]:
    """Grids of each complete band 1."""
    with connection_of(target) as conn:
        return {int(b): int(g) for b, g in conn.execute(select(BANDS.c.band1, BANDS.c.grids))}


def load_band_prefixes(target) -> dict[int, int]:
    """Row-4 prefixes of each complete band 1."""
    with connection_of(target) as conn:
        return {int(b): int(n) for b, n in conn.execute(select(BANDS.c.band1, BANDS.c.prefixes))}


def load_prefix_counts(target, band1: int) -> list[int]:
    """Grids under each prefix of ``band1``, in prefix order (empty when none are stored)."""
    with connection_of(target) as conn:
        return [int(g) for g in conn.scalars(select(PREFIXES.c.grids).where(PREFIXES.c.band1 == int(band1))
                                             .order_by(PREFIXES.c.prefix))]


def store_fine_chunk(target, band1: int, first_prefix: int, step: int, cp_counts, checkpoints) -> int:
    """The fine counts of prefixes ``first_prefix, ...`` (``cp_counts`` per prefix, ``checkpoints``
    (C, 2) rows (band-2 ordinal, grids before it in its prefix)); returns 1 if new."""
    import zlib

    import numpy as np

    cp_counts = np.asarray(cp_counts, "<i4")
    cps = np.asarray(checkpoints, np.int64).reshape(-1, 2)
    if int(cp_counts.sum()) != len(cps):
        raise ValueError("fine counts: the checkpoints per prefix do not add up")
    data = zlib.compress(cp_counts.tobytes() + cps[:, 0].astype("<i4").tobytes() + cps[:, 1].astype("<i4").tobytes(), 6)
    row = {"band1": int(band1), "first_prefix": int(first_prefix), "prefixes": len(cp_counts), "step": int(step),
           "checkpoints": len(cps), "data": data}
    with connection_of(target) as conn:
        return insert_new(conn, FINE, [row], ["band1", "first_prefix"])


def load_fine(target, band1: int):
    """(step, checkpoints per prefix, checkpoints (C, 2)) of ``band1`` in prefix order, from the
    chunks stored (None when a prefix is missing; the caller checks the prefix count)."""
    import zlib

    import numpy as np

    with connection_of(target) as conn:
        rows = conn.execute(select(FINE).where(FINE.c.band1 == int(band1)).order_by(FINE.c.first_prefix)).mappings().all()
    per, cps, steps, nxt = [], [], set(), 0
    for r in rows:
        if r["first_prefix"] != nxt:
            return None
        raw = np.frombuffer(zlib.decompress(r["data"]), "<i4")
        n, c = r["prefixes"], r["checkpoints"]
        per.append(raw[:n])
        cps.append(np.stack([raw[n : n + c], raw[n + c : n + 2 * c]], axis=1))
        steps.add(int(r["step"]))
        nxt += n
    if len(steps) > 1:
        raise ValueError(f"fine counts of band 1 {band1} mix steps {sorted(steps)}")
    if not rows:
        return None
    return steps.pop(), np.concatenate(per).astype(np.int64), np.concatenate(cps).astype(np.int64)


def fine_prefixes(target) -> dict[int, int]:
    """Prefixes with fine counts stored, per band 1."""
    with connection_of(target) as conn:
        return {int(b): int(n) for b, n in conn.execute(select(FINE.c.band1, func.sum(FINE.c.prefixes))
                                                        .group_by(FINE.c.band1))}


def coverage(target) -> tuple[int, int, int]:
    """(bands 1 complete, their grids, their grids with a non-trivial automorphism)."""
    with connection_of(target) as conn:
        n, g, a = conn.execute(select(func.count(), func.coalesce(func.sum(BANDS.c.grids), 0),
                                      func.coalesce(func.sum(BANDS.c.automorphic), 0))).one()
    return int(n), int(g), int(a)


# -- package data: the counts shipped with the code ---------------------------------------------
def export_counts(target) -> dict:
    """Every complete band 1 as arrays for ``numpy.savez_compressed`` (band order): per band
    ``band1``, ``grids``, ``prefixes``, ``automorphic``; the histograms flattened as
    (``hist_band``, ``hist_count``, ``hist_grids``); the prefixes of all bands concatenated as
    ``prefix_row4`` (N, 9) digits and ``prefix_grids``."""
    import numpy as np

    with connection_of(target) as conn:
        bands = conn.execute(select(BANDS).order_by(BANDS.c.band1)).mappings().all()
        hb, hc, hg, rows4, grids = [], [], [], [], []
        for b in bands:
            for k, v in sorted((int(k), int(v)) for k, v in json.loads(b["automorphism_histogram"]).items()):
                hb.append(b["band1"]), hc.append(k), hg.append(v)
            for row4, g in conn.execute(select(PREFIXES.c.row4, PREFIXES.c.grids)
                                        .where(PREFIXES.c.band1 == b["band1"]).order_by(PREFIXES.c.prefix)):
                rows4.append([int(ch) for ch in row4])
                grids.append(int(g))
    return {
        "band1": np.array([b["band1"] for b in bands], np.int16),
        "grids": np.array([b["grids"] for b in bands], np.int64),
        "prefixes": np.array([b["prefixes"] for b in bands], np.int32),
        "automorphic": np.array([b["automorphic"] for b in bands], np.int64),
        "hist_band": np.array(hb, np.int16), "hist_count": np.array(hc, np.int32), "hist_grids": np.array(hg, np.int64),
        "prefix_row4": np.array(rows4, np.uint8).reshape(-1, 9), "prefix_grids": np.array(grids, np.int64),
    }


def import_counts(target, arrays) -> int:
    """Store what :func:`export_counts` produced (ON CONFLICT DO NOTHING); returns the bands 1 new.
    A band 1 whose total and every prefix row are stored already is skipped without writing (two
    queries in all: a second ``bin/populate`` no longer rewrites 834,148 rows to add none)."""
    import numpy as np

    start = np.concatenate([[0], np.cumsum(arrays["prefixes"])]).astype(np.int64)
    if start[-1] != len(arrays["prefix_grids"]):
        raise ValueError("package data: prefix counts do not add up to the bands' prefixes")
    new = 0
    with connection_of(target) as conn:
        totals = {int(b): int(n) for b, n in conn.execute(select(BANDS.c.band1, BANDS.c.prefixes))}
        per_band = select(PREFIXES.c.band1, func.count()).group_by(PREFIXES.c.band1)
        rows = {int(b): int(n) for b, n in conn.execute(per_band)}
        for k, b in enumerate(arrays["band1"].tolist()):
            lo, hi = int(start[k]), int(start[k + 1])
            if totals.get(b) == hi - lo and rows.get(b) == hi - lo:
                continue
            counts = arrays["prefix_grids"][lo:hi]
            if int(counts.sum()) != int(arrays["grids"][k]):
                raise ValueError(f"package data: band 1 {b}'s prefix counts do not add up to its total")
            rows4 = ["".join(map(str, r)) for r in arrays["prefix_row4"][lo:hi].tolist()]
            store_prefix_counts(conn, b, 0, rows4, counts.tolist())
            sel = arrays["hist_band"] == b
            hist = dict(zip(arrays["hist_count"][sel].tolist(), arrays["hist_grids"][sel].tolist()))
            new += store_band_total(conn, b, int(arrays["grids"][k]), hi - lo, hist)
    return new
