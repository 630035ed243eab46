"""The 17-clue search in the catalog: the band order (columns of ``bands``) and the per-band-1
entry counts (``s17_entry_bands``), migration 0005; the search's finds (``s17_search_finds``) and
progress per pass and band 1 (``s17_search_bands``), migration 0008. Plain rows in, plain numbers
out.

* :func:`store_band_order` fills ``valid6``, ``valid5``, ``min_clues``, ``s17_rank`` of the
  ``bands`` rows where they are still empty (idempotent); returns how many rows it filled.
* :func:`store_entry_band` inserts a complete band 1 (``ON CONFLICT DO NOTHING``: the counts are
  deterministic); :func:`load_entry_bands` reads them back.
* :func:`load_shipped_entry` reads the package data (``data/s17_entry_counts.json``, written by
  ``bin/s17-entry --export``); :func:`import_entry_bands` stores it, each band 1's index checked
  against the band order (``bin/populate`` and ``bin/s17-entry --import-shipped``).

SQL a user can run::

    -- the search's band order: rank, index, valid 6-clue count, fewest clues
    SELECT s17_rank, band_index, valid6, valid5, min_clues FROM bands ORDER BY s17_rank;
    -- the search's table (variant A; 'C' for the 7+ clue entry)
    SELECT e.band1_rank, e.band1, b.valid6, e.bands2, e.bands3
      FROM s17_entry_bands e JOIN bands b ON b.band_index = e.band1
     WHERE e.variant = 'A' ORDER BY e.band1_rank;
    -- progress: bands 1 done and totals (A: 5,472,730,538 bands 3 and C: 983,959,110 bands 2
    -- when all 416 are done)
    SELECT variant, count(*), sum(bands2), sum(bands3) FROM s17_entry_bands GROUP BY variant;
    -- the search: 17s found per pass, and where (band-1 rank), with their CPU time
    SELECT pass, band1_rank, found, cpu_seconds, complete FROM s17_search_bands ORDER BY 1, 2;
    SELECT f.pass, f.band1_rank, f.canonical FROM s17_search_finds f ORDER BY 1, 2;

* :func:`store_search_chunk` stores one checkpoint of the search (finds and progress, in the
  caller's transaction); :func:`load_search_bands`, :func:`load_search_finds` read them back;
  :func:`load_shipped_search` reads the package data ``data/s17_search_bands.json``,
  :func:`load_shipped_rates` ``data/s17_search_rates.json`` (CPU seconds per band 3, sampled);
  :func:`found_classes` the distinct classes found, :func:`measured_bands` the measured bands 1
  of the package data and of the catalog.
"""
from __future__ import annotations

import json
from typing import Iterable, Mapping

from sqlalchemy import func, select, update

from ._dml import connection_of, insert_new
from .configurations import make_row, store_configurations
from .errors import CatalogError
from .models import Band, S17EntryBand, S17SearchBand, S17SearchFind, S17SearchSlice, utcnow
from .shipped import S17_ENTRY_COUNTS, S17_SEARCH_BANDS, S17_SEARCH_RATES

BANDS = Band.__table__
ENTRY = S17EntryBand.__table__


def store_band_order(target, rows: Iterable[Mapping]) -> int:
    """``rows``: dicts with band_index, valid6, valid5, min_clues, s17_rank. Only rows whose
    ``s17_rank`` is still NULL are written."""
    n = 0
    with connection_of(target) as conn:
        for r in rows:
            res = conn.execute(update(BANDS).where(BANDS.c.band_index == int(r["band_index"]),
                                                   BANDS.c.s17_rank.is_(None))
                               .values(valid6=int(r["valid6"]), valid5=int(r["valid5"]),
                                       min_clues=int(r["min_clues"]), s17_rank=int(r["s17_rank"])))
            n += res.rowcount or 0
    return n


def store_entry_band(target, variant: str, band1_rank: int, band1: int, bands2: int, bands3: int) -> int:
    """A complete band 1 of ``variant``; returns 1 if new."""
    row = {"variant": variant, "band1_rank": int(band1_rank), "band1": int(band1), "bands2": int(bands2),
           "bands3": int(bands3), "computed_at": utcnow()}
    with connection_of(target) as conn:
        return insert_new(conn, ENTRY, [row], ["variant", "band1_rank"])


def load_entry_bands(target, variant: str) -> dict[int, tuple[int, int, int]]:
    """band-1 rank -> (band 1 index, bands 2, bands 3) of every complete band 1 of ``variant``."""
    with connection_of(target) as conn:
        rows = conn.execute(select(ENTRY.c.band1_rank, ENTRY.c.band1, ENTRY.c.bands2, ENTRY.c.bands3)
                            .where(ENTRY.c.variant == variant))
        return {int(r): (int(b), int(n2), int(n3)) for r, b, n2, n3 in rows}


