"""equiv: are two sudokus copies of each other, and which steps turn one into the other?

    equiv A B

A and B are each a file (one 81-character line, or the 9-line block format) or an
81-character string (``.``, ``0`` or ``*`` for empty cells). Both must be grids or both puzzles.
Prints whether they are equivalent and, if so, the transformation from A to B and from B to A,
each as its string form (``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``) and as numbered steps, the fewest
among all transformations that work. Exit status: 0 equivalent, 1 not, 2 bad input.
"""
from __future__ import annotations

import argparse
import os
import sys

from sudoku_symmetry.commands._common import EXIT_BAD_INPUT, EXIT_NO, EXIT_OK, run


def _load(arg: str, name: str):
    from sudoku_symmetry.engine.text import SudokuFormatError, parse_one

    try:
        if os.path.isfile(arg):
            with open(arg, encoding="utf-8", errors="replace") as fh:
                return parse_one(fh.read(), source=arg)
        return parse_one(arg, source=name)
    except SudokuFormatError as exc:
        hint = "" if os.path.isfile(arg) or len(arg.strip()) == 81 else " (and no such file)"
        raise ValueError(f"{exc}{hint}") from None


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
    parser.add_argument("a", metavar="A", help="file or 81-character string")
    parser.add_argument("b", metavar="B", help="file or 81-character string")
    args = parser.parse_args(argv)
    try:
        a, b = _load(args.a, "A"), _load(args.b, "B")
        from sudoku_symmetry.engine.canon.equivalence import equivalence

        result = equivalence(a, b)
    except ValueError as exc:
        print(f"equiv: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
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
