"""Solving: the fast bitboard solver with solution counting, uniqueness and minimality
(``solver``, kernels in ``_kernels``), and the set-logic (permutation) solver (``setlogic``)."""
from .solver import CountResult, all_solutions, check, count_solutions, is_minimal, is_unique, iter_solutions, solve, solve_one

__all__ = ["CountResult", "all_solutions", "check", "count_solutions", "is_minimal", "is_unique",
           "iter_solutions", "solve", "solve_one"]
