"""Every puzzle of n clues inside a grid (:func:`puzzles_in_grid`): the grid's small unavoidable
sets (:mod:`.sets`), then the hitting-set search with uniqueness checks (:mod:`.hitting`).

    >>> from sudoku_symmetry.engine.unavoidable import puzzles_in_grid
    >>> found = puzzles_in_grid("693784512487512936125963874932651487568247391741398625319475268856129743274836159", 80)
    >>> len(found), found.complete  # every cell can be emptied alone
    (81, True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..canon import canon_grid
from ..search17.grid import CLUES as BAND_CLUES, grid_search
from ..solve import check
from . import hitting
from .sets import check_grid, masks_to_arrays, minimal_uas

SEARCH_UA_SIZE = 12
"""Size of the UAs the search starts from (McGuire et al. found 12 best; so do we: 10 was 1.4x
slower on 16 clues, 14 about as fast with a 0.2 s longer collection)."""
DEFAULT_CAPACITY = 1 << 12
MAX_CAPACITY = 1 << 24


class TooManyPuzzles(RuntimeError):
    """More puzzles than :data:`MAX_CAPACITY` and no ``limit``: ask for fewer."""


@dataclass
class PuzzlesInGrid:
    """The result of :func:`puzzles_in_grid`.

    ``puzzles`` (k, 81) uint8 (0 = empty), in the order found; ``complete``: the search ran to its
    end (no ``limit`` cut it short), so these are all of them; ``automorphisms``: the grid's
    automorphism count (a grid with automorphisms holds ``|Aut(G)| / |Aut(P)|`` copies of each
    puzzle P of it, all listed, since they differ in their cells); ``stats``: search counters
    (nodes, solver checks, learned UAs, evictions) and the seconds spent collecting
    UAs and searching.
    """

    grid: np.ndarray
    clues: int
    minimal: bool
    puzzles: np.ndarray
    complete: bool
    automorphisms: int
    stats: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.puzzles)


def search_masks(grid: np.ndarray, clues: int, uas: np.ndarray, *, minimal: bool = False, limit: int | None = None,
                 given: tuple[int, int] = (0, 0), dead: tuple[int, int] = (0, 0), record: np.ndarray | None = None):
    """The search on a checked grid with given UAs: (masks (k, 2) uint64, complete, stats array)."""
    cap_limit = MAX_CAPACITY if limit is None else int(limit)
    capacity = max(1, min(DEFAULT_CAPACITY, cap_limit))
    stats = np.zeros(hitting.N_STATS, np.int64)
    rec = np.zeros((0, 2), np.uint64) if record is None else record
    while True:
        out = np.zeros((capacity, 2), np.uint64)
        k = hitting.hitting_sets(grid, uas, int(clues), np.uint64(given[0]), np.uint64(given[1]), np.uint64(dead[0]),
                                 np.uint64(dead[1]), bool(minimal), cap_limit, out, rec, stats)
        if not stats[hitting.STAT_FULL]:
            break
        if capacity >= cap_limit:
            break
        if capacity >= MAX_CAPACITY:
            raise TooManyPuzzles(f"more than {MAX_CAPACITY:,} puzzles: pass a limit")
        capacity = min(4 * capacity, cap_limit, MAX_CAPACITY)
    complete = k < cap_limit and not stats[hitting.STAT_FULL]
    return out[:k], complete, stats


METHODS = ("auto", "hitting", "bands")
"""``hitting``: the hitting-set search over the grid's UAs (any clue count); ``bands``: the 17-clue
search's pair kernels on the grid's own bands (16-18 clues, :mod:`..search17.grid`); ``auto``: bands
for the clue counts of :data:`AUTO_BANDS`, hitting otherwise."""
AUTO_BANDS = BAND_CLUES
"""Clue counts ``auto`` searches band-wise: all that the band-wise search takes, which is the
faster there at every count (3x on 16 clues, 90x on 17: ``bench/bench_unavoidable.py --method
bands`` and ``--method hitting``; ``docs/benchmarks.md``)."""


def puzzles_in_grid(grid, clues: int, minimal: bool = False, limit: int | None = None,
                    method: str = "auto") -> PuzzlesInGrid:
    """Every puzzle with exactly ``clues`` givens whose unique solution is ``grid``, each once.

    With ``minimal``, only minimal puzzles (no given can be removed keeping the solution unique).
    ``limit``: stop after that many (then ``complete`` is False). Two puzzles that differ in their
    cells are different puzzles even when an automorphism of the grid maps one onto the other.

    Methods (:data:`METHODS`). ``hitting`` (McGuire, Tugemann and Civario 2012, with the bound of
    :mod:`.hitting`): the minimal UAs of up to 12 cells (:func:`.unavoidable_sets`), a hitting-set
    search of clue sets of the given size, the solver's uniqueness check on the sets hitting
    every known UA, and every UA a failed check exposes added to the search. Complete whatever
    UAs it starts from. Without ``minimal`` and with many clues the count explodes (every superset
    of a puzzle is one): use ``limit``. ``bands`` (16 to 18 clues): the grid's bands and stacks in
    fifteen arrangements, each searched as one pair of bands 1+2 with one band 3 by the 17-clue
    search (:func:`..search17.grid.grid_search`, where the proof of completeness is); ``minimal``
    and ``limit`` are applied to its complete list. ``auto``: ``bands`` for 16 to 18 clues
    (:data:`AUTO_BANDS`), else ``hitting``. ``stats``: ``method``, its counters, ``seconds`` (wall) and ``cpu_seconds``.
    """
    cells = check_grid(grid)
    clues = int(clues)
    if not 0 <= clues <= 81:
        raise ValueError(f"clues must be between 0 and 81, got {clues}")
    if limit is not None and int(limit) < 1:
        raise ValueError("limit must be at least 1")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "bands" or (method == "auto" and clues in AUTO_BANDS):
        return _by_bands(cells, clues, minimal, limit)
    t0 = time.perf_counter()
    c0 = time.process_time()
    uas, _ = minimal_uas(cells, SEARCH_UA_SIZE)
    t1 = time.perf_counter()
    masks, complete, stats = search_masks(cells, clues, uas, minimal=minimal, limit=limit)
    t2 = time.perf_counter()
    info = {"method": "hitting", "nodes": int(stats[hitting.STAT_NODES]), "checks": int(stats[hitting.STAT_CHECKS]),
            "learned": int(stats[hitting.STAT_LEARNED]),
            "evictions": int(stats[hitting.STAT_EVICTIONS]), "uas": len(uas),
            "ua_seconds": t1 - t0, "search_seconds": t2 - t1, "seconds": t2 - t0, "cpu_seconds": time.process_time() - c0}
    return PuzzlesInGrid(cells, clues, bool(minimal), masks_to_arrays(masks, cells), complete,
                         canon_grid(cells).automorphisms, info)


def _by_bands(cells: np.ndarray, clues: int, minimal: bool, limit: int | None) -> PuzzlesInGrid:
    """``puzzles_in_grid`` by the band-wise search: its complete list, then ``minimal`` (the
    solver's minimality check) and ``limit``."""
    t0 = time.perf_counter()
    found = grid_search(cells, clues)
    puzzles = found.puzzles
    if minimal and len(puzzles):
        _, is_minimal = check(puzzles)
        puzzles = puzzles[is_minimal]
    complete = limit is None or len(puzzles) <= int(limit)
    if not complete:
        puzzles = puzzles[:int(limit)]
    info = {"method": "bands", **found.stats, "arrangements": len(found.per_arrangement),
            "seconds": time.perf_counter() - t0, "cpu_seconds": found.seconds}
    return PuzzlesInGrid(cells, clues, bool(minimal), puzzles, complete, canon_grid(cells).automorphisms, info)
