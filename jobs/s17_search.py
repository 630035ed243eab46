"""The job of ``s17-search``: the 17-clue search over the entry, one pass and band 1 per shard, or
one range of its bands 2 per shard when the run is cut by cost (:func:`plan`).

Run kind ``s17-search``. Shard: ``"P:K"`` (pass P, band-1 rank K) or ``"P:K:A-B"`` (its bands 2
A..B-1), the same in a serial and a distributed run. Cursor: ``{"b2": next band 2, "found":
[canonical forms found so far]}`` (a band 1 holds tens of 17s, so the list stays small; a find
met again later in the shard, e.g. another image in a grid with automorphisms or, in pass C,
another chute of 7+, is not printed twice). A checkpoint falls on a boundary of the entry's
slices (``chunk`` bands 2, 64 by default); slices are gathered until ``seconds`` of work (default
:data:`CHECKPOINT_SECONDS`), and each commit stores its finds (``s17_search_finds``,
``configurations``), its slices (``s17_search_slices``) and the band 1's counters
(``s17_search_bands``: bands 2, pairs, bands 3, CPU seconds, grown only by slices no earlier run
covered), so a kill loses at most those seconds and the rerun ends with the same rows, and a
second run over the same bands 2 counts nothing twice. ``bands2`` limits a run to a range of
bands 2 of each band 1 (samples for the estimate); a band 1 is complete once its slices cover
all its bands 2 (one shard, or the shards of a plan).
"""
from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from sudoku_symmetry.catalog.search17 import store_search_chunk
from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.engine.search17 import PASSES, band1, bands2, entry_slice, entry_variant, search_chunks

from .chunk import Chunk
from .s17_cost import cost_ranges, per_band3

KIND = "s17-search"
CHUNK = 64  # bands 2 per checkpoint (the entry's slice)
CHECKPOINT_SECONDS = 30.0
"""Work gathered per commit (seconds; 0: a commit per slice). A slice of 64 bands 2 takes from
milliseconds (no band 3) to minutes (pairs at low ranks): a commit (about 2 ms) is never the cost."""

__all__ = ["KIND", "PASSES", "CHUNK", "CHECKPOINT_SECONDS", "SearchChunk", "parameters", "shards", "band_range", "work",
           "write", "plan"]


class SearchChunk(NamedTuple):
    """One checkpoint of a shard: the new finds (canonical form, puzzle as written) and its
    slices of bands 2 with their counters (``progress``, see ``store_search_chunk``)."""

    pass_: str
    rank: int
    finds: list
    progress: dict


def parameters(pass_: str, ranks: list[int], bands2_range, out: str | None, stdout: bool, chunk: int = CHUNK) -> dict:
    """A run's identity. ``entry``: the entry whose bands 2 the cursor counts (pass B's own since
    variant B has one; a run begun before, on A's bands 2, is not resumed on B's)."""
    return {"pass": pass_, "ranks": ranks, "bands2": bands2_range, "out": out, "stdout": stdout, "chunk": chunk,
            "entry": entry_variant(pass_)}


def shards(pass_: str, ranks: list[int]) -> list[str]:
    return [f"{pass_}:{r}" for r in ranks]


def plan(pass_: str, ranks: list[int], seconds: float, bands2_range=None) -> tuple[list[str], list[float]]:
    """The run cut by cost: per band 1, its bands 2 (all, or ``bands2_range``) in consecutive ranges
    of about ``seconds`` estimated CPU seconds each (``cost_ranges``: each band 2 costs its bands 3,
    from the entry, times the CPU per band 3 of :func:`per_band3`), so no shard is much longer
    than ``seconds`` plus its costliest band 2 and a run on many workers ends with a short tail.
    Returns (shards ``"P:K:A-B"``, their estimated CPU seconds). Counting the entry's bands 3 per
    band 2 takes seconds to a minute and a half per band 1 (11 s for C at rank 200, 91 s for B at
    rank 34)."""
    rate = per_band3(pass_, ranks)
    if not rate:
        raise ValueError(f"no sampled CPU per band 3 of pass {pass_} in the package data to size shards by")
    variant = entry_variant(pass_)
    names, costs = [], []
    for r in ranks:
        a, b = band_range(r, bands2_range)
        if b <= a:
            continue
        cost = entry_slice(variant, r, a, b).counts * rate[int(r)]
        for x, y in cost_ranges(cost, seconds, a):
            names.append(f"{pass_}:{r}:{x}-{y}")
            costs.append(float(cost[x - a:y - a].sum()))
    return names, costs


