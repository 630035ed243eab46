"""The job of ``patterns --cells N``: every essentially different clue pattern (or
configuration) of N cells, stored in the catalog.

Run kind ``ed-patterns``. The enumeration walks *units* (canonical clue-count matrices,
``engine/patterns/enumeration.py``) sorted by box occupancy first. Shards: a serial run has one,
``"N"`` (every unit); a distributed run has one per box occupancy, the enumeration's first-level
choice (24 at N = 10, the biggest 16% of the work): ``"boxes:OCCUPANCY"``, the occupancy as 9
characters (``1`` for a box with clues), covering that occupancy's consecutive units. Cursor:
``{"unit": the next unit}`` (an output file adds its ``offset`` and ``crc``). Every unit's
patterns are stored as in the serial run, so the catalog's rows are the same whichever the shards.
"""
from __future__ import annotations

from typing import NamedTuple

from sudoku_symmetry.catalog.patterns import store_patterns
from sudoku_symmetry.engine.patterns import format_cells, occupancy_groups, pattern_chunks

from .chunk import Chunk

KIND = "ed-patterns"
CHUNK = 50_000  # results per committed chunk (whole units)
PREFIX = "boxes:"

__all__ = ["KIND", "CHUNK", "PatternForms", "parameters", "shards", "occupancy_shards", "unit_range", "work",
           "write"]


class PatternForms(NamedTuple):
    """A chunk's results: canonical forms (81 characters) and their automorphism counts."""

    forms: list[str]
    automorphisms: list[int]


def parameters(n: int, digits: bool, out: str | None, stdout: bool, distributed: bool = False,
               store: bool = True) -> dict:
    params = {"cells": n, "digits": digits, "out": out, "stdout": stdout}
    if not store:  # counted (and written) without storing the forms: a run of its own
        params["store"] = False
    if distributed:  # one shard per box occupancy: a different run from the serial one
        params["shards"] = "boxes"
    return params


def shards(n: int, distributed: bool = False) -> list[str]:
    return occupancy_shards(n) if distributed else [str(n)]


def occupancy_shards(n: int) -> list[str]:
    """The shard keys of a distributed run: one per box occupancy, in unit order."""
    return [PREFIX + occ for occ, _, _ in occupancy_groups(n)]


def unit_range(n: int, shard: str) -> tuple[int, int | None]:
    """The units ``(start, stop)`` of a shard (``stop`` None: to the last unit)."""
    if not shard.startswith(PREFIX):
        return 0, None
    for occ, start, stop in occupancy_groups(n):
        if occ == shard[len(PREFIX):]:
            return start, stop
    raise ValueError(f"no units of {n} cells have the box occupancy of shard {shard!r}")


def work(shard: str, cursor, *, n: int, digits: bool, chunk: int = CHUNK, emit: bool = False):
    """The shard's units, whole units of about ``chunk`` results at a time: yields
    Chunk(PatternForms, cursor, done, results, the forms' lines when ``emit``)."""
    start, stop = unit_range(n, shard)
    unit = start if cursor is None else int(cursor["unit"])
    for batch, items, nxt, done in pattern_chunks(n, unit, digits=digits, max_items=chunk, stop=stop):
        forms = format_cells(batch.cells, digits) if len(batch.automorphisms) else []
        data = "".join(f + "\n" for f in forms).encode("ascii") if emit else b""
        yield Chunk(PatternForms(forms, batch.automorphisms.tolist()), {"unit": nxt}, done, items, data)


def write(conn, res: PatternForms, *, n: int, digits: bool, store: bool = True) -> tuple[int, int]:
    """Store a chunk's canonical forms (``functools.partial(write, n=..., digits=...)``);
    ``store=False`` (``--no-store``) stores none: the run's checkpoint still commits."""
    if not store:
        return 0, 0
    return store_patterns(conn, res.forms, res.automorphisms, digits=digits,
                          source=f"patterns --cells {n}" + (" --digits" if digits else ""))
