"""Puzzles inside a grid: every minimal unavoidable set up to a size (``sets``; kernels and the
proof of completeness in ``collect``) and every puzzle of n clues of a grid (``puzzles``): by a
hitting-set search over the grid's UAs with uniqueness checks (``hitting``, on the 81 cells), or,
for 16 to 18 clues, by the 17-clue search's pair search on the grid's own bands
(``search17.grid``): this family builds on ``search17``, not the other way round. The 17-clue
search's own hitting-set search (``search17._hitting``) works on one band's 27 cells with a stack
cap; this one on the whole grid with a learned universe of UAs, packings and exchanges: two
searches, each shaped by its problem."""
from .puzzles import PuzzleBatches, PuzzlesInGrid, TooManyPuzzles, puzzle_batches, puzzles_in_grid
from .sets import MAX_SIZE, NOT_A_GRID, UnavoidableSets, parse_grids, unavoidable_sets

__all__ = ["MAX_SIZE", "NOT_A_GRID", "PuzzleBatches", "PuzzlesInGrid", "TooManyPuzzles", "UnavoidableSets", "parse_grids",
           "puzzle_batches", "puzzles_in_grid", "unavoidable_sets"]
