"""Sudoku symmetry engine: Numba kernels and their thin Python API (no database, no I/O in kernels)."""
