"""equiv: are two sudokus copies of each other, and which steps turn one into the other?

    equiv [--show] [--svg FILE] A B
    equiv [--show] [--svg FILE] PAIR_FILE
    equiv --random-pair [--related | --unrelated] [--givens N] [--seed S] [--out FILE]

A and B are each a file (one 81-character line, or the 9-line block format), an
81-character string (``.``, ``0`` or ``*`` for empty cells), or ``-`` for standard input
(one of them). With one argument, that file (or ``-``) holds both sudokus, as comparison tools
save them: 9 rows of digits separated by spaces or not (``0`` empty), a blank line, 9 more rows
(or two 81-character lines); UTF-8, with or without a byte-order mark. Both must be grids or
both puzzles, and no digit may repeat in a row, column or box.

Prints whether they are equivalent and, if so, the transformation from A to B and from B to A,
each as its string form (``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``) and as numbered steps, the fewest
among all transformations that work (exact: puzzles with many automorphisms are searched by step
count; were the fewest not proven, a line under the steps would say so). ``--show`` first prints
both sudokus side by side with box borders; ``--svg FILE`` draws them side by side with the
verdict, the transformation from A to B and its steps (an SVG file, written with no dependency).

``--random-pair`` writes a pair as two 81-character lines, the layout every command reads
(standard output, or ``--out FILE``) instead:
a random grid, N of its cells kept as givens (``--givens``, default 25; 81 gives two grids),
and B that puzzle moved by a random transformation (``--related``) or another random puzzle that
is not a copy (``--unrelated``); unless told, each with probability 1/2. ``--seed`` makes it
reproducible; standard error says which it is and the seed (``equiv: random pair, seed S:
related``). Exit status: 0 equivalent (or pair written), 1 not, 2 bad input.
"""
from __future__ import annotations

import argparse
import secrets
import sys

import numpy as np

from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_NO, EXIT_OK, add_version_argument,
                                              count_argument, run, write_svg, writes_file)
from sudoku_symmetry.commands._formats import FORMATS, serialize
from sudoku_symmetry.commands._single import read_pair, read_sudoku
from sudoku_symmetry.engine.canon.equivalence import equivalence
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.group.transform import Transform
from sudoku_symmetry.engine.text import format_side_by_side, format_sudoku
from sudoku_symmetry.engine.validity import conflicts
from sudoku_symmetry.pictures.svg import pair_svg

NOT_PROVEN = "  (not proven fewest: the search by step count stopped before the whole group)"
UNRELATED_TRIES = 200


def _print_way(title: str, transform, proven: bool = True) -> None:
    steps = transform.steps()
    print(f"{title}: {transform}")
    if not steps:
        print("  (they are identical: no step)")
    for k, step in enumerate(steps, start=1):
        print(f"  {k}. {step}")
    if not proven:
        print(NOT_PROVEN)


def _draw(path: str, a, b, result) -> None:
    """``--svg``: A and B side by side; below, the verdict and the steps from A to B."""
    if result.equivalent:
        steps = result.forward.steps()
        caption = [f"equivalent ({result.kind}s): A -> B {result.forward}"]
        caption += [f"{k}. {step}" for k, step in enumerate(steps, start=1)] or ["(identical: no step)"]
    else:
        caption = [f"not equivalent ({result.kind}s): {result.reason}"]
    write_svg(path, pair_svg(format_sudoku(a), format_sudoku(b), caption=caption, title="A and B"))


FIELDS = ("a", "b", "equivalent", "kind", "reason", "forward", "forward_steps", "backward", "backward_steps",
          "fewest_proven")  # --format csv/jsonl: one row


def _record(a, b, result) -> dict:
    """The --format csv/jsonl row of a comparison (the transformations and steps empty when not
    equivalent)."""
    way = (lambda t: (str(t), [str(step) for step in t.steps()])) if result.equivalent else (lambda t: (None, None))
    (forward, forward_steps), (backward, backward_steps) = way(result.forward), way(result.backward)
    return {"a": format_sudoku(a), "b": format_sudoku(b), "equivalent": bool(result.equivalent),
            "kind": result.kind, "reason": None if result.equivalent else result.reason, "forward": forward,
            "forward_steps": forward_steps, "backward": backward, "backward_steps": backward_steps,
            "fewest_proven": bool(result.fewest_proven) if result.equivalent else None}


