"""Canonical (minlex) forms: solution grids (``grid``), puzzles in both conventions (``puzzle``),
any mix of them (``canonicalize``), and the equivalence of two sudokus with the steps between
them (``equivalence``). Kernels: ``_grid_kernels``, ``_puzzle_kernels``."""
from .grid import InvalidGridError, canon_grid, canon_grids, grid_automorphisms
from .puzzle import canon_puzzle, canon_puzzles, puzzle_automorphisms
from .mixed import MixedForms, canonicalize
from .equivalence import Equivalence, equivalence

__all__ = ["Equivalence", "InvalidGridError", "MixedForms", "canon_grid", "canon_grids", "canon_puzzle",
           "canon_puzzles", "canonicalize", "equivalence", "grid_automorphisms", "puzzle_automorphisms"]
