"""rank: catalog rank <-> grid, over the minlex catalog of the 5,472,730,538 ED grids.

    rank [LINE | FILE | - ...]        (none: one per line on standard input)

Each argument is a LINE (a rank or an 81-digit grid), ``-`` (standard input) or a FILE (one
per line; ``#`` comments and blank lines skipped), read like every other command's inputs.
A line of 81 digits (any valid grid, minlex or not) prints ``RANK MINLEX_FORM``; a number from
1 to 5,472,730,538 prints the grid with that rank. Ranks come from the counts shipped with the
package (all 416 bands 1, with a checkpoint every 384 grids: ``catalog/data/ed_grid_*.npz``),
decoded once into memory-mapped arrays in the cache folder (``sudoku_symmetry.shipped``), so a
lookup opens no catalog; only when the package data does not count every band 1 are the
catalog's counts read (``--db``; ``bin/enumerate --band1 ... --count-only`` stores them), and a
lookup in a band without checkpoints enumerates its whole prefix. A line whose band is not
counted, a bad grid or a rank out of range prints ``error line N: REASON`` in its place (and on
standard error), and the exit status is then 2.
"""
from __future__ import annotations

import argparse
import os
import sys

from sudoku_symmetry.commands._common import (CommandParser, EXIT_BAD_INPUT, EXIT_OK, add_db_argument,
                                              add_version_argument, check_inputs, dataset_name, decimal, open_inputs,
                                              run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument
from sudoku_symmetry.engine.bands import N_BANDS
from sudoku_symmetry.engine.canon import InvalidGridError
from sudoku_symmetry.engine.grids import N_ED_GRIDS, MissingBand
from sudoku_symmetry.engine.text import format_sudoku
from sudoku_symmetry.shipped import rank_index as shipped_rank_index

FIELDS = ("rank", "grid")  # --format csv/jsonl: a grid's rank and minlex form, or a rank and its grid


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="rank", description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lines", nargs="*", metavar="LINE",
                   help="an 81-digit grid, a rank, '-' (standard input) or a FILE of them (none: standard input)")
    add_db_argument(p)  # checked when given; its counts read only when the package data lacks a band 1
    add_format_argument(p, FIELDS)
    add_version_argument(p)
    return p


def rank_index(db):
    """The shipped counts' index when they count every band 1, else the catalog's. A catalog
    named with ``--db`` is opened read-only even then, so a typo says the catalog does not exist
    (never creating one) rather than being ignored."""
    index = shipped_rank_index()
    if index.first_missing == N_BANDS and db is None:
        return index
    # Deliberately deferred: the catalog (SQLAlchemy, 0.4 s and 60 MB to import) only with --db or
    # when the package data lacks a band 1, so `bin/rank 1` stays at a fraction of a second.
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.jobs.ed_grids import rank_index as of_catalog

    catalog = open_catalog(db, create=False)
    return index if index.first_missing == N_BANDS else of_catalog(catalog)


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    inputs = _inputs(args.lines)
    index = rank_index(args.db)
    rows = Rows(args.format, FIELDS, sys.stdout, sys.stderr)
    bad = 0
    for source, lines in inputs:
        results, problems, raws = [], [], {}
        for n, raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            raws[n] = raw
            try:
                if len(line) == 81 and _is_digits(line):
                    ranks, forms = index.ranks_of(line)
                    rank, grid = int(ranks[0]), format_sudoku(forms[0])
                    results.append((n, f"{rank} {grid}" if rows.text else {"rank": rank, "grid": grid}))
                elif len(line) <= 20 and _is_digits(line):  # ASCII digits only, as in puzzle text
                    rank = decimal(line)
                    if not 1 <= rank <= N_ED_GRIDS:
                        raise ValueError(f"rank must be between 1 and {N_ED_GRIDS:,}, got {line}")
                    grid = format_sudoku(index.grids_at([rank])[0])
                    results.append((n, grid if rows.text else {"rank": rank, "grid": grid}))
                elif source == "<arguments>" and ("/" in line or "." in line):  # a file name, mistyped?
                    raise ValueError(f"{line}: no such file, and not an 81-digit grid or a rank")
                else:
                    raise ValueError("expected an 81-digit grid or a rank")
            except (MissingBand, InvalidGridError, ValueError) as exc:
                problems.append((n, str(exc)))
            if len(results) + len(problems) >= 1000:
                bad += rows.emit(source, raws.__getitem__, results, problems)
                results, problems, raws = [], [], {}
        bad += rows.emit(source, raws.__getitem__, results, problems)
    rows.finish()
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _inputs(arguments: list[str]):
    """(source, iterator of (line number, text)) in argument order: the LINE arguments, numbered
    by their position, are one source; ``-`` is standard input and an existing path a FILE (a
    text of ASCII digits is always a LINE). Every input is checked before anything is read."""
    files = [a for a in arguments if a == "-" or (not _is_digits(a) and (os.path.lexists(a) or dataset_name(a)))]
    check_inputs(files if arguments else [])

    def generate():
        if not arguments:  # standard input
            for source, lines in open_inputs([]):
                yield source, enumerate(lines, start=1)
            return
        literal: list[tuple[int, str]] = []
        for k, arg in enumerate(arguments, start=1):
            if arg not in files:
                literal.append((k, arg))
                continue
            if literal:
                yield "<arguments>", literal
                literal = []
            for source, lines in open_inputs([arg]):
                yield source, enumerate(lines, start=1)
        if literal:
            yield "<arguments>", literal

    return generate()


def _is_digits(text: str) -> bool:
    """Only ASCII digits (what :func:`decimal` reads, without a sign)."""
    return text.isascii() and text.isdigit()


def main(argv=None) -> int:
    return run(_main, argv, "rank")


if __name__ == "__main__":
    sys.exit(main())
