"""`setlogic`: set-logic (permutation database) eliminations on one puzzle, with explanations.

Each output line is one elimination and the basic sets whose permutations exclude it
(`r1c2` a cell, `5r1` digit 5 in row 1, `5c2` in column 2, `5b3` in box 3); a last line
counts them. With --assume, results hold under that assumption (`if ... then ...`), and a
contradiction refutes it. Messages (database cap reached, contradictions) go to standard error.

The puzzle is an 81-character string, a file holding one puzzle (one line or the 9-line block
format, UTF-8), or '-' for standard input. Givens that repeat a digit in a row, column or box,
an unreadable input, a start set that already holds a given: one error line, exit status 2.
"""
from __future__ import annotations

import argparse
import re
import sys

from sudoku_symmetry.engine.solve import setlogic

from ._common import EXIT_OK, CommandError, count_argument, run
from ._single import read_sudoku


def _candidate(text: str) -> tuple[int, bool]:
    m = re.fullmatch(r"r([1-9])c([1-9])(=|<>)([1-9])", text.strip())
    if not m:
        raise argparse.ArgumentTypeError("expected r<row>c<col>=<digit> (assume true) or r<row>c<col><><digit> (assume false)")
    r, c, op, d = m.groups()
    return setlogic.cand_index(int(r) - 1, int(c) - 1, int(d)), op == "="


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="setlogic", description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", help="81 characters, or a file holding one puzzle (81 characters or 9 lines); '-' reads stdin")
    ap.add_argument("--strategy", choices=setlogic.STRATEGIES, default="fewest-perms",
                    help="how the next set is chosen (default: fewest-perms)")
    start = ap.add_mutually_exclusive_group()
    start.add_argument("--start", metavar="SET", help="grow from this basic set only (e.g. 5r1, r3c4, 7c2, 2b5)")
    start.add_argument("--assume", metavar="CAND", type=_candidate,
                       help="grow from one candidate assumed true (r1c2=5) or false (r1c2<>5)")
    ap.add_argument("--max-sets", type=count_argument(0), default=8, metavar="N",
                    help="sets per start (default 8; 0: no limit)")
    ap.add_argument("--max-starts", type=count_argument(1), default=None, metavar="N",
                    help="try at most N starting sets (default: every one)")
    ap.add_argument("--cap", type=count_argument(1), default=200_000, metavar="N",
                    help="permutation database cap (default 200000)")
    return ap


def check_givens(puzzle) -> None:
    """A :class:`CommandError` naming the conflicts among the givens (such a puzzle has no
    solution, and set logic would "eliminate" candidates of a contradiction)."""
    from sudoku_symmetry.engine.validity import conflicts

    found = conflicts(puzzle)
    if found:
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        raise CommandError("the givens conflict, so the puzzle has no solution: "
                           + "; ".join(str(c) for c in found[:3]) + more)


def _main(argv=None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    if args.start is not None and args.start not in setlogic.SET_INDEX:
        ap.error(f"unknown set {args.start!r} (sets are named like r1c2, 5r1, 5c2, 5b3)")
    puzzle = read_sudoku(args.puzzle, what="puzzle")
    check_givens(puzzle)
    if (puzzle > 0).all():
        print("setlogic: the puzzle is complete: no candidate is left to eliminate", file=sys.stderr)
    try:
        res = setlogic.eliminations(
            puzzle, args.strategy, start=args.start, assume=args.assume, cap=args.cap,
            max_sets=args.max_sets or None, max_starts=args.max_starts,
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    for e in res.eliminations:
        print(e)
    print(f"# {len(res.eliminations)} eliminations")
    for m in res.messages:
        print(m, file=sys.stderr)
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "setlogic")


if __name__ == "__main__":
    sys.exit(main())
