"""The job of ``find-puzzles --pattern FILE --store``: every puzzle on each pattern of a file.

Run kind ``pattern-puzzles``, keyed on (the file's sha256, the fixed digits, minimal, limit, and
the ER range when there is one: only the puzzles rated in it are stored, and ``limit`` counts them); one
shard per pattern (``SHA256:LINE``), its cursor the pattern search's own
(:meth:`engine.explore.PatternSearch.cursor`: the labels of the current branch and those left at
each position), a checkpoint after each kernel call (``BUDGET`` search nodes). A
chunk's results are its puzzles' catalog rows (minlex forms, ``configurations``) and, on the
shard's last chunk, the pattern's record (``pattern_searches``): committed with the cursor, so a
killed run resumes where it stopped with no puzzle lost or stored twice.
"""
from __future__ import annotations

import sys
from functools import partial
from typing import Any, NamedTuple

from sudoku_symmetry.catalog.configurations import store_configurations
from sudoku_symmetry.catalog.explore import store_pattern_search
from sudoku_symmetry.catalog.runs import start_or_resume

from .chunk import Chunk, Job
from .inputs import hash_and_count
from .runner import run_job

KIND = "pattern-puzzles"
BUDGET = 200_000
"""Search nodes per chunk (one kernel call): a checkpoint each."""

__all__ = ["KIND", "Found", "parameters", "read_patterns", "store_patterns", "work", "write"]


class Found(NamedTuple):
    """A chunk's rows: ``puzzles`` for ``configurations``, ``record`` for ``pattern_searches``
    (the shard's last chunk only)."""

    puzzles: list[dict]
    record: dict | None

    def __len__(self) -> int:
        return len(self.puzzles) + (self.record is not None)


def parameters(digest: str, fixed: str | None, minimal: bool, limit: int | None, rating=None) -> dict:
    params = {"sha256": digest, "fixed": fixed or "", "minimal": bool(minimal), "limit": limit}
    if rating is not None:
        params["rating"] = list(rating)
    return params


def read_patterns(path: str) -> tuple[dict[str, str], list[tuple[int, str]], str]:
    """The file's patterns by shard key, its bad lines, and its sha256."""
    from sudoku_symmetry.engine.explore import format_pattern, parse_pattern
    from sudoku_symmetry.engine.text import SudokuFormatError

    digest, _, _ = hash_and_count(path)
    patterns: dict[str, str] = {}
    problems: list[tuple[int, str]] = []
    with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="\n") as fh:
        lines = fh.read().splitlines()
    body = [(n, t.strip()) for n, t in enumerate(lines, 1) if t.strip() and not t.strip().startswith("#")]
    cells = ["".join(ch for ch in t if ch not in " \t|+-") for _, t in body]
    if body and all(len(c) <= 17 for c in cells):  # one pattern as a 9-line block
        try:
            patterns[f"{digest}:{body[0][0]}"] = format_pattern(parse_pattern("\n".join(t for _, t in body)))
        except SudokuFormatError as exc:
            problems.append((body[0][0], exc.message))
        return patterns, problems, digest
    for n, t in body:
        try:
            patterns[f"{digest}:{n}"] = format_pattern(parse_pattern(t))
        except SudokuFormatError as exc:
            problems.append((n, exc.message))
    return patterns, problems, digest


def work(shard: str, cursor: Any, *, patterns: dict[str, str], fixed: str | None, minimal: bool,
         limit: int | None, source: str | None = None, rating=None):
    """One pattern's search from its cursor, a chunk per kernel call; with ``rating`` (an ER
    range) only the puzzles rated in it are kept (the cursor counts them: ``kept``)."""
    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.explore import PatternSearch
    from sudoku_symmetry.engine.text import format_lines

    search = PatternSearch(patterns[shard], fixed, minimal)
    search.resume(cursor)
    if search.done:
        return
    kept = int((cursor or {}).get("kept", 0))
    for puzzles, _ in search.run(BUDGET):
        if rating is not None and len(puzzles):
            from sudoku_symmetry.engine.rate.filter import er_within

            puzzles = puzzles[er_within(puzzles, rating)[0]]
        kept = search.classes if rating is None else kept + len(puzzles)
        over = 0 if limit is None else max(0, kept - int(limit))
        if over:
            puzzles = puzzles[:len(puzzles) - over]
            kept -= over
        rows = []
        if len(puzzles):
            forms = canon_puzzles(puzzles)
            rows = [{"canonical": f, "kind": "puzzle", "convention": "minlex", "automorphism_count": int(a),
                     "source": source} for f, a in zip(format_lines(forms.forms), forms.automorphisms.tolist())]
        done = search.done or over > 0 or (limit is not None and kept >= int(limit))
        cur = search.cursor()
        cur["kept"] = kept
        record = None
        if done:
            classes = search.classes - over if rating is None else search.classes
            cur["done"] = True
            cur["classes"] = classes
            record = {"pattern": patterns[shard], "fixed": fixed or "", "minimal": minimal,
                      "cells": patterns[shard].count("x"), "automorphism_count": search.automorphisms,
                      "classes": classes, "on_pattern": search.on_pattern, "complete": search.done and not over,
                      "cpu_seconds": search.seconds}
        yield Chunk(Found(rows, record), cur, done, 1 if done else 0)
        if done:
            return


def write(conn, found: Found, *, source: str | None = None) -> tuple[int, int]:
    """Store a chunk's puzzles (deduplicated) and the pattern's record: ``(new, known)`` puzzles."""
    if found.record is not None:
        store_pattern_search(conn, found.record)
    if not found.puzzles:
        return 0, 0
    return store_configurations(conn, found.puzzles, source=source)


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def store_patterns(catalog, path: str, fixed: str | None, minimal: bool, limit: int | None, *, rating=None,
                   workers: int | None = None, scheduler: str | None = None) -> list[tuple[int, str]]:
    """Search every pattern of the file ``path`` into the catalog (module docstring); returns
    the bad lines ``(line, reason)``. A summary line per file goes to standard error."""
    from sudoku_symmetry.engine.explore import PatternSearch

    patterns, problems, digest = read_patterns(path)
    if fixed is not None and len(patterns) > 1:
        problems.append((0, "--fixed goes with one pattern"))
        return problems
    usable = {}
    for key, text in patterns.items():
        try:
            PatternSearch(text, fixed, minimal)
            usable[key] = text
        except ValueError as exc:
            problems.append((int(key.rsplit(":", 1)[1]), str(exc)))
    name = path.rsplit("/", 1)[-1]
    state = start_or_resume(catalog, KIND, parameters(digest, fixed, minimal, limit, rating), items_total=len(usable))
    job = Job(partial(work, patterns=usable, fixed=fixed, minimal=minimal, limit=limit, source=name, rating=rating),
              partial(write, source=name))
    res = run_job(catalog, state.id, list(usable), job, desc=name, unit=" patterns", workers=workers,
                  scheduler=scheduler)
    again = " (already done: nothing new)" if res.already_done else ""
    print(f"find-puzzles: {path}: {_n(len(usable), 'pattern')} searched, {_n(len(problems), 'bad line')} "
          f"(run {state.id}){again}", file=sys.stderr)
    return sorted(problems)
