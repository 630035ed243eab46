"""``find-puzzles --pattern``: every puzzle on a clue pattern (the Patterns Game's question).

    find-puzzles --pattern PATTERN|FILE [--fixed PARTIAL] [--minimal] [--rating A-B] [--limit K] [--count-only]
                 [--svg FILE]

PATTERN: 81 characters, ``.`` (or ``0``, ``*``) an empty cell and any other character a clue cell
(a puzzle reads as its own pattern); FILE: patterns one per line, or one pattern as 9 lines of
``x`` and ``.`` (spaces and ``|``, ``-``, ``+`` are layout); ``-``: standard input. For each
pattern the command prints ``# PATTERN: N cells, A automorphisms`` (the transformations mapping
the pattern onto itself, each listed as a comment when there are few), then every puzzle whose
givens sit on exactly those cells, one per line, once per class: two puzzles on the pattern that
an automorphism of the pattern and a relabelling map onto each other are one class (they are the
same puzzle, essentially), so the list holds each essentially different puzzle on the pattern
once, digits named in order of first appearance in reading order. A summary per pattern goes to
standard error: the classes, the puzzles on the pattern counted the other way (every puzzle on
these cells up to relabelling: each class counts |Aut| / its own automorphisms), whether the
search is complete, the seconds.

``--fixed PARTIAL`` (one pattern): 81 characters, digits on some of the pattern's cells and ``.``
elsewhere: only puzzles holding those digits there (the other digits free); the automorphisms
are then those keeping the fixed digits. ``--minimal``: only minimal puzzles. ``--rating A-B``:
only the classes whose puzzle (as printed) Sudoku Explainer rates from A to B (ER; ``A-`` or
``-B`` leave an end open), rated no deeper than the range needs. ``--limit K``: stop after K
classes (with ``--rating``, K kept). ``--count-only``: one line per pattern, ``PATTERN CLASSES ON_PATTERN
AUTOMORPHISMS`` (and, with ``--rating``, the classes rated in the range). ``--svg FILE``: the first pattern and its first puzzles drawn on one sheet.
``--format csv|jsonl``: a row per pattern (``source, line, input, cells, fixed, minimal, rating,
automorphisms, classes, on_pattern, complete, puzzles, error``). ``--store`` (FILEs of patterns):
the puzzles into the catalog (``configurations``, minlex) and a record per pattern
(``pattern_searches``), as a resumable run, one shard per pattern (``--workers`` / ``--scheduler``:
on Dask).

A whole 17-clue pattern takes hours of one core (three and a half for the one measured); a
pattern with a few of its digits fixed, seconds.
"""
from __future__ import annotations

import os
import sys

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, CommandError, check_inputs, cluster,
                                              count_argument, distributed, emit, iter_chunks, place, plural,
                                              rating_argument, rating_text, write_svg, writes_file)
from sudoku_symmetry.commands._formats import Rows, chunk_inputs

FIELDS = ("cells", "fixed", "minimal", "rating", "automorphisms", "classes", "on_pattern", "complete", "puzzles")
SHOWN_MAPS = 24
"""Patterns with at most this many automorphisms list them as comments."""
SHEET = 11
"""Puzzles drawn beside the pattern by ``--svg``."""


def add_arguments(ap) -> None:
    """The options of the pattern mode (find-puzzles' parser)."""
    ap.add_argument("--pattern", metavar="PATTERN", default=None,
                    help="every puzzle on this clue pattern (81 characters, '.' empty, anything else a clue; or a file "
                    "of them, or one as 9 lines of x and .), once per class under the pattern's automorphisms (a file "
                    "is only read)")
    ap.add_argument("--fixed", metavar="PARTIAL", default=None,
                    help="with --pattern: digits some of the pattern's cells must hold (81 characters, '.' elsewhere)")
    ap.add_argument("--count-only", action="store_true",
                    help="with --pattern: print the counts per pattern, not the puzzles")
    ap.add_argument("--rating", metavar="A-B", type=rating_argument, default=None,
                    help="with --pattern: only the puzzles whose Sudoku Explainer rating (ER) is from A to B")
    writes_file(ap.add_argument("--svg", metavar="FILE", default=None,
                                help="with --pattern: draw the first pattern and its first puzzles (SVG)"))


def read_patterns(arg: str):
    """(source, [(line number, pattern text)], [(line number, reason)]) for each input: the
    argument itself when it is not a file, else its lines (or its one 9-line block)."""
    from sudoku_symmetry.engine.explore import parse_pattern
    from sudoku_symmetry.engine.text import SudokuFormatError

    if arg != "-" and not os.path.lexists(arg):
        try:
            parse_pattern(arg)
        except SudokuFormatError as exc:
            shown = arg if len(arg) <= 90 else arg[:87] + "..."
            raise CommandError(f"--pattern {shown!r}: no such file, and not a pattern ({exc.message})") from None
        yield "argument 1", [(1, arg)], []
        return
    check_inputs([arg])
    for source, chunk, first in iter_chunks([arg], 100_000):
        rows = [(first + k, ln.rstrip("\r\n")) for k, ln in enumerate(chunk)]
        body = [(n, t) for n, t in rows if t.strip() and not t.strip().startswith("#")]
        cells = ["".join(ch for ch in t if ch not in " \t|+-") for _, t in body]
        if body and all(len(c) <= 17 for c in cells):  # one pattern as a block
            if len(body) != 9 or any(len(c) != 9 for c in cells):
                yield source, [], [(body[0][0], f"a pattern block is 9 lines of 9 cells, found {len(body)} lines")]
            else:
                yield source, [(body[0][0], "\n".join(t for _, t in body))], []
            continue
        good, bad = [], []
        for n, t in body:
            try:
                parse_pattern(t.strip())
                good.append((n, t.strip()))
            except SudokuFormatError as exc:
                bad.append((n, exc.message))
        yield source, good, bad


