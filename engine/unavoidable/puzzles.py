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
BATCH = 1 << 14
"""The most clue sets a search holds at once: one that finds more hands them on in batches of at
most this many (:func:`iter_masks`), so its memory stays the same whatever it finds (a batch of
puzzles is 1.3 MB)."""
MAX_PUZZLES = 1 << 22
"""The most puzzles :func:`puzzles_in_grid` returns at once with no ``limit`` (4,194,304: 340 MB
as (k, 81) uint8); a search that finds more is refused with :class:`TooManyPuzzles` (take them in
batches with :func:`puzzle_batches`, or pass a limit)."""
NO_LIMIT = 1 << 62


class TooManyPuzzles(ValueError):
    """More puzzles than a caller can hold (:data:`MAX_PUZZLES`) and no ``limit``: the message says
    how many at least."""


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


def _split_cell(uas: np.ndarray, given: tuple[int, int], dead: tuple[int, int]) -> tuple[int, int] | None:
    """A cell to split a search on, as (lo, hi) words: a live cell of the first UA the givens
    miss (every clue set of the part holds one of them), else the lowest live cell; None when no
    cell is live."""
    live = (~(given[0] | dead[0]) & ((1 << 64) - 1), ~(given[1] | dead[1]) & ((1 << 17) - 1))
    missed = np.flatnonzero(((uas[:, 0] & np.uint64(given[0])) == 0) & ((uas[:, 1] & np.uint64(given[1])) == 0))
    if len(missed):
        in_ua = (int(uas[missed[0], 0]) & live[0], int(uas[missed[0], 1]) & live[1])
        if in_ua != (0, 0):
            live = in_ua
    lo, hi = live
    if lo:
        return lo & -lo, 0
    return (0, hi & -hi) if hi else None


def iter_masks(grid: np.ndarray, clues: int, uas: np.ndarray, *, minimal: bool = False, limit: int | None = None,
               given: tuple[int, int] = (0, 0), dead: tuple[int, int] = (0, 0), batch: int | None = None,
               stats: np.ndarray | None = None, record: np.ndarray | None = None):
    """The hitting-set search (:func:`.hitting.hitting_sets`) on a checked grid with given UAs, in
    batches: (k, 2) uint64 clue sets, at most ``batch`` at a time, each set once, at most
    ``limit`` in all. A part of the search that finds more than a batch is split in two at a cell
    (the clue sets with it, those without: :func:`_split_cell`), each searched alone, until every
    part fits; so memory stays bounded whatever the search finds, and a part is searched again
    at most once per split (the searches below a split are smaller). ``stats`` (N_STATS,) int64:
    the counters are added to it, and ``stats[STAT_FULL]`` is 1 when ``limit`` cut the search
    short (there may be more). ``record``: the first clue sets the solver checks in the first
    part searched (benchmarks)."""
    total = np.zeros(hitting.N_STATS, np.int64) if stats is None else stats
    left = NO_LIMIT if limit is None else int(limit)
    out = np.zeros((max(1, int(BATCH if batch is None else batch)), 2), np.uint64)
    run = np.zeros(hitting.N_STATS, np.int64)
    rec = np.zeros((0, 2), np.uint64) if record is None else record
    parts = [((int(given[0]), int(given[1])), (int(dead[0]), int(dead[1])))]
    while parts and left > 0:
        (g0, g1), (d0, d1) = parts.pop()
        room = out[: min(len(out), left)]
        k = hitting.hitting_sets(grid, uas, int(clues), np.uint64(g0), np.uint64(g1), np.uint64(d0), np.uint64(d1),
                                 bool(minimal), left, room, rec, run)
        rec = np.zeros((0, 2), np.uint64)
        # a batch filled to the last slot may have had more to give: the kernel flags it, except
        # where the part's first node itself lists every superset of a puzzle (givens that hit
        # every UA), which ends the search as the batch fills
        full = bool(run[hitting.STAT_FULL]) or (k == len(out) and k < left)
        run[hitting.STAT_FULL] = 0
        total += run
        if full:  # more than a batch (and not the limit): split, the sets with the cell first
            cell = _split_cell(uas, (g0, g1), (d0, d1))
            if cell is None:
                raise RuntimeError("internal error: a search part with no live cell filled a batch")
            parts.append(((g0, g1), (d0 | cell[0], d1 | cell[1])))
            parts.append(((g0 | cell[0], g1 | cell[1]), (d0, d1)))
            continue
        if k:
            yield out[:k].copy()
        left -= k
    total[hitting.STAT_FULL] = int(limit is not None and left <= 0)


