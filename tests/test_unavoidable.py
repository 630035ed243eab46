"""Unavoidable sets and the puzzles inside a grid, against slow references (tests/naive_unavoidable.py)
and the outside world: the 17-clue list holds every 17-clue puzzle, one per class.

Grids of list puzzles are drawn at random; the seed is printed (``UA_TEST_SEED`` replays a run).
The full 17-clue search of a grid takes minutes: here the search runs with part of a list puzzle's
clues given (the oracle then names exactly the 17s of the grid holding those clues); whole grids
are in ``bench/bench_unavoidable.py`` and the slow test at the end (``-m slow``).
"""
from __future__ import annotations

import os
import random
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sudoku_symmetry.engine.canon import InvalidGridError, canon_grid, canon_grids, canon_puzzles, grid_automorphisms
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.group.transform import apply_batch, random_transforms
from sudoku_symmetry.engine.solve import count_solutions, solve
from sudoku_symmetry.engine.text import format_sudoku, parse_lines, parse_one
from sudoku_symmetry.engine.unavoidable import MAX_SIZE, puzzles_in_grid, unavoidable_sets
from sudoku_symmetry.engine.unavoidable import collect, hitting
from sudoku_symmetry.engine.search17 import grid as G
from sudoku_symmetry.engine.unavoidable.puzzles import search_masks
from sudoku_symmetry.engine.unavoidable.sets import arrays_to_masks, cells_of, minimal_uas

from conftest import RANK1_GRID, data_path
from naive_unavoidable import puzzles_by_emptying, two_digit_uas, uas_by_refilling

SEED = int(os.environ.get("UA_TEST_SEED") or random.SystemRandom().randrange(1 << 30))
print(f"\ntest_unavoidable: UA_TEST_SEED={SEED}")

GRIDS = [parse_one(RANK1_GRID)] + list(random_grids(3, seed=SEED % 10_000))


def as_sets(uas) -> set[frozenset]:
    return {frozenset(uas.cells(k)) for k in range(len(uas))}


# -- unavoidable sets --------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(len(GRIDS)))
def test_minimal_uas_up_to_8_cells_match_every_refilling_of_up_to_4_digits(k):
    grid = GRIDS[k]
    ours = unavoidable_sets(grid, 8)
    assert as_sets(ours) == uas_by_refilling(grid, 8)
    assert len(as_sets(ours)) == len(ours)  # each once


def test_the_first_grid_of_the_catalog_has_its_known_small_uas():
    # rank 1: every band is 3 copies of one mini-row pattern, so each pair of digits that share
    # mini-rows swaps in many rectangles (4 cells) and chains (6 cells)
    assert unavoidable_sets(RANK1_GRID, 6).counts == {4: 6, 6: 114}


@pytest.mark.parametrize("k", [1, 2])
def test_every_ua_up_to_12_cells_is_unavoidable_and_minimal(k):
    grid = GRIDS[k]
    uas = unavoidable_sets(grid, 12)
    assert 150 < len(uas) < 700 and set(uas.counts) <= set(range(4, 13)) and 5 not in uas.counts
    assert (np.diff(uas.sizes) >= 0).all()
    emptied = np.where(uas.as_puzzles() != 0, 0, grid[None, :]).astype(np.uint8)
    assert (count_solutions(emptied, 2).counts == 2).all()  # unavoidable
    less_one = []
    for k2 in range(len(uas)):
        for c in uas.cells(k2):
            p = emptied[k2].copy()
            p[c] = grid[c]
            less_one.append(p)
    assert (count_solutions(np.array(less_one), 2).counts == 1).all()  # minimal


@pytest.mark.parametrize("k", [0, 1])
def test_two_digit_uas_match_the_swaps_of_rows(k):
    grid = GRIDS[k]
    uas = unavoidable_sets(grid, 12)
    two = {s for s in as_sets(uas) if len({int(grid[c]) for c in s}) == 2}
    assert two == {s for s in two_digit_uas(grid) if len(s) <= 12}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_uas_of_a_moved_grid_are_the_moved_uas(seed):
    """Property: relabelling digits and moving rows, columns, bands and stacks (and transposing)
    maps unavoidable sets onto unavoidable sets, minimal onto minimal, so the sets of the moved
    grid are exactly the images of the grid's sets."""
    grid = random_grids(1, seed=seed % 100_000)[0]
    t = random_transforms(1, np.random.default_rng(seed))
    moved = apply_batch(t, grid[None, :])[0]
    uas = unavoidable_sets(grid, 10)
    images = apply_batch(np.repeat(t, len(uas), axis=0), uas.as_puzzles())
    assert {p.tobytes() for p in images} == {p.tobytes() for p in unavoidable_sets(moved, 10).as_puzzles()}


