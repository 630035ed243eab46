"""data: the example puzzle sets shipped with the package.

    data                 list the sets: name, puzzles, licence, what they are
    data NAME            print the puzzles of a set, one per line (what @NAME gives every command)
    data NAME --fields   print the lines as shipped (``puzzle:solutions[:solution]`` where the set
                         has counts)

Every command reads a set by name in place of a file: ``bin/solve --count @17clue``. Origin and
terms of each set: docs/data.md.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry import datasets
from sudoku_symmetry.commands._common import EXIT_OK, CommandError, CommandParser, add_version_argument, run


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="data", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="example: bin/data 17clue | head -3;  bin/solve --count @sudoku3m;  "
                                       "the sets' origin and licences: docs/data.md")
    p.add_argument("name", nargs="?", metavar="NAME", help="the set to print (none: list the sets)")
    p.add_argument("--fields", action="store_true",
                   help="print the lines as shipped, with the solution counts of the sets that have them")
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.name is None:
        width = max(map(len, datasets.SETS))
        for ds in datasets.SETS.values():
            print(f"{ds.name:{width}s}  {ds.puzzles:6,d}  {ds.licence}: {ds.description}")
        return EXIT_OK
    name = args.name.removeprefix("@")
    if name not in datasets.SETS:
        raise CommandError(f"no shipped set {args.name!r} (the sets: {', '.join(datasets.SETS)})")
    out = sys.stdout
    if args.fields:
        for line in datasets.lines(name):
            out.write(line + "\n")
    else:
        out.writelines(datasets.puzzle_lines(name))
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "data")


if __name__ == "__main__":
    sys.exit(main())
