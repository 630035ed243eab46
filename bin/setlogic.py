"""`setlogic`: set-logic (permutation database) eliminations on one puzzle, with explanations.

Each output line is one elimination and a smallest set of steps whose permutations exclude it
(`r1c2` a cell, `5r1` digit 5 in row 1, `5c2` in column 2, `5b3` in box 3; a unit of several
basic sets added as one step is written `1r1+1r5`); with more than 12 steps the set is
irreducible (no step can be left out) rather than proven smallest, and says so. A last line
counts them. With --assume or --start-vector, results hold under that assumption (`if ... then
...`), and a contradiction refutes it. Messages (database cap reached, contradictions) go to
standard error.

--show traces the growth on standard output before the eliminations: after each step `+ STEP:
N permutations` and, when N <= --show-max, the covered live candidates and one row of 1/0 per
permutation; at the end of each growth the forced candidates (true in every permutation) and,
when the givens and the forced candidates fill the grid, the solution.

The puzzle is an 81-character string, a file holding one puzzle (one line or the 9-line block
format, UTF-8), or '-' for standard input. Givens that repeat a digit in a row, column or box,
an unreadable input, a start set that already holds a given: one error line, exit status 2.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_version_argument,
                                              count_argument, run)
from sudoku_symmetry.commands._formats import FORMATS, serialize
from sudoku_symmetry.commands._single import read_sudoku
from sudoku_symmetry.engine.solve import setlogic
from sudoku_symmetry.engine.text import format_sudoku
from sudoku_symmetry.engine.validity import conflicts


def _candidate(text: str) -> tuple[int, bool]:
    try:
        found = setlogic.parse_candidates(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if len(found) != 1:
        raise argparse.ArgumentTypeError(f"expected one candidate (r1c2=5 or r1c2<>5), got {text.strip()!r}")
    return found[0]


def _vector(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    try:
        found = setlogic.parse_candidates(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated candidates: {exc}") from None
    return tuple(k for k, truth in found if truth), tuple(k for k, _ in found)


class _Show:
    """The --show trace: printed on standard output as the database grows."""

    def __init__(self, puzzle, show_max: int):
        self.puzzle = puzzle
        self.show_max = show_max

    def __call__(self, db, name) -> None:
        out = sys.stdout
        if name is not None:
            n = len(db)
            out.write(f"+ {name}: {n:,} permutation{'s' if n != 1 else ''}\n")
            if 0 < n <= self.show_max:
                cols = setlogic._bits(db.covered & db.alive)
                names = [setlogic.cand_name(k) for k in cols]
                out.write("    " + " ".join(names) + "\n")
                for row in db.rows:
                    bits = setlogic.mask_to_bool(row)
                    out.write(("    " + " ".join(f"{int(bits[k]):^{len(nm)}}" for k, nm in zip(cols, names))).rstrip() + "\n")
            return
        if len(db) == 0:
            out.write("= no permutation (contradiction)\n")
            return
        forced = [k for k in db.forced() if setlogic.mask_to_bool(db.alive)[k]]
        out.write("= forced: " + (" ".join(setlogic.cand_name(k) for k in forced) or "none") + "\n")
        cells = self.puzzle.copy()
        for k in forced:
            r, rest = divmod(k, 81)
            c, d = divmod(rest, 9)
            cells[9 * r + c] = d + 1
        if (cells > 0).all():
            out.write(f"= solution: {format_sudoku(cells)}\n")


FIELDS = ("puzzle", "elimination", "sets", "minimal", "assumption", "contradiction")  # --format csv/jsonl


def _record(puzzle: str, e) -> dict:
    """The --format csv/jsonl row of one elimination."""
    assumption = None
    if e.assumption is not None:
        a, truth = e.assumption
        assumption = a if isinstance(a, str) else setlogic.cand_name(a) if truth else setlogic.elim_name(a)
    return {"puzzle": puzzle, "elimination": setlogic.elim_name(e.candidate), "sets": list(e.sets),
            "minimal": e.minimal, "assumption": assumption, "contradiction": bool(e.contradiction)}


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(prog="setlogic", description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", nargs="?", default="-",
                    help="81 characters, or a file holding one puzzle (81 characters or 9 lines); '-' or none: "
                    "standard input")
    ap.add_argument("--strategy", choices=setlogic.STRATEGIES, default="fewest-perms",
                    help="how the next set is chosen (default: fewest-perms)")
    start = ap.add_mutually_exclusive_group()
    start.add_argument("--start", metavar="STEP",
                       help="grow from this basic set (5r1, r3c4, 7c2, 2b5) or unit of sets joined by '+' (1r1+1r5)")
    start.add_argument("--assume", metavar="CAND", type=_candidate,
                       help="grow from one candidate assumed true (r1c2=5) or false (r1c2<>5)")
    start.add_argument("--start-vector", metavar="VEC", type=_vector,
                       help="grow from a candidate vector assumed: comma-separated r1c2=5 (true) and r1c3<>5 (false)")
    ap.add_argument("--add", metavar="STEP", action="append", default=[],
                    help="add this set or unit next (repeatable, in order) before the strategy chooses; "
                    "needs --start, --assume or --start-vector")
    ap.add_argument("--format", choices=FORMATS, default="text",
                    help="text (default): a line per elimination and a count; csv or jsonl: a row per elimination "
                    f"with {', '.join(FIELDS)} (docs/formats.md)")
    ap.add_argument("--show", action="store_true", help="trace each step, the permutations and the forced candidates")
    ap.add_argument("--show-max", type=count_argument(0), default=20, metavar="N",
                    help="with --show: print the permutations when there are at most N (default 20)")
    ap.add_argument("--max-sets", type=count_argument(0), default=8, metavar="N",
                    help="steps (sets or units) per start (default 8; 0: no limit)")
    ap.add_argument("--max-starts", type=count_argument(1), default=None, metavar="N",
                    help="try at most N starting sets (default: every one)")
    ap.add_argument("--cap", type=count_argument(1), default=200_000, metavar="N",
                    help="permutation database cap (default 200000)")
    add_version_argument(ap)
    return ap


def check_givens(puzzle) -> None:
    """A :class:`CommandError` naming the conflicts among the givens (such a puzzle has no
    solution, and set logic would "eliminate" candidates of a contradiction)."""
    found = conflicts(puzzle)
    if found:
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        raise CommandError("the givens conflict, so the puzzle has no solution: "
                           + "; ".join(str(c) for c in found[:3]) + more)


def _main(argv=None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    if args.start is not None:
        try:
            setlogic.step_of(args.start)
        except ValueError as exc:
            ap.error(f"--start: {exc}")
    for step in args.add:
        try:
            setlogic.step_of(step)
        except ValueError as exc:
            ap.error(f"--add: {exc}")
    if args.add and args.start is None and args.assume is None and args.start_vector is None:
        ap.error("--add needs --start, --assume or --start-vector (a growth to add to)")
    if args.show_max != 20 and not args.show:
        ap.error("--show-max goes with --show")
    if args.show and args.format != "text":
        ap.error("--show traces the growth as text: it does not go with --format csv|jsonl")
    puzzle = read_sudoku(args.puzzle, what="puzzle")
    check_givens(puzzle)
    if (puzzle > 0).all():
        print("setlogic: the puzzle is complete: no candidate is left to eliminate", file=sys.stderr)
    try:
        res = setlogic.eliminations(
            puzzle, args.strategy, start=args.start if args.start_vector is None else args.start_vector,
            assume=args.assume, cap=args.cap, max_sets=args.max_sets or None, max_starts=args.max_starts,
            steps=args.add, show=_Show(puzzle, args.show_max) if args.show else None,
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if args.format != "text":
        text = format_sudoku(puzzle)
        sys.stdout.write(serialize(args.format, FIELDS, [_record(text, e) for e in res.eliminations], header=True))
    else:
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