def test_lines_masks_and_cells_agree():
    uas = unavoidable_sets(GRIDS[1], 10)
    lines = uas.lines()
    assert len(lines) == len(uas)
    for k, line in enumerate(lines):
        cells = [c for c, ch in enumerate(line) if ch != "."]
        assert cells == uas.cells(k) == cells_of(uas.masks[k])
        assert all(int(line[c]) == GRIDS[1][c] for c in cells)
    assert (arrays_to_masks(uas.as_puzzles()) == uas.masks).all()


def test_compiled_and_python_kernels_agree_on_small_sets():
    grid = GRIDS[1]
    width = int(collect.TEMPLATES_WITHIN[2:3].sum())
    results = []
    for templates, candidates in ((collect.digit_templates, collect.ua_candidates),
                                  (collect.digit_templates.py_func, collect.ua_candidates.py_func)):
        tl = np.zeros((9, width), np.uint64)
        th = np.zeros((9, width), np.uint64)
        tm = np.zeros((9, width), np.int64)
        tdig = np.zeros((9, width), np.int64)
        counts = np.zeros(9, np.int64)
        templates(grid, 2, tl, th, tm, tdig, counts)
        assert (counts == collect.TEMPLATES_WITHIN[2]).all()
        out = np.zeros((200, 2), np.uint64)
        n = candidates(grid, 4, tl, th, tm, tdig, counts, out)
        results.append({tuple(r) for r in out[:n].tolist()})
    assert results[0] == results[1]
    assert results[0] == {tuple(r) for r in unavoidable_sets(grid, 4).masks.tolist()}


def test_bad_input():
    with pytest.raises(InvalidGridError):
        unavoidable_sets(RANK1_GRID[:-1] + ".")
    with pytest.raises(ValueError):
        unavoidable_sets(RANK1_GRID, MAX_SIZE + 1)
    with pytest.raises(InvalidGridError):
        puzzles_in_grid("1" * 81, 17)
    with pytest.raises(ValueError):
        puzzles_in_grid(RANK1_GRID, 82)
    assert len(unavoidable_sets(RANK1_GRID, 3)) == 0


# -- puzzles of many clues: every set of up to 3 cells emptied ----------------------------------
@pytest.mark.parametrize("clues", [80, 79, 78])
def test_puzzles_of_78_to_80_clues_match_emptying_every_set_of_cells(clues):
    grid = GRIDS[2]
    found = puzzles_in_grid(grid, clues)
    ours = {frozenset(np.flatnonzero(p).tolist()) for p in found.puzzles}
    assert found.complete and len(ours) == len(found)  # each once
    assert ours == puzzles_by_emptying(grid, 81 - clues)
    assert (found.puzzles[found.puzzles != 0] == np.broadcast_to(grid, found.puzzles.shape)[found.puzzles != 0]).all()
    assert len(puzzles_in_grid(grid, clues, minimal=True)) == 0  # a minimal puzzle has far fewer clues


def test_limit_and_each_puzzle_once():
    grid = GRIDS[2]
    every = puzzles_in_grid(grid, 79)
    some = puzzles_in_grid(grid, 79, limit=100)
    assert len(some) == 100 and not some.complete
    assert {p.tobytes() for p in some.puzzles} <= {p.tobytes() for p in every.puzzles}
    assert len({p.tobytes() for p in every.puzzles}) == len(every)
    assert puzzles_in_grid(grid, 81).puzzles.tolist() == [grid.tolist()]


# -- the 17-clue list as the oracle --------------------------------------------------------------
@pytest.fixture(scope="module")
def seventeens():
    """The list's puzzles grouped by the minlex form of their solution grid."""
    lines = [ln for ln in data_path("17clue_49158.txt").read_text().splitlines() if ln.strip()]
    puzzles = parse_lines(lines).sudokus
    sols, ok = solve(puzzles)
    assert ok.all()
    forms = canon_grids(sols).forms
    groups = defaultdict(list)
    for k in range(len(puzzles)):
        groups[forms[k].tobytes()].append(k)
    return puzzles, sols, groups


def images_in(grid: np.ndarray, puzzles: np.ndarray, sols: np.ndarray) -> set[bytes]:
    """Every copy, in the cells of ``grid``, of puzzles whose solutions are copies of ``grid``: one
    per automorphism of the grid (two may coincide when the puzzle has automorphisms)."""
    to_form = canon_grid(grid).transform
    back = to_form.inverse()
    auts = grid_automorphisms(grid)
    out = set()
    for p, s in zip(puzzles, sols):
        t = canon_grid(s).transform.then(back)
        assert (t.apply(s[None, :])[0] == grid).all()
        q = t.apply(p[None, :])
        for a in auts:
            out.add(a.apply(q)[0].tobytes())
    return out


