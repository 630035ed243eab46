"""`find-puzzles`: every puzzle of N clues inside each grid.

    find-puzzles --clues N [--minimal] [--limit K] [GRID|FILE...]

For each grid (an 81-digit argument, or the lines of FILEs or standard input) the command prints
a comment line ``# GRID: N clues``, then every puzzle with exactly N givens whose unique solution
is that grid, one per line (81 characters, ``.`` for an empty cell), each once: two puzzles
that differ in their cells are both listed, even when an automorphism of the grid maps one onto
the other (the summary gives the grid's automorphism count). ``--minimal`` keeps only minimal
puzzles (no clue can be removed keeping the solution unique); ``--limit K`` stops after K
puzzles of a grid. A summary per grid goes to standard error: the grid, the clue count, the
puzzles found, whether the search is complete, the automorphisms and the seconds.

The search (engine.unavoidable, ``--method``). ``hitting``: the grid's minimal unavoidable sets of
up to 12 cells, a hitting-set search (a puzzle has a clue in every one of them) pruned by
disjoint sets, and the solver's uniqueness check on the clue sets that hit them all; a second
solution found there is one more set to hit. ``bands`` (16-18 clues): the 17-clue search's pair
kernels on the grid's bands and stacks in fifteen arrangements (engine.search17.grid). ``auto``, the
default: bands for 16 to 18 clues, hitting otherwise. Both are complete: ``--clues 16`` on any
grid ends with nothing found, and ``--clues 17`` finds exactly the grid's puzzles of the 17-clue
list. A 16-clue search takes 0.55 s a grid (median of 50 random grids, one core; 1.8 s by
hitting sets), a 17-clue one 2-9 s (median 3.0 s on grids of list puzzles) and 16 s on the grid
with the most 17s. Example:

    $ find-puzzles --clues 17 693784512487512936125963874932651487568247391741398625319475268856129743274836159
    # 693784512487512936125963874932651487568247391741398625319475268856129743274836159: 17 clues
    ....

Bad lines (malformed, or not a valid complete grid) print ``error line N: REASON`` in their
place and on standard error; the exit status is then 2.

``--format csv|jsonl``: one row per input line instead (``source, line, input, clues, minimal,
limit, found, complete, automorphisms, puzzles, error``; ``puzzles`` the list of 81-character
puzzles in the order found; docs/formats.md), a bad line being a row with its ``error``.

``--store`` (FILEs only) records instead of printing: each puzzle's minlex form in the catalog
(``configurations``, kind ``puzzle``, deduplicated) and a search record per grid
(``grid_searches``: the grid's minlex form, clues, minimal, found, complete), as a resumable run
per file (``jobs/find_puzzles.py``: a checkpoint every ``--chunk`` lines, default 1; kill it,
run it again: the same rows, no duplicates, no gaps); ``--workers N`` or ``--scheduler ADDRESS``
run the file's pieces of ``--chunk`` lines on Dask. The bad lines are listed at the end, and a
summary per file (grids searched, puzzles found, new puzzles in the catalog).

``--pattern PATTERN|FILE`` asks another question: every puzzle whose givens sit on exactly the
cells of a clue pattern, once per class under the pattern's automorphisms (``--fixed``,
``--count-only``, ``--rating``, ``--svg``; bin/_patterns_game.py and docs/patterns-game.md).
"""
from __future__ import annotations

import argparse
import os
import sys
from functools import partial

from sudoku_symmetry.engine.text import format_lines, format_sudoku
from sudoku_symmetry.engine.unavoidable import (PuzzleBatches, TooManyPuzzles, parse_grids, puzzle_batches,
                                                puzzles_in_grid)
from sudoku_symmetry.engine.search17.grid import CLUES as BAND_CLUES
from sudoku_symmetry.engine.unavoidable.puzzles import METHODS

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run, start_or_resume
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_BAD_INPUT, EXIT_OK,
                                              add_cluster_arguments, add_db_argument, add_version_argument,
                                              check_store_files, cluster, count_argument, distributed,
                                              emit, iter_grid_args, place, plural, run)
