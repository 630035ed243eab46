"""Fast solver against the shared data's counts, the naive reference and the sudoku rules."""
from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sudoku_symmetry.engine.solve import _kernels as K
from sudoku_symmetry.engine.solve import (REFILL_SCRATCH, SOLVER_DEPTH, SOLVER_WORDS, count_into, count_plus,
                                          givens_node, other_filling, solver)
from sudoku_symmetry.engine.text import parse, parse_lines

import naive_solver
from conftest import data_path


EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def load(name: str, n: int | None = None, step: int = 1):
    with open(data_path(name)) as fh:
        lines = fh.read().splitlines()
    lines = lines[::step][:n]
    return parse_lines(lines, allow_suffix=True, errors="raise", source=name)


def expected_counts(parsed, cap: int) -> np.ndarray:
    """Counts from ``puzzle:count`` suffixes, capped at ``cap`` (``>=1000000`` means at least that)."""
    out = []
    for s in parsed.suffixes:
        field = s.split(":")[0]
        if field.startswith(">="):
            n = int(field[2:])
            assert n >= cap, "cap too large for a '>=' count"
            out.append(cap)
        else:
            out.append(min(int(field), cap))
    return np.array(out, dtype=np.int64)


def assert_valid_solutions(puzzles, sols):
    for p, s in zip(puzzles, sols):
        assert naive_solver.is_solution_of(s, p)


# ---- both paths of the kernels on tiny input -------------------------------------------------

@pytest.mark.parametrize("fn", [K.count_batch, K.count_batch.py_func], ids=["kernel", "py_func"])
def test_count_batch_both_paths(fn):
    p = parse_lines([EASY, "1" * 2 + "." * 79, "." * 81], errors="raise").sudokus
    counts = np.zeros(3, np.int64)
    guesses = np.zeros(3, np.int64)
    sols = np.zeros((3, 81), np.uint8)
    fn(p, 3, counts, sols, guesses)
    assert counts.tolist() == [1, 0, 3]
    assert "".join(map(str, sols[0])) == EASY_SOLUTION
    assert guesses[0] == 0 and guesses[2] > 0
    assert naive_solver.is_solution_of(sols[2], p[2])
    assert not sols[1].any()


@pytest.mark.parametrize("fn", [K.minimal_batch, K.minimal_batch.py_func], ids=["kernel", "py_func"])
def test_minimal_batch_both_paths(fn):
    p = parse_lines([EASY, EASY_SOLUTION], errors="raise").sudokus
    counts = np.zeros(2, np.int64)
    minimal = np.zeros(2, np.bool_)
    fn(p, counts, minimal)
    assert counts.tolist() == [1, 1]
    assert minimal.tolist() == [naive_minimal(EASY), False]


@pytest.mark.parametrize("fn", [K._propagate, K._propagate.py_func], ids=["kernel", "py_func"])
def test_propagate_both_paths(fn):
    S = np.zeros((K.MAXDEPTH, K.NWORDS), np.uint32)
    assert K._init_node(S, parse(EASY))
    assert fn(S, 0)
    assert S[0, 27] == S[0, 28] == S[0, 29] == 0  # logic alone solves this one
    out = np.zeros(81, np.uint8)
    K._write_solution(S, 0, out)
    assert "".join(map(str, out)) == EASY_SOLUTION


def naive_minimal(puzzle: str) -> bool:
    cells = [int(c) if c != "." else 0 for c in puzzle]
    if naive_solver.count(cells, 2) != 1:
        return False
    for p, v in enumerate(cells):
        if v:
            cells[p] = 0
            n = naive_solver.count(cells, 2)
            cells[p] = v
            if n < 2:
                return False
    return True


# ---- the shared data ------------------------------------------------------------------------

def test_tdoku_test_file_counts_and_solutions():
    parsed = load("tdoku_test_puzzles_with_counts.txt")
    res = solver.count_solutions(parsed.sudokus, 10**6, solutions=True)
    assert (res.counts == expected_counts(parsed, 10**6)).all()
    for p, s, sol, suffix in zip(parsed.sudokus, res.solutions, res.counts, parsed.suffixes):
        fields = suffix.split(":")
        if sol:
            assert naive_solver.is_solution_of(s, p)
        if len(fields) > 1 and fields[1]:
            assert "".join(map(str, s)) == fields[1]


