"""Making puzzles: top-down minimal puzzles against the solver asked about every removal, every
puzzle unique and minimal, symmetric patterns their own image, reproducible seeds, Berthier's
clue statistics on a small sample, minimize, and every minimal puzzle inside a puzzle."""
from __future__ import annotations

import numpy as np
import pytest

import naive_generate as naive
from sudoku_symmetry.engine.generate import (NotUnique, generate, is_symmetric, minimal_inside, minimize, orbits,
                                            top_down_range)
from sudoku_symmetry.engine.generate import _kernels as K
from sudoku_symmetry.engine.generate.symmetry import NAMES, canonical_name
from sudoku_symmetry.engine.generate.topdown import ORDER_DOMAIN
from sudoku_symmetry.engine.grids.uniform import CHUNK, stream_id, uniform_grids
from sudoku_symmetry.engine.solve import count_solutions, is_minimal

BERTHIER_MEAN, BERTHIER_SD = 24.38, 1.12


@pytest.mark.parametrize("symmetry", ["none", "rotate180", "dihedral"])
def test_top_down_is_the_solver_asked_about_every_removal(symmetry):
    grids, puzzles, _ = top_down_range(5, 0, 4, symmetry)
    orb = orbits(symmetry)
    stream = naive.Stream(5, stream_id(0, ORDER_DOMAIN))
    for g, p in zip(grids, puzzles):
        order = list(range(len(orb)))
        stream.shuffle(order)
        assert (naive.top_down(g, order, orb) == p).all()


def test_every_puzzle_is_unique_and_minimal_and_solved_by_its_grid():
    made = generate(300, seed=8)
    assert (count_solutions(made.puzzles).counts == 1).all()
    assert is_minimal(made.puzzles).all()
    given = made.puzzles > 0
    assert (made.puzzles[given] == made.grids[given]).all()
    assert (made.clues == given.sum(axis=1)).all()


@pytest.mark.parametrize("name", NAMES)
def test_symmetric_puzzles_are_their_own_image_and_no_orbit_can_go(name):
    made = generate(3, seed=4, symmetry=name)
    orb = orbits(name)
    assert (count_solutions(made.puzzles).counts == 1).all()
    for p in made.puzzles:
        assert is_symmetric(p, name)
        for o in orb:
            cells = list(o)
            if p[cells[0]]:
                q = p.copy()
                q[cells] = 0
                assert count_solutions(q[None], 2).counts[0] == 2


def test_symmetry_names_and_aliases():
    assert canonical_name("180") == "rotate180" and canonical_name(" Full ") == "dihedral"
    assert [len(orbits(n)) for n in ("none", "rotate180", "rotate90", "dihedral", "boxes")] == [81, 41, 21, 15, 9]
    with pytest.raises(ValueError, match="unknown symmetry"):
        canonical_name("spiral")


def test_a_seed_gives_the_same_puzzles_whatever_the_range():
    a = generate(CHUNK + 20, seed=3)
    b = generate(30, seed=3, first=CHUNK - 10)
    assert (b.puzzles == a.puzzles[CHUNK - 10: CHUNK + 20]).all()
    assert (b.attempts == np.arange(CHUNK - 10, CHUNK + 20)).all()
    assert (generate(5, seed=4).puzzles != a.puzzles[:5]).any()


def test_a_clue_range_keeps_the_first_puzzles_in_it():
    every = generate(400, seed=6)
    some = generate(20, seed=6, clues="22-23")
    expect = np.flatnonzero((every.clues >= 22) & (every.clues <= 23))[:20]
    assert (some.attempts == expect).all() and (some.puzzles == every.puzzles[expect]).all()
    assert some.tried == expect[-1] + 1
    with pytest.raises(ValueError):
        generate(1, clues="30-20")


def test_berthier_clue_statistics_on_a_small_sample():
    # 4,000 puzzles: standard errors 0.018 (mean) and 0.013 (sd); 4 of them allowed
    made = generate(4000, seed=47)
    n = len(made)
    mean, sd = made.clues.mean(), made.clues.std(ddof=1)
    assert abs(mean - BERTHIER_MEAN) < 4 * BERTHIER_SD / np.sqrt(n)
    assert abs(sd - BERTHIER_SD) < 4 * BERTHIER_SD / np.sqrt(2 * (n - 1))


def _cells(row) -> list[int]:
    return [q for q in range(81) if (int(row[q // 64]) >> (q % 64)) & 1]


@pytest.mark.parametrize("fn", [K.two_digit_uas, K.two_digit_uas.py_func])
def test_two_digit_uas_are_every_minimal_one(fn):
    for g in uniform_grids(1, seed=9):
        ua = np.zeros((K.UA_CAPACITY, 2), np.uint64)
        n = fn(g, ua)
        got = {frozenset(_cells(ua[k])) for k in range(n)}
        assert got == naive.two_digit_uas(g)


def test_line_pair_uas_are_unavoidable():
    g = uniform_grids(1, seed=10)[0]
    ua = np.zeros((K.UA_CAPACITY, 2), np.uint64)
    n = K.line_pair_uas(g, ua, 0)
    assert n >= 18
    for k in range(n):
        cells = _cells(ua[k])
        p = g.copy()
        p[cells] = 0
        assert count_solutions(p[None], 2).counts[0] == 2


def _with_extra(seed: int, extra: int):
    made = generate(1, seed=seed)
    p, g = made.puzzles[0].copy(), made.grids[0]
    empty = np.flatnonzero(p == 0)[:extra]
    p[empty] = g[empty]
    return p


def test_minimize_in_a_given_order_is_the_solver_asked_about_each_given():
    p = _with_extra(1, 8)
    got, sol = minimize(p, order="forward")
    cells = np.flatnonzero(p).tolist()
    assert (naive.top_down(np.where(p > 0, p, 0), list(range(len(cells))), [(c,) for c in cells]) == got[0]).all()
    assert is_minimal(got).all() and (sol[0][p > 0] == p[p > 0]).all()
    back, _ = minimize(p, order="backward")
    assert is_minimal(back).all()
    rnd1, _ = minimize([p, p], seed=3)
    assert (minimize([p, p], seed=3)[0] == rnd1).all() and is_minimal(rnd1).all()
    with pytest.raises(NotUnique, match="more than one solution"):
        minimize("." * 81)
    with pytest.raises(ValueError):
        minimize(p, order="sideways")


def test_every_minimal_puzzle_inside_a_puzzle_once():
    p = _with_extra(2, 4)
    got, complete = minimal_inside(p)
    assert complete and len(got) == len({x.tobytes() for x in got})
    assert {x.tobytes() for x in got} == naive.minimal_inside(p)
    few, complete = minimal_inside(p, limit=1)
    assert len(few) == 1 and not complete
