"""The job of ``s17-entry``: the 17-clue search entry, band 1 by band 1.

Run kind ``s17-entry``. Shard: a band 1, by its rank in the search order (``"K"``), the same in
a serial and a distributed run, so a run started in one process can be resumed on a cluster and
the other way round. Cursor: ``{"b2": next band 2, "bands3": bands 3 so far}`` (the output file
adds its ``offset`` and ``crc``). The chunk that completes a band 1 stores its counts
(``s17_entry_bands``): its results are an :class:`EntryBand`, ``None`` before.

A checkpoint always falls on a slice boundary (``chunk`` bands 2, 64 by default; the kernels
are called on :data:`CALL_BANDS2` of them at a time, from a slice boundary), but slices are
committed together until ``seconds`` of work have gathered (default
:data:`CHECKPOINT_SECONDS`): a commit costs about 2 ms of CPU (lease, cursor, counters through
SQLAlchemy), while a slice of 64 bands 2 takes 0.2-0.3 ms at high band-1 ranks. Committing every
slice made the count-only run of band-1 rank 300 take 74 s instead of 22 s (the kernels: 10 s).
A kill loses at most those seconds of work; the resumed run redoes them from the last slice
committed, with the same totals and the same file.
"""
from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from sudoku_symmetry.catalog.search17 import store_entry_band
from sudoku_symmetry.engine.search17 import band1, bands2, entry_chunks

from .chunk import Chunk

KIND = "s17-entry"
CHUNK = 64  # bands 2 per checkpoint (the entry's slice)
CHECKPOINT_SECONDS = 1.0
"""Work gathered per commit (seconds); 0: a commit per slice."""
CALL_BANDS2 = 4096
"""Bands 2 per kernel call (a multiple of the slice), unless every slice is committed: a call
costs about 0.1 ms of Python (arguments, workspace), as much as 64 bands 2 of variant C."""
MAX_CHUNK_BYTES = 1 << 24
"""Lines gathered per commit at most (bytes), whatever the time."""

__all__ = ["KIND", "CHUNK", "CHECKPOINT_SECONDS", "EntryBand", "parameters", "shards", "format_lines", "work",
           "write"]


class EntryBand(NamedTuple):
    """A complete band 1: its rank, minlex index, bands 2 and bands 3."""

    rank: int
    index: int
    bands2: int
    bands3: int


def parameters(variant: str, ranks: list[int], out: str | None, stdout: bool, chunk: int = CHUNK) -> dict:
    return {"variant": variant, "ranks": ranks, "out": out, "stdout": stdout, "chunk": chunk}


def shards(ranks: list[int]) -> list[str]:
    return [str(r) for r in ranks]


def format_lines(rank: int, b2s, counts, bands3, owner, start: int) -> bytes:
    """The lines of one slice (bands 2 ``start..``): vectorized, one row of bytes per line."""
    n2 = len(counts)
    # each band 2 contributes max(1, count) lines: its bands 3, or one line with '-'
    lines_per = np.maximum(counts, 1)
    own = np.repeat(np.arange(n2), lines_per)
    has3 = np.repeat(counts > 0, lines_per)
    prefix = f"{rank} ".encode()
    width = len(prefix) + 27 + 1 + 27 + 1
    buf = np.full((len(own), width), ord(" "), np.uint8)
    buf[:, : len(prefix)] = np.frombuffer(prefix, np.uint8)
    buf[:, -1] = ord("\n")
    p2 = len(prefix)
    p3 = p2 + 28
    buf[:, p2 : p2 + 27] = np.asarray(b2s)[start + own] + ord("0")
    b3_rows = np.full((len(own), 27), ord(" "), np.uint8)
    b3_rows[has3] = bands3 + ord("0")
    b3_rows[~has3, 0] = ord("-")
    buf[:, p3 : p3 + 27] = b3_rows
    text = buf.tobytes()
    # a '-' field is one character: drop the 26 padding blanks after it
    if (~has3).any():
        text = text.replace(b"-" + b" " * 26, b"-")
    return text


def work(shard: str, cursor, *, variant: str, chunk: int = CHUNK, emit: bool = False,
         seconds: float = CHECKPOINT_SECONDS):
    """Band 1 at rank ``shard``, ``chunk`` bands 2 a slice, slices gathered for ``seconds``:
    yields Chunk(EntryBand on the last chunk else None, cursor, done, bands 3, the lines when
    ``emit``)."""
    rank = int(shard)
    cur = cursor or {"b2": 0, "bands3": 0}
    n3 = int(cur["bands3"])
    b2s = bands2(rank)
    index = int(band1(rank).index)
    parts: list[bytes] = []
    size = items = 0
    since = time.monotonic()
    per_call = chunk if seconds <= 0 else chunk * max(1, CALL_BANDS2 // chunk)
    for res, nxt, done in entry_chunks(variant, rank, cur["b2"], emit=emit, chunk=per_call):
        if emit and res.stop > res.start:
            parts.append(format_lines(rank, b2s, res.counts, res.bands3, res.owner, res.start))
            size += len(parts[-1])
        n3 += res.total
        items += res.total
        if not (done or size >= MAX_CHUNK_BYTES or time.monotonic() - since >= seconds):
            continue
        final = EntryBand(rank, index, len(b2s), n3) if done else None
        yield Chunk(final, {"b2": nxt, "bands3": n3}, done, items, b"".join(parts))
        parts, size, items = [], 0, 0
        since = time.monotonic()


def write(conn, final: EntryBand, *, variant: str) -> tuple[int, int]:
    """Store the counts of a completed band 1 (``functools.partial(write, variant=...)``)."""
    new = store_entry_band(conn, variant, *final)
    return new, 1 - new