def search_with_givens(grid, clues, givens, minimal=False):
    uas, _ = minimal_uas(grid, 12)
    lo, hi = (int(x) for x in arrays_to_masks(givens[None, :])[0])
    masks, complete, _ = search_masks(grid, clues, uas, minimal=minimal, given=(lo, hi))
    assert complete
    return {np.where(np.isin(np.arange(81), cells_of(m)), grid, 0).astype(np.uint8).tobytes() for m in masks}


def _check_grid_of(seventeens, k, rng, n_given=9):
    puzzles, sols, groups = seventeens
    grid = sols[k]
    members = groups[canon_grids(grid[None, :]).forms[0].tobytes()]
    expected = images_in(grid, puzzles[members], sols[members])
    assert len(expected) >= len(members)
    # givens: n_given clues of one of the grid's 17s, and the 17s holding them are the answer
    one = np.frombuffer(rng.choice(sorted(expected)), np.uint8)
    cells = rng.sample(sorted(np.flatnonzero(one).tolist()), n_given)
    givens = np.zeros(81, np.uint8)
    givens[cells] = grid[cells]
    want = {e for e in expected if all(np.frombuffer(e, np.uint8)[c] for c in cells)}
    got = search_with_givens(grid, 17, givens)
    assert got == want, (k, format_sudoku(givens))
    assert all(count_solutions(np.frombuffer(g, np.uint8)[None, :], 2).counts[0] == 1 for g in got)
    # one clue fewer: no 16
    assert search_with_givens(grid, 16, givens) == set()


def test_every_list_17_hits_every_ua_of_its_grid(seventeens):
    """Property: a puzzle has a clue in every unavoidable set of its solution (else the set's
    digits could be rearranged into a second solution)."""
    puzzles, sols, _ = seventeens
    rng = random.Random(SEED + 2)
    for k in rng.sample(range(len(puzzles)), 20):
        uas = unavoidable_sets(sols[k], 12)
        clues = arrays_to_masks(puzzles[k][None, :])[0]
        assert ((uas.masks[:, 0] & clues[0]) | (uas.masks[:, 1] & clues[1]) != 0).all(), k


def test_17s_holding_part_of_a_list_puzzle_are_exactly_the_lists(seventeens):
    rng = random.Random(SEED)
    puzzles = seventeens[0]
    for k in rng.sample(range(len(puzzles)), 6):
        _check_grid_of(seventeens, k, rng)


def test_17s_of_the_grids_with_most_17s(seventeens):
    puzzles, sols, groups = seventeens
    rng = random.Random(SEED + 1)
    top = sorted(groups.values(), key=len, reverse=True)[:2]
    assert [len(g) for g in top] == [29, 20]
    for members in top:
        _check_grid_of(seventeens, members[0], rng, n_given=8)


def test_a_grid_with_automorphisms_holds_a_copy_of_its_17_per_automorphism(seventeens):
    """A grid G holds |Aut(G)| / |Aut(P)| copies of each of its puzzles P (the images of P under
    G's automorphisms); they differ in their cells, so the search lists each of them."""
    puzzles, sols, groups = seventeens
    autos = canon_grids(sols).automorphisms
    best = None  # the list puzzle on a grid with automorphisms whose copies share the most cells
    for k in np.flatnonzero(autos > 1):
        copies = [np.frombuffer(e, np.uint8) for e in images_in(sols[k], puzzles[[k]], sols[[k]])]
        assert len(copies) == autos[k] // canon_puzzles(puzzles[[k]]).automorphisms[0]
        if len(copies) > 1:
            shared = np.logical_and.reduce([c != 0 for c in copies])
            if best is None or shared.sum() > best[1].sum():
                best = (k, shared, copies)
    k, shared, copies = best
    assert shared.sum() >= 8
    grid = sols[k]
    members = groups[canon_grids(grid[None, :]).forms[0].tobytes()]
    givens = np.where(shared, grid, 0).astype(np.uint8)
    want = {e for e in images_in(grid, puzzles[members], sols[members]) if all(np.frombuffer(e, np.uint8)[shared])}
    got = search_with_givens(grid, 17, givens)
    assert got == want and {c.tobytes() for c in copies} <= got
    assert puzzles_in_grid(grid, 81).automorphisms == autos[k]


