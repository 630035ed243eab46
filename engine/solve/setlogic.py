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

A start is a whole basic set, a unit, a candidate vector (an assignment: these candidates true,
those false), or one candidate assumed true or false. Under an assumption (a candidate or a
vector), a candidate excluded means "if the assumption then not that", and an empty database
proves the assumption wrong.

Steps and units: the database grows by steps; a step is one basic set or a unit, several basic
sets added together and named as one (``1r1+1r5``: the base sets of an X-wing; ``r1c1+r1c2+r2c3``:
the cells of an almost locked set). An explanation names steps.

Minimal explanations: an elimination names a smallest subset of the steps added so far whose
permutations (built from the same live candidates, start and assumption) still exclude it. With
at most ``EXACT_EXPLANATION_MAX`` steps every connected subset is tried in order of size (the
exclusion of a candidate only depends on the connected part of the sets that holds it), so the
subset is a true minimum (ties: the first in the order added); with more, steps are removed one
at a time while the elimination stands, which leaves an irreducible subset (no single step can be
removed) that may not be the smallest, found by QuickXplain; past ``REDUCED_EXPLANATION_MAX``
steps (a growth with no ``max_sets``, where that costs seconds per elimination) the explanation
names every step so far. ``Elimination.minimal`` says which: ``smallest``, ``irreducible`` or
``all``; the command prints the last two.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..text import as_batch

NCAND = 729
NWORD = 12
STRATEGIES = ("fewest-perms", "overlap", "fewest-new")
EXACT_EXPLANATION_MAX = 12  # steps; above this the explanation is irreducible, not proven smallest
REDUCED_EXPLANATION_MAX = 40  # steps; above this (long growths) the explanation names every step


def cand_index(r: int, c: int, d: int) -> int:
    """0-based row and column, digit 1-9."""
    return 81 * r + 9 * c + d - 1


def cand_name(k: int) -> str:
    r, rest = divmod(int(k), 81)
    c, d = divmod(rest, 9)
    return f"r{r + 1}c{c + 1}={d + 1}"


def elim_name(k: int) -> str:
    return cand_name(k).replace("=", "<>")


_CANDIDATE = re.compile(r"r([1-9])c([1-9])(=|<>)([1-9])")


