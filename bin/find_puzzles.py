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

The search (engine.unavoidable): the grid's minimal unavoidable sets of up to 12 cells, a
hitting-set search (a puzzle has a clue in every one of them) pruned by disjoint sets, and the
solver's uniqueness check on the clue sets that hit them all; a second solution found there is
one more set to hit. It is complete: ``--clues 16`` on any grid ends with nothing found, and
``--clues 17`` finds exactly the grid's puzzles of the 17-clue list. A 16-clue search takes
about 2 s a grid, a 17-clue one minutes. Example:

    $ find-puzzles --clues 17 693784512487512936125963874932651487568247391741398625319475268856129743274836159
    # 693784512487512936125963874932651487568247391741398625319475268856129743274836159: 17 clues
    ....

Bad lines (malformed, or not a valid complete grid) print ``error line N: REASON`` in their
place and on standard error; the exit status is then 2.
"""
from __future__ import annotations

import argparse
import sys
from functools import partial

from sudoku_symmetry.engine.text import format_lines, format_sudoku
from sudoku_symmetry.engine.unavoidable import TooManyPuzzles, puzzles_in_grid

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, CommandError, count_argument, emit,
                                              iter_grid_args, parse_grids, run)

LINES_PER_CHUNK = 1_000


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="find-puzzles",
        description="Every puzzle with exactly N clues whose unique solution is the grid, for each grid.",
        epilog="example: find-puzzles --clues 17 GRID81   (or a file of grids, or '-' for standard input). "
        "Malformed lines print 'error line N: REASON' in their place (and on stderr); exit status 2 if there were any.",
    )
    ap.add_argument("--clues", type=count_argument(0, 81), required=True, metavar="N",
                    help="the number of clues (16: about 2 s a grid and nothing found; 17: minutes a grid)")
    ap.add_argument("--minimal", action="store_true", help="only minimal puzzles (no clue can be removed)")
    ap.add_argument("--limit", type=count_argument(1), default=None, metavar="K",
                    help="at most K puzzles per grid (needed for many clues: every superset of a puzzle is one)")
    ap.add_argument("inputs", nargs="*", metavar="GRID|FILE",
                    help="81-digit grids, or files of grids one per line ('-' or none: standard input)")
    return ap


def _write(grid, args, source: str, lineno: int, out) -> None:
    text = format_sudoku(grid)
    try:
        found = puzzles_in_grid(grid, args.clues, minimal=args.minimal, limit=args.limit)
    except TooManyPuzzles as exc:
        raise CommandError(f"{source}:{lineno}: {exc} (--limit)") from None
    out.write(f"# {text}: {args.clues} clues\n")
    if len(found):
        out.write("\n".join(format_lines(found.puzzles)) + "\n")
    out.flush()
    seconds = found.stats["ua_seconds"] + found.stats["search_seconds"]
    end = "complete" if found.complete else f"limit {args.limit} reached: there may be more"
    kind = "minimal puzzles" if args.minimal else "puzzles"
    print(f"find-puzzles: {source}:{lineno}: {text}: {args.clues} clues: {len(found)} {kind} ({end}), "
          f"{found.automorphisms} automorphism{'s' if found.automorphisms != 1 else ''}, {seconds:.2f} s",
          file=sys.stderr, flush=True)


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    status = EXIT_OK
    for source, chunk, first in iter_grid_args(args.inputs, LINES_PER_CHUNK):
        grids, problems = parse_grids(chunk, source, first)
        results = [(lineno, partial(_write, grid, args, source, lineno)) for lineno, grid in grids]
        if emit(sys.stdout, sys.stderr, source, results, problems):
            status = EXIT_BAD_INPUT
    return status


def main(argv=None) -> int:
    return run(_main, argv, "find-puzzles")


if __name__ == "__main__":
    sys.exit(main())
