"""The job of ``rate --store FILE``: Sudoku Explainer's ratings of a file's puzzles into the catalog.

Run kind ``rate-store``, keyed on (content sha256, SE line, chain level limit); the file's
shards, cursor and printing are those of every line store (:mod:`.line_store`). Results: the
catalog rows of the rated puzzles (``write`` skips those already stored).

:func:`process` is the one way a chunk of lines becomes ratings, rows and problems: the command's
printing without ``--store`` uses it too.
"""
from __future__ import annotations

import time
from functools import partial
from typing import Any

import numpy as np

from .line_store import Processed, printed, shards, with_pieces
from .line_store import work as line_work

KIND = "rate-store"
__all__ = ["KIND", "Processed", "process", "printed", "parameters", "shards", "work", "write"]


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


def parameters(digest: str, line: str, max_level: int, pieces: int | None = None) -> dict:
    """The run's parameters: the content, the SE line, the level, and for a distributed run the
    piece size."""
    return with_pieces({"sha256": digest, "line": line, "max_level": max_level}, pieces)


def work(shard: str, cursor, *, path: str, chunk: int, max_level: int = 5, line: str = "1.2.1.3",
         emit: bool = True):
    """The shard's lines, ``chunk`` at a time, from the cursor (:func:`.line_store.work`)."""
    return line_work(shard, cursor, path=path, chunk=chunk, emit=emit,
                     process=partial(process, max_level=max_level, line=line))


def write(conn, rows: list[dict], *, source: str | None = None) -> tuple[int, int]:
    """Store a chunk's rows (skipping those stored): ``(new, known)``."""
    from sudoku_symmetry.catalog.ratings import store_ratings

    return store_ratings(conn, rows, source=source)