def test_minimal_search_keeps_only_minimal_puzzles(seventeens):
    puzzles, sols, _ = seventeens
    grid = sols[3]
    givens = puzzles[3].copy()
    cells = np.flatnonzero(givens)
    givens[cells[:12]] = 0  # 5 givens: find the 17s and 18s holding them
    eighteen_any = search_with_givens(grid, 18, givens)
    eighteen_min = search_with_givens(grid, 18, givens, minimal=True)
    assert eighteen_min <= eighteen_any
    batch = np.array([np.frombuffer(p, np.uint8) for p in sorted(eighteen_any)])
    from sudoku_symmetry.engine.solve import check
    counts, minimal = check(batch)
    assert (counts == 1).all()
    assert {p.tobytes() for p, m in zip(batch, minimal) if m} == eighteen_min


# The band-wise search (engine.search17.grid): every puzzle of 16-18 clues of a whole grid, by the
# 17-clue search's pair kernels on the grid's own bands and stacks; puzzles_in_grid's way for 17.

def test_the_arrangements_meet_every_way_clues_fall_on_bands():
    """Every count of clues per band (and per stack) of a puzzle of 16-18 clues is searched by one
    of the arrangements of either orientation: a band of 7+ as band 3 (high), else the band with
    the fewest clues as band 1 (low). Applied to the bands, a puzzle with a band of 7+ is met; to
    the stacks (the transpose), one with a stack of 7+; one with neither is met by the low
    arrangements of whichever orientation and band-2 order ``low_arrangements`` picks."""
    from itertools import product
    for n in G.CLUES:
        low, high = set(G.low_splits(n)), set(G.high_splits(n))
        assert all(sum(s) == n for s in low | high)
        for t, tie_first in product((False, True), repeat=2):
            for counts in product(range(n + 1), repeat=3):
                if sum(counts) != n or max(counts) > 27:
                    continue
                met = False
                for arr in G.ARRANGEMENTS:
                    if arr.transposed != t:
                        continue
                    split = tuple(counts[b] for b in arr.order)
                    if arr.kind == "high":
                        # a tie (as many clues in bands 1 and 2) by one of the two orders only
                        met |= split in high and (split[0] < split[1] or (arr.order[0] < arr.order[1]) == tie_first)
                    else:
                        met |= max(counts) <= 6 and split in G.arrangement_low_splits(arr, n)
                assert met, (n, t, counts)
        assert all(x <= min(y, z) and max(x, y, z) <= 6 for x, y, z in low)
        assert all(x <= y <= z and z >= 7 for x, y, z in high)


def test_an_arrangement_is_a_view_of_the_grids_bands_or_stacks():
    grid = random_grids(1, seed=SEED)[0].astype(np.int64).reshape(9, 9)
    for arr in G.ARRANGEMENTS:
        cells = arr.cells()
        assert sorted(cells.tolist()) == list(range(81))
        view = grid.reshape(81)[cells].reshape(9, 9)
        src = grid.T if arr.transposed else grid
        for k, b in enumerate(arr.order):
            assert (view[3 * k:3 * k + 3] == src[3 * b:3 * b + 3]).all()
        assert count_solutions(view.reshape(1, 81).astype(np.uint8), 2).counts[0] == 1
    assert sum(a.kind == "low" for a in G.ARRANGEMENTS) == 12 and sum(a.transposed for a in G.ARRANGEMENTS) == 12
    assert len(set(G.ARRANGEMENTS)) == 24
    for clues in G.CLUES:  # twelve high arrangements, the ties in one order of each band 3
        high = list(G.high_arrangements(grid, clues))
        assert {a for a, _, _ in high} == {a for a in G.ARRANGEMENTS if a.kind == "high"}
        for k in range(0, 12, 2):
            assert {high[k][2], high[k + 1][2]} == {G.high_splits(clues), tuple(s for s in G.high_splits(clues) if s[0] < s[1])}
    for clues in G.CLUES:  # three low arrangements of one orientation, each band as band 1 once
        low = G.low_arrangements(grid, clues)
        assert len(low) == 3 and len({a.transposed for a, _, _ in low}) == 1
        assert sorted(a.order[0] for a, _, _ in low) == [0, 1, 2] and all(a in G.ARRANGEMENTS for a, _, _ in low)
        assert all(splits == G.arrangement_low_splits(a, clues) for a, _, splits in low)
    # a tie in the low splits by the band of lower index as band 1: 18's 6-6-6 by band 1 = 0 only
    assert [G.arrangement_low_splits(G.Arrangement(False, o, "low"), 18) for o in ((0, 2, 1), (1, 0, 2), (2, 1, 0))] \
        == [((6, 6, 6),), (), ()]