def test_serg_multisol_sample_exact():
    parsed = load("serg_benchmark_multisol_with_counts.txt", step=25)  # 400 lines
    res = solver.count_solutions(parsed.sudokus, 2000, solutions=True)
    assert (res.counts == expected_counts(parsed, 2000)).all()
    assert_valid_solutions(parsed.sudokus, res.solutions)


def test_derived_16clue_sample():
    parsed = load("derived_16clue_multisol_1000.txt", step=50)  # 20 lines, exact
    res = solver.count_solutions(parsed.sudokus, 10**6)
    assert (res.counts == expected_counts(parsed, 10**6)).all()
    parsed = load("derived_16clue_multisol_1000.txt")  # all 1000, capped
    res = solver.count_solutions(parsed.sudokus, 300)
    assert (res.counts == expected_counts(parsed, 300)).all()


def test_derived_18clue_no_solution():
    parsed = load("derived_18clue_nosol_1000.txt")
    res = solver.count_solutions(parsed.sudokus, 2)
    assert (expected_counts(parsed, 2) == 0).all()
    assert (res.counts == 0).all()


def test_17clue_sample_unique_and_minimal():
    parsed = load("17clue_49158.txt", step=49)  # 1004 lines
    res = solver.count_solutions(parsed.sudokus, 2, solutions=True)
    assert (res.counts == 1).all()
    assert_valid_solutions(parsed.sudokus, res.solutions)
    counts, minimal = solver.check(parsed.sudokus[:300])
    assert (counts == 1).all() and minimal.all()


@pytest.mark.parametrize("name", ["forum_hardest_1106.txt", "norvig_top95.txt", "top1465.txt"])
def test_hard_lists_solutions_valid(name):
    parsed = load(name, n=300)
    res = solver.count_solutions(parsed.sudokus, 2, solutions=True)
    assert (res.counts == 1).all()  # every puzzle of these lists has exactly one solution
    assert_valid_solutions(parsed.sudokus, res.solutions)


@pytest.mark.parametrize(
    "name,n,step,limit",
    [
        ("serg_benchmark_multisol_with_counts.txt", 12, 701, 40),
        ("sudoku3m_sample7034.txt", 40, 151, 2),
        ("derived_18clue_nosol_1000.txt", 2, 397, 2),
        ("norvig_easy50.txt", 10, 5, 2),
    ],
)
def test_agrees_with_naive_reference(name, n, step, limit):
    parsed = load(name, n=n, step=step)
    res = solver.count_solutions(parsed.sudokus, limit, solutions=True)
    for p, c, s in zip(parsed.sudokus, res.counts, res.solutions):
        ref = []
        assert c == naive_solver.count(p, limit, ref)
        if c:
            assert s.tolist() == ref[0] or naive_solver.is_solution_of(s, p)


def test_minimality_agrees_with_naive_on_sample():
    parsed = load("sudoku3m_sample7034.txt", n=4, step=1500)
    _, minimal = solver.check(parsed.sudokus)
    for p, m in zip(parsed.sudokus, minimal):
        assert m == naive_minimal("".join(str(x) if x else "." for x in p))
    # a 17-clue puzzle plus one more correct given is unique but no longer minimal
    p17 = load("17clue_49158.txt", n=3).sudokus
    sol = solver.count_solutions(p17, 1, solutions=True).solutions
    more = p17.copy()
    for k in range(3):
        cell = int(np.flatnonzero(more[k] == 0)[0])
        more[k, cell] = sol[k, cell]
    counts, minimal = solver.check(more)
    assert counts.tolist() == [1, 1, 1] and not minimal.any()


# ---- API behaviour --------------------------------------------------------------------------

def test_iter_solutions_streams_all_distinct_and_capped():
    parsed = load("tdoku_test_puzzles_with_counts.txt")
    k = next(i for i, s in enumerate(parsed.suffixes) if s.split(":")[0] == "125")
    p = parsed.sudokus[k]
    sols = list(solver.iter_solutions(p, chunk=7))
    assert len(sols) == 125
    assert len({s.tobytes() for s in sols}) == 125
    assert_valid_solutions([p] * 125, sols)
    assert len(solver.all_solutions(p, cap=50)) == 50
    ref = []
    naive_solver.count(p, 200, ref)
    assert {bytes(r) for r in np.array(ref, np.uint8)} == {s.tobytes() for s in sols}


