"""``python -m sudoku_symmetry COMMAND ...`` is ``sudoku COMMAND ...`` (the same commands)."""
import sys

from sudoku_symmetry.commands.main import main

if __name__ == "__main__":
    sys.exit(main())
