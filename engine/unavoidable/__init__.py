"""Puzzles inside a grid: every minimal unavoidable set up to a size (``sets``; kernels and the
proof of completeness in ``collect``) and every puzzle of n clues of a grid by a hitting-set search
with uniqueness checks (``puzzles``; the search kernel in ``hitting``). ``collect`` and ``hitting`` are
public kernels for other families (the 17-clue search): cell sets as two uint64 words, the UA
collection, the uniqueness check, the search."""
from .puzzles import PuzzleBatches, PuzzlesInGrid, TooManyPuzzles, puzzle_batches, puzzles_in_grid
from .sets import MAX_SIZE, NOT_A_GRID, UnavoidableSets, parse_grids, unavoidable_sets

__all__ = ["MAX_SIZE", "NOT_A_GRID", "PuzzleBatches", "PuzzlesInGrid", "TooManyPuzzles", "UnavoidableSets", "parse_grids",
           "puzzle_batches", "puzzles_in_grid", "unavoidable_sets"]
