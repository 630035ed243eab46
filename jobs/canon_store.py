"""The job of ``canon --store FILE``: the canonical forms of a file's sudokus into the catalog.

Run kind ``canon-store``, keyed on (content sha256, convention). Serially the file is one shard
(its sha256: ``jobs/inputs.py``); with Dask it is cut into pieces of ``--chunk`` lines (a run of
its own: the parameters add ``pieces``). Cursor: ``line`` and ``offset`` reached, ``read`` and
``malformed`` so far (in the shard), and for pieces ``problems``: the malformed lines as ``[line
number, reason]`` (at most :data:`MAX_PROBLEMS`), which the command lists at the end, since a
distributed run prints no forms. Results: the catalog rows of the valid lines (``write``
deduplicates them). ``data``: the lines ``canon`` prints, a bad line as ``error line N: REASON``
in its place; ``notes``: the bad lines for standard error.

:func:`process` is the one way a chunk of lines becomes forms, rows and problems: the command's
printing without ``--store`` uses it too.
"""
from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np

from sudoku_symmetry.engine.canon import canonicalize
from sudoku_symmetry.engine.group import format_transforms
from sudoku_symmetry.engine.text import format_lines, parse_lines
from sudoku_symmetry.engine.validity import conflicts, is_valid

from .chunk import Chunk
from .inputs import line_chunks, parse_piece, piece_keys

KIND = "canon-store"
MAX_PROBLEMS = 1000

__all__ = ["KIND", "Processed", "process", "printed", "parameters", "shards", "work", "write"]


class Processed(NamedTuple):
    """A chunk of lines: ``results`` ``(line number, printed line)`` of the valid ones, ``problems``
    ``(line number, reason)`` of the others (line order), ``rows`` the catalog rows."""

    results: list[tuple[int, str]]
    problems: list[tuple[int, str]]
    rows: list[dict]


def process(lines: list[str], source: str, first: int, *, pattern_first: bool = False, automorphisms: bool = False,
            transform: bool = False, rows: bool = True, fields: bool = False) -> Processed:
    """Canonical forms of a chunk of raw lines (the first is line ``first``): a complete valid grid
    gets the grid minlex form, anything else the puzzle form (pure minlex, or pattern-first). A
    printed line is ``FORM [AUTOMORPHISMS] [TRANSFORMATION]``; a malformed line, or one whose
    givens repeat a digit, is a problem. ``fields``: each result is instead the dict of
    ``canon --format csv|jsonl`` (form, kind, automorphisms, transform: every one, whatever the flags)."""
    parsed = parse_lines(lines, source=source, errors="collect", first_lineno=first)
    ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
    forms, transforms, counts, is_grid = canonicalize(parsed.sudokus[ok], pattern_first)
    plain = format_lines(forms)
    text = plain
    if fields:
        text = [{"form": f, "kind": "grid" if g else "puzzle", "automorphisms": c, "transform": t}
                for f, g, c, t in zip(plain, is_grid.tolist(), counts.tolist(), format_transforms(transforms))]
    if automorphisms and not fields:
        text = [f"{s} {c}" for s, c in zip(text, counts.tolist())]
    if transform and not fields:
        text = [f"{s} {t}" for s, t in zip(text, format_transforms(transforms))]
    problems = [(e.lineno, e.message) for e in parsed.errors]
    problems += [(n, str(conflicts(cells)[0])) for n, cells in zip(parsed.linenos[~ok].tolist(), parsed.sudokus[~ok])]
    convention = "pattern_first" if pattern_first else "minlex"
    out_rows = [] if not rows else [
        {"canonical": f, "kind": "grid" if g else "puzzle", "convention": convention, "automorphism_count": c}
        for f, g, c in zip(plain, is_grid.tolist(), counts.tolist())]
    return Processed(list(zip(parsed.linenos[ok].tolist(), text)), sorted(problems), out_rows)


def printed(p: Processed, source: str) -> tuple[bytes, str]:
    """(what ``canon`` prints of a chunk: its lines in line order, a problem as ``error line N:
    REASON`` in its place; what it says on standard error: ``error: SOURCE:N: REASON``)."""
    items = p.results + [(n, f"error line {n}: {reason}") for n, reason in p.problems]
    items.sort(key=lambda item: item[0])
    data = "".join(text + "\n" for _, text in items).encode()
    return data, "".join(f"error: {source}:{n}: {reason}\n" for n, reason in p.problems)


def parameters(digest: str, convention: str, pieces: int | None = None) -> dict:
    """The run's parameters: the content, the convention, and for a distributed run the piece size."""
    params: dict[str, Any] = {"sha256": digest, "convention": convention}
    if pieces is not None:
        params["pieces"] = pieces
    return params


def shards(path: str, digest: str, pieces: int | None = None) -> list[str]:
    """The whole file (its sha256), or its pieces of ``pieces`` lines."""
    return [digest] if pieces is None else piece_keys(path, digest, pieces)


def work(shard: str, cursor, *, path: str, chunk: int, pattern_first: bool = False, automorphisms: bool = False,
         transform: bool = False, emit: bool = True):
    """The shard's lines, ``chunk`` at a time, from the cursor; ``emit``: with the printed lines
    (``data``, ``notes``), else the problems kept in the cursor (a distributed run)."""
    line, start, end = parse_piece(shard)
    end = os.path.getsize(path) if end is None else end
    cur = dict(cursor or {"line": line, "offset": start, "read": 0, "malformed": 0})
    if not emit:
        cur.setdefault("problems", [])
    for raw, lines in line_chunks(path, int(cur["offset"]), end, chunk):
        p = process(lines, path, cur["line"] + 1, pattern_first=pattern_first, automorphisms=automorphisms,
                    transform=transform)
        nxt = {"line": cur["line"] + len(raw), "offset": cur["offset"] + sum(map(len, raw)),
               "read": cur["read"] + len(p.results) + len(p.problems), "malformed": cur["malformed"] + len(p.problems)}
        data, notes = printed(p, path) if emit else (b"", "")
        if not emit:
            nxt["problems"] = (cur["problems"] + [list(x) for x in p.problems])[:MAX_PROBLEMS]
        yield Chunk(p.rows, nxt, nxt["offset"] >= end, len(raw), data, notes)
        cur = nxt


def write(conn, rows: list[dict], *, source: str | None = None) -> tuple[int, int]:
    """Store a chunk's rows (deduplicated): ``(new, known)``."""
    # Deliberately deferred: the catalog (SQLAlchemy, about 0.3 s of CPU to import) only when
    # storing; ``canon`` without ``--store`` uses :func:`process` alone and starts without it.
    from sudoku_symmetry.catalog.configurations import store_configurations

    return store_configurations(conn, rows, source=source)