def _parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="equiv", description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 equivalent (or --random-pair written), 1 not equivalent, 2 bad input.",
    )
    parser.add_argument("a", metavar="A", nargs="?",
                        help="file, 81-character string, or '-' (standard input); alone: a file holding both sudokus")
    parser.add_argument("b", metavar="B", nargs="?", help="file, 81-character string, or '-' (standard input)")
    parser.add_argument("--show", action="store_true", help="print both sudokus side by side before the verdict")
    writes_file(parser.add_argument("--svg", metavar="FILE",
                                    help="draw both sudokus side by side with the verdict and the steps from A to B "
                                    "(SVG)"))
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default): the verdict and the steps as above; csv or jsonl: one row with "
                        f"{', '.join(FIELDS)} (docs/formats.md)")
    gen = parser.add_argument_group("random pairs")
    gen.add_argument("--random-pair", action="store_true", help="write a random pair in the pair format")
    which = gen.add_mutually_exclusive_group()
    which.add_argument("--related", action="store_true", help="B is A moved by a random transformation")
    which.add_argument("--unrelated", action="store_true", help="B is a random puzzle that is not a copy of A")
    gen.add_argument("--givens", type=count_argument(0, 81), default=None, metavar="N",
                     help="givens of each sudoku (0-81, default 25; 81: two grids)")
    gen.add_argument("--seed", type=count_argument(0, 2**63 - 1), default=None, metavar="S",
                     help="random seed (default: a fresh one, printed on standard error)")
    writes_file(gen.add_argument("--out", metavar="FILE", default=None,
                                 help="write the pair to FILE (default: standard output)"))
    add_version_argument(parser)
    return parser


def random_pair(seed: int, givens: int = 25, related: bool | None = None) -> tuple[np.ndarray, np.ndarray, bool]:
    """(A, B, related): a random puzzle with ``givens`` givens (the cells of a random grid) and
    either a random transformation of it or a random puzzle that is not a copy of it."""
    rng = np.random.default_rng(seed)
    if related is None:
        related = bool(rng.integers(2))
    if not related and givens <= 1:
        raise CommandError(f"every two sudokus with {givens} given{'s' if givens != 1 else ''} are copies: "
                           "no unrelated pair exists")

    def puzzle() -> np.ndarray:
        grid = random_grids(1, seed=int(rng.integers(2**31)))[0]
        cells = np.zeros(81, np.uint8)
        keep = rng.choice(81, givens, replace=False)
        cells[keep] = grid[keep]
        return Transform.random(rng).apply(cells)

    a = puzzle()
    if related:
        return a, Transform.random(rng).apply(a), True
    for _ in range(UNRELATED_TRIES):
        b = puzzle()
        if not equivalence(a, b).equivalent:
            return a, b, False
    raise CommandError(f"no unrelated pair with {givens} givens found in {UNRELATED_TRIES} tries")


def _write_pair(args) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    related = True if args.related else False if args.unrelated else None
    a, b, related = random_pair(seed, 25 if args.givens is None else args.givens, related)
    text = format_sudoku(a) + "\n" + format_sudoku(b) + "\n"  # what solve, canon and equiv all read
    if args.out is None:
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    sys.stdout.flush()
    print(f"equiv: random pair, seed {seed}: {'related' if related else 'unrelated'}", file=sys.stderr)
    return EXIT_OK


def _main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.random_pair:
        if args.a is not None:
            parser.error("--random-pair takes no A or B (it writes a pair)")
        if args.show or args.svg:
            parser.error("--show and --svg compare two sudokus; they do not go with --random-pair")
        if args.format != "text":
            parser.error("--format csv|jsonl writes a comparison; --random-pair writes a pair in the pair format")
        return _write_pair(args)
    for name in ("related", "unrelated", "givens", "seed", "out"):
        if getattr(args, name) not in (None, False):
            parser.error(f"--{name} goes with --random-pair")
    if args.a is None:
        parser.error("give A and B, or one file holding both (or --random-pair)")
    if args.show and args.format != "text":
        parser.error("--show draws the sudokus as text: it does not go with --format csv|jsonl")
    if args.b is None:
        a, b = read_pair(args.a)
    else:
        if args.a == "-" and args.b == "-":
            parser.error("only one of A and B can be '-' (standard input holds one sudoku)")
        a, b = read_sudoku(args.a, "A"), read_sudoku(args.b, "B")
    if args.show:
        print(format_side_by_side(a, b))
    for label, cells in (("A", a), ("B", b)):
        found = conflicts(cells)
        if found:  # as in canon: such a line is not a sudoku (and a full one is not a grid)
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            raise CommandError(f"{label}: the givens conflict: {found[0]}{more}")

    try:
        result = equivalence(a, b)
    except ValueError as exc:  # a grid and a puzzle
        raise CommandError(str(exc)) from None
    if args.svg:
        _draw(args.svg, a, b, result)
    if args.format != "text":
        sys.stdout.write(serialize(args.format, FIELDS, [_record(a, b, result)], header=True))
        return EXIT_OK if result.equivalent else EXIT_NO
    if not result.equivalent:
        print(f"not equivalent ({result.kind}s): {result.reason}")
        return EXIT_NO
    print(f"equivalent ({result.kind}s)")
    _print_way("A -> B", result.forward, result.fewest_proven)
    _print_way("B -> A", result.backward, result.fewest_proven)
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "equiv")


if __name__ == "__main__":
    sys.exit(main())
