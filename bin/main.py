"""`sudoku COMMAND ...`: one entry point for every command in bin/ (same as running bin/COMMAND).

``sudoku COMMAND ARGS`` runs ``bin/COMMAND ARGS``: the same code (``COMMAND.main``), the same
output, messages and exit status. ``sudoku``, ``sudoku -h`` and ``sudoku --help`` list the
commands (on standard output, exit 0 for a help request; on standard error, exit 2 without
one); ``sudoku --version`` prints ``sudoku (sudoku-symmetry) VERSION``; an unknown command is
one error line and the list, exit 2.

Plain argparse, one parser per command (in its module, so ``bin/COMMAND`` and ``sudoku COMMAND``
are the same code), and this dispatcher rather than argparse subparsers or a CLI library:
subparsers would build (and import) every command's parser before running one, and a library
(click, typer) costs 0.1-0.2 s of import on every command while replacing only the argument
declarations, not what most of ``_common.py`` does (reading inputs line by line with their
numbers, reporting bad lines in place, one-line failures).
"""
from __future__ import annotations

import importlib
import importlib.util
import sys

from sudoku_symmetry.commands._common import EXIT_BAD_INPUT, EXIT_OK, CommandError, for_user, run

COMMANDS = {
    "populate": "create or upgrade the catalog and fill it",
    "band": "band index, minlex band and transformation of 27-digit bands",
    "canon": "canonical (minlex) forms of grids and puzzles",
    "equiv": "are two sudokus copies of each other, and the steps between them",
    "solve": "solve, count solutions, check uniqueness and minimality",
    "setlogic": "set-logic (permutation) eliminations with explanations",
    "enumerate": "every essentially different grid of some bands 1, in catalog order, with counts",
    "rank": "catalog rank of a grid, and the grid at a rank",
    "patterns": "essentially different clue patterns and configurations: enumerate, count, canonical form",
    "s17-entry": "the 17-clue search entry: bands 2 and 3 per band 1 (variants A/B/C), counts, table",
    "unavoidable": "every minimal unavoidable set of a grid, up to a size",
    "find-puzzles": "every puzzle of N clues inside a grid (hitting sets of its unavoidable sets), or on a pattern",
    "vicinity": "the {-n+m} neighbourhood of puzzles: n clues removed, m added, the unique ones; the walk",
    "generate": "exactly uniform random grids, and minimal puzzles made top-down (symmetry, clues)",
    "minimize": "each puzzle made minimal, or every minimal puzzle inside it",
    "s17-search": "the 17-clue search over the entry: every 17 of a band 1, pass A/B/C, resumable, estimate",
    "rate": "how hard each puzzle is: Sudoku Explainer's rating ER/EP/ED, with the solution path",
    "plot": "pictures of what the catalog holds (SVG or PNG; needs matplotlib)",
    "browse": "the catalog in a web browser (Datasette), with the docs' queries",
    "data": "the example puzzle sets shipped with the package (@NAME reads one in any command)",
}


def _module(name: str) -> str:
    """bin/s17-entry runs the module s17_entry (a module name cannot hold a hyphen)."""
    return f"sudoku_symmetry.commands.{name.replace('-', '_')}"


def _available() -> dict[str, str]:
    return {name: doc for name, doc in COMMANDS.items()
            if importlib.util.find_spec(_module(name))}


def _usage(available: dict[str, str]) -> str:
    width = max(map(len, available), default=0)
    lines = ["usage: sudoku COMMAND [ARGS...]   (sudoku COMMAND --help for each; sudoku --version)", "",
             "commands:"]
    lines += [f"  {name:{width}s}  {doc}" for name, doc in available.items()]
    lines += ["", for_user("Each command is also bin/COMMAND in a checkout; the manual: docs/index.md")]
    return "\n".join(lines) + "\n"


def _list(argv: list[str]) -> int:
    available = _available()
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(_usage(available))
        return EXIT_OK
    if argv and argv[0] == "--version":
        from sudoku_symmetry import __version__

        sys.stdout.write(f"sudoku (sudoku-symmetry) {__version__}\n")
        return EXIT_OK
    if argv:
        raise CommandError(f"unknown command {argv[0]!r} (commands: {', '.join(available)}; "
                           "sudoku --help lists them)")
    sys.stderr.write(_usage(available))
    return EXIT_BAD_INPUT


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS and importlib.util.find_spec(_module(argv[0])):
        module = importlib.import_module(_module(argv[0]))
        return module.main(argv[1:])
    return run(_list, argv, "sudoku")


if __name__ == "__main__":
    sys.exit(main())