def load_band_order(target) -> dict[int, tuple[int, int, int, int]]:
    """band index -> (s17_rank, valid6, valid5, min_clues), for the rows that have them."""
    with connection_of(target) as conn:
        rows = conn.execute(select(BANDS.c.band_index, BANDS.c.s17_rank, BANDS.c.valid6, BANDS.c.valid5,
                                   BANDS.c.min_clues).where(BANDS.c.s17_rank.is_not(None)))
        return {int(i): (int(r), int(v6), int(v5), int(m)) for i, r, v6, v5, m in rows}


def load_shipped_entry() -> dict[str, dict[int, tuple[int, int, int]]]:
    """The package data: variant -> {band-1 rank: (band 1 index, bands 2, bands 3)} for the bands 1
    computed when it was made; {} if absent."""
    if not S17_ENTRY_COUNTS.exists():
        return {}
    data = json.loads(S17_ENTRY_COUNTS.read_text())
    return {v: {int(r): (int(i), int(n2), int(n3)) for r, i, n2, n3 in rows} for v, rows in data["bands"].items()}


def import_entry_bands(target, shipped: Mapping[str, Mapping[int, tuple[int, int, int]]]) -> dict[str, int]:
    """Store ``shipped`` (as :func:`load_shipped_entry` gives it) after checking every band 1's index
    against the catalog's band order (``CatalogError`` naming the first disagreement); variant ->
    rows new (a band 1 already there is left as it is: the counts are deterministic)."""
    index_at = {r: i for i, (r, _v6, _v5, _m) in load_band_order(target).items()}
    for v, rows in shipped.items():
        for r, (i, _n2, _n3) in rows.items():
            if index_at.get(r) != i:
                where = f"band {index_at[r]}" if r in index_at else "no band (run bin/populate first)"
                raise CatalogError(f"the 17-clue entry package data puts band {i} at rank {r} of variant {v}, "
                                   f"the catalog's band order {where}")
    new = {}
    for v, rows in shipped.items():
        have = load_entry_bands(target, v)  # those are left as they are: skip them without writing
        new[v] = sum(store_entry_band(target, v, r, i, n2, n3) for r, (i, n2, n3) in sorted(rows.items())
                     if r not in have)
    return new


# -- the search itself (migrations 0008 and 0010) ----------------------------------------------
FINDS = S17SearchFind.__table__
SEARCH = S17SearchBand.__table__
SLICES = S17SearchSlice.__table__
SEARCH_COLUMNS = ("band1", "bands2_total", "bands2_done", "pairs", "bands3", "found", "cpu_seconds", "complete")


