"""rank: catalog rank <-> grid, over the minlex catalog of the 5,472,730,538 ED grids.

    rank [LINE ...]        (no LINE: one per line on standard input)

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
import sys

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, add_db_argument, check_inputs, emit,
                                              run, _strip_bom)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rank", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lines", nargs="*", metavar="LINE", help="an 81-digit grid or a rank (none: standard input)")
    add_db_argument(p)  # read only when the package data lacks a band 1
    return p


def rank_index(db):
    """The shipped counts' index when they count every band 1, else the catalog's."""
    from sudoku_symmetry.engine.bands import N_BANDS
    from sudoku_symmetry.shipped import rank_index as shipped

    index = shipped()
    if index.first_missing == N_BANDS:
        return index
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.fine import rank_index as of_catalog

    return of_catalog(open_catalog(db))


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from sudoku_symmetry.engine.canon import InvalidGridError
    from sudoku_symmetry.engine.grids import N_ED_GRIDS, MissingBand
    from sudoku_symmetry.engine.text import format_sudoku

    index = rank_index(args.db)
    if args.lines:
        lines, source = args.lines, "<arguments>"
    else:
        check_inputs([])
        lines, source = _strip_bom(iter(sys.stdin)), "<stdin>"
    results, problems = [], []
    bad = 0
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if len(line) == 81 and line.isdigit():
                ranks, forms = index.ranks_of(line)
                results.append((n, f"{int(ranks[0])} {format_sudoku(forms[0])}"))
            elif line.isdigit() and len(line) <= 20:
                if not 1 <= int(line) <= N_ED_GRIDS:
                    raise ValueError(f"rank must be between 1 and {N_ED_GRIDS:,}, got {line}")
                results.append((n, format_sudoku(index.grids_at([int(line)])[0])))
            else:
                raise ValueError("expected an 81-digit grid or a rank")
        except (MissingBand, InvalidGridError, ValueError) as exc:
            problems.append((n, str(exc)))
        if len(results) + len(problems) >= 1000:
            bad += emit(sys.stdout, sys.stderr, source, results, problems)
            results, problems = [], []
    bad += emit(sys.stdout, sys.stderr, source, results, problems)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "rank")


if __name__ == "__main__":
    sys.exit(main())
