"""Solving: the fast bitboard solver with solution counting, uniqueness and minimality
(``solver``, kernels in ``_kernels``), and the set-logic (permutation) solver (``setlogic``).

For other families' compiled code: ``count_into`` (one puzzle's solutions up to a limit, with
scratch ``np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)`` and ``np.zeros(2, np.int64)``
allocated once by the caller); ``count_near``, the same following a known solution first
(``solution_planes`` of it), so the next solution found differs from it little); ``other_filling``,
whether a few empty cells of a grid can be filled otherwise, and ``minimal_ua``, a UA shrunk
with it to a minimal one (the 17-clue search's and the hitting-set search's);
``givens_node`` and ``count_plus``, many puzzles that share givens, those placed once; the
``node_*`` kernels (``_nodes``), the search node as a building block of other depth-first searches."""
from ._kernels import MAXDEPTH as SOLVER_DEPTH
from ._kernels import NWORDS as SOLVER_WORDS
from ._kernels import count_into, count_near, count_plus, givens_node, solution_planes
from ._nodes import node_candidates, node_copy, node_count, node_empty, node_open, node_place, node_propagate
from ._refill import REFILL_SCRATCH, minimal_ua, other_filling
from .solver import CountResult, all_solutions, check, count_solutions, is_minimal, is_unique, iter_solutions, solve, solve_one

__all__ = ["node_candidates", "node_copy", "node_count", "node_empty", "node_open", "node_place", "node_propagate",
           "SOLVER_DEPTH", "SOLVER_WORDS", "count_into", "count_near", "count_plus", "givens_node", "solution_planes", "REFILL_SCRATCH", "minimal_ua", "other_filling", "CountResult", "all_solutions", "check", "count_solutions", "is_minimal", "is_unique",
           "iter_solutions", "solve", "solve_one"]
