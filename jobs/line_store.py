"""The shape every "one result per input line, stored as it is printed" job shares (``canon
--store``, ``rate --store``): a chunk of lines becomes a :class:`Processed` (the printed results,
the bad lines, the catalog rows); a file is one shard (its sha256) or, on Dask, pieces of
``--chunk`` lines; the cursor is ``line`` and ``offset`` reached and ``read`` and ``malformed`` so
far, and for pieces ``problems``, the bad lines as ``[line number, reason]`` (at most
:data:`MAX_PROBLEMS`), which the command lists at the end, since a distributed run prints nothing.

Each job module keeps what is its own (``process``: how lines become results and rows; its run
kind and parameters; ``write``) and hands its ``process`` to :func:`work` here.
"""
from __future__ import annotations

import os
from typing import Any, Callable, NamedTuple

from .chunk import Chunk
from .inputs import line_chunks, parse_piece, piece_keys

MAX_PROBLEMS = 1000

__all__ = ["MAX_PROBLEMS", "Processed", "printed", "with_pieces", "shards", "work"]


class Processed(NamedTuple):
    """A chunk of lines: ``results`` ``(line number, printed line or fields)`` of the good ones,
    ``problems`` ``(line number, reason)`` of the others (line order), ``rows`` the catalog rows."""

    results: list[tuple[int, Any]]
    problems: list[tuple[int, str]]
    rows: list[dict]


def printed(p: Processed, source: str) -> tuple[bytes, str]:
    """(what the command prints of a chunk: its lines in line order, a problem as ``error line N:
    REASON`` in its place; what it says on standard error: ``error: SOURCE:N: REASON``)."""
    items = p.results + [(n, f"error line {n}: {reason}") for n, reason in p.problems]
    items.sort(key=lambda item: item[0])
    data = "".join(text + "\n" for _, text in items).encode()
    return data, "".join(f"error: {source}:{n}: {reason}\n" for n, reason in p.problems)


def with_pieces(params: dict[str, Any], pieces: int | None) -> dict[str, Any]:
    """A run's parameters, with the piece size for a distributed run (a run of its own)."""
    return params if pieces is None else {**params, "pieces": pieces}


def shards(path: str, digest: str, pieces: int | None = None) -> list[str]:
    """The whole file (its sha256), or its pieces of ``pieces`` lines."""
    return [digest] if pieces is None else piece_keys(path, digest, pieces)


def work(shard: str, cursor, *, path: str, chunk: int, process: Callable[[list[str], str, int], Processed],
         emit: bool = True):
    """The shard's lines, ``chunk`` at a time, from the cursor, each chunk through ``process(lines,
    source, first line number)``; ``emit``: with the printed lines (``data``, ``notes``), else the
    problems kept in the cursor (a distributed run)."""
    first, start, end = parse_piece(shard)
    end = os.path.getsize(path) if end is None else end
    cur = dict(cursor or {"line": first, "offset": start, "read": 0, "malformed": 0})
    if not emit:
        cur.setdefault("problems", [])
    for raw, lines in line_chunks(path, int(cur["offset"]), end, chunk):
        p = process(lines, path, cur["line"] + 1)
        nxt = {"line": cur["line"] + len(raw), "offset": cur["offset"] + sum(map(len, raw)),
               "read": cur["read"] + len(p.results) + len(p.problems), "malformed": cur["malformed"] + len(p.problems)}
        data, notes = printed(p, path) if emit else (b"", "")
        if not emit:
            nxt["problems"] = (cur["problems"] + [list(x) for x in p.problems])[:MAX_PROBLEMS]
        yield Chunk(p.rows, nxt, nxt["offset"] >= end, len(raw), data, notes)
        cur = nxt