from sudoku_symmetry.commands import _patterns_game
from sudoku_symmetry.commands._formats import Rows, add_format_argument, emit_grid_rows
from sudoku_symmetry.jobs import find_puzzles
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.inputs import hash_and_count
from sudoku_symmetry.jobs.runner import run_job

LINES_PER_CHUNK = 1_000
FIELDS = ("clues", "minimal", "limit", "found", "complete", "automorphisms", "puzzles")


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(
        prog="find-puzzles",
        description="Every puzzle with exactly N clues whose unique solution is the grid, for each grid; "
        "or, with --pattern, every puzzle on a clue pattern.",
        epilog="example: find-puzzles --clues 17 GRID81   (or a file of grids, or '-' for standard input). "
        "Malformed lines print 'error line N: REASON' in their place (and on stderr); exit status 2 if there were any.",
    )
    ap.add_argument("--clues", type=count_argument(0, 81), default=None, metavar="N",
                    help="the number of clues (16: median 0.55 s a grid, nothing found; 17: 2-16 s a grid)")
    ap.add_argument("--minimal", action="store_true", help="only minimal puzzles (no clue can be removed)")
    ap.add_argument("--limit", type=count_argument(1), default=None, metavar="K",
                    help="at most K puzzles per grid (needed for many clues: every superset of a puzzle is one)")
    ap.add_argument("--method", choices=METHODS, default="auto",
                    help="bands: the 17-clue search's kernels on the grid's bands (16-18 clues); hitting: the hitting-set "
                    "search over the grid's unavoidable sets (any count); auto (default): bands for 16-18, else hitting")
    ap.add_argument("--store", action="store_true",
                    help="record the puzzles and a search record per grid in the catalog, as a resumable run per FILE "
                    "(nothing printed but the summary)")
    ap.add_argument("--chunk", type=count_argument(1), default=find_puzzles.CHUNK, metavar="LINES",
                    help="with --store: lines per checkpoint, and per Dask task (default 1)")
    _patterns_game.add_arguments(ap)
    add_format_argument(ap, FIELDS)
    add_db_argument(ap)
    add_cluster_arguments(ap)
    ap.add_argument("inputs", nargs="*", metavar="GRID|FILE",
                    help="81-digit grids, or files of grids one per line ('-' or none: standard input)")
    add_version_argument(ap)
    return ap


ROW_MAX = 1 << 20
"""The most puzzles of one grid a CSV or JSON row, or a stored run, takes (1,048,576): they are
held together (the text format prints any number, a batch at a time)."""


def _search(grid, args, source: str, lineno: int):
    """A grid's whole search, for a CSV or JSON row; more than :data:`ROW_MAX` puzzles without
    --limit is refused in one line."""
    try:
        return puzzles_in_grid(grid, args.clues, minimal=args.minimal, limit=args.limit, method=args.method,
                               max_puzzles=ROW_MAX)
    except TooManyPuzzles as exc:
        raise CommandError(f"{place(source, lineno)}: {exc}; a row holds them all: pass --limit, or leave out --format "
                           "(the text format prints them as they are found)") from None


def _write(grid, args, source: str, lineno: int, out) -> None:
    """The text format: the puzzles printed as they are found, a batch at a time (bounded memory
    however many there are)."""
    text = format_sudoku(grid)
    found = puzzle_batches(grid, args.clues, minimal=args.minimal, limit=args.limit, method=args.method)
    out.write(f"# {text}: {args.clues} clues\n")
    for part in found:
        out.write("\n".join(format_lines(part)) + "\n")
    out.flush()
    _summary(found, text, args, source, lineno)


def _row(grid, args, source: str, lineno: int) -> dict:
    found = _search(grid, args, source, lineno)
    _summary(found, format_sudoku(grid), args, source, lineno)
    return {"clues": args.clues, "minimal": args.minimal, "limit": args.limit, "found": len(found),
            "complete": found.complete, "automorphisms": found.automorphisms,
            "puzzles": format_lines(found.puzzles) if len(found) else []}


def _summary(found, text: str, args, source: str, lineno: int) -> None:
    seconds = found.stats["seconds"]
    end = "complete" if found.complete else f"limit {args.limit} reached: there may be more"
    kind = "minimal puzzle" if args.minimal else "puzzle"
    n = found.found if isinstance(found, PuzzleBatches) else len(found)
    print(f"find-puzzles: {place(source, lineno)}: {text}: {args.clues} clues: {plural(n, kind)} ({end}), "
          f"{plural(found.automorphisms, 'automorphism')}, {seconds:.2f} s",
          file=sys.stderr, flush=True)


