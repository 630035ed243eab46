"""Compile the engine's heaviest kernels into the shared Numba cache (run by ``conftest.py`` in a
second process at the start of a test session, on the core pytest leaves idle).

A cold CI (fresh clone, empty cache) spent most of its time compiling: the rank kernels alone
(``grids_at_positions``, ``positions_of_forms``: the whole enumeration walk inlined) take about
two minutes of CPU, and pytest reached them only after twelve minutes of other tests. Compiled
here first, in the order the test files need them, the tests load them from the cache instead.
Every call is on a tiny input; a failure here is ignored (the test that needs the kernel then
compiles it itself, as before). Checks nothing: the tests do.
"""
from __future__ import annotations

import sys


def _steps():
    import numpy as np

    from sudoku_symmetry.catalog.fine import load_fine_package
    from sudoku_symmetry.catalog.shipped import ed_grid_counts, ed_grid_prefix_counts
    from sudoku_symmetry.engine.canon import canon_grids, canon_puzzles, equivalence
    from sudoku_symmetry.engine.grids import RankIndex, enumerate_band1
    from sudoku_symmetry.engine.patterns import canonical_forms, count, enumerate_all
    from sudoku_symmetry.engine.search17 import entry_slice
    from sudoku_symmetry.engine.solve import count_solutions, is_minimal, solve

    grid = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    puzzle = "." * 16 + "1" + "." * 5 + "2.3" + "." * 56
    yield lambda: canon_grids(grid)
    yield lambda: (canon_puzzles(puzzle), canon_puzzles(puzzle, pattern_first=True))
    yield lambda: (solve(grid[:40] + "." * 41), count_solutions(puzzle, 2), is_minimal(grid[:70] + "." * 11))
    yield lambda: (enumerate_band1(415), enumerate_band1(415, emit=True), enumerate_band1(415, step=128))
    yield lambda: (entry_slice("A", 415, 0, 8, emit=True), entry_slice("C", 415, 0, 8))
    yield lambda: (count(3), enumerate_all(3, digits=True), canonical_forms(np.zeros((1, 81), np.uint8)))

    def ranks():
        coarse = ed_grid_counts(check=False)
        totals = dict(zip(coarse["band1"].tolist(), coarse["grids"].tolist()))
        index = RankIndex(totals, ed_grid_prefix_counts().get, load_fine_package().get)
        index.grids_at([1])
        index.ranks_of(grid)

    yield ranks
    yield lambda: equivalence(grid, grid)


def main() -> int:
    for step in _steps():
        try:
            step()
        except Exception as exc:  # the test that needs it compiles it
            print(f"warm-up: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
