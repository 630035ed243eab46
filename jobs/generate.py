"""The job of ``generate``: uniformly random grids, or minimal puzzles made top-down from them.

Run kind ``generate``, keyed on what is made (grids or puzzles), the seed, the symmetry, the clue
and rating ranges, how many (``count``: puzzles kept; ``attempts``: grids tried) and where the
lines go. Attempt i of a seed is grid i of its uniform draw (``engine.generate``), so the work is
a walk over attempts in order, a chunk per :data:`CHUNK` attempts:

* a serial run is one shard, ``all``: from attempt 0 until ``count`` lines are kept (or
  ``attempts`` are tried); its cursor is ``attempt`` (the next one), ``kept``, and the running
  statistics (``hist``: puzzles per clue count; ``er``: the kept puzzles' ratings' count, sum, sum
  of squares and maximum, with a rating range), plus the output file's ``offset`` and ``crc``;
* a distributed run (Dask) has one shard per block of :data:`BLOCK` attempts
  (``attempts:A-B``), the same cursor per shard; it stores, it prints nothing.

Results: the catalog rows of what was kept (``configurations``: minlex forms, kind ``puzzle`` or
``grid``, automorphism counts, ``source`` saying how it was made: ``generate seed=S attempt=A``
and the symmetry), committed with the cursor, so a killed run resumes with the same rows and a
byte-identical output file. ``data``: the lines (``PUZZLE`` or ``PUZZLE SOLUTION``; a grid).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from sudoku_symmetry.engine.canon import canon_grids, canon_puzzles
from sudoku_symmetry.engine.generate import canonical_name, keep_rated, parse_range, top_down_range
from sudoku_symmetry.engine.grids.uniform import CHUNK, uniform_grids
from sudoku_symmetry.engine.text import format_lines

from .chunk import Chunk

KIND = "generate"
BLOCK = 64 * CHUNK
"""Attempts per shard of a distributed run (about 10 CPU-s of puzzles)."""

__all__ = ["KIND", "CHUNK", "BLOCK", "parameters", "shards", "new_cursor", "summary", "work", "write"]


def parameters(*, what: str, seed: int, symmetry: str = "none", clues=None, rating=None, count: int | None = None,
               attempts: int | None = None, solutions: bool = False, store: bool = False,
               out: str | None = None, stdout: bool = False, distributed: bool = False, block: int = BLOCK) -> dict:
    """The run's parameters (canonical: equal options, equal run)."""
    params: dict[str, Any] = {"what": what, "seed": int(seed), "count": count, "attempts": attempts,
                              "out": out, "stdout": stdout, "store": store}
    if what == "puzzles":
        params.update(symmetry=canonical_name(symmetry), clues=parse_range(clues), solutions=solutions)
        if rating is not None:  # only then: a run made without the filter keys as it always did
            params["rating"] = _rating(rating)
    if distributed:
        params["block"] = block
    params["shard_count"] = len(shards(attempts, distributed, block)) if distributed else 1
    return params


def _rating(rating):
    """The ER range as the run's parameters hold it (None: no filter), or ValueError."""
    if rating is None:
        return None
    from sudoku_symmetry.engine.rate.filter import parse_rating

    return list(parse_rating(rating))


def shards(attempts: int | None, distributed: bool = False, block: int = BLOCK) -> list[str]:
    """``["all"]``, or a distributed run's blocks of ``block`` attempts."""
    if not distributed:
        return ["all"]
    return [f"attempts:{a}-{min(a + block, attempts)}" for a in range(0, int(attempts), block)]


def new_cursor(start: int = 0) -> dict:
    return {"attempt": start, "kept": 0, "hist": [0] * 82, "er": [0, 0.0, 0.0, 0.0]}


def summary(cursors) -> dict:
    """The statistics of shards' cursors together: ``kept``, ``attempts`` (tried), ``hist``,
    ``mean``, ``sd`` (n - 1), ``skewness`` of the clue counts, and with ratings ``er_mean``,
    ``er_sd``, ``er_max``, ``rated``."""
    hist = np.zeros(82, np.int64)
    er = np.zeros(4)
    tried = kept = 0
    for cur in cursors:
        if not cur:
            continue
        hist += np.array(cur.get("hist", [0] * 82), np.int64)
        e = cur.get("er", [0, 0, 0, 0])
        er[:3] += e[:3]
        er[3] = max(er[3], e[3])
        kept += int(cur.get("kept", 0))
        tried += int(cur.get("attempt", 0)) - int(cur.get("start", 0))
    out: dict[str, Any] = {"kept": kept, "attempts": tried, "hist": hist}
    n = int(hist.sum())
    if n:
        k = np.arange(82)
        mean = float((hist * k).sum() / n)
        var = float((hist * (k - mean) ** 2).sum() / max(n - 1, 1))
        m3 = float((hist * (k - mean) ** 3).sum() / n)
        out.update(mean=mean, sd=var ** 0.5, skewness=m3 / (var ** 1.5) if var else 0.0)
    if er[0]:
        m = er[0]
        mean = er[1] / m
        var = max(er[2] - m * mean * mean, 0.0) / max(m - 1, 1)
        out.update(rated=int(m), er_mean=mean, er_sd=var ** 0.5, er_max=er[3])
    return out


