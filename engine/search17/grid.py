"""Every puzzle of 16 to 18 clues inside one grid, band by band: the 17-clue search's pair kernels
run on the grid's own bands (:func:`grid_search`).

The passes of the search over the entry, applied to one grid G. Where a puzzle P of n clues puts
its clues on G's bands and stacks (n <= 18):

* some band holds 7 or more clues: take a band with the most clues as band 3 and the other two as
  bands 1 and 2, the one with fewer clues first; P's clue counts are one of the *high* splits
  (x <= y <= z, z >= 7) with no stack cap;
* else some stack holds 7 or more: the same on the transposed grid;
* else every band and stack holds at most 6: take the band with the fewest clues as band 1 and
  the other two as bands 2 and 3 in either order; the counts are a *low* split (x <= y <= 6,
  x <= z <= 6: a set symmetric in y and z) and every stack holds at most 6
  (:data:`~.passes.STACK_CAP`). The stack with the fewest clues on the transposed grid does as
  well: such a puzzle's stacks hold a low split too.

So fifteen arrangements (per band and per stack, high with it as band 3 and the two others as
bands 1 and 2 in either order; per band, or per stack, low with it as band 1) cover every puzzle.
The low ones are the costliest (band 1 holds 4-6 clues: many valid sets, each expanded into the
valid sets of band 2), and they leave two choices, made by :func:`low_arrangements` from a cost
estimate, the band-1 valid sets times the band-2 valid sets of each low split: which of the two
other bands is band 2, and which orientation (``bench/bench_unavoidable.py --low-arrangements``
compares the choice with the best one).
Any cover of the low puzzles by low arrangements holds all three bands or all three stacks (a
band left out leaves its puzzles to every stack), so one orientation's three is the least. Band 1
holds the fewest clues in every split because the cost of a split grows with band 1's count
(its valid clue sets, each expanded into band 2): on a grid of one list 17 the split (7, 3, 7)
cost 26 times as much as (3, 7, 7). Each arrangement is one pair (bands 1+2) with one band 3,
searched by :meth:`.pair.PairSearcher.pair` (the pair's UAs, the valid clue sets of bands 1 and
2 expanded against them, the band-3 sets, the uniqueness check), which finds every puzzle of its
splits on that pair (the property the entry search is tested for against the complete 17 list).
Every band needs at least its fewest fixing clues (every puzzle meets each band's fixing sets),
so splits below that are skipped. Where two arrangements would search the same split (as many
clues in bands 1 and 2), only one does (:func:`high_arrangements`, :func:`arrangement_low_splits`);
a puzzle still met twice (a band and a stack of 7+, or two bands of 7) is kept once: the puzzles
are sets of cells of G. :func:`..unavoidable.puzzles_in_grid` searches 16 to 18 clues this way
unless asked (its speed beside the hitting-set search: ``docs/benchmarks.md``).

    >>> from sudoku_symmetry.engine.search17.grid import grid_search
    >>> found = grid_search(grid, 17)                       # doctest: +SKIP
    >>> found.puzzles.shape, found.seconds                 # doctest: +SKIP
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np

from .counters import N_STATS, STAT_NAMES
from .pair import PairSearcher, swap_bands
from .passes import NO_CAP, STACK_CAP, fitting

CLUES = (16, 17, 18)
"""Clue counts this search takes: below 16 no puzzle exists (McGuire et al. 2012) and the
hitting-set search proves it fastest; above 18 a grid's puzzles are too many to list."""


def low_splits(clues: int) -> tuple[tuple[int, int, int], ...]:
    """(band 1, band 2, band 3) counts with every band at most 6 and band 1 the fewest."""
    return tuple((x, y, clues - x - y) for x in range(7) for y in range(x, 7) if x <= clues - x - y <= 6)


def high_splits(clues: int) -> tuple[tuple[int, int, int], ...]:
    """(band 1, band 2, band 3) counts with band 3 holding 7 or more and the most, band 1 the
    fewest."""
    return tuple((x, clues - z - x, z) for z in range(7, clues + 1) for x in range(clues - z + 1)
                 if x <= clues - z - x <= z)


