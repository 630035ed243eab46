"""Minimal puzzles, top-down: a uniformly random grid, its givens removed in a random order while
the puzzle stays unique (kernels in ``_kernels``), with or without a symmetry of the pattern;
minimizing a given puzzle; every minimal puzzle inside a puzzle.

    >>> from sudoku_symmetry.engine.generate import generate
    >>> made = generate(3, seed=1)
    >>> made.puzzles.shape, made.clues.tolist() == [int((p > 0).sum()) for p in made.puzzles]
    ((3, 81), True)

**What the draws are.** Attempt i of a seed starts from grid i of the seed's uniform draw
(:func:`~sudoku_symmetry.engine.grids.uniform.uniform_grids`), and removes givens in an order
drawn from its own stream (chunks of :data:`CHUNK` attempts each have one): the order of the
cells is uniform among the 81! (with a symmetry: of its orbits), so this is the top-down
generator of the literature (suexg; Berthier's statistics) on exactly uniform grids. With a range
of clue counts, the attempts outside it are skipped; the puzzles returned are the first ``n``
kept, in attempt order, the same for a seed whatever else is asked. A range of Sudoku
Explainer ratings (ER) is a filter too: the puzzles left by the clue range are rated
(:func:`~sudoku_symmetry.engine.rate.filter.er_within`, no deeper than the range needs) and
those outside it skipped.

A puzzle is *minimal* (no given can be removed keeping it unique) without a symmetry. With one,
givens go an orbit at a time, so the result is minimal among the puzzles with that symmetry: no
orbit can go, though a single given sometimes could.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..core.rng import STATE_WORDS, seed_stream
from ..grids.uniform import CHUNK, check_seed, stream_id, uniform_grids
from ..solve import count_solutions
from ..text import as_batch
from . import _kernels as K
from .symmetry import canonical_name, orbit_table

ORDER_DOMAIN = 1
"""Stream domain of the removal orders (the grids take domain 0 of the same seed)."""
MINIMIZE_DOMAIN = 2
"""Stream domain of :func:`minimize`'s random orders (stream = the puzzle's index)."""
STAT_NAMES = ("ua_kept", "singles", "searches", "search_kept")


@lru_cache(maxsize=None)
def _orbits(symmetry: str) -> tuple[np.ndarray, np.ndarray]:
    return orbit_table(symmetry)


@dataclass
class Generated:
    """Puzzles made top-down: ``puzzles`` (n, 81) uint8 (0 = empty), the ``grids`` they were
    made from (their solutions), ``clues`` per puzzle, ``attempts`` the attempt number of each (grid
    ``attempts[k]`` of the seed's uniform draw), ``tried`` the attempts made in all, and
    ``stats``: how the removals were decided (known UA, singles, solver searches and those that
    kept the given)."""

    seed: int
    symmetry: str
    puzzles: np.ndarray
    grids: np.ndarray
    clues: np.ndarray
    attempts: np.ndarray
    tried: int
    stats: dict = field(default_factory=dict)
    er: np.ndarray | None = None
    """Sudoku Explainer's ER of each puzzle when a rating range was asked (else None)."""

    def __len__(self) -> int:
        return len(self.puzzles)


def top_down_range(seed: int, first: int, n: int, symmetry: str = "none", stats: np.ndarray | None = None):
    """Attempts ``first .. first + n - 1`` of a seed: ``(grids, puzzles, clues)``, each attempt
    the same whatever range it is made in (a shard of a long run makes its range alone)."""
    seed = check_seed(seed)
    cells, sizes = _orbits(canonical_name(symmetry))
    grids = uniform_grids(n, seed, first=first)
    puzzles = np.zeros((n, 81), np.uint8)
    clues = np.zeros(n, np.int64)
    st = np.zeros(K.N_STATS, np.int64) if stats is None else stats
    state = np.zeros(STATE_WORDS, np.uint64)
    done = 0
    while done < n:
        chunk, skip = divmod(first + done, CHUNK)
        take = min(n - done, CHUNK - skip)
        seed_stream(state, seed, stream_id(chunk, ORDER_DOMAIN))
        if skip:  # the orders of the chunk's attempts before the range, drawn and dropped
            K.skip_orders(state, len(sizes), skip)
        K.top_down(grids[done:done + take], state, cells, sizes, puzzles[done:done + take], clues[done:done + take], st)
        done += take
    return grids, puzzles, clues


def parse_range(text, what: str = "clues", low: int = 0, high: int = 81) -> tuple[int, int] | None:
    """``"A-B"``, ``"A"``, ``"A-"`` or ``"-B"`` (or a (lo, hi) pair, or None) as an inclusive
    (lo, hi) within [low, high], or ValueError."""
    if text is None:
        return None
    if isinstance(text, (tuple, list)):
        lo, hi = (int(text[0]), int(text[1]))
    else:
        s = str(text).strip()
        try:
            if "-" in s:
                a, b = s.split("-", 1)
                lo = int(a) if a.strip() else low
                hi = int(b) if b.strip() else high
            else:
                lo = hi = int(s)
        except ValueError:
            raise ValueError(f"{what} must be a number or a range A-B, got {text!r}") from None
    if not low <= lo <= hi <= high:
        raise ValueError(f"{what} must be within {low}-{high} with the low end first, got {text!r}")
    return lo, hi


RATE_BATCH = 32
"""Puzzles rated at a time by :func:`keep_rated`: a filter that needs few puzzles rates few."""


def keep_rated(puzzles: np.ndarray, ok: np.ndarray, rating, need: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(kept, er)``: which of the ``ok`` puzzles have a Sudoku Explainer rating (ER) in the
    range ``rating`` (None: every one, each rated in full), taken in order until ``need`` are
    kept (the later ones are left unrated and not kept); ``er`` the ER of each rated puzzle (NaN
    for the others; a lower bound for those the range rejected early)."""
    from ..rate.filter import er_within  # the rating's kernels load only when a puzzle is rated

    kept = np.zeros(len(ok), bool)
    er = np.full(len(ok), np.nan)
    todo = np.flatnonzero(ok)
    for k in range(0, len(todo), RATE_BATCH):
        part = todo[k:k + RATE_BATCH]
        inside, er[part] = er_within(puzzles[part], (0.0, 20.0) if rating is None else rating)
        kept[part] = inside
        if need is not None and int(kept.sum()) >= need:
            break
    return kept, er


def generate(n: int, seed: int = 0, *, symmetry: str = "none", clues=None, rating=None, first: int = 0,
             max_attempts: int | None = None) -> Generated:
    """``n`` minimal puzzles top-down from uniformly random grids (module docstring), those with
    a number of givens in ``clues`` (a range ``"A-B"`` or (lo, hi); default any) and, with
    ``rating`` (a range of Sudoku Explainer's ER, ``"7-8"``), an ER in it, starting at attempt
    ``first``. ``max_attempts``: stop after that many attempts (then fewer may come back); by
    default 1,000 per puzzle asked, at least a million."""
    seed = check_seed(seed)
    sym = canonical_name(symmetry)
    rng = parse_range(clues)
    er_range = None
    if rating is not None:
        from ..rate.filter import parse_rating  # the rating loads only for a rating range

        er_range = parse_rating(rating)
    n = int(n)
    if n < 0:
        raise ValueError("n must be 0 or more")
    cap = max(1_000_000, 1000 * n) if max_attempts is None else int(max_attempts)
    st = np.zeros(K.N_STATS, np.int64)
    parts, tried, at, kept = [], 0, int(first), 0
    while kept < n and tried < cap:
        size = min(CHUNK - at % CHUNK, cap - tried)
        if rng is None:
            size = min(size, n - kept)
        if er_range is not None:
            size = min(CHUNK - at % CHUNK, cap - tried)
        grids, puzzles, cl = top_down_range(seed, at, size, sym, st)
        keep = np.ones(size, bool) if rng is None else (cl >= rng[0]) & (cl <= rng[1])
        er = np.full(size, np.nan)
        if er_range is not None:
            keep, er = keep_rated(puzzles, keep, er_range, n - kept)
        idx = np.flatnonzero(keep)[: n - kept]
        parts.append((grids[idx], puzzles[idx], cl[idx], at + idx, er[idx]))
        kept += len(idx)
        used = size if kept < n else int(idx[-1]) + 1
        tried += used
        at += used
    if parts:
        grids, puzzles, cl, att, er = (np.concatenate(x) for x in zip(*parts))
    else:
        grids, puzzles, cl, att, er = (np.zeros((0, 81), np.uint8), np.zeros((0, 81), np.uint8),
                                       np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    return Generated(seed, sym, puzzles, grids, cl, att.astype(np.int64), tried, dict(zip(STAT_NAMES, st.tolist())),
                     er if er_range is not None else None)


class NotUnique(ValueError):
    """A puzzle to minimize has no solution or several."""


def _solutions(puzzles: np.ndarray) -> np.ndarray:
    res = count_solutions(puzzles, 2, solutions=True)
    bad = np.flatnonzero(res.counts != 1)
    if len(bad):
        k = int(bad[0])
        what = "no solution" if res.counts[k] == 0 else "more than one solution"
        raise NotUnique(f"puzzle {k + 1} has {what}: only a unique puzzle can be minimized")
    return res.solutions


ORDERS = ("random", "forward", "backward")
"""Orders :func:`minimize` tries the givens in: random (per seed), reading order, its reverse."""


def minimize(puzzles, order="random", seed: int = 0, streams=None) -> tuple[np.ndarray, np.ndarray]:
    """Each unique puzzle made minimal: ``(puzzles (n, 81) uint8, their solutions)``. Givens are
    tried in ``order``: ``random`` (puzzle k's order from stream ``streams[k]`` of ``seed``, by
    default k: reproducible),
    ``forward`` (r1c1 to r9c9), ``backward``, or a sequence of cells (0-80) tried in that order
    (givens not in it stay). Raises :class:`NotUnique` for a puzzle without exactly one solution."""
    batch = np.array(as_batch(puzzles), np.uint8, copy=True)
    seed = check_seed(seed)
    sols = _solutions(batch)
    n = len(batch)
    orders = np.zeros((n, 81), np.int64)
    lengths = np.full(n, 81, np.int64)
    if isinstance(order, str):
        if order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(ORDERS)} or a sequence of cells, got {order!r}")
        base = np.arange(81) if order != "backward" else np.arange(80, -1, -1)
        orders[:] = base
        if order == "random":
            from ..core.rng import shuffle

            state = np.zeros(STATE_WORDS, np.uint64)
            ids = range(n) if streams is None else [int(x) for x in streams]
            for k, s in enumerate(ids):
                seed_stream(state, seed, stream_id(s, MINIMIZE_DOMAIN))
                shuffle(state, orders[k], 81)
    else:
        cells = [int(c) for c in order]
        if any(not 0 <= c < 81 for c in cells) or len(set(cells)) != len(cells):
            raise ValueError("an order of cells must list distinct cells 0-80")
        orders[:, : len(cells)] = cells
        lengths[:] = len(cells)
    cells1, sizes1 = _orbits("none")
    clues = np.zeros(n, np.int64)
    K.minimize_batch(batch, sols, orders, lengths, cells1, sizes1, clues, np.zeros(K.N_STATS, np.int64))
    return batch, sols


def minimal_inside(puzzle, limit: int | None = None):
    """Every minimal puzzle whose givens are a subset of ``puzzle``'s (a unique puzzle), each once:
    ``(puzzles (k, 81) uint8, complete)``, by clue count then in search order. The minimal
    puzzles inside are the minimal sets of the puzzle's givens that hit every unavoidable set of
    its solution: the hitting-set search of :mod:`..unavoidable` (its UAs of up to 12 cells,
    learning more from failed checks), with the cells outside the puzzle dead, for each clue
    count from 17 (none has fewer) up to the puzzle's own. ``limit``: stop after that many (then
    ``complete`` is False)."""
    from ..unavoidable.puzzles import SEARCH_UA_SIZE, search_masks
    from ..unavoidable.sets import masks_to_arrays, minimal_uas

    cells = np.array(as_batch(puzzle)[0], np.uint8)
    sol = _solutions(cells[None])[0]
    given = cells > 0
    dead = [0, 0]
    for q in np.flatnonzero(~given).tolist():
        dead[q >= 64] |= 1 << (q if q < 64 else q - 64)
    uas, _ = minimal_uas(sol, SEARCH_UA_SIZE)
    found, complete = [], True
    for k in range(17, int(given.sum()) + 1):
        left = None if limit is None else limit - sum(len(f) for f in found)
        if left is not None and left <= 0:
            complete = False
            break
        masks, done, _ = search_masks(sol, k, uas, minimal=True, limit=left, dead=(dead[0], dead[1]))
        found.append(masks_to_arrays(masks, sol))
        if not done:
            complete = False
            break
    out = np.concatenate(found) if found else np.zeros((0, 81), np.uint8)
    return out, complete