def _search(text: str, args):
    from sudoku_symmetry.engine.explore import parse_pattern, puzzles_on_pattern

    try:
        return puzzles_on_pattern(parse_pattern(text), fixed=args.fixed, minimal=args.minimal, limit=args.limit,
                                  keep=not args.count_only, rating=args.rating)
    except ValueError as exc:
        raise _Bad(str(exc)) from None


class _Bad(Exception):
    """A pattern the search refuses (too symmetric, fixed digits off the pattern): a bad line."""


def _header(found, args) -> list[str]:
    from sudoku_symmetry.engine.explore import format_pattern, pattern_automorphisms

    text = format_pattern(found.pattern)
    lines = [f"# {text}: {int(found.pattern.sum())} cells, {plural(found.automorphisms, 'automorphism')}"]
    if 1 < found.automorphisms <= SHOWN_MAPS and args.fixed is None:
        group = pattern_automorphisms(found.pattern)
        lines += [f"# automorphism {m}" for m in group.maps if m != "0:123456789:123456789:123456789"]
    return lines


def _summary(found, source: str, n: int, rating=None) -> None:
    from sudoku_symmetry.engine.explore import format_pattern

    end = "complete" if found.complete else "limit reached: there may be more"
    rated = "" if found.rated is None else f", {found.rated} rated {rating_text(rating)}"
    print(f"find-puzzles: {place(source, n)}: {format_pattern(found.pattern)}: {found.classes} "
          f"class{'' if found.classes == 1 else 'es'} of puzzles (once per class under its "
          f"{plural(found.automorphisms, 'automorphism')}), {found.on_pattern:,} on the pattern up to relabelling "
          f"({end}){rated}, {found.stats['cpu_seconds']:.2f} s", file=sys.stderr, flush=True)


def main(args) -> int:
    """``find-puzzles --pattern ...`` (the arguments find-puzzles parsed)."""
    if args.clues is not None or args.method != "auto" or args.inputs:
        raise CommandError("--pattern goes without --clues, --method and grids (the pattern says where the clues are)")
    if args.store or distributed(args):
        return _store(args)
    status = EXIT_OK
    rows = Rows(args.format, FIELDS, sys.stdout, sys.stderr)
    drawn = False
    seen = 0
    for source, good, bad in read_patterns(args.pattern):
        results = []
        texts = {n: t for n, t in good}
        for n, text in good:
            seen += 1
            if args.fixed is not None and seen > 1:
                bad.append((n, "--fixed goes with one pattern"))
                continue
            try:
                found = _search(text, args)
            except _Bad as exc:
                bad.append((n, str(exc)))
                continue
            _summary(found, source, n, args.rating)
            from sudoku_symmetry.engine.explore import format_pattern
            from sudoku_symmetry.engine.text import format_lines

            puzzles = format_lines(found.puzzles) if len(found.puzzles) else []
            if args.svg and not drawn:
                _draw(args.svg, found, puzzles)
                drawn = True
            if not rows.text:
                results.append((n, {"cells": int(found.pattern.sum()), "fixed": args.fixed, "minimal": args.minimal,
                                    "rating": rating_text(args.rating), "automorphisms": found.automorphisms, "classes": found.classes,
                                    "on_pattern": found.on_pattern, "complete": found.complete, "puzzles": puzzles}))
            elif args.count_only:
                rated = "" if found.rated is None else f" {found.rated}"
                results.append((n, f"{format_pattern(found.pattern)} {found.classes} {found.on_pattern} "
                                    f"{found.automorphisms}{rated}"))
            else:
                results.append((n, "\n".join(_header(found, args) + puzzles)))
        lines = {n: t for n, t in good} | {n: "" for n, _ in bad}
        if rows.emit(source, lambda n: texts.get(n, lines.get(n, "")), results, bad):
            status = EXIT_BAD_INPUT
    rows.finish()
    return status


def _draw(path: str, found, puzzles: list[str]) -> None:
    from sudoku_symmetry.engine.explore import format_pattern
    from sudoku_symmetry.pictures.sheet import sheet_svg
    from sudoku_symmetry.pictures.svg import board_svg, pattern_svg

    text = format_pattern(found.pattern)
    drawings = [pattern_svg(text)] + [board_svg(p) for p in puzzles[:SHEET]]
    captions = [f"{int(found.pattern.sum())} cells, |Aut| = {found.automorphisms}"]
    captions += [f"puzzle {k + 1} of {found.classes}" for k in range(len(drawings) - 1)]
    write_svg(path, sheet_svg(drawings, captions, columns=4, title=f"the puzzles on {text}"))


def _store(args) -> int:
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.jobs import pattern_puzzles as job
    from sudoku_symmetry.jobs.inputs import is_regular

    if not args.store:
        raise CommandError("--workers and --scheduler go with --store")
    if args.format != "text" or args.count_only or args.svg:
        raise CommandError("--store prints only its summary: it goes without --format, --count-only and --svg")
    path = args.pattern
    if path == "-" or not os.path.lexists(path) or not is_regular(path):
        raise CommandError("--store needs a FILE of patterns (a run resumes from a file)")
    check_inputs([path])
    catalog = open_catalog(args.db)
    try:
        problems = job.store_patterns(catalog, path, args.fixed, args.minimal, args.limit, rating=args.rating,
                                      **cluster(args))
    finally:
        catalog.dispose()
    sys.stderr.write("".join(f"error: {path}:{n}: {reason}\n" for n, reason in problems))
    return EXIT_BAD_INPUT if problems else EXIT_OK