@dataclass(frozen=True)
class Arrangement:
    """One of the 24 views of the grid (a search runs fifteen): ``transposed`` (stacks as bands),
    ``order`` (the grid's bands taken as bands 1, 2 and 3), ``kind`` ("low" or "high")."""

    transposed: bool
    order: tuple[int, int, int]
    kind: str

    def cells(self) -> np.ndarray:
        """Cell of the grid under each cell (0-80) of the arranged grid."""
        rows = np.concatenate([np.arange(3 * b, 3 * b + 3) for b in self.order])
        idx = (rows[:, None] * 9 + np.arange(9)[None, :]).reshape(81)
        return (idx % 9) * 9 + idx // 9 if self.transposed else idx


ARRANGEMENTS = tuple(
    [Arrangement(t, (b, p, q), "low") for t in (False, True) for b in range(3)
     for p in range(3) for q in range(3) if len({p, q, b}) == 3]
    + [Arrangement(t, (p, q, b), "high") for t in (False, True) for b in range(3)
       for p in range(3) for q in range(3) if len({p, q, b}) == 3])
"""Twelve low arrangements (each band or stack as band 1, the two others in either order), of which
a search takes three, and twelve high ones (each band or stack as band 3)."""


def arrangement_searcher(g: np.ndarray, clues: int, arr: Arrangement) -> PairSearcher:
    """The pair searcher of ``arr`` on grid ``g`` (81 digits): its band 1, its kind's splits and
    stack cap; one band 3 a pair, so the pair's UAs from refillings only (``solver_digits`` empty)."""
    band = g[arr.cells()][:27]
    if arr.kind == "low":
        return PairSearcher(band, low_splits(clues), STACK_CAP, solver_digits=())
    return PairSearcher(band, high_splits(clues), NO_CAP, solver_digits=())


def arrangement_low_splits(arr: Arrangement, clues: int) -> tuple[tuple[int, int, int], ...]:
    """The low splits arrangement ``arr`` searches: band 1 holds the fewest clues, and where
    another band holds as few (a tie, e.g. 5-5-6 for 16 clues, 6-6-6 for 18) the band of lower
    index in the grid is band 1, so each low puzzle is met by one low arrangement of an
    orientation."""
    b, p, q = arr.order
    return tuple((x, y, z) for x, y, z in low_splits(clues) if (x < y or b < p) and (x < z or b < q))


def low_arrangements(grid, clues: int, transposed: bool | None = None) -> list:
    """The three low arrangements a search takes, with their searchers and splits
    (:func:`arrangement_low_splits`): per band (or stack) as band 1, the other two in the order,
    and the orientation (bands, or stacks as bands), of the least estimated cost: the sum over
    the splits (x, y, z) of band 1's valid x-clue sets times band 2's valid y-clue sets (each
    band-1 set is expanded into band 2's sets, and the candidates go through the band-3 step).
    ``transposed`` False or True: that orientation's. (The estimate misses where the pair's UAs
    prune unevenly: on grids of list puzzles the choice costs about 15 % more than the best
    one, and a third less than taking the arrangements as they come.)"""
    g = np.asarray(grid, np.int64).reshape(81)
    best, best_cost = None, None
    for t in ((False, True) if transposed is None else (bool(transposed),)):
        chosen, total = [], 0
        for b in range(3):
            p, q = [o for o in range(3) if o != b]
            first = Arrangement(t, (b, p, q), "low")
            se = arrangement_searcher(g, clues, first)
            view = g[first.cells()]
            cost = {}
            for order, band2 in (((b, p, q), view[27:54]), ((b, q, p), view[54:])):
                splits = arrangement_low_splits(Arrangement(t, order, "low"), clues)
                cost[order] = sum(len(se.band1_sets(x)) * se.valid_count(band2, y)
                                  for x, y, _ in fitting(splits, se.min1, 0))
            order = min(cost, key=lambda o: (cost[o], o))
            arr = Arrangement(t, order, "low")
            chosen.append((arr, se, arrangement_low_splits(arr, clues)))
            total += cost[order]
        if best is None or total < best_cost:
            best, best_cost = chosen, total
    return best