def band_range(rank: int, bands2_range) -> tuple[int, int]:
    """The bands 2 a run covers under band 1 ``rank``: all, or ``bands2_range`` (start, stop) cut
    to the band 1's count."""
    total = len(bands2(rank))
    if bands2_range is None:
        return 0, total
    a, b = bands2_range
    return min(int(a), total), min(int(b), total)


def _forms(puzzles: np.ndarray) -> list[str]:
    if not len(puzzles):
        return []
    forms = canon_puzzles(puzzles, want_automorphisms=False).forms
    return [bytes(f + 48).decode().replace("0", ".") for f in forms]


def work(shard: str, cursor, *, chunk: int = CHUNK, emit: bool = False, seconds: float = CHECKPOINT_SECONDS,
         bands2_range=None):
    """Pass and band 1 ``shard``, ``chunk`` bands 2 a slice, slices gathered for ``seconds``:
    yields Chunk(SearchChunk, cursor, done, bands 2 done, the finds' lines when ``emit``, and
    ``found N`` after the band 1's last one)."""
    pass_, rank, *part = shard.split(":")
    rank = int(rank)
    if part:  # a shard of a plan: its own range of bands 2
        start, stop = band_range(rank, [int(v) for v in part[0].split("-")])
    else:
        start, stop = band_range(rank, bands2_range)
    total = len(bands2(rank))
    index = int(band1(rank).index)
    cur = cursor or {"b2": start, "found": []}
    seen = set(cur["found"])
    finds: list = []
    slices: list = []
    since = time.monotonic()
    p = int(cur["b2"])
    if p >= stop:
        yield Chunk(SearchChunk(pass_, rank, [], {"slices": [], "band1": index, "bands2_total": total,
                                                 "complete": start == 0 and stop == total}),
                    {"b2": stop, "found": sorted(seen)}, True, 0, f"found {len(seen)}\n".encode() if emit else b"")
        return
    for res, nxt, done in search_chunks(pass_, rank, p, chunk=chunk, stop=stop):
        for form, puzzle in zip(_forms(res.puzzles), res.puzzles):
            if form not in seen:
                seen.add(form)
                finds.append((form, bytes(puzzle + 48).decode().replace("0", ".")))
        slices.append({"first": res.start, "stop": res.stop, "pairs": res.pairs, "bands3": res.bands3,
                       "found": len(res.puzzles), "cpu_seconds": res.seconds})
        if not (done or time.monotonic() - since >= seconds):
            continue
        data = b""
        if emit:
            data = "".join(f"{p}\n" for _, p in finds).encode() + (f"found {len(seen)}\n".encode() if done else b"")
        progress = {"slices": slices, "band1": index, "bands2_total": total,
                    "complete": done and start == 0 and stop == total}
        yield Chunk(SearchChunk(pass_, rank, finds, progress), {"b2": nxt, "found": sorted(seen)}, done,
                    sum(s["stop"] - s["first"] for s in slices), data)
        finds = []
        slices = []
        since = time.monotonic()


def write(conn, r: SearchChunk) -> tuple[int, int]:
    """Store one checkpoint's finds and counters."""
    return store_search_chunk(conn, r.pass_, r.rank, r.finds, r.progress)