def search_masks(grid: np.ndarray, clues: int, uas: np.ndarray, *, minimal: bool = False, limit: int | None = None,
                 given: tuple[int, int] = (0, 0), dead: tuple[int, int] = (0, 0), record: np.ndarray | None = None):
    """The search on a checked grid with given UAs, whole: (masks (k, 2) uint64, complete, stats array)."""
    stats = np.zeros(hitting.N_STATS, np.int64)
    parts = list(iter_masks(grid, clues, uas, minimal=minimal, limit=limit, given=given, dead=dead, stats=stats,
                            record=record))
    masks = np.concatenate(parts) if parts else np.zeros((0, 2), np.uint64)
    return masks, not stats[hitting.STAT_FULL], stats


METHODS = ("auto", "hitting", "bands")
"""``hitting``: the hitting-set search over the grid's UAs (any clue count); ``bands``: the 17-clue
search's pair kernels on the grid's own bands (16-18 clues, :mod:`..search17.grid`); ``auto``: bands
for the clue counts of :data:`AUTO_BANDS`, hitting otherwise."""
AUTO_BANDS = BAND_CLUES
"""Clue counts ``auto`` searches band-wise: all that the band-wise search takes. 17: the grid
with the most 17s in 16 CPU-s against 1,465 by hitting sets. 16: 50 random grids, median 0.55 s
against 1.80 s, max 1.5 s against 13.4 (``bench/bench_unavoidable.py --grids 50 --seed 1
--method bands``, and ``--method hitting``). 18: a random grid (seed 1) 24.3 CPU-s against 444.2;
a list grid with 69 18s 43 s, where the hitting-set search was stopped after 10 CPU-minutes."""


def _check(grid, clues: int, limit: int | None, method: str) -> tuple[np.ndarray, int]:
    cells = check_grid(grid)
    clues = int(clues)
    if not 0 <= clues <= 81:
        raise ValueError(f"clues must be between 0 and 81, got {clues}")
    if limit is not None and int(limit) < 1:
        raise ValueError("limit must be at least 1")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    return cells, clues


class PuzzleBatches:
    """Every puzzle of ``clues`` clues of a grid, found and handed on in batches: iterate for
    (k, 81) uint8 arrays (0 = empty) in the order found, at most :data:`BATCH` puzzles each, so a
    search with millions of puzzles (every superset of a puzzle is one: 75 clues of a grid give
    hundreds of millions) runs in the memory of one batch. Once the iteration ends, ``found``,
    ``complete`` (False when ``limit`` cut it: there may be more), ``automorphisms`` and
    ``stats`` (as :class:`PuzzlesInGrid`'s) are set. Iterate once."""

    def __init__(self, grid, clues: int, minimal: bool = False, limit: int | None = None, method: str = "auto",
                 batch: int | None = None):
        self.grid, self.clues = _check(grid, clues, limit, method)
        self.minimal, self.limit, self.method = bool(minimal), limit, method
        self.batch = max(1, int(BATCH if batch is None else batch))
        self.found, self.complete, self.automorphisms, self.stats = 0, False, 0, {}

    def __iter__(self):
        if self.method == "bands" or (self.method == "auto" and self.clues in AUTO_BANDS):
            got = _by_bands(self.grid, self.clues, self.minimal, self.limit)
            for k in range(0, len(got.puzzles), self.batch):
                yield got.puzzles[k : k + self.batch]
            self.found, self.complete, self.stats = len(got), got.complete, got.stats
            self.automorphisms = got.automorphisms
            return
        t0, c0 = time.perf_counter(), time.process_time()
        uas, _ = minimal_uas(self.grid, SEARCH_UA_SIZE)
        t1 = time.perf_counter()
        stats = np.zeros(hitting.N_STATS, np.int64)
        for masks in iter_masks(self.grid, self.clues, uas, minimal=self.minimal, limit=self.limit,
                                batch=self.batch, stats=stats):
            self.found += len(masks)
            yield masks_to_arrays(masks, self.grid)
        t2 = time.perf_counter()
        self.complete = not stats[hitting.STAT_FULL]
        self.automorphisms = canon_grid(self.grid).automorphisms
        self.stats = {"method": "hitting", "nodes": int(stats[hitting.STAT_NODES]),
                      "checks": int(stats[hitting.STAT_CHECKS]), "learned": int(stats[hitting.STAT_LEARNED]),
                      "evictions": int(stats[hitting.STAT_EVICTIONS]), "uas": len(uas), "ua_seconds": t1 - t0,
                      "search_seconds": t2 - t1, "seconds": t2 - t0, "cpu_seconds": time.process_time() - c0}


