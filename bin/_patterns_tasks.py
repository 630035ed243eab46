"""The work of ``patterns --cells N`` in module-level functions, so that the same code runs in
this process and, with ``--workers`` / ``--scheduler``, pickled into Dask workers.

The enumeration walks *units* (canonical clue-count matrices, ``engine/patterns/enumeration.py``)
sorted by box occupancy first. Shards: the serial run has one, ``"N"`` (every unit); a
distributed run has one per box occupancy, the enumeration's first-level choice (24 at N = 10,
the biggest 16% of the work): ``"boxes:OCCUPANCY"``, the occupancy as 9 characters (``1`` for a
box with clues), covering that occupancy's consecutive units. Cursor: ``{"unit": the next
unit}`` (the command adds the output file's ``offset``). Every unit's patterns are stored as in
the serial run, so the catalog's rows are the same whichever the shards.
"""
from __future__ import annotations

PREFIX = "boxes:"


def occupancy_shards(n: int) -> list[str]:
    """The shard keys of a distributed run: one per box occupancy, in unit order."""
    from sudoku_symmetry.engine.patterns.enumeration import occupancy_groups

    return [PREFIX + occ for occ, _, _ in occupancy_groups(n)]


def unit_range(n: int, shard: str) -> tuple[int, int | None]:
    """The units ``(start, stop)`` of a shard (``stop`` None: to the last unit)."""
    if not shard.startswith(PREFIX):
        return 0, None
    from sudoku_symmetry.engine.patterns.enumeration import occupancy_groups

    for occ, start, stop in occupancy_groups(n):
        if occ == shard[len(PREFIX):]:
            return start, stop
    raise ValueError(f"no units of {n} cells have the box occupancy of shard {shard!r}")


def work(shard: str, cursor, *, n: int, digits: bool, chunk: int, emit: bool = False):
    """The shard's units, whole units of about ``chunk`` results at a time: yields ((forms,
    automorphism counts), cursor, done, results, lines) with ``lines`` the forms as bytes
    (``emit``; else empty)."""
    from sudoku_symmetry.engine.patterns import enumeration
    from sudoku_symmetry.engine.patterns.canonical import format_cells

    start, stop = unit_range(n, shard)
    unit = start if cursor is None else int(cursor["unit"])
    for batch, items, nxt, done in enumeration.pattern_chunks(n, unit, digits=digits, max_items=chunk, stop=stop):
        forms = format_cells(batch.cells, digits) if len(batch.automorphisms) else []
        data = "".join(f + "\n" for f in forms).encode("ascii") if emit else b""
        yield (forms, batch.automorphisms.tolist()), {"unit": nxt}, done, items, data


def write(conn, rows, *, n: int, digits: bool):
    """Store a chunk's canonical forms (``functools.partial(write, n=..., digits=...)``)."""
    from sudoku_symmetry.catalog.patterns import store_patterns

    forms, auts = rows
    return store_patterns(conn, forms, auts, digits=digits,
                          source=f"patterns --cells {n}" + (" --digits" if digits else ""))
