"""Every puzzle on a clue pattern: all digit assignments of the pattern's cells with exactly one
solution, once per class under the pattern's own automorphisms (and relabelling).

    >>> from sudoku_symmetry.engine.explore import puzzles_on_pattern
    >>> found = puzzles_on_pattern(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ...                            fixed=".................1.....2.3......3.2...1.4......5....6..3.......")  # doctest: +SKIP

The search walks the pattern's cells in a fixed order (the fixed cells first, then each time the
cell that sees most of the cells already ordered), giving each cell a label: an old one, or the
smallest new one (restricted growth), so each relabelling class of assignments is met once. An
automorphism of the pattern (a transformation of the grid mapping its cells onto themselves)
maps an assignment to another one on the same pattern: only the assignment whose label sequence
is the smallest among its images is kept, and a branch is cut as soon as an image's known prefix
is smaller. Each placement goes through the solver's logic; a contradiction cuts the branch (the
assignment so far has no completion), and so does a unique puzzle's need for 8 distinct digits.
A cell whose digit the logic already forces has that one candidate (with ``minimal``, a forced
cell ends the branch: that clue would follow from the others). A finished assignment is counted
by the solver (two solutions mean no puzzle), and with ``minimal`` a unique one is checked for
minimality.

Two puzzles on the pattern belong to one class when an automorphism of the pattern, followed by
a relabelling, maps one onto the other; these are exactly the puzzles of the pattern that are
copies of each other (a transformation mapping one onto another maps the pattern onto itself),
so the classes are the essentially different puzzles on the pattern. ``classes`` counts them;
``on_pattern`` counts the puzzles on the pattern's cells up to relabelling alone, the sum over
the classes of |Aut(pattern)| / (automorphisms fixing the puzzle); times 9! it is the number of
puzzles with givens on exactly these cells (a unique puzzle uses 8 digits or 9, so no
relabelling fixes it).

``fixed``: some of the pattern's cells given fixed digits (81 characters, digits on pattern cells
and ``.`` elsewhere): only puzzles holding those digits there are searched, the other digits
free. The automorphisms used are then those that map the fixed digits onto themselves up to
relabelling, and the puzzles keep the fixed digits.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from ..patterns import canonical_forms
from ..solve import SOLVER_DEPTH, SOLVER_WORDS
from ..text import SudokuFormatError, parse
from ..validity import conflicts
from . import _pattern_kernels as K

MAX_AUTOMORPHISMS = 1 << 16
"""Patterns with more automorphisms than this (the nearly empty and nearly full ones) are refused
by the search; their automorphism count is still reported."""
DEFAULT_BUDGET = 200_000
"""Nodes per kernel call (about a tenth of a second): the unit of progress and checkpoints."""
OUT_CAP = 4096

PEERS = np.array([[a != b and (a // 9 == b // 9 or a % 9 == b % 9 or (a // 27 == b // 27 and a % 9 // 3 == b % 9 // 3))
                   for b in range(81)] for a in range(81)])
"""PEERS[a, b]: cells a and b share a row, a column or a box."""


def parse_pattern(text: str, source: str | None = None) -> np.ndarray:
    """A clue pattern from 81 characters (``.``, ``0`` or ``*`` an empty cell, any other
    character a clue: a puzzle's own pattern reads the same) or from a 9x9 block of ``x`` and
    ``.`` (9 lines; spaces and ``|``, ``-``, ``+`` are layout): (81,) bool."""
    body = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if len(body) == 1:
        cells = body[0]
        if len(cells) != 81:
            raise SudokuFormatError(f"a pattern has 81 cells, got {len(cells)}", None, source)
    else:
        rows = ["".join(ch for ch in ln if ch not in " \t|+-") for ln in body]
        rows = [r for r in rows if r]
        if len(rows) != 9 or any(len(r) != 9 for r in rows):
            raise SudokuFormatError("a pattern is 81 characters on one line, or 9 lines of 9 cells "
                                    f"(found {len(rows)} lines)", None, source)
        cells = "".join(rows)
    bad = next((ch for ch in cells if not ch.isprintable() or ch.isspace()), None)
    if bad is not None:
        raise SudokuFormatError(f"invalid character {bad!r} at position {cells.index(bad) + 1}", None, source)
    return np.array([ch not in ".0*" for ch in cells], bool)


def format_pattern(pattern) -> str:
    """(81,) bool -> 81 characters, ``x`` a clue cell and ``.`` an empty one."""
    return "".join("x" if v else "." for v in np.asarray(pattern, bool).reshape(81))


@dataclass
class PatternGroup:
    """The automorphisms of a pattern: ``count`` in all; when at most ``MAX_AUTOMORPHISMS``,
    ``src`` (count, 81): ``image[q] = x[src[a, q]]`` for each, and ``maps``, each as
    :class:`..group.transform.Transform` text (``T:RRRRRRRRR:CCCCCCCCC:123456789``)."""

    count: int
    src: np.ndarray | None
    maps: list[str] | None


def pattern_automorphisms(pattern) -> PatternGroup:
    """The position maps of the group (transpose, band and row orders, stack and column orders)
    that map the pattern onto itself."""
    cells = np.ascontiguousarray(np.asarray(pattern, bool).reshape(81), np.uint8)
    count = int(canonical_forms(cells).automorphisms)
    if count > MAX_AUTOMORPHISMS:
        return PatternGroup(count, None, None)
    src = np.zeros((count, 81), np.int64)
    raw = np.zeros((count, 19), np.int64)
    n = K.automorphisms_into(cells, K.CHUTE_MAPS, K.mask_maps(), src, raw)
    if n != count:  # two independent counts of one group
        raise AssertionError(f"automorphism count {n} != {count}")
    maps = [f"{r[0]}:{''.join(str(x + 1) for x in r[1:10])}:{''.join(str(x + 1) for x in r[10:19])}:123456789"
            for r in raw.tolist()]
    return PatternGroup(count, src, maps)


def search_order(cells, fixed_cells=()) -> np.ndarray:
    """The order the search gives the pattern's cells digits: the fixed cells, then each time
    the cell that sees (shares a unit with) most of the cells already ordered, ties broken by
    the most pattern cells seen, then the first cell."""
    cells = [int(c) for c in cells]
    order = [c for c in cells if c in set(fixed_cells)]
    order = _greedy(order, [], order) if order else []
    rest = [c for c in cells if c not in set(order)]
    return np.array(_greedy(rest, order, cells), np.int64)


def _greedy(todo: list[int], start: list[int], every: list[int]) -> list[int]:
    order = list(start)
    left = list(todo)
    while left:
        best = max(left, key=lambda c: (int(PEERS[c, order].sum()) if order else 0, int(PEERS[c, every].sum()), -c))
        order.append(best)
        left.remove(best)
    return order


def _rgs(values) -> list[int]:
    seen: dict[int, int] = {}
    return [seen.setdefault(int(v), len(seen)) for v in values]


@dataclass
class PatternPuzzles:
    """The result of :func:`puzzles_on_pattern`. ``puzzles`` (k, 81) uint8, one per class, in the
    order found (digits in order of first appearance in reading order, fixed digits kept);
    ``classes`` their number (all of them even with ``keep=False``); ``on_pattern`` the puzzles
    on the pattern's cells up to relabelling; ``automorphisms`` the pattern's (or, with ``fixed``,
    those that keep the fixed digits); ``complete``: the search ran to its end (no ``limit``);
    ``stats``: search counters and seconds; ``rated``: with a rating range, the classes whose ER
    lies in it (``puzzles`` holds only those), else None."""

    pattern: np.ndarray
    puzzles: np.ndarray
    classes: int
    on_pattern: int
    automorphisms: int
    complete: bool
    stats: dict = field(default_factory=dict)
    rated: int | None = None

    def __len__(self) -> int:
        return len(self.puzzles)


class PatternSearch:
    """The search of one pattern as a resumable object: :meth:`run` yields the puzzles found in
    batches, :meth:`cursor` says where it stands (JSON), :meth:`resume` goes on from a cursor.

    ``pattern`` (81,) bool or text; ``fixed`` (81,) digits on pattern cells or text; ``minimal``."""

    def __init__(self, pattern, fixed=None, minimal: bool = False):
        pat = parse_pattern(pattern) if isinstance(pattern, str) else np.asarray(pattern, bool).reshape(81)
        fix = np.zeros(81, np.uint8) if fixed is None else (parse(fixed) if isinstance(fixed, str)
                                                             else np.asarray(fixed, np.uint8).reshape(81))
        off = np.flatnonzero((fix > 0) & ~pat)
        if len(off):
            q = int(off[0])
            raise ValueError(f"fixed digit at r{q // 9 + 1}c{q % 9 + 1} is not a cell of the pattern")
        clash = conflicts(fix)
        if clash:
            raise ValueError(f"fixed digits: {clash[0]}")
        self.pattern = pat
        self.fixed = fix
        self.minimal = bool(minimal)
        self.cells = np.flatnonzero(pat)
        self.n = len(self.cells)
        fixed_cells = np.flatnonzero(fix)
        self.nfix = len(fixed_cells)
        self.order = search_order(self.cells, fixed_cells)
        self.group = pattern_automorphisms(pat)
        if self.group.src is None:
            raise ValueError(f"the pattern has {self.group.count:,} automorphisms: too symmetric to search "
                             f"(at most {MAX_AUTOMORPHISMS:,})")
        self.labels0 = np.array(_rgs(fix[self.order[:self.nfix]]), np.int64)
        self.subgroup = self._fixed_subgroup()
        self._setup()

    def _fixed_subgroup(self) -> np.ndarray:
        """The automorphisms that map the fixed digits onto themselves up to relabelling (all of
        them without fixed digits), as rows of ``group.src``."""
        src = self.group.src
        if self.nfix == 0:
            return src
        fix = self.fixed.astype(np.int64)
        keep = []
        for g in src:
            img = fix[g]
            if not np.array_equal(img > 0, fix > 0):
                continue
            pairs = {(int(a), int(b)) for a, b in zip(img[fix > 0], fix[fix > 0])}
            if len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs}):
                keep.append(g)
        return np.array(keep, np.int64).reshape(-1, 81)

    def _setup(self) -> None:
        n, order = self.n, self.order
        pos = np.full(81, -1, np.int64)
        pos[order] = np.arange(n)
        ident = np.arange(81)
        others = [g for g in self.subgroup if not np.array_equal(g, ident)]
        a = len(others)
        self.srcpos = np.zeros((a, max(n, 1)), np.int64)
        self.jneed = np.zeros((a, n + 1), np.int64)
        for i, g in enumerate(others):
            sp = pos[g[order]]
            self.srcpos[i, :n] = sp
            pm = np.maximum.accumulate(sp) if n else sp
            self.jneed[i] = [int(np.searchsorted(pm, k, side="left")) for k in range(n + 1)]
        self.S = np.zeros((n + 2, SOLVER_WORDS), np.uint32)
        self.lab = np.zeros(max(n, 1), np.int64)
        self.lab[:self.nfix] = self.labels0
        self.rem = np.zeros(n + 1, np.int64)
        self.first = np.zeros(n + 1, np.int64)
        self.maxlab = np.zeros(n + 1, np.int64)
        self.act = np.zeros((n + 1, a), np.int32)
        self.nact = np.zeros(n + 1, np.int64)
        self.state = np.zeros(3, np.int64)
        self.X = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
        self.ctl = np.zeros(2, np.int64)
        self.scratch = np.zeros(100, np.int64)
        self.stats = np.zeros(K.N_STATS, np.int64)
        self.done = False
        self.classes = 0
        self.on_pattern = 0
        self.seconds = 0.0
        # the output digits: fixed digits kept, the other labels to the digits left, in order of
        # first appearance in reading order
        self.fixed_digit = {int(lb): int(self.fixed[c]) for lb, c in zip(self.labels0, self.order[:self.nfix])}

    @property
    def automorphisms(self) -> int:
        return len(self.subgroup)

    def _digits(self, labels: np.ndarray) -> np.ndarray:
        """Rows of labels per position -> (k, 81) puzzles in reading-order first appearance."""
        out = np.zeros((len(labels), 81), np.uint8)
        cells_sorted = np.sort(self.cells)
        pos = np.full(81, -1, np.int64)
        pos[self.order] = np.arange(self.n)
        taken = set(self.fixed_digit.values())
        free = [d for d in range(1, 10) if d not in taken]
        for k, row in enumerate(labels):
            mapping = dict(self.fixed_digit)
            nxt = 0
            for c in cells_sorted:
                lb = int(row[pos[c]])
                if lb not in mapping:
                    mapping[lb] = free[nxt]
                    nxt += 1
                out[k, c] = mapping[lb]
        return out

    def run(self, budget: int = DEFAULT_BUDGET, cap: int = OUT_CAP) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Go on searching, yielding ``(puzzles (k, 81), stabilizers (k,))`` after each kernel call
        that found some (and an empty batch after each call that found none, so a caller can
        checkpoint); ends when the search does."""
        if self.done:
            return
        out_lab = np.zeros((cap, max(self.n, 1)), np.int64)
        out_stab = np.zeros(cap, np.int64)
        if self.nfix >= self.n:  # every cell fixed: one puzzle, or none
            self.done = True
            yield self._whole_fixed()
            return
        while True:
            t0 = time.process_time()
            status = K.search_into(self.order, self.n, self.nfix, self.srcpos, self.jneed, self.minimal, self.S,
                                   self.lab, self.rem, self.first, self.maxlab, self.act, self.nact, self.state, self.X,
                                   self.ctl, self.scratch, out_lab, out_stab, int(budget), self.stats)
            self.seconds += time.process_time() - t0
            k = int(self.state[2])
            stab = out_stab[:k].copy()
            self.classes += k
            g = self.automorphisms
            self.on_pattern += int(sum(g // int(s) for s in stab))
            if status == K.DONE:
                self.done = True
            yield self._digits(out_lab[:k]), stab
            if status == K.DONE:
                return

    def _whole_fixed(self) -> tuple[np.ndarray, np.ndarray]:
        from ..solve import check

        puzzle = self.fixed.copy()
        counts, minimal = check(puzzle[None, :])
        if counts[0] != 1 or (self.minimal and not minimal[0]):
            return np.zeros((0, 81), np.uint8), np.zeros(0, np.int64)
        self.classes = 1
        self.on_pattern = 1
        return puzzle[None, :], np.array([self.automorphisms], np.int64)

    def progress(self) -> float:
        """An estimate of the fraction of the search done (0 to 1), from the labels tried at
        each position of the current path."""
        if self.done:
            return 1.0
        if self.state[1] == 0:
            return 0.0
        frac, weight = 0.0, 1.0
        cur = int(self.state[0])
        for p in range(self.nfix, cur + 1):
            total = bin(int(self.first[p])).count("1")
            if total == 0:
                break
            left = bin(int(self.rem[p])).count("1")
            done = total - left - (1 if p < cur else 0)
            frac += weight * done / total
            weight /= total
        return min(max(frac, 0.0), 1.0)

    def cursor(self) -> dict:
        """Where the search stands, as JSON: an equal search resumed from it (:meth:`resume`)
        finds exactly what this one has not found yet."""
        p = int(self.state[0])
        return {"done": self.done, "started": bool(self.state[1]), "position": p,
                "labels": self.lab[:max(p, 0)].tolist(), "left": self.rem[:max(p + 1, 0)].tolist(),
                "first": self.first[:max(p + 1, 0)].tolist(), "classes": self.classes, "on_pattern": self.on_pattern,
                "stats": self.stats.tolist(), "seconds": self.seconds}

    def resume(self, cursor: dict | None) -> None:
        """Continue from ``cursor`` (from :meth:`cursor` of a search of the same pattern, fixed
        digits and ``minimal``); None: from the start."""
        if not cursor:
            return
        self.classes = int(cursor["classes"])
        self.on_pattern = int(cursor["on_pattern"])
        self.stats[:] = cursor["stats"]
        self.seconds = float(cursor.get("seconds", 0.0))
        if cursor["done"]:
            self.done = True
            return
        if not cursor["started"]:
            return
        p = int(cursor["position"])
        labels = cursor["labels"]
        if p < self.nfix or len(labels) != p or list(labels[:self.nfix]) != self.labels0.tolist():
            raise ValueError("the cursor is not one of this search")
        self.lab[:p] = labels
        self.rem[:p + 1] = cursor["left"]
        self.first[:p + 1] = cursor["first"]
        if not K.replay_into(self.order, self.nfix, p, self.srcpos, self.jneed, self.S, self.lab, self.maxlab, self.act,
                             self.nact, self.scratch):
            raise ValueError("the cursor is not one of this search")
        self.state[:] = (p, 1, 0)

    def info(self) -> dict:
        s = self.stats
        return {"nodes": int(s[K.STAT_NODES]), "dead": int(s[K.STAT_DEAD]), "checks": int(s[K.STAT_CHECKS]),
                "unique": int(s[K.STAT_UNIQUE]), "symmetric": int(s[K.STAT_SYMMETRIC]),
                "minimal_checks": int(s[K.STAT_MINIMAL_CHECKS]), "cpu_seconds": self.seconds}


def puzzles_on_pattern(pattern, fixed=None, minimal: bool = False, limit: int | None = None,
                       keep: bool = True, rating=None) -> PatternPuzzles:
    """Every puzzle with givens on exactly the cells of ``pattern``, once per class under the
    pattern's automorphisms (module docstring). ``fixed``: digits some of the cells must hold;
    ``minimal``: only minimal puzzles; ``limit``: stop after that many classes; ``keep=False``:
    count only (``puzzles`` left empty). ``rating``: a range of Sudoku Explainer's ER (``"7-8"``,
    :func:`~sudoku_symmetry.engine.rate.filter.parse_rating`): only the classes whose
    representative's ER lies in it are kept, counted in ``rated`` and by ``limit``."""
    from ..rate.filter import er_within, parse_rating  # the rating's kernels load only for a rating range

    if limit is not None and int(limit) < 1:
        raise ValueError("limit must be at least 1")
    er_range = parse_rating(rating)
    search = PatternSearch(pattern, fixed, minimal)
    t0 = time.perf_counter()
    found: list[np.ndarray] = []
    total = 0
    complete = True
    for puzzles, _ in search.run():
        if er_range is not None and len(puzzles):
            puzzles = puzzles[er_within(puzzles, er_range)[0]]
        if keep:
            found.append(puzzles)
        total += len(puzzles)
        if limit is not None and total >= int(limit):
            complete = search.done and total == int(limit)
            break
    puzzles = np.concatenate(found) if found else np.zeros((0, 81), np.uint8)
    if limit is not None and len(puzzles) > int(limit):
        puzzles = puzzles[:int(limit)]
    info = {**search.info(), "seconds": time.perf_counter() - t0}
    shown = min(total, int(limit or total))
    classes = search.classes if complete or er_range is not None else shown
    return PatternPuzzles(search.pattern, puzzles, classes, search.on_pattern, search.automorphisms, complete, info,
                          shown if er_range is not None else None)


def relabelled_count(on_pattern: int) -> int:
    """Puzzles with givens on exactly the pattern's cells, relabellings counted: 9! each."""
    return on_pattern * math.factorial(9)