def _rows(forms, auts, kind: str, sources) -> list[dict]:
    return [{"canonical": f, "kind": kind, "convention": "minlex", "automorphism_count": a, "source": s}
            for f, a, s in zip(forms, auts, sources)]


def work(shard: str, cursor, *, what: str, seed: int, symmetry: str = "none", clues=None, rating=None,
         count: int | None = None, attempts: int | None = None, solutions: bool = False,
         store: bool = False, emit: bool = True):
    """The shard's attempts, a chunk of up to :data:`CHUNK` at a time, from the cursor: yields
    Chunk(catalog rows (with ``store``), cursor, done, items kept, the lines with ``emit``)."""
    if shard == "all":
        start, stop = 0, attempts
    else:
        a, b = shard.split(":", 1)[1].split("-")
        start, stop = int(a), int(b)
    cur = dict(cursor or new_cursor(start))
    cur.setdefault("start", start)
    sym = canonical_name(symmetry) if what == "puzzles" else "none"
    lo_hi, er_range = parse_range(clues), _rating(rating)
    while True:
        at = int(cur["attempt"])
        if (stop is not None and at >= stop) or (count is not None and cur["kept"] >= count):
            yield Chunk([], cur, True, 0, b"")
            return
        size = CHUNK - at % CHUNK
        if stop is not None:
            size = min(size, stop - at)
        if what == "grids":
            grids = uniform_grids(size, seed, first=at)
            keep = np.arange(size)
            made = grids
        else:
            grids, made, cl = top_down_range(seed, at, size, sym)
            ok = np.ones(size, bool) if lo_hi is None else (cl >= lo_hi[0]) & (cl <= lo_hi[1])
            er = np.full(size, np.nan)
            if er_range is not None:
                need = None if count is None else count - int(cur["kept"])
                ok, er = keep_rated(made, ok, er_range, need)
            keep = np.flatnonzero(ok)
        if count is not None:
            keep = keep[: count - int(cur["kept"])]
        used = size if count is None or int(cur["kept"]) + len(keep) < count else int(keep[-1]) + 1
        nxt = dict(cur, attempt=at + used, kept=int(cur["kept"]) + len(keep))
        if what == "puzzles" and len(keep):
            hist = np.array(cur["hist"], np.int64) + np.bincount(cl[keep], minlength=82)
            nxt["hist"] = hist.tolist()
            if er_range is not None:
                e = er[keep]
                old = cur["er"]
                nxt["er"] = [old[0] + len(e), old[1] + float(e.sum()), old[2] + float((e * e).sum()),
                             max(old[3], float(e.max()))]
        lines = format_lines(made[keep])
        if what == "puzzles" and solutions:
            lines = [f"{p} {g}" for p, g in zip(lines, format_lines(grids[keep]))]
        rows = []
        if store and len(keep):
            tail = f" symmetry={sym}" if sym != "none" else ""
            sources = [f"generate seed={seed} attempt={at + int(k)}{tail}" for k in keep.tolist()]
            c = canon_grids(made[keep]) if what == "grids" else canon_puzzles(made[keep])
            rows = _rows(format_lines(c.forms), c.automorphisms.tolist(), "grid" if what == "grids" else "puzzle",
                         sources)
        done = (stop is not None and nxt["attempt"] >= stop) or (count is not None and nxt["kept"] >= count)
        data = "".join(line + "\n" for line in lines).encode("ascii") if emit else b""
        yield Chunk(rows, nxt, done, len(keep) if count is not None else used, data)
        if done:
            return
        cur = nxt


def write(conn, rows: list[dict]) -> tuple[int, int]:
    """Store a chunk's rows (deduplicated by canonical form): ``(new, known)``."""
    if not rows:
        return 0, 0
    from sudoku_symmetry.catalog.configurations import store_configurations

    return store_configurations(conn, rows)