def test_limits_and_degenerate_inputs():
    empty = "." * 81
    assert solver.count_solutions(empty, 5).counts.tolist() == [5]
    clash = "11" + "." * 79
    assert solver.count_solutions(clash, 2).counts.tolist() == [0]
    assert solver.solve_one(clash) is None
    assert solver.count_solutions(np.zeros((0, 81), np.uint8)).counts.shape == (0,)
    grid = solver.solve_one(EASY)
    assert solver.count_solutions(grid, 2).counts.tolist() == [1]
    res = solver.count_solutions([EASY, empty], 2)
    assert res.logic_only.tolist() == [True, False]
    with pytest.raises(ValueError):
        solver.count_solutions(EASY, 0)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, step",
    # every 4th 16-clue line: the whole file counts 119 million solutions (about 90 s); its 250
    # lines count 31 million, from 54 up to the cap of a million
    [("serg_benchmark_multisol_with_counts.txt", 1), ("derived_16clue_multisol_1000.txt", 4),
     ("derived_18clue_nosol_1000.txt", 1)],
)
def test_full_count_files_exact(name, step):
    parsed = load(name, step=step)
    res = solver.count_solutions(parsed.sudokus, 10**6)
    assert (res.counts == expected_counts(parsed, 10**6)).all()


@pytest.mark.slow
def test_full_17clue_unique_and_minimal():
    parsed = load("17clue_49158.txt")
    counts, minimal = solver.check(parsed.sudokus)
    assert (counts == 1).all() and minimal.all()


# ---- triads, configuration branches, guesses ------------------------------------------------

