"""The job of ``find-puzzles --store FILE``: every puzzle of n clues of each grid of a file.

Run kind ``find-puzzles``, keyed on (the file's sha256, clues, minimal, limit). Serially the file
is one shard (its sha256, ``jobs/inputs.py``); with Dask it is cut into pieces of ``--chunk``
lines, one shard each. A checkpoint follows every ``chunk`` grids (default :data:`CHUNK`: one,
since a grid's search takes seconds to minutes). Cursor: ``line`` and ``offset`` reached, and
``grids``, ``malformed``, ``found`` so far in the shard, ``problems`` the bad lines met (at most
:data:`MAX_PROBLEMS`, listed by the command at the end). Results: the puzzles' catalog rows
(minlex forms, kind ``puzzle``; ``configurations`` deduplicates them) and a search record per grid
(``grid_searches``); the chunk's rows and its cursor are committed together, so a killed run
resumes with the same rows, no duplicates and no gaps.
"""
from __future__ import annotations

import os
from typing import Any, NamedTuple

from sudoku_symmetry.catalog.configurations import store_configurations
from sudoku_symmetry.catalog.grid_searches import store_grid_searches
from sudoku_symmetry.engine.canon import canon_grids, canon_puzzles
from sudoku_symmetry.engine.text import format_lines
from sudoku_symmetry.engine.unavoidable import parse_grids, puzzles_in_grid
from sudoku_symmetry.engine.unavoidable.puzzles import MAX_PUZZLES

from .chunk import Chunk
from .inputs import line_chunks, parse_piece, piece_keys

KIND = "find-puzzles"
CHUNK = 1
MAX_PROBLEMS = 1000

__all__ = ["KIND", "CHUNK", "Found", "parameters", "shards", "search_rows", "work", "write"]


class Found(NamedTuple):
    """A chunk's rows: ``puzzles`` for ``configurations``, ``searches`` for ``grid_searches``."""

    puzzles: list[dict]
    searches: list[dict]

    def __len__(self) -> int:
        return len(self.searches)


def parameters(digest: str, clues: int, minimal: bool, limit: int | None, pieces: int | None = None,
               method: str = "auto") -> dict:
    params: dict[str, Any] = {"sha256": digest, "clues": clues, "minimal": minimal, "limit": limit}
    if method != "auto":  # runs before --method keep their keys
        params["method"] = method
    if pieces is not None:
        params["pieces"] = pieces
    return params


def shards(path: str, digest: str, pieces: int | None = None) -> list[str]:
    """The whole file (its sha256), or its pieces of ``pieces`` lines."""
    return [digest] if pieces is None else piece_keys(path, digest, pieces)


def search_rows(grid, clues: int, minimal: bool, limit: int | None, source: str | None = None,
                method: str = "auto", max_puzzles: int = MAX_PUZZLES) -> Found:
    """Search one grid: its puzzles as catalog rows and its search record (more than
    ``max_puzzles`` without a limit: :class:`TooManyPuzzles`)."""
    found = puzzles_in_grid(grid, clues, minimal=minimal, limit=limit, method=method, max_puzzles=max_puzzles)
    rows = []
    if len(found):
        forms = canon_puzzles(found.puzzles)
        rows = [{"canonical": f, "kind": "puzzle", "convention": "minlex", "automorphism_count": a, "source": source}
                for f, a in zip(format_lines(forms.forms), forms.automorphisms.tolist())]
    record = {"grid": format_lines(canon_grids(grid[None, :]).forms)[0], "clues": clues, "minimal": minimal,
              "complete": found.complete, "found": len(found), "automorphism_count": found.automorphisms,
              "seconds": found.stats["seconds"]}
    return Found(rows, [record])


def work(shard: str, cursor, *, path: str, clues: int, minimal: bool = False, limit: int | None = None,
         chunk: int = CHUNK, source: str | None = None, method: str = "auto", max_puzzles: int = MAX_PUZZLES):
    """The shard's grids, ``chunk`` lines at a time, from the cursor."""
    line, start, end = parse_piece(shard)
    end = os.path.getsize(path) if end is None else end
    cur = dict(cursor or {"line": line, "offset": start, "grids": 0, "malformed": 0, "found": 0, "problems": []})
    for raw, lines in line_chunks(path, int(cur["offset"]), end, chunk):
        grids, problems = parse_grids(lines, path, cur["line"] + 1)
        res = Found([], [])
        for _, grid in grids:
            one = search_rows(grid, clues, minimal, limit, source, method, max_puzzles)
            res.puzzles.extend(one.puzzles)
            res.searches.extend(one.searches)
        nxt = {"line": cur["line"] + len(raw), "offset": cur["offset"] + sum(map(len, raw)),
               "grids": cur["grids"] + len(grids), "malformed": cur["malformed"] + len(problems),
               "found": cur["found"] + sum(r["found"] for r in res.searches),
               "problems": (cur["problems"] + [list(p) for p in problems])[:MAX_PROBLEMS]}
        yield Chunk(res, nxt, nxt["offset"] >= end, len(raw))
        cur = nxt


def write(conn, found: Found, *, source: str | None = None) -> tuple[int, int]:
    """Store a chunk's puzzles (deduplicated) and search records: ``(new, known)`` puzzles."""
    store_grid_searches(conn, found.searches)
    if not found.puzzles:
        return 0, 0
    return store_configurations(conn, found.puzzles, source=source)
