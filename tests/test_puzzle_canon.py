"""Canonical forms of puzzles: the 17-clue facts, the brute-force reference, property tests."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sudoku_symmetry.engine.canon._puzzle_kernels as K
from sudoku_symmetry.engine.canon.puzzle import canon_puzzle, canon_puzzles, puzzle_automorphisms
from sudoku_symmetry.engine.text import format_sudoku, parse, parse_lines
from sudoku_symmetry.engine.group._kernels import SIZE
from sudoku_symmetry.engine.group.transform import Transform, apply_batch, random_transforms

from conftest import RANK1_GRID
from naive_canon import naive_canon

GRID648 = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
# a 17-clue line that is NOT its own pure-minlex form (see test_17clue_pure_minlex): swapping
# bands 2, 3 and stacks 2, 3 turns row 3 "..2.....3" into the smaller "..1..3..."
LINE_17188 = "..............1..2..2.....3.....4.1...3...5....6.3........2...6.1...5.7.4..8....."
LINE_17188_FORM = "..............1..2..1..3........4.1..2..5...67.....8......2...7..36.......4....3."


@pytest.fixture(scope="module")
def clues17(data_dir):
    return parse_lines((data_dir / "17clue_49158.txt").read_text().splitlines()).sudokus


def _lt(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a < b in lexicographic order, for (N, 81) arrays."""
    diff = a != b
    first = np.argmax(diff, axis=1)
    rows = np.arange(len(a))
    return diff.any(axis=1) & (a[rows, first] < b[rows, first])


# -- the 17-clue list --------------------------------------------------------------------------
def test_17clue_pure_minlex(clues17):
    forms, trans, autos = canon_puzzles(clues17)
    assert np.array_equal(apply_batch(trans, clues17), forms)
    fixed = (forms == clues17).all(axis=1)
    # every line its own pure-minlex form? (an early claim of the data's README) It holds for
    # 47,653 lines.  For the other 1,505 the group reaches a strictly smaller string (the
    # brute-force reference agrees, e.g. LINE_17188 below), never a larger one.
    assert fixed.sum() == 47_653
    assert _lt(forms[~fixed], clues17[~fixed]).all()
    assert (autos == 1).all()
    # forms are fixed points, and 49,158 lines stay 49,158 classes
    again, _, _ = canon_puzzles(forms)
    assert np.array_equal(again, forms)
    assert len(np.unique(forms, axis=0)) == len(clues17)


def test_17clue_transformed_back(clues17):
    forms, _, autos = canon_puzzles(clues17)
    moved = apply_batch(random_transforms(len(clues17), np.random.default_rng(17)), clues17)
    f2, t2, a2 = canon_puzzles(moved)
    assert np.array_equal(f2, forms)
    assert np.array_equal(apply_batch(t2, moved), f2)
    assert np.array_equal(a2, autos)


def test_17clue_pattern_first(clues17):
    forms, trans, autos = canon_puzzles(clues17, pattern_first=True)
    assert np.array_equal(apply_batch(trans, clues17), forms)
    assert (forms == clues17).all(axis=1).sum() == 20_741
    assert len(np.unique(forms, axis=0)) == len(clues17)
    moved = apply_batch(random_transforms(len(clues17), np.random.default_rng(18)), clues17)
    f2, t2, a2 = canon_puzzles(moved, pattern_first=True)
    assert np.array_equal(f2, forms)
    assert np.array_equal(apply_batch(t2, moved), f2)
    assert np.array_equal(a2, autos)


# -- agreement with the brute-force reference --------------------------------------------------
def _partial(grid: str, keep) -> str:
    return "".join(ch if keep(k) else "." for k, ch in enumerate(grid))


