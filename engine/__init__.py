"""Sudoku symmetry engine: Numba kernels and their thin Python API (no database, no I/O in kernels).

One subpackage per capability, each a public module (or a few) beside its private
``_kernels.py``:

* ``group``: the transformation (array layout, apply / compose / invert, human steps);
* ``bands``: the 416 minlex bands, the band index, automorphisms, gangster classes;
* ``canon``: canonical forms of grids and puzzles, equivalence with the steps between two sudokus;
* ``solve``: the fast solver and the set-logic (permutation) solver;
* ``grids``: essentially different grids: enumeration in minlex order with prefix counts, rank <-> grid, random grids;
* ``search17``: the band generation ("entry") of the 17-clue search;
* ``patterns``: restricted growth sequences, orbit filtering, Burnside counts;
* ``unavoidable``: the puzzles inside a grid: minimal unavoidable sets up to a size, every puzzle
  of n clues of a grid (hitting-set search with uniqueness checks).

Shared: ``core`` (the kernels several families call: the transformation's array layout, the band
key, a grid's chutes; a family's ``_kernels`` modules are private to it), ``text`` (text <->
arrays), ``validity`` (conflicts), ``_bits`` (bit and permutation tables), ``_jit`` (the one
decorator), ``_cache`` (cache folders, memory-mapped stored arrays, the warm-cache marker),
``warmup`` (compiles every kernel the commands use, once per version: ``bin/populate`` runs it).
"""
from ._cache import configure_numba_cache

configure_numba_cache()
