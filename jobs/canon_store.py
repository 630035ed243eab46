"""The job of ``canon --store FILE``: the canonical forms of a file's sudokus into the catalog.

Run kind ``canon-store``, keyed on (content sha256, convention); the file's shards, cursor and
printing are those of every line store (:mod:`.line_store`). Results: the catalog rows of the
valid lines (``write`` deduplicates them).

:func:`process` is the one way a chunk of lines becomes forms, rows and problems: the command's
printing without ``--store`` uses it too.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from sudoku_symmetry.engine.canon import canonicalize
from sudoku_symmetry.engine.group import format_transforms
from sudoku_symmetry.engine.text import format_lines, parse_lines
from sudoku_symmetry.engine.validity import conflicts, is_valid

from .line_store import Processed, printed, shards, with_pieces
from .line_store import work as line_work

KIND = "canon-store"
__all__ = ["KIND", "Processed", "process", "printed", "parameters", "shards", "work", "write"]


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


def parameters(digest: str, convention: str, pieces: int | None = None) -> dict:
    """The run's parameters: the content, the convention, and for a distributed run the piece size."""
    return with_pieces({"sha256": digest, "convention": convention}, pieces)


def work(shard: str, cursor, *, path: str, chunk: int, pattern_first: bool = False, automorphisms: bool = False,
         transform: bool = False, emit: bool = True):
    """The shard's lines, ``chunk`` at a time, from the cursor (:func:`.line_store.work`)."""
    return line_work(shard, cursor, path=path, chunk=chunk, emit=emit,
                     process=partial(process, pattern_first=pattern_first, automorphisms=automorphisms,
                                     transform=transform))


def write(conn, rows: list[dict], *, source: str | None = None) -> tuple[int, int]:
    """Store a chunk's rows (deduplicated): ``(new, known)``."""
    # Deliberately deferred: the catalog (SQLAlchemy, about 0.3 s of CPU to import) only when
    # storing; ``canon`` without ``--store`` uses :func:`process` alone and starts without it.
    from sudoku_symmetry.catalog.configurations import store_configurations

    return store_configurations(conn, rows, source=source)
