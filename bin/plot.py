"""plot: pictures of what the catalog holds, as SVG or PNG (matplotlib, the ``plot`` extra).

    plot KIND [--db URL] [--out FILE.svg|FILE.png]
    plot --list

Kinds (``plot --list``): ``band1-grids`` (ED grids per band 1, 416 bars, log scale),
``automorphisms`` (the automorphism histogram of the ED grids), ``s17-entry`` (the 17-clue search
entry by band-1 rank: bands 2, bands 3 of variants A and C), ``patterns`` (ED clue patterns by
number of cells: Burnside's exact count and what the catalog holds). The data come from the
catalog's named queries (``catalog/queries.py``, the same SQL the docs show; the kinds are
``sudoku_symmetry._catalog.PLOTS``, which ``ss.plot`` draws too); ``bin/populate``
fills what the first three need, ``bin/patterns --cells N`` the enumerated patterns. Without
``--out`` the picture is written to ``KIND.svg`` in the current folder; the path is printed.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry._catalog import PLOTS as KINDS  # the kinds, shared with ss.plot
from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_db_argument,
                                              add_version_argument, check_write_target, run, writes_file)
from sudoku_symmetry.pictures import plots  # matplotlib itself is imported only when a plot is drawn


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="plot", description="Draw what the catalog holds, as an SVG or PNG file (needs matplotlib).",
        epilog="example: bin/populate && bin/plot band1-grids --out grids.svg;  kinds: " + ", ".join(KINDS))
    p.add_argument("kind", nargs="?", choices=list(KINDS), metavar="KIND", help="what to draw (--list names them)")
    p.add_argument("--list", action="store_true", help="list the kinds, one line each, and exit")
    writes_file(p.add_argument("--out", metavar="FILE", help="output file, .svg or .png (default: KIND.svg)"))
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
    check_write_target("--out", out, args.db)  # the default name too

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
