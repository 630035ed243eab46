"""`unavoidable`: every minimal unavoidable set (UA) of each grid, up to a size.

    unavoidable [--max-size S] [--svg FILE] [GRID|FILE...]

A UA of a grid is a set of cells whose digits can be rearranged inside them into another valid
grid, so every puzzle of the grid has a clue in it; it is minimal when no smaller part of it is
one. For each grid (an 81-digit argument, or the lines of FILEs or standard input) the command
prints a comment line ``# GRID: K minimal UAs of at most S cells``, then one set per line, 81
characters: the grid's digit on each cell of the set, ``.`` elsewhere, smallest sets first
(cells in reading order break ties). The list is complete: every minimal UA of at most S cells
(default 12, at most 18) is there, once. A summary per grid goes to standard error (the count per
size and the seconds). Example:

    $ unavoidable --max-size 4 123456789456789123789123456214365897365897214897214365531642978642978531978531642
    # 123456789456789123789123456214365897365897214897214365531642978642978531978531642: 6 minimal UAs of at most 4 cells
    12.........................21....................................................
    ....56.........................65................................................
    ...

``--svg FILE`` draws the first grid with its first set (a smallest one) shaded.

``--format csv|jsonl``: one row per input line instead (``source, line, input, max_size, count,
sets, error``; ``sets`` the list of 81-character sets in the order above; docs/formats.md), a bad
line being a row with its ``error``.

A malformed line, or a line that is not a valid complete grid, prints ``error line N: REASON``
in its place (and on standard error); the exit status is then 2. Blank and ``#`` lines are
skipped; anything after ``:`` following the 81 cells is ignored.
"""
from __future__ import annotations

import argparse
import sys
import time
from functools import partial

from sudoku_symmetry.engine.text import format_sudoku
from sudoku_symmetry.engine.unavoidable import MAX_SIZE, parse_grids, unavoidable_sets

from sudoku_symmetry.pictures.svg import unavoidable_svg

from sudoku_symmetry.commands._common import (CommandParser, EXIT_BAD_INPUT, EXIT_OK, add_version_argument,
                                              count_argument, emit, iter_grid_args, place, run, write_svg, writes_file)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, emit_grid_rows

FIELDS = ("max_size", "count", "sets")

LINES_PER_CHUNK = 10_000


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(
        prog="unavoidable",
        description="Every minimal unavoidable set of each grid, up to a size: one set per line "
        "(the grid's digits on its cells, '.' elsewhere), smallest first.",
        epilog="example: unavoidable --max-size 6 GRID81   (or a file of grids, or '-' for standard input). "
        "Malformed lines print 'error line N: REASON' in their place (and on stderr); exit status 2 if there were any.",
    )
    ap.add_argument("--max-size", type=count_argument(0, MAX_SIZE), default=12, metavar="S",
                    help=f"the largest sets listed, in cells (default 12, at most {MAX_SIZE}; 12: about 30 ms a grid, "
                    "16: about 1.5 s)")
    writes_file(ap.add_argument("--svg", metavar="FILE",
                                help="draw the first grid with its first (smallest) set shaded (SVG)"))
    ap.add_argument("inputs", nargs="*", metavar="GRID|FILE",
                    help="81-digit grids, or files of grids one per line ('-' or none: standard input)")
    add_format_argument(ap, FIELDS)
    add_version_argument(ap)
    return ap


def grid_summary(counts: dict[int, int]) -> str:
    return ", ".join(f"{n} of {size}" for size, n in counts.items()) or "none"


def _sets(grid, max_size: int, source: str, lineno: int, drawn: list) -> tuple[str, list[str]]:
    """The grid's text and its sets' lines; the summary on standard error."""
    t0 = time.perf_counter()
    uas = unavoidable_sets(grid, max_size)
    seconds = time.perf_counter() - t0
    text = format_sudoku(grid)
    lines = uas.lines()
    if not drawn:  # the first grid and its first set, for --svg
        drawn.append((text, lines[0] if lines else "", len(uas), max_size))
    print(f"unavoidable: {place(source, lineno)}: {text}: {len(uas)} minimal UAs of at most {max_size} cells "
          f"({grid_summary(uas.counts)}) in {seconds:.3f} s", file=sys.stderr)
    return text, lines


def _write(grid, max_size: int, source: str, lineno: int, drawn: list, out) -> None:
    text, lines = _sets(grid, max_size, source, lineno, drawn)
    out.write(f"# {text}: {len(lines)} minimal UAs of at most {max_size} cells\n")
    if lines:
        out.write("\n".join(lines) + "\n")


def _row(grid, max_size: int, source: str, lineno: int, drawn: list) -> dict:
    _, lines = _sets(grid, max_size, source, lineno, drawn)
    return {"max_size": max_size, "count": len(lines), "sets": lines}


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    status = EXIT_OK
    drawn: list = []
    rows = Rows(args.format, FIELDS, sys.stdout, sys.stderr)
    for source, chunk, first in iter_grid_args(args.inputs, LINES_PER_CHUNK):
        grids, problems = parse_grids(chunk, source, first)
        if rows.text:
            results = [(lineno, partial(_write, grid, args.max_size, source, lineno, drawn)) for lineno, grid in grids]
            bad = emit(sys.stdout, sys.stderr, source, results, problems)
        else:
            bad = emit_grid_rows(rows, source, chunk, first, grids, problems,
                                 lambda lineno, grid: _row(grid, args.max_size, source, lineno, drawn))
        if bad:
            status = EXIT_BAD_INPUT
    rows.finish()
    if args.svg and drawn:
        grid, ua, n, size = drawn[0]
        title = (f"a smallest of its {n} minimal UAs of at most {size} cells: {sum(c != '.' for c in ua)} cells"
                 if ua else f"no minimal UA of at most {size} cells")
        write_svg(args.svg, unavoidable_svg(grid, ua or [], title=title))
    return status


def main(argv=None) -> int:
    return run(_main, argv, "unavoidable")


if __name__ == "__main__":
    sys.exit(main())
