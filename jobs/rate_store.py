"""The job of ``rate --store FILE``: Sudoku Explainer's ratings of a file's puzzles into the catalog.

Run kind ``rate-store``, keyed on (content sha256, SE line, chain level limit). Serially the file
is one shard (its sha256: ``jobs/inputs.py``); with Dask it is cut into pieces of ``--chunk``
lines (a run of its own: the parameters add ``pieces``). Cursor: ``line`` and ``offset`` reached,
``read`` and ``malformed`` so far (in the shard), and for pieces ``problems``: the bad lines as
``[line number, reason]`` (at most :data:`MAX_PROBLEMS`), which the command lists at the end,
since a distributed run prints no ratings. Results: the catalog rows of the rated puzzles (``write``
skips those already stored). ``data``: the lines ``rate`` prints, a bad line as ``error line N:
REASON`` in its place; ``notes``: the bad lines for standard error.

:func:`process` is the one way a chunk of lines becomes ratings, rows and problems: the command's
printing without ``--store`` uses it too.
"""
from __future__ import annotations

import os
import time
from typing import Any, NamedTuple

import numpy as np

from .chunk import Chunk
from .inputs import line_chunks, parse_piece, piece_keys

KIND = "rate-store"
MAX_PROBLEMS = 1000

__all__ = ["KIND", "Processed", "process", "printed", "parameters", "shards", "work", "write"]


class Processed(NamedTuple):
    """A chunk of lines: ``results`` ``(line number, printed line or fields)`` of the rated ones,
    ``problems`` ``(line number, reason)`` of the others (line order), ``rows`` the catalog rows."""

    results: list[tuple[int, Any]]
    problems: list[tuple[int, str]]
    rows: list[dict]


def _lower(r) -> str:
    return ",".join(name for name, low in zip(("ER", "EP", "ED"), r.lower) if low)


def process(lines: list[str], source: str, first: int, *, max_level: int = 5, line: str = "1.2.1.3",
            steps: bool = False, fields: bool = False, rows: bool = True) -> Processed:
    """Ratings of a chunk of raw lines (the first is line ``first``). A printed line is ``PUZZLE
    ER/EP/ED`` (with ``steps``, the path below it, a step a line); ``fields``: each result is the
    dict of ``rate --format csv|jsonl``. A malformed line, a sudoku whose givens repeat a digit, a
    puzzle without exactly one solution is a problem. ``rows``: the catalog rows too (the CPU
    seconds of each puzzle then measured alone)."""
    from sudoku_symmetry.engine.canon import canonicalize
    from sudoku_symmetry.engine.rate import not_unique, rate
    from sudoku_symmetry.engine.text import format_lines, parse_lines
    from sudoku_symmetry.engine.validity import conflicts, is_valid

    parsed = parse_lines(lines, source=source, allow_suffix=True, errors="collect", first_lineno=first)
    problems = [(e.lineno, e.message) for e in parsed.errors]
    linenos = parsed.linenos
    ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
    problems += [(n, str(conflicts(cells)[0])) for n, cells in zip(linenos[~ok].tolist(), parsed.sudokus[~ok])]
    batch, linenos = parsed.sudokus[ok], linenos[ok]
    bad = not_unique(batch) if len(batch) else {}
    problems += [(int(linenos[k]), reason) for k, reason in bad.items()]
    keep = np.array([k not in bad for k in range(len(batch))], bool)
    batch, linenos = batch[keep], linenos[keep]
    seconds: list[float] = []
    if rows:
        ratings = []
        for p in batch:
            t0 = time.process_time()
            ratings += rate(p[None], max_level=max_level, line=line, steps=steps)
            seconds.append(time.process_time() - t0)
    else:
        ratings = rate(batch, max_level=max_level, line=line, steps=steps) if len(batch) else []
    texts = format_lines(batch) if len(batch) else []
    results: list[tuple[int, Any]] = []
    for n, text, r in zip(linenos.tolist(), texts, ratings):
        if fields:
            results.append((n, {"puzzle": text, "er": r.er, "ep": r.ep, "ed": r.ed, "complete": r.complete,
                                "steps": [str(s) for s in r.steps] if steps else None}))
        elif steps:
            results.append((n, f"{text} {r}\n" + "\n".join(f"  {s}" for s in r.steps)))
        else:
            results.append((n, f"{text} {r}"))
    out_rows: list[dict] = []
    if rows and len(batch):
        forms = format_lines(canonicalize(batch)[0])
        out_rows = [{"puzzle": text, "line": line, "max_level": max_level, "canonical": form,
                     "n_givens": int(np.count_nonzero(p)), "er": r.er, "ep": r.ep, "ed": r.ed,
                     "complete": r.complete, "lower": _lower(r), "steps": r.length, "cpu_seconds": s}
                    for text, form, p, r, s in zip(texts, forms, batch, ratings, seconds)]
    return Processed(results, sorted(problems), out_rows)


def printed(p: Processed, source: str) -> tuple[bytes, str]:
    """(what ``rate`` prints of a chunk: its lines in line order, a problem as ``error line N:
    REASON`` in its place; what it says on standard error: ``error: SOURCE:N: REASON``)."""
    items = p.results + [(n, f"error line {n}: {reason}") for n, reason in p.problems]
    items.sort(key=lambda item: item[0])
    data = "".join(text + "\n" for _, text in items).encode()
    return data, "".join(f"error: {source}:{n}: {reason}\n" for n, reason in p.problems)


def parameters(digest: str, line: str, max_level: int, pieces: int | None = None) -> dict:
    """The run's parameters: the content, the SE line, the level, and for a distributed run the
    piece size."""
    params: dict[str, Any] = {"sha256": digest, "line": line, "max_level": max_level}
    if pieces is not None:
        params["pieces"] = pieces
    return params


def shards(path: str, digest: str, pieces: int | None = None) -> list[str]:
    """The whole file (its sha256), or its pieces of ``pieces`` lines."""
    return [digest] if pieces is None else piece_keys(path, digest, pieces)


def work(shard: str, cursor, *, path: str, chunk: int, max_level: int = 5, line: str = "1.2.1.3",
         emit: bool = True):
    """The shard's lines, ``chunk`` at a time, from the cursor; ``emit``: with the printed lines
    (``data``, ``notes``), else the problems kept in the cursor (a distributed run)."""
    first, start, end = parse_piece(shard)
    end = os.path.getsize(path) if end is None else end
    cur = dict(cursor or {"line": first, "offset": start, "read": 0, "malformed": 0})
    if not emit:
        cur.setdefault("problems", [])
    for raw, lines in line_chunks(path, int(cur["offset"]), end, chunk):
        p = process(lines, path, cur["line"] + 1, max_level=max_level, line=line)
        nxt = {"line": cur["line"] + len(raw), "offset": cur["offset"] + sum(map(len, raw)),
               "read": cur["read"] + len(p.results) + len(p.problems), "malformed": cur["malformed"] + len(p.problems)}
        data, notes = printed(p, path) if emit else (b"", "")
        if not emit:
            nxt["problems"] = (cur["problems"] + [list(x) for x in p.problems])[:MAX_PROBLEMS]
        yield Chunk(p.rows, nxt, nxt["offset"] >= end, len(raw), data, notes)
        cur = nxt


def write(conn, rows: list[dict], *, source: str | None = None) -> tuple[int, int]:
    """Store a chunk's rows (skipping those stored): ``(new, known)``."""
    from sudoku_symmetry.catalog.ratings import store_ratings

    return store_ratings(conn, rows, source=source)
