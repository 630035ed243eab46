"""`vicinity`: the {-n+m} neighbourhood of puzzles: remove n clues, add m givens, keep what is unique.

    vicinity [--minus N] [--plus M] [--minimal] [--clues K] [--rating A-B] [--closure R] [--known FILE]
             [PUZZLE|FILE...]

For each puzzle (an 81-character argument, or the lines of FILEs or standard input) the command
prints a comment line ``# PUZZLE: {-N+M}: K classes, C candidates``, then the canonical (pure
minlex) form of every unique puzzle obtained by removing N of its clues (default 1) and adding M
givens (default 1) anywhere, with any digit that breaks no row, column or box: each class once,
in the order found, the puzzle's own class left out. The result need not share the puzzle's
solution; a removed clue may come back, so {-2+2} holds {-1+1} too. ``--minimal`` keeps only
minimal results; ``--clues K`` only those with K clues; ``--rating A-B`` only those whose
canonical form Sudoku Explainer rates from A to B (ER; ``A-`` or ``-B`` leave an end open), rated
no deeper than the range needs; ``--known FILE`` leaves out the classes of the puzzles in FILE
(the known 17s, say). A summary per puzzle goes to standard error: the
candidates (sets of added givens breaking no unit, over every removal), the solver's checks, the
classes, the seconds. Example:

    $ vicinity --minus 1 --plus 1 ..............1....2..3....4.5.......3.6..7.....8.....1.2.....47..5...3..........

``--closure R`` walks: step 1 is the neighbourhood of every input puzzle together, each later
step that of the classes the step before found first, R steps; it prints ``# step S: K new
classes`` and the classes first found at that step (each class once over the walk, the inputs'
left out), and a summary per step on standard error.

``--format csv|jsonl`` (without ``--closure``): one row per input line (``source, line, input,
minus, plus, minimal, clues, rating, found, candidates, puzzles, error``; docs/formats.md).

``--store`` (FILEs only) records the walk in the catalog instead of printing it: each class found
in ``configurations`` (kind ``puzzle``, minlex) and in ``vicinity_walks`` with the step that
reached it first, as a resumable run (kill it, run it again: it goes on where it stopped, no
class lost or repeated); ``--workers N`` or ``--scheduler ADDRESS`` share each step's puzzles
among Dask workers.

A malformed line, or one that repeats a digit in a row, column or box, prints ``error line N:
REASON`` in its place (and on standard error); the exit status is then 2.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, CommandError, CommandParser,
                                              add_cluster_arguments, add_db_argument, add_version_argument,
                                              check_inputs, check_store_files, cluster, count_argument, distributed,
                                              emit, iter_chunks, iter_grid_args, place, rating_argument,
                                              rating_text, run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs

FIELDS = ("minus", "plus", "minimal", "clues", "rating", "found", "candidates", "puzzles")
LINES_PER_CHUNK = 1_000


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(
        prog="vicinity",
        description="The {-n+m} neighbourhood of each puzzle: every unique puzzle obtained by removing n clues and "
        "adding m givens, each class once (canonical forms).",
        epilog="example: vicinity --minus 1 --plus 1 PUZZLE81   (or a file of puzzles, or '-' for standard input). "
        "Malformed lines print 'error line N: REASON' in their place (and on stderr); exit status 2 if there were any.",
    )
    ap.add_argument("--minus", type=count_argument(0, 81), default=1, metavar="N",
                    help="clues removed (default 1)")
    ap.add_argument("--plus", type=count_argument(0, 81), default=1, metavar="M",
                    help="givens added, anywhere, any digit breaking no unit (default 1)")
    ap.add_argument("--minimal", action="store_true", help="only minimal puzzles")
    ap.add_argument("--clues", type=count_argument(0, 81), default=None, metavar="K",
                    help="only puzzles with K clues")
    ap.add_argument("--rating", type=rating_argument, default=None, metavar="A-B",
                    help="only puzzles whose Sudoku Explainer rating (ER) is from A to B")
    ap.add_argument("--closure", type=count_argument(1), default=None, metavar="R",
                    help="repeat the step R times on what the step before found first (the walk)")
    ap.add_argument("--known", metavar="PUZZLES", default=None,
                    help="leave out the classes of the puzzles in this file, one per line (only read)")
    ap.add_argument("--store", action="store_true",
                    help="record the walk in the catalog as a resumable run per FILE (nothing printed but summaries)")
    ap.add_argument("--chunk", type=count_argument(1), default=8, metavar="PUZZLES",
                    help="with --store: puzzles per checkpoint and per Dask task (default 8)")
    add_format_argument(ap, FIELDS)
    add_db_argument(ap)
    add_cluster_arguments(ap)
    ap.add_argument("inputs", nargs="*", metavar="PUZZLE|FILE",
                    help="81-character puzzles, or files of puzzles one per line ('-' or none: standard input)")
    add_version_argument(ap)
    return ap


def _known(path: str | None) -> set[str]:
    if path is None:
        return set()
    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.text import format_lines

    from sudoku_symmetry.engine.explore import parse_puzzles

    check_inputs([path])
    seen: set[str] = set()
    for source, chunk, first in iter_chunks([path], 100_000):
        good, problems = parse_puzzles(chunk, source, first)
        if problems:
            n, reason = problems[0]
            raise CommandError(f"--known {path}:{n}: {reason}")
        if good:
            import numpy as np

            seen.update(format_lines(canon_puzzles(np.array([p for _, p in good])).forms))
    return seen


def _classes(n: int, what: str = "") -> str:
    return f"{n} {what}class{'' if n == 1 else 'es'}"


def _label(args) -> str:
    rated = "" if args.rating is None else f" rated {rating_text(args.rating)}"
    return f"{{-{args.minus}+{args.plus}}}{rated}"


def _near(puzzle, args, known):
    from sudoku_symmetry.engine.explore import neighbourhood

    try:
        near = neighbourhood(puzzle, args.minus, args.plus, minimal=args.minimal, clues=args.clues, rating=args.rating)
    except ValueError as exc:
        raise _Bad(str(exc)) from None
    forms = [f for f in near.forms if f not in known]
    return near, forms


class _Bad(Exception):
    """A puzzle the step cannot take (too few clues to remove, too many to add): a bad line."""


def _summary(source: str, n: int, text: str, args, near, forms) -> None:
    s = near.stats
    print(f"vicinity: {place(source, n)}: {text}: {_label(args)}: {_classes(len(forms))}, {near.checked:,} candidates, "
          f"{s.get('solver_checks', 0):,} solver checks, {s.get('cpu_seconds', 0.0):.2f} s", file=sys.stderr, flush=True)


def _each(args, known) -> int:
    from sudoku_symmetry.engine.explore import parse_puzzles
    from sudoku_symmetry.engine.text import format_sudoku

    status = EXIT_OK
    rows = Rows(args.format, FIELDS, sys.stdout, sys.stderr)
    for source, chunk, first in iter_grid_args(args.inputs, LINES_PER_CHUNK):
        good, problems = parse_puzzles(chunk, source, first)
        results = []
        for n, p in good:
            text = format_sudoku(p)
            try:
                near, forms = _near(p, args, known)
            except _Bad as exc:
                problems.append((n, str(exc)))
                continue
            _summary(source, n, text, args, near, forms)
            if rows.text:
                head = f"# {text}: {_label(args)}: {_classes(len(forms))}, {near.checked:,} candidates"
                results.append((n, "\n".join([head, *forms])))
            else:
                results.append((n, {"minus": args.minus, "plus": args.plus, "minimal": args.minimal,
                                    "clues": args.clues, "rating": rating_text(args.rating), "found": len(forms), "candidates": near.checked,
                                    "puzzles": forms}))
        if rows.emit(source, chunk_inputs(chunk, first), results, problems):
            status = EXIT_BAD_INPUT
    rows.finish()
    return status


def _walk(args, known) -> int:
    import numpy as np

    from sudoku_symmetry.engine.explore import parse_puzzles, walk

    status = EXIT_OK
    start = []
    for source, chunk, first in iter_grid_args(args.inputs, LINES_PER_CHUNK):
        good, problems = parse_puzzles(chunk, source, first)
        size = [(n, p) for n, p in good]
        for n, p in size:
            clues = int((p > 0).sum())
            if args.minus > clues:
                problems.append((n, f"cannot remove {args.minus} clues from a puzzle of {clues}"))
            else:
                start.append(p)
        if emit(sys.stdout, sys.stderr, source, [], problems):
            status = EXIT_BAD_INPUT
    if not start:
        return status
    for step in walk(np.array(start), args.minus, args.plus, args.closure, minimal=args.minimal, clues=args.clues,
                     known=known, rating=args.rating):
        sys.stdout.write("\n".join([f"# step {step.number}: {_classes(len(step.forms), 'new ')}", *step.forms]) + "\n")
        sys.stdout.flush()
        print(f"vicinity: step {step.number}: {_label(args)}: {_classes(len(step.forms), 'new ')}, {step.checked:,} "
              f"candidates, {step.cpu_seconds:.2f} s", file=sys.stderr, flush=True)
    return status


def _store(args, known) -> int:
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.jobs import vicinity as job

    if args.format != "text":
        raise CommandError("--format goes without --store (a stored run prints only its summary)")
    check_store_files(args.inputs, "puzzles")
    catalog = open_catalog(args.db)
    status = EXIT_OK
    try:
        for path in args.inputs:
            _, problems = job.store_walk(catalog, path, args.minus, args.plus, args.minimal, args.clues,
                                         args.closure or 1, known, chunk=args.chunk, rating=args.rating,
                                         **cluster(args))
            sys.stderr.write("".join(f"error: {path}:{n}: {reason}\n" for n, reason in problems))
            if problems:
                status = EXIT_BAD_INPUT
    finally:
        catalog.dispose()
    return status


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.minus == 0 and args.plus == 0:
        raise CommandError("a step removes or adds at least one clue: give --minus or --plus above 0")
    if distributed(args) and not args.store:
        raise CommandError("--workers and --scheduler go with --store")
    if args.closure is not None and args.format != "text":
        raise CommandError("--format goes without --closure (a walk prints its steps)")
    known = _known(args.known)
    if args.store:
        return _store(args, known)
    if args.closure is not None:
        return _walk(args, known)
    return _each(args, known)


def main(argv=None) -> int:
    return run(_main, argv, "vicinity")


if __name__ == "__main__":
    sys.exit(main())