def _store(args, path: str, catalog) -> int:
    """One FILE as a resumable run; returns the number of bad lines."""
    digest, n_lines, _ = hash_and_count(path)
    name = os.path.basename(path)
    pieces = args.chunk if distributed(args) else None
    state = start_or_resume(catalog, find_puzzles.KIND,
                            find_puzzles.parameters(digest, args.clues, args.minimal, args.limit, pieces, args.method),
                            items_total=n_lines)
    keys = find_puzzles.shards(path, digest, pieces)
    job = Job(partial(find_puzzles.work, path=path, clues=args.clues, minimal=args.minimal, limit=args.limit,
                      chunk=args.chunk, source=name, method=args.method, max_puzzles=ROW_MAX),
              partial(find_puzzles.write, source=name))
    try:
        res = run_job(catalog, state.id, keys, job, desc=name, unit=" lines", **cluster(args))
    except TooManyPuzzles as exc:
        raise CommandError(f"{path}: {exc}; a stored grid's puzzles are committed together: pass --limit "
                           "(what was committed before is kept)") from None
    state = get_run(catalog, state.id)
    grids = bad = found = 0
    for key in keys:
        cur = state.cursor(key) or {}
        grids, bad, found = grids + int(cur.get("grids", 0)), bad + int(cur.get("malformed", 0)), \
            found + int(cur.get("found", 0))
        shown = cur.get("problems", [])
        sys.stderr.write("".join(f"error: {path}:{n}: {reason}\n" for n, reason in shown))
        if int(cur.get("malformed", 0)) > len(shown):
            sys.stderr.write(f"error: {path}: {int(cur['malformed']) - len(shown)} more bad lines\n")
    again = " (already done: nothing new)" if res.already_done else ""
    print(f"find-puzzles: {path}: {plural(grids, 'grid')} searched for {args.clues}-clue puzzles, "
          f"{plural(bad, 'bad line')}, {plural(found, 'puzzle')} found, "
          f"{0 if res.already_done else state.items_new} new in the catalog (run {state.id}){again}",
          file=sys.stderr)
    return bad


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.pattern is not None:
        return _patterns_game.main(args)
    if args.clues is None:
        raise CommandError("--clues N is needed (or --pattern: every puzzle on a clue pattern)")
    if args.fixed is not None or args.count_only or args.svg is not None or args.rating is not None:
        raise CommandError("--fixed, --rating, --count-only and --svg go with --pattern")
    if args.method == "bands" and args.clues not in BAND_CLUES:
        raise CommandError(f"--method bands takes --clues {', '.join(map(str, BAND_CLUES))}, got {args.clues}")
    if args.store or distributed(args):
        if not args.store:
            raise CommandError("--workers and --scheduler go with --store")
        if args.format != "text":
            raise CommandError("--format goes without --store (a stored run prints only its summary)")
        check_store_files(args.inputs, "grids")
        catalog = open_catalog(args.db)
        try:
            bad = sum(_store(args, path, catalog) for path in args.inputs)
        finally:
            catalog.dispose()
        return EXIT_BAD_INPUT if bad else EXIT_OK
    status = EXIT_OK
    rows = Rows(args.format, FIELDS, sys.stdout, sys.stderr)
    for source, chunk, first in iter_grid_args(args.inputs, LINES_PER_CHUNK):
        grids, problems = parse_grids(chunk, source, first)
        if rows.text:
            results = [(lineno, partial(_write, grid, args, source, lineno)) for lineno, grid in grids]
            bad = emit(sys.stdout, sys.stderr, source, results, problems)
        else:
            bad = emit_grid_rows(rows, source, chunk, first, grids, problems,
                                 lambda lineno, grid: _row(grid, args, source, lineno))
        if bad:
            status = EXIT_BAD_INPUT
    rows.finish()
    return status


def main(argv=None) -> int:
    return run(_main, argv, "find-puzzles")


if __name__ == "__main__":
    sys.exit(main())
