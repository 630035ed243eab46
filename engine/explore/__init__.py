"""Exploring the space of puzzles: every puzzle on a clue pattern (``pattern``: a depth-first
search over the pattern's digits, once per class under the pattern's automorphisms, kernels in
``_pattern_kernels``) and the {-n+m} neighbourhood of puzzles (``vicinity``: n clues removed, m
givens added, each unique result once by canonical form, and the walk that repeats it; kernels
in ``_vicinity_kernels``)."""
from .pattern import (MAX_AUTOMORPHISMS, PatternGroup, PatternPuzzles, PatternSearch, format_pattern, parse_pattern,
                      pattern_automorphisms, puzzles_on_pattern, search_order)
from .vicinity import Neighbourhood, Step, neighbourhood, parse_puzzles, walk

__all__ = ["MAX_AUTOMORPHISMS", "Neighbourhood", "PatternGroup", "PatternPuzzles", "PatternSearch", "Step",
           "format_pattern", "neighbourhood", "parse_pattern", "parse_puzzles", "pattern_automorphisms", "puzzles_on_pattern",
           "search_order", "walk"]