SYMMETRIC = _partial(GRID648, lambda k: (k // 9 + k % 9) % 3 == 0)  # 27 givens, many automorphisms
TWO_ROWS = "123456789" + "." * 18 + "456789123" + "." * 45  # empty rows and an empty band: 864
NAIVE_CASES = [
    ("." * 81, False),  # 3,359,232 x 9! automorphisms
    ("1" + "." * 80, True),
    ("1" + "." * 39 + "2" + "." * 40, False),
    ("1...........2.................3" + "." * 50, False),
    ("1...........2.................3" + "." * 50, True),
    (GRID648, False),  # 648 automorphisms as a grid
    (RANK1_GRID, False),
    (SYMMETRIC, False),
    (SYMMETRIC, True),
    (LINE_17188, False),
    (LINE_17188, True),
    (TWO_ROWS, True),
    (_partial(GRID648, lambda k: k % 7 == 0 or k % 11 == 3), True),
]


@pytest.mark.parametrize("text,pattern_first", NAIVE_CASES)
def test_matches_naive(text, pattern_first):
    p = parse(text)
    want, want_count, _ = naive_canon(p, pattern_first)
    form, t, count = canon_puzzle(p, pattern_first)
    assert format_sudoku(form) == format_sudoku(want)
    assert count == want_count
    assert np.array_equal(t.apply(p), form)
    if text == LINE_17188 and not pattern_first:
        assert format_sudoku(form) == LINE_17188_FORM


def test_known_counts():
    assert canon_puzzle("." * 81)[2] == 3_359_232 * 362_880
    assert canon_puzzle(GRID648)[2] == 648
    assert canon_puzzle(GRID648, pattern_first=True)[2] == 648
    assert canon_puzzle(SYMMETRIC)[2] == 108


def test_grids_pattern_first_equals_pure():
    rng = np.random.default_rng(5)
    grids = apply_batch(random_transforms(20, rng), np.stack([parse(RANK1_GRID), parse(GRID648)] * 10))
    a = canon_puzzles(grids)
    b = canon_puzzles(grids, pattern_first=True)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[2], b[2])
    assert np.array_equal(apply_batch(a[1], grids), a[0])


# -- properties --------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_invariant_under_random_transformations(seed, density):
    rng = np.random.default_rng(seed)
    grid = Transform.random(rng).apply(parse(RANK1_GRID))
    puzzle = np.where(rng.random(81) < density, grid, 0).astype(np.uint8)
    copies = np.stack([puzzle] + [Transform.random(rng).apply(puzzle) for _ in range(3)])
    for pf in (False, True):
        forms, trans, autos = canon_puzzles(copies, pattern_first=pf)
        assert (forms == forms[0]).all()
        assert (autos == autos[0]).all()
        assert np.array_equal(apply_batch(trans, copies), forms)


def test_automorphism_count_same_for_both_conventions(clues17):
    sample = clues17[::997]
    sparse = np.zeros((4, 81), np.uint8)
    sparse[1, 0] = 1
    sparse[2, [0, 40]] = [1, 2]
    sparse[3, [0, 12, 30]] = [1, 2, 3]
    batch = np.concatenate([sample, sparse, parse(SYMMETRIC)[None]])
    assert np.array_equal(canon_puzzles(batch)[2], canon_puzzles(batch, pattern_first=True)[2])


# -- automorphism lists, API edges ---------------------------------------------------------------
@pytest.mark.parametrize("text", [GRID648, SYMMETRIC, _partial(GRID648, lambda k: k not in (0, 40, 80)), TWO_ROWS])
def test_puzzle_automorphisms(text):
    p = parse(text)
    count = canon_puzzle(p)[2]
    for pf in (False, True):
        autos = puzzle_automorphisms(p, pattern_first=pf)
        assert len(autos) == count
        assert len({str(a) for a in autos}) == count
        assert all(np.array_equal(a.apply(p), p) for a in autos)


def test_automorphism_limit():
    with pytest.raises(ValueError):
        puzzle_automorphisms("." * 81)


def test_rejects_repeated_digit_and_takes_empty_batch():
    with pytest.raises(ValueError):
        canon_puzzles(parse("11" + "." * 79)[None])
    with pytest.raises(ValueError):
        canon_puzzles(parse("1" + "." * 8 + "1" + "." * 71)[None])
    canon_puzzles(parse("1" + "." * 9 + "1" + "." * 70)[None])  # same box only: allowed
    bad = np.zeros((2, 81), np.uint8)
    bad[1, 5] = 10
    with pytest.raises(ValueError):
        canon_puzzles(bad)
    f, t, a = canon_puzzles(np.zeros((0, 81), np.uint8))
    assert f.shape == (0, 81) and t.shape == (0, 29) and a.shape == (0,)


def test_overflow_retry(monkeypatch):
    import sudoku_symmetry.engine.canon.puzzle as api

    monkeypatch.setattr(api, "_CAP", 8)  # forces the retry path (grids need 23,328)
    form, t, count = canon_puzzle(GRID648)
    assert count == 648 and np.array_equal(t.apply(parse(GRID648)), form)


# -- kernel lines under coverage -----------------------------------------------------------------
@pytest.mark.parametrize("python", [False, True])
def test_kernel_and_py_func(python, monkeypatch):
    batch = np.stack([parse(LINE_17188), parse("1...........2.................3" + "." * 50)])
    fn = K.canon_batch
    if python:
        # every kernel of the module (the inlined steps of _canon_one included) as plain Python
        kernels = [name for name, obj in vars(K).items() if hasattr(obj, "py_func") and obj.py_func.__module__ == K.__name__]
        assert {"_canon_one", "_push", "_label_new", "_load", "_workspace"} <= set(kernels)
        for name in kernels:
            monkeypatch.setattr(K, name, getattr(K, name).py_func)
        fn = K.canon_batch
    for mode in (0, 1):
        forms = np.zeros((2, 81), np.uint8)
        trans = np.zeros((2, SIZE), np.uint8)
        autos = np.zeros(2, np.int64)
        fn(batch, mode, 4096, forms, trans, autos)
        want = canon_puzzles(batch, pattern_first=bool(mode))
        assert np.array_equal(forms, want[0]) and np.array_equal(trans, want[1]) and np.array_equal(autos, want[2])


def _runs(bits: int) -> int:
    """Orders of one 3-run from its two tie bits (bit 0: 0-1 tied, bit 1: 1-2 tied)."""
    return 6 if bits == 3 else (2 if bits else 1)


@pytest.mark.parametrize("python", [False, True])
def test_tie_helpers(python):
    tie_orders = K._tie_orders.py_func if python else K._tie_orders
    tied_positions = K._tied_positions.py_func if python else K._tied_positions
    assert K.TIE_ALL == K.INNER_TIES | K.TIE_S01 | K.TIE_S12 == 0b11110110110
    assert tied_positions(K.TIE_ALL) == 0o777 and tied_positions(0) == 0
    for tie in range(0, 1 << 11, 3):
        want = _runs((tie >> 1) & 3) * _runs((tie >> 4) & 3) * _runs((tie >> 7) & 3) * _runs((tie >> 9) & 3)
        assert tie_orders(tie) == want
        tp = tied_positions(tie)
        for p in range(9):
            inner = (p % 3 != 0 and (tie >> p) & 1) or (p % 3 != 2 and (tie >> (p + 1)) & 1)
            stacks = (p < 6 and (tie >> 9) & 1) or (p >= 3 and (tie >> 10) & 1)
            assert bool((tp >> p) & 1) == bool(inner or stacks)
