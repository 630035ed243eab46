"""The distributed form of ``enumerate --count-only``: shard keys, and ``work`` / ``write`` that
pickle (module-level) for Dask workers.

Shards: a band 1 (``"B"``, the serial run's key) or, for a band 1 with more than ``split``
grids, pieces of it: ``"B:LO-HI"``, the row-4 prefixes LO..HI-1. The pieces are cut from the
shipped per-prefix counts (``catalog/data/ed_grid_counts.npz``) so that each holds about
``split`` grids: the enumeration's cost is about proportional to the grids (plus ~0.6 ms per
prefix), so equal grids make equal tasks and the tail short (README, "Scale-out").

A piece's chunk commits its prefix counts with its cursor (``{"prefix", "hist"}``: the next
prefix and the automorphism histogram of the piece so far). The chunk that completes the last
piece of a band 1 also writes the band's total (``ed_grid_bands``): under a per-band lock
(PostgreSQL advisory lock; SQLite's write lock, taken by the lease renewal) it reads the other
pieces' checkpoints, and writes the total once every prefix is covered.
"""
from __future__ import annotations

import json
from functools import lru_cache

SPLIT_GRIDS = 2_000_000
_BAND_LOCK = 0x5D0C2  # PostgreSQL advisory lock class: one band total decided at a time


@lru_cache(maxsize=1)
def _shipped():
    from pathlib import Path

    import numpy as np

    from sudoku_symmetry import catalog as catalog_pkg

    path = Path(catalog_pkg.__file__).parent / "data" / "ed_grid_counts.npz"
    if not path.exists():
        return {}
    d = np.load(path)
    start = np.concatenate([[0], np.cumsum(d["prefixes"])])
    return {int(b): d["prefix_grids"][start[k]:start[k + 1]] for k, b in enumerate(d["band1"].tolist())}


def shard_keys(bands: list[int], split: int = SPLIT_GRIDS) -> list[str]:
    """Shard keys for ``bands``: ``"B"``, or ``"B:LO-HI"`` pieces of about ``split`` grids each,
    biggest first (the longest tasks start first: a short tail)."""
    out: list[tuple[int, str]] = []
    shipped = _shipped()
    for b in bands:
        counts = shipped.get(b)
        if counts is None or split <= 0 or int(counts.sum()) <= split:
            out.append((int(counts.sum()) if counts is not None else 0, str(b)))
            continue
        lo, acc = 0, 0
        for p, c in enumerate(counts.tolist()):
            acc += c
            if acc >= split or p == len(counts) - 1:
                out.append((acc, f"{b}:{lo}-{p + 1}"))
                lo, acc = p + 1, 0
    return [key for _, key in sorted(out, key=lambda t: -t[0])]


def parse_shard(key: str) -> tuple[int, int, int | None]:
    """``"B"`` -> (B, 0, None); ``"B:LO-HI"`` -> (B, LO, HI)."""
    band, _, rng = key.partition(":")
    if not rng:
        return int(band), 0, None
    lo, _, hi = rng.partition("-")
    return int(band), int(lo), int(hi)


def work(shard: str, cursor, *, chunk: int = 64):
    """Counts of the shard's prefixes, ``chunk`` at a time: yields ((shard, band, start, rows4,
    counts, hist, done, prefixes of the band), cursor, done, grids)."""
    from sudoku_symmetry.engine.grids import enumeration
    from sudoku_symmetry.engine.text import format_lines

    band, lo, hi = parse_shard(shard)
    rows4 = format_lines(enumeration.prefixes(band))
    hi = len(rows4) if hi is None else hi
    cur = dict(cursor or {"prefix": lo, "hist": {}})
    p = int(cur["prefix"])
    while p < hi:
        q = min(hi, p + chunk)
        res = enumeration.enumerate_band1(band, p, q)
        hist = dict(cur["hist"])
        for k in map(int, res.hist.nonzero()[0]):
            hist[str(k)] = hist.get(str(k), 0) + int(res.hist[k])
        cur = {"prefix": q, "hist": hist}
        done = q >= hi
        yield (shard, band, p, rows4[p:q], res.counts.tolist(), hist, done, len(rows4)), cur, done, res.total
        p = q


def write(conn, rows, *, run_id: int):
    """Store a chunk's prefix counts; the chunk that completes a band 1 stores its total
    (``functools.partial(write, run_id=...)`` is the driver's ``write``)."""
    from sqlalchemy import func, select

    from sudoku_symmetry.catalog.grids import PREFIXES, store_band_total, store_prefix_counts
    from sudoku_symmetry.catalog.runs import CHECKPOINTS

    shard, band, start, rows4, counts, hist, done, n_prefixes = rows
    new = store_prefix_counts(conn, band, start, rows4, counts)
    if done:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_BAND_LOCK}, {int(band)})")
        covered, merged = 0, {}
        mine = parse_shard(shard)
        pieces = [(shard, mine, {"hist": hist})]
        for key, cursor in conn.execute(select(CHECKPOINTS.c.shard, CHECKPOINTS.c.resume_cursor).where(
                CHECKPOINTS.c.run_id == run_id, CHECKPOINTS.c.done.is_(True), CHECKPOINTS.c.shard != shard)):
            if key.split(":")[0] == str(band):
                pieces.append((key, parse_shard(key), json.loads(cursor)))
        for _, (_, lo, hi), cur in pieces:
            covered += (n_prefixes if hi is None else hi) - lo
            for k, v in cur["hist"].items():
                merged[int(k)] = merged.get(int(k), 0) + int(v)
        if covered == n_prefixes:
            n, grids = conn.execute(select(func.count(), func.coalesce(func.sum(PREFIXES.c.grids), 0))
                                    .where(PREFIXES.c.band1 == band)).one()
            if int(n) != n_prefixes or int(grids) != sum(merged.values()):
                raise RuntimeError(f"band 1 {band}: {n} of {n_prefixes} prefixes stored, {grids} grids, "
                                   f"histogram {sum(merged.values())}: the pieces do not add up")
            store_band_total(conn, band, int(grids), n_prefixes, merged)
    return new, len(counts) - new

