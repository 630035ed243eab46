"""plot: pictures of what the catalog holds, as SVG or PNG (matplotlib, the ``plot`` extra).

    plot KIND [--db URL] [--out FILE.svg|FILE.png]
    plot --list

Kinds (``plot --list``): ``band1-grids`` (ED grids per band 1, 416 bars, log scale),
``automorphisms`` (the automorphism histogram of the ED grids), ``s17-entry`` (the 17-clue search
entry by band-1 rank: bands 2, bands 3 of variants A and C), ``patterns`` (ED clue patterns by
number of cells: Burnside's exact count and what the catalog holds), ``ratings`` (how many stored
puzzles have each Sudoku Explainer rating, ER). The data come from the
catalog's named queries (``catalog/queries.py``, the same SQL the docs show); ``bin/populate``
fills what the first three need, ``bin/patterns --cells N`` the enumerated patterns. Without
``--out`` the picture is written to ``KIND.svg`` in the current folder; the path is printed.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Callable

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.queries import automorphism_histogram, run_query
from sudoku_symmetry.commands._common import EXIT_OK, CommandError, add_db_argument, add_version_argument, run
from sudoku_symmetry.engine.patterns.burnside import pattern_counts
from sudoku_symmetry.pictures import plots  # matplotlib itself is imported only when a plot is drawn


@dataclass(frozen=True)
class Kind:
    help: str
    needs: str
    draw: Callable  # (catalog engine) -> matplotlib Figure


def _band1_grids(catalog):
    rows = run_query(catalog, "grids_per_band1")
    return rows, lambda: plots.grids_per_band1([r[0] for r in rows], [r[1] for r in rows])


def _automorphisms(catalog):
    hist = automorphism_histogram(catalog)
    return hist, lambda: plots.automorphism_histogram(hist)


def _s17_entry(catalog):
    rows = run_query(catalog, "s17_entry_table")
    return rows, lambda: plots.s17_entry([r[0] for r in rows], [r[3] for r in rows], [r[4] for r in rows],
                                         [r[5] for r in rows])


def _patterns(catalog):
    burnside = dict(enumerate(pattern_counts()))
    stored = {int(n): int(c) for n, c in run_query(catalog, "pattern_counts")}
    return burnside, lambda: plots.pattern_counts(burnside, stored)


def _ratings(catalog):
    rows = run_query(catalog, "rating_histogram")
    return rows, lambda: plots.rating_histogram([r[0] for r in rows], [r[1] for r in rows])


KINDS = {
    "band1-grids": Kind("essentially different grids per band 1 (416 bars, log scale)", "bin/populate", _band1_grids),
    "automorphisms": Kind("automorphism histogram of the essentially different grids", "bin/populate", _automorphisms),
    "s17-entry": Kind("17-clue search entry by band-1 rank: bands 2, bands 3 of variants A and C", "bin/populate",
                      _s17_entry),
    "patterns": Kind("ED clue patterns by number of cells: Burnside's exact count and the catalog's", "nothing",
                     _patterns),
    "ratings": Kind("Sudoku Explainer ratings (ER) of the stored puzzles", "bin/rate --store", _ratings),
}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="plot", description="Draw what the catalog holds, as an SVG or PNG file (needs matplotlib).",
        epilog="example: bin/populate && bin/plot band1-grids --out grids.svg;  kinds: " + ", ".join(KINDS))
    p.add_argument("kind", nargs="?", choices=list(KINDS), metavar="KIND", help="what to draw (--list names them)")
    p.add_argument("--list", action="store_true", help="list the kinds, one line each, and exit")
    p.add_argument("--out", metavar="FILE", help="output file, .svg or .png (default: KIND.svg)")
    add_db_argument(p)
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.list:
        for name, kind in KINDS.items():
            print(f"{name:14s} {kind.help}")
        return EXIT_OK
    if not args.kind:
        raise CommandError("name a KIND (plot --list lists them)")
    out = args.out or f"{args.kind}.svg"
    if not out.lower().endswith((".svg", ".png")):
        raise CommandError(f"--out {out}: the file name must end in .svg or .png")

    kind = KINDS[args.kind]
    data, draw = kind.draw(open_catalog(args.db, create=False))
    if not data:
        raise CommandError(f"the catalog holds nothing to draw for {args.kind} (run {kind.needs} first)")
    try:
        path = plots.save(draw(), out)
    except plots.MissingDependency as exc:
        raise CommandError(str(exc)) from None
    print(path)
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "plot")


if __name__ == "__main__":
    sys.exit(main())
