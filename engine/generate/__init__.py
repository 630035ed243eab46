"""Making puzzles: minimal puzzles top-down from exactly uniform random grids, with or without a
symmetry of the pattern (``topdown``; kernels in ``_kernels``; the named symmetries and their
orbits in ``symmetry``), minimizing a given puzzle, and every minimal puzzle inside a puzzle."""
from .symmetry import DESCRIPTIONS as SYMMETRIES
from .symmetry import canonical_name, is_symmetric, orbits
from .topdown import (ORDERS, Generated, NotUnique, generate, keep_rated, minimal_inside, minimize, parse_range,
                      top_down_range)

__all__ = ["ORDERS", "SYMMETRIES", "Generated", "NotUnique", "canonical_name", "generate", "is_symmetric",
           "keep_rated", "minimal_inside", "minimize", "orbits", "parse_range", "top_down_range"]