def store_search_chunk(target, pass_: str, band1_rank: int, finds: Iterable[tuple[str, str]],
                       progress: Mapping) -> tuple[int, int]:
    """One checkpoint of the 17-clue search of (``pass_``, ``band1_rank``), in the caller's
    transaction: its ``finds`` (canonical form, puzzle as found) into ``s17_search_finds`` and
    ``configurations`` (kind ``puzzle``, deduplicated), its slices into ``s17_search_slices``, and
    the band 1's progress row (``progress``: ``band1``, ``bands2_total``, ``complete`` and
    ``slices``, each a mapping of ``first``, ``stop``, ``pairs``, ``bands3``, ``found``,
    ``cpu_seconds``). The row's counters (bands 2 done, pairs, bands 3, CPU seconds) grow by the
    slices that overlap no stored slice of that pass and band 1, so searching bands 2 again (a
    second run over them) counts nothing twice; ``found`` is the number of distinct finds
    stored; the band 1 is ``complete`` once its slices cover all its bands 2 (by one shard, or
    by the ranges of a run cut by cost). Returns (new finds, known)."""
    finds = list(finds)
    now = utcnow()
    key = {"pass": pass_, "band1_rank": int(band1_rank)}
    inc = {"bands2_done": 0, "pairs": 0, "bands3": 0, "cpu_seconds": 0.0}
    with connection_of(target) as conn:
        if finds:
            store_configurations(conn, [make_row(c, kind="puzzle", source="s17-search") for c, _ in finds])
        new = insert_new(conn, FINDS, [{**key, "canonical": c, "puzzle": p, "found_at": now} for c, p in finds],
                         ["pass", "band1_rank", "canonical"])
        for sl in progress["slices"]:
            a, b = int(sl["first"]), int(sl["stop"])
            if b <= a:
                continue
            seen = conn.execute(select(SLICES.c.first_band2).where(
                (SLICES.c["pass"] == pass_) & (SLICES.c.band1_rank == int(band1_rank)) &
                (SLICES.c.first_band2 < b) & (SLICES.c.stop_band2 > a)).limit(1)).first()
            if seen is not None:
                continue  # searched before (by this run before a kill, or by another run)
            conn.execute(SLICES.insert().values(**key, first_band2=a, stop_band2=b, pairs=int(sl["pairs"]),
                                                bands3=int(sl["bands3"]), found=int(sl["found"]),
                                                cpu_seconds=float(sl["cpu_seconds"]), computed_at=now))
            inc["bands2_done"] += b - a
            inc["pairs"] += int(sl["pairs"])
            inc["bands3"] += int(sl["bands3"])
            inc["cpu_seconds"] += float(sl["cpu_seconds"])
        where = (SEARCH.c["pass"] == pass_) & (SEARCH.c.band1_rank == int(band1_rank))
        found = conn.execute(select(func.count()).select_from(FINDS).where(
            (FINDS.c["pass"] == pass_) & (FINDS.c.band1_rank == int(band1_rank)))).scalar_one()
        had = conn.execute(select(SEARCH.c.band1_rank).where(where)).first() is not None
        if not had:
            total = int(progress["bands2_total"])
            conn.execute(SEARCH.insert().values(**key, band1=int(progress["band1"]), bands2_total=total, found=found,
                                                complete=bool(progress["complete"]) or inc["bands2_done"] >= total,
                                                updated_at=now, **inc))
        else:
            covered = SEARCH.c.bands2_done + inc["bands2_done"] >= SEARCH.c.bands2_total
            conn.execute(update(SEARCH).where(where).values(
                found=found, updated_at=now, complete=SEARCH.c.complete | bool(progress["complete"]) | covered,
                **{k: SEARCH.c[k] + v for k, v in inc.items()}))
    return new, len(finds) - new


def load_search_bands(target, pass_: str | None = None) -> dict[tuple[str, int], dict]:
    """(pass, band-1 rank) -> the ``s17_search_bands`` row (complete or not) as a dict."""
    with connection_of(target) as conn:
        q = select(SEARCH)
        if pass_ is not None:
            q = q.where(SEARCH.c["pass"] == pass_)
        return {(r["pass"], int(r["band1_rank"])): {k: r[k] for k in SEARCH_COLUMNS}
                for r in conn.execute(q).mappings()}


def load_search_finds(target, pass_: str, band1_rank: int) -> list[tuple[str, str]]:
    """(canonical, puzzle) of every find of one pass and band 1, by canonical form."""
    with connection_of(target) as conn:
        rows = conn.execute(select(FINDS.c.canonical, FINDS.c.puzzle)
                            .where(FINDS.c["pass"] == pass_, FINDS.c.band1_rank == int(band1_rank))
                            .order_by(FINDS.c.canonical))
        return [(c, p) for c, p in rows]


def load_shipped_rates() -> dict[str, dict[int, float]]:
    """The package data ``data/s17_search_rates.json``: pass -> {sampled band-1 rank: CPU seconds
    per band 3 there} (the mean over that rank's random samples); {} if absent."""
    if not S17_SEARCH_RATES.exists():
        return {}
    data = json.loads(S17_SEARCH_RATES.read_text())
    out: dict[str, dict[int, float]] = {}
    for p, r, v, _n in data["rates"]:
        out.setdefault(p, {})[int(r)] = float(v)
    return out


def load_shipped_search() -> dict[tuple[str, int], dict]:
    """The package data ``data/s17_search_bands.json`` (measured bands 1 of the search, complete
    or not, written by ``bin/s17-search --export``): (pass, rank) -> row; {} if absent."""
    if not S17_SEARCH_BANDS.exists():
        return {}
    data = json.loads(S17_SEARCH_BANDS.read_text())
    cols = data["columns"]
    return {(r[0], int(r[1])): dict(zip(cols[2:], r[2:])) for r in data["bands"]}


def found_classes(target, pass_: str | None = None, ranks=None) -> list[str]:
    """The distinct canonical forms the catalog holds as finds, sorted: of one pass and some
    band-1 ranks, or all (a class found by several passes or bands 1 once)."""
    keys = [k for k in load_search_bands(target, pass_) if ranks is None or k[1] in set(ranks)]
    return sorted({c for p, r in keys for c, _ in load_search_finds(target, p, r)})


def measured_bands(target) -> dict[tuple[str, int], dict]:
    """(pass, rank) -> ``s17_search_bands`` row: the package data's, then the catalog's over them."""
    return {**load_shipped_search(), **load_search_bands(target)}