def parse_candidates(text: str) -> list[tuple[int, bool]]:
    """``r1c2=5`` (true) or ``r1c2<>5`` (false), comma-separated: ``[(candidate index, truth)]``;
    ValueError naming the first part that is neither."""
    out = []
    for part in text.split(","):
        m = _CANDIDATE.fullmatch(part.strip())
        if not m:
            raise ValueError(f"expected r<row>c<col>=<digit> (true) or r<row>c<col><><digit> (false), got {part.strip()!r}")
        r, c, op, d = m.groups()
        out.append((cand_index(int(r) - 1, int(c) - 1, int(d)), op == "="))
    return out


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
    only holds under that assumption, or (vector name, True) under a start vector
    (``"r1c1=4,r1c2<>4"``); ``contradiction`` marks an assumption refuted outright. ``sets`` are
    step names (a unit is one, ``"1r1+1r5"``); ``minimal`` says how small they are proven to be.
    """

    candidate: int
    sets: tuple
    assumption: tuple | None = None
    contradiction: bool = False
    minimal: str = "smallest"  # "smallest", "irreducible" (no one step removable) or "all" (not reduced)

    def __str__(self) -> str:
        sets = ", ".join(self.sets)
        note = {"smallest": "", "irreducible": "; irreducible, not proven smallest",
                "all": "; every set so far, not reduced"}[self.minimal]
        if self.assumption is None:
            return f"{elim_name(self.candidate)}  (no permutation of sets {sets} has it{note})"
        a, truth = self.assumption
        what = a if isinstance(a, str) else cand_name(a) if truth else elim_name(a)
        if self.contradiction:
            return f"{elim_name(self.candidate)}  (assuming {what}, sets {sets} have no permutation{note})"
        return f"if {what} then {elim_name(self.candidate)}  (sets {sets}{note})"


class PermutationDB:
    """The permutation database over the ``alive`` candidates (a (12,) uint64 mask)."""

    def __init__(self, alive: np.ndarray, cap: int = 200_000):
        self.alive = alive.copy()
        self.cap = cap
        self.covered = np.zeros(NWORD, dtype=np.uint64)
        self.rows = np.zeros((1, NWORD), dtype=np.uint64)  # one empty assignment
        self.sets: list[int] = []  # basic sets added, in order
        self.steps: list[tuple[str, tuple[int, ...]]] = []  # (name, basic sets) per step
        self.base: tuple | None = None  # the start vector (true, covered candidates), if any

    def __len__(self) -> int:
        return len(self.rows)

    # -- starts ---------------------------------------------------------------------------
    def start_vector(self, true_cands, covered_cands) -> None:
        """One row: ``true_cands`` true, the rest of ``covered_cands`` false."""
        self.base = (tuple(int(k) for k in true_cands), tuple(int(k) for k in covered_cands))
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

    def add(self, s) -> None:
        """Add one step: a basic set (index or name) or a unit (a list of them, or ``"a+b"``).
        A unit that would pass the cap leaves the database as it was."""
        name, ids = step_of(s)
        if len(ids) == 1:
            self._add_basic(ids[0], name)
            return
        saved = (self.rows, self.covered.copy(), list(self.sets))
        try:
            for k in ids:
                self._add_basic(k, name, record=False)
        except DatabaseFull:
            self.rows, self.covered, self.sets = saved
            raise
        self.steps.append((name, ids))
        if len(self.rows) == 0:
            raise Contradiction(f"sets {', '.join(self.set_names())} have no permutation")

    def _add_basic(self, s: int, name: str, record: bool = True) -> None:
        S, shared, new = self._split(s)
        newbits = _bits(new)
        n = int((shared == 1).sum() + (shared == 0).sum() * len(newbits))
        if n > self.cap:
            to = f" to sets {', '.join(self.set_names())}" if self.steps else ""
            what = f"set {SET_NAMES[s]}" + (f" of unit {name}" if name != SET_NAMES[s] else "")
            raise DatabaseFull(
                f"permutation database cap {self.cap:,} reached: adding {what}{to} "
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
        if record:
            self.steps.append((name, (s,)))
        if len(self.rows) == 0 and record:
            raise Contradiction(f"sets {', '.join(self.set_names())} have no permutation")

    def set_names(self) -> list[str]:
        """The steps added so far, by name (a unit is one name, ``1r1+1r5``)."""
        return [name for name, _ in self.steps]

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


def step_of(s) -> tuple[str, tuple[int, ...]]:
    """(name, basic set indices) of a step: a set index or name, a unit name ``"1r1+1r5"``, or a
    list of sets (a unit). A unit of one set is that set."""
    if isinstance(s, str):
        parts = [p.strip() for p in s.split("+")]
    elif isinstance(s, (list, tuple)):
        parts = list(s)
    else:
        parts = [s]
    ids = []
    for p in parts:
        k = _set_id(p)
        if not 0 <= k < len(SET_NAMES):
            raise ValueError(f"set index {k} out of range (0-{len(SET_NAMES) - 1})")
        if k in ids:
            raise ValueError(f"set {SET_NAMES[k]} appears twice in unit {s!r}")
        ids.append(k)
    if not ids:
        raise ValueError("a unit needs at least one set")
    return "+".join(SET_NAMES[k] for k in ids), tuple(ids)


# -- minimal explanations --------------------------------------------------------------------------
def _excluded_by(alive, base, assumption, steps, cap) -> np.ndarray | None:
    """Mask of candidates excluded by a database of ``steps`` alone (None past the cap)."""
    db = PermutationDB(alive, cap)
    if base is not None:
        db.start_vector(*base)
    elif assumption is not None and not isinstance(assumption[0], str):
        db.assume(*assumption)
    for _, ids in steps:
        for k in ids:
            try:
                db._add_basic(k, "", record=False)
            except DatabaseFull:
                return None
    if len(db.rows) == 0:
        return db.covered & db.alive
    return db.covered & db.alive & ~np.bitwise_or.reduce(db.rows, axis=0)


def _refutes(alive, base, steps, k: int, cap) -> bool:
    """True when ``steps`` (with the start vector ``base``) leave no permutation with ``k`` true:
    the database grown from ``k`` assumed true empties (fast: ``k`` prunes every join)."""
    true, covered = base if base is not None else ((), ())
    if k in covered and k not in true:
        return True
    db = PermutationDB(alive, cap)
    db.start_vector(tuple(true) + (k,), tuple(covered) + (k,))
    for _, ids in steps:
        for s in ids:
            try:
                db._add_basic(s, "", record=False)
            except DatabaseFull:
                return False
            if len(db.rows) == 0:
                return True
    return False


def _has(mask: np.ndarray, k: int) -> bool:
    return bool(int(mask[k >> 6]) >> (k & 63) & 1)


def explain(db: "PermutationDB", cands, assumption=None) -> dict:
    """For each candidate in ``cands`` (excluded by ``db`` now): (smallest or irreducible tuple of
    step names, "smallest" / "irreducible"). See the module docstring."""
    from itertools import combinations

    steps = db.steps
    n = len(steps)
    alive = db.alive
    base = db.base
    out: dict = {}
    todo = [int(k) for k in cands]
    if not todo:
        return out
    if n == 0:
        return {k: ((), "smallest") for k in todo}
    step_masks = [np.bitwise_or.reduce(SET_MASKS[list(ids)], axis=0) & alive for _, ids in steps]
    adj = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            if (step_masks[i] & step_masks[j]).any():
                adj[i] |= 1 << j
                adj[j] |= 1 << i
    base_mask = np.zeros(NWORD, np.uint64)
    if base is not None:
        base_mask = _mask(set(base[0]) | set(base[1]))
    elif assumption is not None and not isinstance(assumption[0], str):
        base_mask = _mask([assumption[0]])
    base_adj = sum(1 << i for i in range(n) if (step_masks[i] & base_mask).any())

    def connected(combo) -> bool:
        members = 0
        for i in combo:
            members |= 1 << i
        for start in (combo[0], -1) if base_adj else (combo[0],):
            reach = (1 << start) if start >= 0 else (base_adj & members)
            if not reach:
                continue
            while True:
                nxt = reach
                r = reach
                while r:
                    low = r & -r
                    nxt |= adj[low.bit_length() - 1] & members
                    r ^= low
                if nxt == reach:
                    break
                reach = nxt
            if reach == members:
                return True
        return False

    if n <= EXACT_EXPLANATION_MAX:
        for size in range(1, n + 1):
            for combo in combinations(range(n), size):
                if size > 1 and not connected(combo):
                    continue
                excl = _excluded_by(alive, base, assumption, [steps[i] for i in combo], db.cap)
                if excl is None:
                    continue
                for k in list(todo):
                    if _has(excl, k):
                        out[k] = (tuple(steps[i][0] for i in combo), "smallest")
                        todo.remove(k)
                if not todo:
                    return out
        for k in todo:  # not reproduced from scratch (should not happen): name every step
            out[k] = (tuple(name for name, _ in steps), "irreducible")
        return out
    if n > REDUCED_EXPLANATION_MAX:
        return {k: (tuple(name for name, _ in steps), "all") for k in todo}
    for k in todo:
        def refutes(idx) -> bool:
            return _refutes(alive, base, [steps[j] for j in sorted(idx)], k, db.cap)

        if not refutes(range(n)):  # not reproduced from scratch (should not happen)
            out[k] = (tuple(name for name, _ in steps), "irreducible")
            continue
        keep = sorted(_quickxplain(refutes, [], False, list(range(n))))
        out[k] = (tuple(steps[j][0] for j in keep), "irreducible")
    return out


def _quickxplain(refutes, background: list, changed: bool, cands: list) -> list:
    """An irreducible subset X of ``cands`` such that ``background + X`` refutes (Junker's
    QuickXplain: O(|X| log(|cands| / |X|)) checks), given that ``background + cands`` does."""
    if changed and refutes(background):
        return []
    if len(cands) == 1:
        return cands
    half = len(cands) // 2
    c1, c2 = cands[:half], cands[half:]
    x2 = _quickxplain(refutes, background + c1, bool(c1), c2)
    x1 = _quickxplain(refutes, background + x2, bool(x2), c1)
    return x1 + x2


@dataclass
class SetLogicResult:
    eliminations: list = field(default_factory=list)
    messages: list = field(default_factory=list)  # cap reached, contradictions: for people
    alive: np.ndarray | None = None


def grow(db: PermutationDB, usable: np.ndarray, strategy: str, max_sets: int | None,
         assumption=None, result: SetLogicResult | None = None, apply: bool = True,
         steps=(), show=None) -> SetLogicResult:
    """Add ``steps`` (sets or units, in order), then sets chosen by ``strategy``, until ``max_sets``
    steps are in the database, no set is left, the cap or a contradiction.

    Each newly excluded candidate becomes an :class:`Elimination` naming a smallest (or, past
    ``EXACT_EXPLANATION_MAX`` steps, an irreducible) subset of the steps added so far that excludes
    it; unconditional ones (no assumption) are dropped from the alive mask when ``apply``.
    ``show(db, name)`` is called after each step is added, and with ``name`` None when the growth ends.
    """
    res = result or SetLogicResult()
    seen: set[int] = set()
    planned = list(steps)
    cond = assumption is not None or db.base is not None
    while max_sets is None or len(db.steps) < max_sets:
        if planned:
            s = planned.pop(0)
        else:
            s = db.choose(strategy, usable)
            if s < 0:
                break
        try:
            db.add(s)
        except DatabaseFull as exc:
            res.messages.append(str(exc))
            break
        except Contradiction as exc:
            if show is not None:
                show(db, db.steps[-1][0])
            if assumption is None:
                res.messages.append(f"contradiction: {exc} (the puzzle has no solution)")
            else:
                a, truth = assumption
                if truth and not isinstance(a, str):
                    why = explain(db, [a], assumption).get(a, (tuple(db.set_names()), "smallest"))
                    res.eliminations.append(Elimination(a, why[0], assumption, True, why[1]))
                else:
                    what = a if isinstance(a, str) else elim_name(a)
                    then = "" if isinstance(a, str) else f", so {cand_name(a)}"
                    res.messages.append(f"assuming {what}: {exc}{then}")
            break
        if show is not None:
            show(db, db.steps[-1][0])
        skip = assumption[0] if assumption is not None and not isinstance(assumption[0], str) else -1
        found = [k for k in db.excluded() if k not in seen and k != skip]
        why = explain(db, found, assumption)
        for k in found:
            seen.add(k)
            res.eliminations.append(Elimination(k, why[k][0], assumption, minimal=why[k][1]))
        if found and apply and not cond:
            db.drop(found)
    if show is not None:
        show(db, None)
    return res


def vector_name(true_cands, covered_cands) -> str:
    """``r1c2=5,r1c3<>5``: the true candidates, then the false ones."""
    true = sorted(set(int(k) for k in true_cands))
    false = sorted(set(int(k) for k in covered_cands) - set(true))
    return ",".join([cand_name(k) for k in true] + [elim_name(k) for k in false])


def eliminations(puzzle, strategy: str = "fewest-perms", start=None, assume=None, cap: int = 200_000,
                 max_sets: int | None = 8, max_starts: int | None = None, steps=(), show=None) -> SetLogicResult:
    """Set-logic eliminations on ``puzzle``.

    ``start``: a set or unit (``"5r1"``, ``"r3c4"``, ``"1r1+1r5"``, an index or a list of them) or a
    (true candidates, covered candidates) vector, an assumption ("if that vector, then ...");
    ``assume``: (candidate, truth) to start from one candidate assumed true or false. ``steps``:
    sets or units added next, in order, before the strategy chooses. With no start, every usable
    set with 2 or more live candidates is tried as a start in turn (fewest live candidates first,
    at most ``max_starts``), eliminations found by earlier starts already applied. Each start grows
    to at most ``max_sets`` steps (None: all of them). ``show``: see :func:`grow`.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    alive, usable = candidates_of(puzzle)
    res = SetLogicResult()
    steps = list(steps)
    for s in steps:
        _check_step(s, usable)
    if assume is not None:
        cand, truth = int(assume[0]), bool(assume[1])
        if not mask_to_bool(alive)[cand]:
            raise ValueError(f"{cand_name(cand)} is not a live candidate of this puzzle")
        db = PermutationDB(alive, cap)
        db.assume(cand, truth)
        grow(db, usable, strategy, max_sets, (cand, truth), res, steps=steps, show=show)
        res.alive = alive
        return res
    if start is not None:
        db = PermutationDB(alive, cap)
        if isinstance(start, tuple) and len(start) == 2 and not isinstance(start[0], (int, np.integer, str)):
            true_cands, covered = (tuple(int(k) for k in x) for x in start)
            live = mask_to_bool(alive)
            dead = [k for k in true_cands if not live[k]]
            if dead:
                raise ValueError(f"{cand_name(dead[0])} is not a live candidate of this puzzle")
            db.start_vector(true_cands, [k for k in covered if live[k]])
            name = vector_name(true_cands, covered)
            if show is not None:
                show(db, name)
            grow(db, usable, strategy, max_sets, (name, True), res, steps=steps, show=show)
            res.alive = alive
            return res
        _check_step(start, usable)
        grow(db, usable, strategy, max_sets, None, res, steps=[start] + steps, show=show)
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
        if show is not None:
            show(db, db.steps[-1][0])
        grow(db, usable, strategy, max_sets, None, res, steps=steps, show=show)
        alive = db.alive
    res.alive = alive
    return res


def _check_step(s, usable) -> None:
    """A ValueError for a step with a set that already holds a given (nothing to grow from)."""
    name, ids = step_of(s)
    for k in ids:
        if not usable[k]:
            raise ValueError(f"set {SET_NAMES[k]} already holds a given, so it has no candidate "
                             "to grow from; start from a set with live candidates")
