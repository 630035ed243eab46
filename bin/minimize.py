"""`minimize`: each puzzle made minimal, or every minimal puzzle inside it.

    minimize [--order random|forward|backward] [--seed S] [--all [--limit K]] [FILE...]

One output line per input puzzle, in input order (blank and ``#`` lines produce nothing): the
puzzle with its givens removed one at a time, in the order asked, whenever it keeps its one
solution; what is left is minimal (no given can be removed). ``--order random`` (the default) is
reproducible by ``--seed``: puzzle k of the input always gets the same order for a seed.

``--all``: every minimal puzzle whose givens are among the input's, each once: a comment line
``# PUZZLE: N minimal puzzles`` then the puzzles, fewest givens first (``--limit K``: at most K
per puzzle; the comment then says the list may be cut). Their number grows quickly with the
redundant givens: a 30-given puzzle of a 24-given minimal one holds tens, 38 givens thousands.

A malformed line, a sudoku that repeats a digit, or a puzzle without exactly one solution prints
``error line N: REASON`` in its place (and on standard error); the exit status is then 2.
``--format csv|jsonl``: one row per input line (``minimal``, ``givens``; with --all ``count``,
``complete``, ``puzzles``).
"""
from __future__ import annotations

import argparse
import sys
from functools import partial

import numpy as np

from sudoku_symmetry.engine.generate import ORDERS, minimal_inside, minimize
from sudoku_symmetry.engine.solve import count_solutions
from sudoku_symmetry.engine.text import format_lines, format_sudoku, parse_lines
from sudoku_symmetry.engine.validity import conflicts, is_valid

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, CommandParser, add_input_argument, add_version_argument,
                                              count_argument, iter_chunks, parse_problems, run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs

LINES_PER_CHUNK = 10_000
FIELDS = {"one": ("minimal", "givens"), "all": ("count", "complete", "puzzles")}


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(
        prog="minimize",
        description="Make each puzzle minimal (givens removed while it keeps one solution), or list every minimal "
                    "puzzle inside it.",
        epilog="Malformed lines and puzzles without exactly one solution print 'error line N: REASON' in their place "
               "(and on stderr); exit status 2 if there were any.",
    )
    ap.add_argument("--order", choices=ORDERS, default="random",
                    help="the order the givens are tried in: random (by --seed), forward (r1c1 to r9c9), backward")
    ap.add_argument("--seed", type=count_argument(0), default=0, help="seed of the random orders (default 0)")
    ap.add_argument("--all", action="store_true", help="every minimal puzzle inside each puzzle, each once")
    ap.add_argument("--limit", type=count_argument(1), default=None, metavar="K",
                    help="with --all: at most K minimal puzzles per puzzle")
    add_input_argument(ap, "puzzles")
    add_format_argument(ap, sorted({f for fields in FIELDS.values() for f in fields}))
    add_version_argument(ap)
    return ap


def _checked(parsed) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """The indices of the parsed puzzles that can be minimized, and the problems of the others."""
    ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
    problems = [(int(n), f"not a puzzle: {conflicts(c)[0]}") for n, c in zip(parsed.linenos[~ok], parsed.sudokus[~ok])]
    idx = np.flatnonzero(ok)
    counts = count_solutions(parsed.sudokus[idx], 2).counts if len(idx) else np.zeros(0, np.int64)
    for k, c in zip(idx.tolist(), counts.tolist()):
        if c != 1:
            problems.append((int(parsed.linenos[k]), "not a unique puzzle: " + ("no solution" if c == 0 else
                                                                              "more than one solution")))
    return idx[counts == 1], problems


def _all_text(puzzle, limit, out) -> None:
    found, complete = minimal_inside(puzzle, limit)
    cut = "" if complete else f" (limit {limit} reached: there may be more)"
    out.write(f"# {format_sudoku(puzzle)}: {len(found)} minimal puzzles{cut}\n")
    if len(found):
        out.write("\n".join(format_lines(found)) + "\n")
    out.flush()


def _all_fields(puzzle, limit) -> dict:
    found, complete = minimal_inside(puzzle, limit)
    return {"count": len(found), "complete": complete, "puzzles": format_lines(found) if len(found) else []}


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.limit is not None and not args.all:
        _parser().error("--limit goes with --all")
    rows = Rows(args.format, FIELDS["all" if args.all else "one"], sys.stdout, sys.stderr)
    status = EXIT_OK
    index = 0  # the puzzle's number in the input: its random order is stream `index` of the seed
    for source, chunk, first in iter_chunks(args.files, LINES_PER_CHUNK):
        parsed = parse_lines(chunk, source=source, errors="collect", first_lineno=first)
        good, problems = _checked(parsed)
        linenos = parsed.linenos[good].tolist()
        if args.all:
            make = (lambda p: partial(_all_text, p, args.limit)) if rows.text else (lambda p: _all_fields(p, args.limit))
            results = [(ln, make(parsed.sudokus[k])) for ln, k in zip(linenos, good.tolist())]
        else:
            batch = parsed.sudokus[good]
            # one order per puzzle of the input, counted over every puzzle read (bad ones too)
            out = minimize(batch, args.order, args.seed, streams=index + good)[0] if len(batch) else batch
            texts = format_lines(out)
            results = list(zip(linenos, texts if rows.text else
                               [{"minimal": t, "givens": 81 - t.count(".")} for t in texts]))
        index += len(parsed)
        if rows.emit(source, chunk_inputs(chunk, first), results, parse_problems(parsed) + problems):
            status = EXIT_BAD_INPUT
    rows.finish()
    return status


def main(argv=None) -> int:
    return run(_main, argv, "minimize")


if __name__ == "__main__":
    sys.exit(main())