def high_arrangements(grid, clues: int):
    """The twelve high arrangements with their searchers and splits, two at a time (each band or
    stack as band 3, the two others in both orders): a split with as many clues in bands 1 and 2
    (a tie, e.g. 5-5-7) is the same in both orders, so only the order whose band 1 has the fewer
    valid sets of the ties' counts searches it (5-5-7 is most of the high arrangements' time)."""
    g = np.asarray(grid, np.int64).reshape(81)
    every = high_splits(clues)
    ties = [s for s in every if s[0] == s[1]]
    strict = tuple(s for s in every if s[0] < s[1])
    for t in (False, True):
        for b in range(3):
            arrs = [a for a in ARRANGEMENTS if a.kind == "high" and a.transposed == t and a.order[2] == b]
            ses = [arrangement_searcher(g, clues, a) for a in arrs]
            cost = [sum(len(se.band1_sets(x)) for x, _, _ in ties if x >= se.min1) for se in ses]
            owner = 0 if cost[0] <= cost[1] else 1
            for k in (0, 1):
                yield arrs[k], ses[k], every if k == owner else strict


@dataclass
class GridSearch:
    """The result of :func:`grid_search`: ``puzzles`` (k, 81) uint8 (0 = empty) in the grid's
    cells, each once; ``per_arrangement``: per arrangement the puzzles it met, its CPU seconds
    and those of its pair's UAs (``ua_seconds``: 0 where another arrangement collected them);
    ``stats``: the pair kernels' counters summed; ``seconds``: CPU."""

    grid: np.ndarray
    clues: int
    puzzles: np.ndarray
    seconds: float
    per_arrangement: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)


def grid_search(grid, clues: int = 17) -> GridSearch:
    """Every puzzle of exactly ``clues`` givens (16, 17 or 18) whose unique solution is ``grid``
    (81 digits 1-9, checked by the caller), each once: the module's fifteen arrangements (the
    three low ones of :func:`low_arrangements` and the twelve high ones of
    :func:`high_arrangements`)."""
    clues = int(clues)
    if clues not in CLUES:
        raise ValueError(f"the band-wise search takes {', '.join(map(str, CLUES))} clues, got {clues}")
    g = np.asarray(grid, np.int64).reshape(81)
    t0 = time.process_time()
    seen: dict[bytes, np.ndarray] = {}
    per = []
    stats = np.zeros(N_STATS, np.int64)
    uas: dict[tuple[bool, int, int], np.ndarray] = {}  # per view and bands 1, 2: the pair's UAs
    todo = itertools.chain(low_arrangements(g, clues), high_arrangements(g, clues))
    for arr, se, splits in todo:
        t1 = time.process_time()
        cells = arr.cells()
        view = g[cells]
        # six pairs of bands in fifteen arrangements: each pair's UAs once
        b1, b2 = arr.order[:2]
        ua_t = time.process_time()
        if (arr.transposed, b1, b2) not in uas:
            if (arr.transposed, b2, b1) in uas:
                uas[arr.transposed, b1, b2] = swap_bands(uas[arr.transposed, b2, b1])
            else:
                uas[arr.transposed, b1, b2] = se.pair_uas(view[27:54], view[54:])
        ua_t = time.process_time() - ua_t
        met = 0
        for part in se.pair(view[27:54], view[54:][None, :], splits, uas=uas[arr.transposed, b1, b2]):
            for p in part:
                q = np.zeros(81, np.uint8)
                q[cells] = p
                seen.setdefault(q.tobytes(), q)
                met += 1
        stats += se.stats
        per.append({"arrangement": arr, "met": met, "seconds": time.process_time() - t1, "ua_seconds": ua_t})
    puzzles = np.array(list(seen.values()), np.uint8).reshape(-1, 81)
    return GridSearch(g.astype(np.uint8), clues, puzzles, time.process_time() - t0, per,
                      dict(zip(STAT_NAMES, (int(v) for v in stats))))
