"""`sudoku COMMAND ...`: one entry point for every command in bin/ (same as running bin/COMMAND)."""
from __future__ import annotations

import importlib
import importlib.util
import sys

COMMANDS = {
    "populate": "create or upgrade the catalog and fill it",
    "band": "band index, minlex band and transformation of 27-digit bands",
    "canon": "canonical (minlex) forms of grids and puzzles",
    "equiv": "are two sudokus copies of each other, and the steps between them",
    "solve": "solve, count solutions, check uniqueness and minimality",
    "setlogic": "set-logic (permutation) eliminations with explanations",
}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    available = {name: doc for name, doc in COMMANDS.items() if importlib.util.find_spec(f"sudoku_symmetry.commands.{name}")}
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in available:
        print("usage: sudoku COMMAND [ARGS...]   (sudoku COMMAND --help for each)\n\ncommands:")
        for name, doc in available.items():
            print(f"  {name:10s} {doc}")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    module = importlib.import_module(f"sudoku_symmetry.commands.{argv[0]}")
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