def puzzle_batches(grid, clues: int, minimal: bool = False, limit: int | None = None, method: str = "auto",
                   batch: int | None = None) -> PuzzleBatches:
    """:func:`puzzles_in_grid` in batches of at most ``batch`` puzzles (default :data:`BATCH`), in
    bounded memory (:class:`PuzzleBatches`)."""
    return PuzzleBatches(grid, clues, minimal, limit, method, batch)


def puzzles_in_grid(grid, clues: int, minimal: bool = False, limit: int | None = None,
                    method: str = "auto", max_puzzles: int = MAX_PUZZLES) -> PuzzlesInGrid:
    """Every puzzle with exactly ``clues`` givens whose unique solution is ``grid``, each once.

    With ``minimal``, only minimal puzzles (no given can be removed keeping the solution unique).
    ``limit``: stop after that many (then ``complete`` is False). Two puzzles that differ in their
    cells are different puzzles even when an automorphism of the grid maps one onto the other.
    Without a ``limit``, more than ``max_puzzles`` puzzles raise :class:`TooManyPuzzles` (with many
    clues the count explodes: every superset of a puzzle is one); :func:`puzzle_batches` hands
    any number of them on in batches.

    Methods (:data:`METHODS`). ``hitting`` (McGuire, Tugemann and Civario 2012, with the bound of
    :mod:`.hitting`): the minimal UAs of up to 12 cells (:func:`.unavoidable_sets`), a hitting-set
    search of clue sets of the given size, the solver's uniqueness check on the sets hitting
    every known UA, and every UA a failed check exposes added to the search. Complete whatever
    UAs it starts from. ``bands`` (16 to 18 clues): the grid's bands and stacks in
    fifteen arrangements, each searched as one pair of bands 1+2 with one band 3 by the 17-clue
    search (:func:`..search17.grid.grid_search`, where the proof of completeness is); ``minimal``
    and ``limit`` are applied to its complete list. ``auto``: ``bands`` for 16 to 18 clues
    (:data:`AUTO_BANDS`), else ``hitting``. ``stats``: ``method``, its counters, ``seconds`` (wall) and ``cpu_seconds``.
    """
    found = puzzle_batches(grid, clues, minimal, limit, method, batch=min(BATCH, max_puzzles + 1))
    parts, n = [], 0
    for part in found:
        n += len(part)
        if limit is None and n > max_puzzles:
            raise TooManyPuzzles(f"more than {max_puzzles:,} puzzles of {found.clues} clues in this grid: pass a "
                                 "limit, or take them in batches (puzzle_batches)")
        parts.append(part)
    puzzles = np.concatenate(parts) if parts else np.zeros((0, 81), np.uint8)
    return PuzzlesInGrid(found.grid, found.clues, found.minimal, puzzles, found.complete, found.automorphisms,
                         found.stats)


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
