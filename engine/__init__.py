"""Sudoku symmetry engine: Numba kernels and their thin Python API (no database, no I/O in kernels).

Modules: ``text`` (parse/format), ``transform`` (the group), ``validity`` (conflicts),
``bands`` (the 416 bands and the band index), and the canonical forms and solvers beside them.
"""
from ._cache import configure_numba_cache

configure_numba_cache()
