"""equiv: are two sudokus copies of each other, and which steps turn one into the other?

    equiv A B

A and B are each a file (one 81-character line, or the 9-line block format), an
81-character string (``.``, ``0`` or ``*`` for empty cells), or ``-`` for standard input
(one of them). Both must be grids or both puzzles, and no digit may repeat in a row, column
or box.
Prints whether they are equivalent and, if so, the transformation from A to B and from B to A,
each as its string form (``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``) and as numbered steps, the fewest
among all transformations that work. Exit status: 0 equivalent, 1 not, 2 bad input.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry.commands._common import EXIT_NO, EXIT_OK, CommandError, run
from sudoku_symmetry.commands._single import read_sudoku


def _print_way(title: str, transform) -> None:
    steps = transform.steps()
    print(f"{title}: {transform}")
    if not steps:
        print("  (they are identical: no step)")
    for k, step in enumerate(steps, start=1):
        print(f"  {k}. {step}")


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="equiv", description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 equivalent, 1 not equivalent, 2 bad input.",
    )
    parser.add_argument("a", metavar="A", help="file, 81-character string, or '-' (standard input)")
    parser.add_argument("b", metavar="B", help="file, 81-character string, or '-' (standard input)")
    args = parser.parse_args(argv)
    if args.a == "-" and args.b == "-":
        parser.error("only one of A and B can be '-' (standard input holds one sudoku)")
    a, b = read_sudoku(args.a, "A"), read_sudoku(args.b, "B")
    from sudoku_symmetry.engine.canon.equivalence import equivalence
    from sudoku_symmetry.engine.validity import conflicts

    for label, cells in (("A", a), ("B", b)):
        found = conflicts(cells)
        if found:  # as in canon: such a line is not a sudoku (and a full one is not a grid)
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            raise CommandError(f"{label}: the givens conflict: {found[0]}{more}")

    try:
        result = equivalence(a, b)
    except ValueError as exc:  # a grid and a puzzle
        raise CommandError(str(exc)) from None
    if not result.equivalent:
        print(f"not equivalent ({result.kind}s): {result.reason}")
        return EXIT_NO
    print(f"equivalent ({result.kind}s)")
    _print_way("A -> B", result.forward)
    _print_way("B -> A", result.backward)
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "equiv")


if __name__ == "__main__":
    sys.exit(main())