def _triad_units():
    """(mini-row or mini-column cells, the rest of its row or column, the rest of its box)."""
    units = []
    for r in range(9):
        for k in range(3):
            cells = {9 * r + 3 * k + j for j in range(3)}
            line = {9 * r + c for c in range(9)}
            box = {9 * (3 * (r // 3) + i) + 3 * k + j for i in range(3) for j in range(3)}
            units.append((cells, line - cells, box - cells))
    for c in range(9):
        for b in range(3):
            cells = {9 * (3 * b + i) + c for i in range(3)}
            line = {9 * r + c for r in range(9)}
            box = {9 * (3 * b + i) + 3 * (c // 3) + j for i in range(3) for j in range(3)}
            units.append((cells, line - cells, box - cells))
    return units


def naive_triad_violations(cand) -> list:
    """What the triad rules, written plainly, would still remove from candidates ``cand`` (81 digit
    masks): a mini-row or mini-column (3 cells) holds exactly 3 digits, so when only 3 can go there
    they leave the rest of its row/column and box, and when 3 are sure to go there (no candidate
    in the rest of the row/column, or of the box) every other digit leaves it."""
    cand = [int(x) for x in cand]
    out = []
    for cells, line, box in _triad_units():
        digits = 0
        for p in cells:
            digits |= cand[p]
        if bin(digits).count("1") < 3:
            out.append(("fewer than 3 digits", sorted(cells)))
        elif bin(digits).count("1") == 3:
            out += [("forced digit outside", sorted(cells), p) for p in line | box if cand[p] & digits]
        sure = 0
        for d in range(9):
            bit = 1 << d
            if digits & bit and (not any(cand[p] & bit for p in line) or not any(cand[p] & bit for p in box)):
                sure |= bit
        if bin(sure).count("1") == 3:
            out += [("other digit in a full unit", sorted(cells), p) for p in cells if cand[p] & ~sure]
    return out


@pytest.mark.parametrize("name", ["top1465.txt", "forum_hardest_1905_11plus.txt"])
def test_logic_state_is_a_triad_fixed_point_and_sound(name):
    parsed = load(name, n=25, step=37)
    sols = solver.count_solutions(parsed.sudokus, 1, solutions=True).solutions
    for p, sol in zip(parsed.sudokus, sols):
        st = solver.logic_state(p)
        assert st.status in ("stuck", "solved")
        assert all(st.candidates[c] >> (int(sol[c]) - 1) & 1 for c in range(81))  # nothing true removed
        assert naive_triad_violations(st.candidates) == []


def test_triads_change_what_logic_alone_settles():
    # top1465: 4.1 % settled by logic without triads, 7.9 % with them (tdoku's figure too)
    parsed = load("top1465.txt")
    res = solver.count_solutions(parsed.sudokus, 2)
    assert 0.06 < res.logic_only.mean() < 0.12


@pytest.mark.parametrize("fn", [K._triads, K._triads.py_func], ids=["kernel", "py_func"])
def test_triads_both_paths(fn):
    # row 1 of the grid: digits 1, 2, 3 can only go to columns 1-3 (mini-row (0, 0)), while the
    # rest of row 1 and of box 1 still shows them; the rule must remove them there
    S = np.zeros((K.MAXDEPTH, K.NWORDS), np.uint32)
    assert K._init_node(S, np.zeros(81, np.uint8))
    for d in range(3, 9):
        S[0, 3 * d] &= ~np.uint32(7)  # digits 4-9 leave r1c1-r1c3
    res = fn(S, 0)
    assert res > 0
    for d in range(3):
        row1 = int(S[0, 3 * d]) & 511
        box1 = int(S[0, 3 * d]) & 0o007007007
        assert row1 == 7 and box1 == 7
    assert fn(S, 0) >= 0


@pytest.mark.parametrize("fn", [K._choose_config, K._choose_config.py_func], ids=["kernel", "py_func"])
def test_choose_config_both_paths(fn):
    # the first puzzle whose root propagation ends with triads finding nothing (state 2: their
    # masks are left in row 1): the chooser gives the same branch with them or without
    for puzzle in load("top1465.txt", n=40).sudokus:
        S = np.zeros((K.MAXDEPTH, K.NWORDS), np.uint32)
        assert K._init_node(S, puzzle)
        if K._propagate(S, 0) == 2:
            break
    else:
        raise AssertionError("no root ends with triads finding nothing")
    code = fn(S, 0, True)
    assert code >= 0 and fn(S, 0, False) == code
    first, second = code & 511, (code >> 9) & 511
    assert bin(first).count("1") == bin(second).count("1") == 3 and first != second
    # the two branches split the search: their solution counts add up to the node's
    sub = []
    for pm in (first, second):
        T = S.copy()
        T[0, 30] = K._restrict_config(T, 0, code, pm)
        sub.append(K._search(T, np.zeros(2, np.int64), 10, np.zeros((0, 81), np.uint8), K.NO_NEAR))
    assert sorted(sub) == [0, 1]


def test_guesses_sane():
    res = solver.count_solutions(load("top1465.txt", n=300).sudokus, 2)
    assert (res.guesses >= 0).all() and res.guesses.max() > 0
    assert 2 < res.guesses.mean() < 40  # tdoku: 8.9 on the whole list
    assert solver.count_solutions(EASY, 2).guesses.tolist() == [0]


def test_stack_depth_bound():
    # a node guessed on has at least 82 candidates and each level removes one: 648 levels
    assert K.MAXDEPTH >= 729 - 82 + 2
    res = solver.count_solutions("." * 81, 3000)  # deep, wide search on the empty grid
    assert res.counts.tolist() == [3000]


_BASE = np.array([int(c) for c in EASY_SOLUTION], np.uint8)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(1, 10))), st.integers(22, 40), st.randoms(use_true_random=False),
       st.booleans())
def test_random_puzzles_agree_with_naive(relabel, clues, rnd, spoil):
    grid = np.array([0] + list(relabel), np.uint8)[_BASE]
    cells = rnd.sample(range(81), clues)
    puzzle = np.zeros(81, np.uint8)
    puzzle[cells] = grid[cells]
    if spoil:  # one given changed: usually no solution left, and no duplicate check sees it
        c = cells[0]
        puzzle[c] = puzzle[c] % 9 + 1
    ref = []
    want = naive_solver.count(puzzle, 5, ref)
    res = solver.count_solutions(puzzle, 5, solutions=True)
    assert res.counts[0] == want
    if want:
        assert naive_solver.is_solution_of(res.solutions[0], puzzle)


def test_count_near_follows_the_known_solution_first():
    """``count_near`` counts as ``count_into`` does, finds the solution it follows first, and the
    next one differs from it in far fewer cells (20 random clues of a grid: count_into's other
    solution differed from the grid in 42 cells in the median, the followed search's in 6)."""
    parsed = load("derived_16clue_multisol_1000.txt", step=20)
    S = np.zeros((K.MAXDEPTH, K.NWORDS), np.uint32)
    ctl = np.zeros(2, np.int64)
    sols = np.zeros((2, 81), np.uint8)
    near = np.zeros(27, np.int64)
    rng = np.random.default_rng(5)
    plain, followed = [], []
    for p in parsed.sudokus:
        K.count_into(S, ctl, p, 1, sols)
        grid = sols[0].copy()
        K.solution_planes(grid, near)
        for _ in range(5):
            q = np.zeros(81, np.uint8)
            cells = rng.choice(81, 20, replace=False)
            q[cells] = grid[cells]
            n = K.count_into(S, ctl, q, 50, sols)
            if n < 2:
                continue
            plain.append(int((sols[1 if (sols[0] == grid).all() else 0] != grid).sum()))
            assert K.count_near(S, ctl, q, near, 50, sols) == n
            assert (sols[0] == grid).all() and naive_solver.is_solution_of(sols[1], q) and (sols[1] != grid).any()
            followed.append(int((sols[1] != grid).sum()))
    assert len(plain) > 100 and np.median(followed) * 3 < np.median(plain)


@settings(max_examples=80, deadline=None)
@given(st.permutations(list(range(1, 10))), st.integers(0, 45), st.randoms(use_true_random=False))
def test_other_filling_agrees_with_the_solver(relabel, empty, rnd):
    """``other_filling`` of a set of empty cells of a grid: another filling exists exactly when the
    puzzle of the other cells has two solutions (the whole-grid solver is the oracle), and the
    filling it gives completes the grid otherwise."""
    grid = np.array([0] + list(relabel), np.uint8)[_BASE]
    rnd.shuffle(perm := list(range(81)))
    cells = np.array(sorted(perm[:empty]), np.int64)
    puzzle = grid.copy()
    puzzle[cells] = 0
    out = np.zeros(81, np.int64)
    found = other_filling(grid, cells, len(cells), out, np.zeros(REFILL_SCRATCH, np.int64))
    assert found == (solver.count_solutions(puzzle, 2).counts[0] == 2)
    if found:
        other = grid.copy()
        other[cells] = out[:len(cells)]
        assert naive_solver.is_solution_of(other, puzzle) and (other != grid).any()


def test_other_filling_of_two_digits_cells_exchanges_them_or_less():
    """The 18 cells of two digits are a UA (exchange the digits): a filling is found, and it
    changes only cells of those digits, to the other digit of the two."""
    grid = _BASE.copy()
    out = np.zeros(81, np.int64)
    W = np.zeros(REFILL_SCRATCH, np.int64)
    for d1 in range(1, 10):
        for d2 in range(d1 + 1, 10):
            cells = np.flatnonzero((grid == d1) | (grid == d2)).astype(np.int64)
            assert other_filling(grid, cells, 18, out, W)
            changed = out[:18] != grid[cells]
            assert changed.any() and set(out[:18][changed]) <= {d1, d2}


@settings(max_examples=80, deadline=None)
@given(st.permutations(list(range(1, 10))), st.integers(17, 40), st.integers(0, 12), st.randoms(use_true_random=False))
def test_count_plus_counts_as_if_every_given_were_placed_at_once(relabel, shared, extra, rnd):
    """``count_plus`` from ``givens_node`` of some givens, with more givens added: the same count
    and the same solutions as ``count_into`` of the puzzle with all of them (a grid's cells, so
    from one solution to many), also where an added given repeats a shared one."""
    grid = np.array([0] + list(relabel), np.uint8)[_BASE]
    rnd.shuffle(perm := list(range(81)))
    shared_cells, more = perm[:shared], perm[shared:shared + extra] + perm[:min(2, shared)]
    puzzle = np.zeros(81, np.uint8)
    puzzle[shared_cells] = grid[shared_cells]
    base = np.zeros(SOLVER_WORDS, np.uint32)
    assert givens_node(puzzle, base)
    full = puzzle.copy()
    full[more] = grid[more]
    S, ctl = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32), np.zeros(2, np.int64)
    want_sols, got_sols = np.zeros((5, 81), np.uint8), np.zeros((5, 81), np.uint8)
    want = count_into(S, ctl, full, 5, want_sols)
    got = count_plus(S, ctl, base, grid, np.array(more, np.int64), len(more), 5, got_sols)
    assert got == want >= 1 and np.array_equal(got_sols[:min(got, 5)], want_sols[:min(want, 5)])
    assert want == min(5, solver.count_solutions(full, 5).counts[0])


def test_count_plus_of_a_clashing_given_is_zero():
    puzzle = np.zeros(81, np.uint8)
    puzzle[0] = 5
    base = np.zeros(SOLVER_WORDS, np.uint32)
    assert givens_node(puzzle, base)
    other = np.zeros(81, np.uint8)
    other[1] = 5  # the same digit in row 1 again
    S, ctl = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32), np.zeros(2, np.int64)
    assert count_plus(S, ctl, base, other, np.array([1], np.int64), 1, 2, np.zeros((2, 81), np.uint8)) == 0
    puzzle[1] = 5
    assert not givens_node(puzzle, base)
