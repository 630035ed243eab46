"""Compile every kernel the commands use, once, before anyone waits for it.

Numba compiles a kernel at its first call for each set of argument types and keeps the machine
code in the cache folder (``_cache``: one folder per version of the engine's sources). A
command started with an empty folder would spend its first run compiling, so ``bin/populate``
(the README's first command) calls :func:`warm_up`: each step below runs one family's public
functions on tiny inputs with the argument types the commands and jobs pass, which compiles
(or, when cached, loads) exactly their specializations; then a marker file says the folder is
complete (``_cache.is_warm``), and later ``bin/populate`` runs skip this in a file test.

``tests/test_warmup.py`` checks that every kernel the commands call from Python has, after
:func:`warm_up`, a compiled specialization for the arguments the commands give it (so a new
command or a new argument type must be added here). Compile times of this step are measured
by ``bench/bench_compile.py``.
"""
from __future__ import annotations

import time
from typing import Callable, Iterator

import numpy as np

GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
PUZZLE = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
PUZZLE_B = "....95.........738........4.............6..2...87....3...........78.4....9....61."


def _bands() -> None:
    from .bands import band_index, band_tables, random_bands

    band_tables()
    band_index(np.stack([_cells(GRID)[:27]]), check=False)
    random_bands(2, np.random.default_rng(0))


def _canon() -> None:
    from .canon import canon_grid, canonicalize, equivalence, grid_automorphisms, puzzle_automorphisms
    from .validity import is_valid

    batch = np.stack([_cells(GRID), _cells(PUZZLE)])
    is_valid(batch)
    canonicalize(batch)
    canonicalize(batch, pattern_first=True)
    canon_grid(GRID)
    grid_automorphisms(GRID)
    puzzle_automorphisms(PUZZLE)
    equivalence(PUZZLE, PUZZLE_B)
    equivalence(GRID, GRID)


def _solve() -> None:
    from .solve.solver import check, count_solutions, iter_solutions, logic_state

    batch = np.stack([_cells(PUZZLE), _cells("." * 81)])
    count_solutions(batch, 2)
    count_solutions(batch, 1, solutions=True)
    check(batch)
    list(iter_solutions(_cells("." * 81), cap=2))
    logic_state(_cells(PUZZLE))


def _grids() -> None:
    from .grids import RankIndex, enumerate_band1
    from .grids.random import random_grids

    random_grids(2, seed=0)
    last = enumerate_band1(415, emit=True)  # band 1 = 415 holds one grid, the catalog's last
    enumerate_band1(415, step=32)
    # the lookup kernels, on that one grid: an index whose bands 1 before 415 hold no grid
    totals = {b: 0 for b in range(415)} | {415: last.total}
    index = RankIndex(totals, lambda b: last.counts if b == 415 else np.zeros(0, np.int64))
    index.ranks_of(index.grids_at([1]))


def _patterns() -> None:
    from .patterns import canonical_forms, pattern_chunks, pattern_counts

    for digits in (False, True):
        for _ in pattern_chunks(3, digits=digits):
            pass
        canonical_forms(np.stack([_cells(PUZZLE)]), digits=digits)
    pattern_counts()


def _search17() -> None:
    from .search17 import VARIANTS, band_order, bands2, entry_slice, search_slice

    band_order()
    bands2(0)
    for variant in VARIANTS:
        for emit in (False, True):
            entry_slice(variant, 0, 0, 1, emit=emit)
    search_slice("A", 0, 0, 0)  # the searcher compiles every kernel a pair calls (no pair searched)


def _unavoidable() -> None:
    from .unavoidable import puzzles_in_grid, unavoidable_sets

    unavoidable_sets(GRID)
    puzzles_in_grid(GRID, 80)
    puzzles_in_grid(GRID, 80, minimal=True, limit=2)


def _generate() -> None:
    from .generate import generate, minimal_inside, minimize
    from .grids.uniform import uniform_grids

    uniform_grids(2, seed=0)
    generate(1, seed=0)
    generate(1, seed=0, symmetry="rotate180")
    for order in ("random", "forward"):
        minimize(np.stack([_cells(GRID)]), order=order)
    minimal_inside(PUZZLE)


def _rate() -> None:
    from .rate import rate

    # chains up to dynamic (+) (the last puzzle needs them): the nested levels (2-5) are compiled
    # apart, when a puzzle needs them
    chains = "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4"
    batch = np.stack([_cells(PUZZLE), _cells(PUZZLE_B), _cells(chains)])
    rate(batch, max_level=1)
    rate(batch, max_level=1, steps=True)


def _explore() -> None:
    from .explore import neighbourhood, puzzles_on_pattern

    fixed = PUZZLE[:64] + "." * 17
    puzzles_on_pattern(PUZZLE, fixed=fixed)
    puzzles_on_pattern(PUZZLE, fixed=fixed, minimal=True)
    neighbourhood(PUZZLE, 1, 1)
    neighbourhood(PUZZLE, 2, 1)
    neighbourhood(PUZZLE, 1, 0)


STEPS: list[tuple[str, Callable[[], None]]] = [
    ("bands", _bands), ("canon", _canon), ("solve", _solve), ("grids", _grids), ("patterns", _patterns),
    ("search17", _search17), ("unavoidable", _unavoidable), ("generate", _generate), ("rate", _rate), ("explore", _explore)]
"""The families in the order their kernels are compiled (later steps reuse earlier tables)."""


def _cells(text: str) -> np.ndarray:
    from .text import parse

    return parse(text)


def warm_up() -> Iterator[tuple[str, float]]:
    """Run every step, yielding ``(step name, seconds)`` after each (the callers print progress);
    then mark the cache folder warm."""
    from ._cache import mark_warm

    for name, step in STEPS:
        t0 = time.perf_counter()
        step()
        yield name, time.perf_counter() - t0
    mark_warm()
