"""The job of ``enumerate``: every essentially different grid of some bands 1, counted per row-4
prefix into the catalog; and the rank index over those counts (``bin/rank``).

Run kind ``ed-grids``. Shards: a band 1 (``"B"``) or, for a distributed run, pieces of a band 1
of more than ``split`` grids: ``"B:LO-HI"``, the row-4 prefixes LO..HI-1 (:func:`shard_keys`).
The pieces are cut from the shipped per-prefix counts (``catalog/data/ed_grid_counts.npz``) so
that each holds about ``split`` grids: the enumeration's cost is about proportional to the
grids (plus ~0.6 ms per prefix), so equal grids make equal tasks and the tail short (README,
"Scale-out").

Cursor: ``{"prefix": the next prefix, "hist": the shard's automorphism histogram so far}``.
Each chunk (``chunk`` prefixes) commits its :class:`PrefixCounts` (with ``--fine``, the
checkpoints inside each prefix too, checked against counts the catalog already holds); the
shard's last chunk calls :func:`finish`, which stores the band's total once every piece of the
band is done (``catalog.grids.close_band``, under a per-band lock), so a whole band 1 and a band
cut in pieces end with the same rows. ``data``: the grids as 81-digit lines (``emit``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sudoku_symmetry.catalog.fine import load_fine_package
from sudoku_symmetry.catalog.grids import (close_band, load_prefix_counts, load_totals, lock_band, store_fine_chunk,
                                           store_prefix_counts)
from sudoku_symmetry.catalog.runs import shard_cursors
from sudoku_symmetry.catalog.shipped import ed_grid_counts, ed_grid_prefix_counts
from sudoku_symmetry.engine.bands import N_BANDS
from sudoku_symmetry.engine.grids import band1_chunks, prefixes
from sudoku_symmetry.engine.text import format_lines

from .chunk import Chunk
from .runner import JobError

KIND = "ed-grids"
CHUNK = 64  # prefixes per committed chunk (a checkpoint at least every 64)
FINE_STEP = 128  # grids between fine checkpoints in the catalog (package data thins them)
SPLIT_GRIDS = 2_000_000  # grids per piece of a distributed run

__all__ = ["KIND", "CHUNK", "FINE_STEP", "SPLIT_GRIDS", "N_BANDS", "PrefixCounts", "parameters", "shards",
           "shard_keys", "parse_shard", "work", "write", "finish", "catalog_counts"]


class PrefixCounts(NamedTuple):
    """A chunk's results: band 1, its first prefix, the rows 4 and grids under each; with
    ``--fine`` also (checkpoints per prefix, (C, 2) checkpoints) and their step."""

    band: int
    start: int
    rows4: list[str]
    counts: list[int]
    fine: tuple | None = None
    step: int = 0


def parameters(bands: list[int], out: str | None, stdout: bool, fine_step: int = 0, split: int | None = None) -> dict:
    params = {"bands": bands, "out": out, "stdout": stdout}
    if fine_step:
        params["fine"] = fine_step
    if split is not None:  # finer shards (pieces of big bands 1): a different run from the serial one
        params["split"] = split
    return params


def shards(bands: list[int], split: int | None = None) -> list[str]:
    """One shard per band 1, or (``split``) the pieces of :func:`shard_keys`."""
    return [str(b) for b in bands] if split is None else shard_keys(bands, split)


def shard_keys(bands: list[int], split: int = SPLIT_GRIDS) -> list[str]:
    """Shard keys for ``bands``: ``"B"``, or ``"B:LO-HI"`` pieces of about ``split`` grids each,
    biggest first (the longest tasks start first: a short tail)."""
    out: list[tuple[int, str]] = []
    shipped = ed_grid_prefix_counts()
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


def _merge(hist: dict, counts: np.ndarray) -> dict:
    out = dict(hist)
    for k in map(int, counts.nonzero()[0]):
        out[str(k)] = out.get(str(k), 0) + int(counts[k])
    return out


def work(shard: str, cursor, *, chunk: int = CHUNK, emit: bool = False, step: int = 0):
    """The shard's prefixes, ``chunk`` at a time, from the cursor: yields Chunk(PrefixCounts,
    cursor, done, grids, the grids' lines when ``emit``)."""
    band, lo, hi = parse_shard(shard)
    rows4 = format_lines(prefixes(band))
    cur = dict(cursor or {"prefix": lo, "hist": {}})
    for res, nxt, done in band1_chunks(band, int(cur["prefix"]), chunk=chunk, emit=emit, step=step, stop=hi):
        cur = {"prefix": nxt, "hist": _merge(cur["hist"], res.hist)}
        fine = (res.checkpoint_counts, res.checkpoints) if step else None
        data = "".join(line + "\n" for line in format_lines(res.grids)).encode("ascii") if res.grids is not None else b""
        yield Chunk(PrefixCounts(band, res.start, rows4[res.start:res.stop], res.counts.tolist(), fine, step), cur,
                    done, res.total, data)


def write(conn, res: PrefixCounts) -> tuple[int, int]:
    """Store a chunk's prefix counts (and fine counts: a recount must agree with what the
    catalog holds); ``(new, known)`` prefixes."""
    if res.fine is not None:
        held = load_prefix_counts(conn, res.band)[res.start : res.start + len(res.counts)]
        if held and held != res.counts:
            raise JobError(f"band 1 {res.band}, prefixes {res.start}-{res.start + len(res.counts) - 1}: the recount "
                           f"differs from the counts in the catalog")
        store_fine_chunk(conn, res.band, res.start, res.step, *res.fine)
    new = store_prefix_counts(conn, res.band, res.start, res.rows4, res.counts)
    return new, len(res.counts) - new


def finish(conn, run_id: int, shard: str, cursor) -> None:
    """A shard is done: once every piece of its band 1 is (this shard and the run's other done
    shards of the band), store the band's total and histogram."""
    band, _, _ = parse_shard(shard)
    n_prefixes = len(prefixes(band))
    lock_band(conn, band)
    pieces = {shard: cursor}
    pieces.update({k: c for k, c in shard_cursors(conn, run_id).items() if k.split(":")[0] == str(band)})
    covered, merged = 0, {}
    for key, cur in pieces.items():
        _, lo, hi = parse_shard(key)
        covered += (n_prefixes if hi is None else hi) - lo
        for k, v in cur["hist"].items():
            merged[int(k)] = merged.get(int(k), 0) + int(v)
    if covered == n_prefixes:
        close_band(conn, band, n_prefixes, merged)


def catalog_counts(catalog) -> tuple:
    """The counts of a catalog as ``engine.grids.index.rank_index`` takes them (totals, prefix
    counts, fine counts): its bands 1 counted, with each band's prefix counts and fine counts
    from the package data where its total agrees with the catalog's (no database reads per
    lookup), else from the catalog (whole-prefix lookups there)."""
    totals = load_totals(catalog)
    coarse = ed_grid_counts(check=False) or {"band1": np.zeros(0), "grids": np.zeros(0)}
    agree = {b for b, g in zip(coarse["band1"].tolist(), coarse["grids"].tolist()) if totals.get(b) == g}
    shipped_counts = {b: c for b, c in ed_grid_prefix_counts().items() if b in agree}
    fine = {b: v for b, v in load_fine_package().items() if b in shipped_counts}

    def counts(b: int):
        got = shipped_counts.get(b)
        return got if got is not None else load_prefix_counts(catalog, b)

    return totals, counts, fine.get