def _band_17s_are_the_lists(seventeens, k):
    puzzles, sols, groups = seventeens
    grid = sols[k]
    members = groups[canon_grids(grid[None, :]).forms[0].tobytes()]
    found = puzzles_in_grid(grid, 17)
    assert found.stats["method"] == "bands" and found.complete
    got = {p.tobytes() for p in found.puzzles}
    assert len(got) == len(found.puzzles)  # each once
    assert got == images_in(grid, puzzles[members], sols[members]), (k, format_sudoku(grid))
    assert (count_solutions(found.puzzles, 2).counts == 1).all()
    return grid, found


def test_every_17_of_a_whole_grid_by_bands_is_exactly_the_lists(seventeens):
    """The whole-grid 17 search (no givens) on the grid with the second most 17s (20) and on the
    grids of two list puzzles drawn at random: every copy of the list's 17s in the grid's cells,
    nothing else; then the same grid's 16s (none) and ``minimal``/``limit`` on its list."""
    puzzles, sols, groups = seventeens
    rng = random.Random(SEED + 3)
    second = sorted(groups.values(), key=len, reverse=True)[1]
    grid, full = _band_17s_are_the_lists(seventeens, second[0])
    part = puzzles_in_grid(grid, 17, minimal=True, limit=3)
    assert len(part) == 3 and not part.complete
    assert {p.tobytes() for p in part.puzzles} <= {p.tobytes() for p in full.puzzles}
    for k in rng.sample(range(len(puzzles)), 2):
        grid, _ = _band_17s_are_the_lists(seventeens, k)
    none = puzzles_in_grid(grid, 16, method="bands")
    assert len(none) == 0 and none.complete and none.stats["method"] == "bands"


def _low(p: np.ndarray) -> bool:
    b = p.reshape(9, 9) > 0
    return all(b[3 * i:3 * i + 3].sum() <= 6 and b[:, 3 * i:3 * i + 3].sum() <= 6 for i in range(3))


def test_either_orientation_of_the_low_arrangements_finds_the_same_puzzles(seventeens):
    """The low arrangements on the bands and on the stacks (the transpose), each with the band-2
    order ``low_arrangements`` picks, find the same puzzles: every copy in the grid of its list
    17s with no chute above 6 clues (list line 21222 is one)."""
    puzzles, sols, groups = seventeens
    k = 21222
    assert _low(puzzles[k])
    grid = sols[k].astype(np.int64)
    found = []
    for t in (False, True):
        got = set()
        for arr, se, splits in G.low_arrangements(grid, 17, t):
            assert arr.transposed == t and arr.kind == "low"
            cells = arr.cells()
            view = grid[cells]
            for part in se.pair(view[27:54], view[54:][None, :], splits):
                for p in part:
                    q = np.zeros(81, np.uint8)
                    q[cells] = p
                    got.add(q.tobytes())
        found.append(got)
    members = groups[canon_grids(sols[k][None, :]).forms[0].tobytes()]
    low = {im for im in images_in(sols[k], puzzles[members], sols[members])
           if _low(np.frombuffer(im, np.uint8))}
    assert puzzles[k].astype(np.uint8).tobytes() in low
    assert found[0] == found[1] == low


def test_methods_and_their_clue_counts():
    grid = random_grids(1, seed=SEED)[0]
    with pytest.raises(ValueError, match="method"):
        puzzles_in_grid(grid, 17, method="fast")
    with pytest.raises(ValueError, match="16, 17, 18"):
        puzzles_in_grid(grid, 15, method="bands")
    assert puzzles_in_grid(grid, 80).stats["method"] == "hitting"
    # a whole grid's 16s: none, by either method; auto searches 16 band-wise (AUTO_BANDS)
    for method, used in (("hitting", "hitting"), ("auto", "bands")):
        none = puzzles_in_grid(grid, 16, method=method)
        assert len(none) == 0 and none.complete and none.stats["method"] == used


@pytest.mark.slow
def test_every_17_of_the_grid_with_most_17s_by_bands(seventeens):
    """The grid with the most 17s (29): about 20 s by bands (25 CPU-minutes by hitting sets)."""
    puzzles, sols, groups = seventeens
    top = max(groups.values(), key=len)
    _, found = _band_17s_are_the_lists(seventeens, top[0])
    assert len(found) == 29


# The 18-clue band-wise search against the hitting-set search (3-9 CPU-minutes a grid) is a check in
# the benchmark, not a test: bench/bench_unavoidable.py --agree 18 --list-grids 1 --seed S.
