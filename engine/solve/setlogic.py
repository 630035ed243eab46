"""Set-logic (permutation) solver: eliminations explained by the basic sets that produce them.

Model: 729 candidates (cell r c holds digit d, index ``81*r + 9*c + d - 1``) and 324 basic sets,
each of which holds exactly one true candidate: the 81 cells (``r1c2``: one digit in the cell),
81 row-digit sets (``5r1``: digit 5 once in row 1), 81 column-digit (``5c2``) and 81 box-digit
(``5b3``) sets.

A permutation database holds every assignment of the candidates covered by the sets added so far
that satisfies those sets: one row per permutation, one bit per covered candidate (true or
false), plus the mask of covered candidates. Adding a set keeps every combination of an old row
and a choice of the set's true candidate on which their shared candidates agree. A covered
candidate that is false in every row is eliminated (the sets added so far exclude it); an empty
database is a contradiction. Rows are bit vectors of 12 x 64 bits held in numpy arrays, so each
join is a handful of vectorized operations.

Choosing the next set keeps the database small; only sets that share a candidate with the covered
mask are considered (when there are any):

- ``overlap``: most candidates shared with the covered mask (ties: fewest new candidates);
- ``fewest-new``: fewest candidates not yet covered (ties: most shared);
- ``fewest-perms``: fewest resulting permutations, counted without building them.

A start is a whole basic set, a candidate vector (an assignment: these candidates true, those
false), or one candidate assumed true or false. Under an assumption, a candidate excluded means
"if the assumption then not that", and an empty database proves the assumption wrong.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..text import as_batch

NCAND = 729
NWORD = 12
STRATEGIES = ("fewest-perms", "overlap", "fewest-new")


def cand_index(r: int, c: int, d: int) -> int:
    """0-based row and column, digit 1-9."""
    return 81 * r + 9 * c + d - 1


def cand_name(k: int) -> str:
    r, rest = divmod(int(k), 81)
    c, d = divmod(rest, 9)
    return f"r{r + 1}c{c + 1}={d + 1}"


def elim_name(k: int) -> str:
    return cand_name(k).replace("=", "<>")


def _build_sets():
    members, names = [], []
    for r in range(9):
        for c in range(9):
            members.append([cand_index(r, c, d) for d in range(1, 10)])
            names.append(f"r{r + 1}c{c + 1}")
    for kind in "rcb":
        for u in range(9):
            for d in range(1, 10):
                if kind == "r":
                    cells = [(u, c) for c in range(9)]
                elif kind == "c":
                    cells = [(r, u) for r in range(9)]
                else:
                    cells = [(3 * (u // 3) + i, 3 * (u % 3) + j) for i in range(3) for j in range(3)]
                members.append([cand_index(r, c, d) for r, c in cells])
                names.append(f"{d}{kind}{u + 1}")
    masks = np.zeros((len(members), NWORD), dtype=np.uint64)
    for s, mem in enumerate(members):
        masks[s] = _mask(mem)
    return masks, names, [np.array(m) for m in members]


def _mask(cands) -> np.ndarray:
    m = np.zeros(NWORD, dtype=np.uint64)
    for k in cands:
        m[k >> 6] |= np.uint64(1) << np.uint64(k & 63)
    return m


def _bits(mask: np.ndarray) -> list[int]:
    out = []
    for w in range(NWORD):
        x = int(mask[w])
        while x:
            low = x & -x
            out.append(64 * w + low.bit_length() - 1)
            x ^= low
    return out


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a).sum(axis=-1, dtype=np.int64)


SET_MASKS, SET_NAMES, SET_MEMBERS = _build_sets()
SET_INDEX = {n: i for i, n in enumerate(SET_NAMES)}
CAND_SETS = np.zeros((NCAND, 4), dtype=np.int64)  # the 4 basic sets holding each candidate
for _s, _mem in enumerate(SET_MEMBERS):
    CAND_SETS[_mem, _s // 81] = _s


class DatabaseFull(RuntimeError):
    """Adding a set would make the permutation database larger than its cap."""


class Contradiction(RuntimeError):
    """No permutation satisfies the sets added so far."""


@dataclass
class Elimination:
    """``candidate`` is false; ``sets`` (in the order added) leave no permutation where it is true.

    ``assumption`` is None for an unconditional elimination, or (candidate, truth) when the result
    only holds under that assumption; ``contradiction`` marks an assumption refuted outright.
    """

    candidate: int
    sets: tuple
    assumption: tuple | None = None
    contradiction: bool = False

    def __str__(self) -> str:
        sets = ", ".join(self.sets)
        if self.assumption is None:
            return f"{elim_name(self.candidate)}  (no permutation of sets {sets} has it)"
        a, truth = self.assumption
        what = cand_name(a) if truth else elim_name(a)
        if self.contradiction:
            return f"{elim_name(self.candidate)}  (assuming {what}, sets {sets} have no permutation)"
        return f"if {what} then {elim_name(self.candidate)}  (sets {sets})"


class PermutationDB:
    """The permutation database over the ``alive`` candidates (a (12,) uint64 mask)."""

    def __init__(self, alive: np.ndarray, cap: int = 200_000):
        self.alive = alive.copy()
        self.cap = cap
        self.covered = np.zeros(NWORD, dtype=np.uint64)
        self.rows = np.zeros((1, NWORD), dtype=np.uint64)  # one empty assignment
        self.sets: list[int] = []

    def __len__(self) -> int:
        return len(self.rows)

    # -- starts ---------------------------------------------------------------------------
    def start_vector(self, true_cands, covered_cands) -> None:
        """One row: ``true_cands`` true, the rest of ``covered_cands`` false."""
        self.covered = _mask(set(covered_cands) | set(true_cands))
        self.rows = _mask(true_cands)[None, :]

    def assume(self, cand: int, truth: bool) -> None:
        self.start_vector([cand] if truth else [], [cand])

    # -- growth ---------------------------------------------------------------------------
    def _split(self, s: int):
        S = SET_MASKS[s] & self.alive
        shared = _popcount(self.rows & S)
        new = S & ~self.covered
        return S, shared, new

    def count_after(self, s: int) -> int:
        """Permutations after adding set ``s``, without building them."""
        _, shared, new = self._split(s)
        return int((shared == 1).sum() + (shared == 0).sum() * int(_popcount(new)))

    def add(self, s: int) -> None:
        S, shared, new = self._split(s)
        newbits = _bits(new)
        n = int((shared == 1).sum() + (shared == 0).sum() * len(newbits))
        if n > self.cap:
            to = f" to sets {', '.join(self.set_names())}" if self.sets else ""
            raise DatabaseFull(
                f"permutation database cap {self.cap:,} reached: adding set {SET_NAMES[s]}{to} "
                f"would give {n:,} permutations"
            )
        keep = self.rows[shared == 1]
        free = self.rows[shared == 0]
        parts = [keep]
        for k in newbits:
            part = free.copy()
            part[:, k >> 6] |= np.uint64(1) << np.uint64(k & 63)
            parts.append(part)
        self.rows = np.concatenate(parts) if parts else keep
        self.covered |= S
        self.sets.append(s)
        if len(self.rows) == 0:
            raise Contradiction(f"sets {', '.join(self.set_names())} have no permutation")

    def set_names(self) -> list[str]:
        return [SET_NAMES[s] for s in self.sets]

    # -- results --------------------------------------------------------------------------
    def excluded(self) -> list[int]:
        """Covered alive candidates false in every permutation."""
        if len(self.rows) == 0:
            return _bits(self.covered & self.alive)
        anyrow = np.bitwise_or.reduce(self.rows, axis=0)
        return _bits(self.covered & self.alive & ~anyrow)

    def forced(self) -> list[int]:
        """Candidates true in every permutation."""
        return _bits(np.bitwise_and.reduce(self.rows, axis=0)) if len(self.rows) else []

    def drop(self, cands) -> None:
        """Remove eliminated candidates from the alive mask (their columns are already zero)."""
        self.alive &= ~_mask(cands)

    def choose(self, strategy: str, usable: np.ndarray) -> int:
        """The next set by ``strategy`` among ``usable`` (bool (324,)) and not yet added; -1 if none."""
        usable = usable.copy()
        usable[self.sets] = False
        idx = np.flatnonzero(usable)
        if len(idx) == 0:
            return -1
        S = SET_MASKS[idx] & self.alive
        shared = _popcount(S & self.covered)
        new = _popcount(S & ~self.covered)
        if shared.any():
            idx, shared, new = idx[shared > 0], shared[shared > 0], new[shared > 0]
        if strategy == "overlap":
            order = np.lexsort((new, -shared))
        elif strategy == "fewest-new":
            order = np.lexsort((-shared, new))
        elif strategy == "fewest-perms":
            counts = np.array([self.count_after(int(s)) for s in idx], dtype=np.int64)
            order = np.lexsort((new, counts))
        else:
            raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
        return int(idx[order[0]])


def candidates_of(puzzle) -> tuple[np.ndarray, np.ndarray]:
    """(alive (12,) uint64, usable (324,) bool) for a puzzle: givens remove their peers; sets holding
    a given are satisfied and not offered; the givens' own candidates are not alive (nothing to say)."""
    cells = as_batch(puzzle)[0]
    alive = np.ones(NCAND, dtype=bool)
    usable = np.ones(len(SET_NAMES), dtype=bool)
    for p in range(81):
        v = int(cells[p])
        if not v:
            continue
        for s in CAND_SETS[cand_index(p // 9, p % 9, v)]:
            alive[SET_MEMBERS[s]] = False
            usable[s] = False
    return _bool_to_mask(alive), usable


def _bool_to_mask(alive: np.ndarray) -> np.ndarray:
    return _mask(np.flatnonzero(alive))


def mask_to_bool(mask: np.ndarray) -> np.ndarray:
    out = np.zeros(NCAND, dtype=bool)
    out[_bits(mask)] = True
    return out


def _set_id(s) -> int:
    if isinstance(s, str):
        if s not in SET_INDEX:
            raise ValueError(f"unknown set {s!r} (sets are named like r1c2, 5r1, 5c2, 5b3)")
        return SET_INDEX[s]
    return int(s)


@dataclass
class SetLogicResult:
    eliminations: list = field(default_factory=list)
    messages: list = field(default_factory=list)  # cap reached, contradictions: for people
    alive: np.ndarray | None = None


def grow(db: PermutationDB, usable: np.ndarray, strategy: str, max_sets: int | None,
         assumption=None, result: SetLogicResult | None = None, apply: bool = True) -> SetLogicResult:
    """Add sets to ``db`` by ``strategy`` until ``max_sets`` added, no set left, the cap or a contradiction.

    Each newly excluded candidate becomes an :class:`Elimination` naming the sets added so far;
    unconditional ones (no assumption) are dropped from the alive mask when ``apply``.
    """
    res = result or SetLogicResult()
    seen: set[int] = set()
    while max_sets is None or len(db.sets) < max_sets:
        s = db.choose(strategy, usable)
        if s < 0:
            break
        try:
            db.add(s)
        except DatabaseFull as exc:
            res.messages.append(str(exc))
            break
        except Contradiction as exc:
            if assumption is None:
                res.messages.append(f"contradiction: {exc} (the puzzle has no solution)")
            else:
                a, truth = assumption
                if truth:
                    res.eliminations.append(Elimination(a, tuple(db.set_names()), assumption, True))
                else:
                    res.messages.append(f"assuming {elim_name(a)}: {exc}, so {cand_name(a)}")
            break
        skip = assumption[0] if assumption is not None else -1
        found = [k for k in db.excluded() if k not in seen and k != skip]
        for k in found:
            seen.add(k)
            res.eliminations.append(Elimination(k, tuple(db.set_names()), assumption))
        if found and apply and assumption is None:
            db.drop(found)
    return res


def eliminations(puzzle, strategy: str = "fewest-perms", start=None, assume=None, cap: int = 200_000,
                 max_sets: int | None = 8, max_starts: int | None = None) -> SetLogicResult:
    """Set-logic eliminations on ``puzzle``.

    ``start``: a set name or index (``"5r1"``, ``"r3c4"``) or a (true candidates, covered
    candidates) vector; ``assume``: (candidate, truth) to start from one candidate assumed true or
    false. With neither, every usable set with 2 or more live candidates is tried as a start in
    turn (fewest live candidates first, at most ``max_starts``), eliminations found by earlier
    starts already applied. Each start grows to at most ``max_sets`` sets (None: all of them).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    alive, usable = candidates_of(puzzle)
    res = SetLogicResult()
    if assume is not None:
        cand, truth = int(assume[0]), bool(assume[1])
        if not mask_to_bool(alive)[cand]:
            raise ValueError(f"{cand_name(cand)} is not a live candidate of this puzzle")
        db = PermutationDB(alive, cap)
        db.assume(cand, truth)
        grow(db, usable, strategy, max_sets, (cand, truth), res)
        res.alive = alive
        return res
    if start is not None:
        db = PermutationDB(alive, cap)
        if isinstance(start, tuple):
            db.start_vector(*start)
        else:
            s = _set_id(start)
            if not 0 <= s < len(SET_NAMES):
                raise ValueError(f"set index {s} out of range (0-{len(SET_NAMES) - 1})")
            if not usable[s]:
                raise ValueError(f"set {SET_NAMES[s]} already holds a given, so it has no candidate "
                                 "to grow from; start from a set with live candidates")
            try:
                db.add(s)
            except DatabaseFull as exc:
                res.messages.append(str(exc))
                res.alive = db.alive
                return res
            except Contradiction:
                res.messages.append(f"contradiction: set {SET_NAMES[s]} has no live candidate "
                                    "(the puzzle has no solution)")
                res.alive = db.alive
                return res
        grow(db, usable, strategy, max_sets, None, res)
        res.alive = db.alive
        return res
    live = _popcount(SET_MASKS & alive)
    starts = [int(s) for s in np.lexsort((np.arange(len(live)), live)) if usable[s] and live[s] >= 2]
    for s in starts[:max_starts]:
        db = PermutationDB(alive, cap)
        if _popcount(SET_MASKS[s] & alive) < 2:
            continue
        try:
            db.add(s)
        except Contradiction as exc:
            res.messages.append(f"contradiction: {exc} (the puzzle has no solution)")
            break
        except DatabaseFull as exc:  # starts come smallest first: every later one is as large
            res.messages.append(str(exc))
            break
        grow(db, usable, strategy, max_sets, None, res)
        alive = db.alive
    res.alive = alive
    return res
