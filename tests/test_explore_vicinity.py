"""The {-n+m} neighbourhood checked against the complete 17-clue list (every 17 that {-1+1} of a
list 17 finds is a list 17), against the naive reference (every removal, every cell and digit
added, counted by the solver one by one: the same classes and the same candidates) and against
gridchecker's {-1+1} (expected values in tests/data)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conftest import read_data_lines
from naive_explore import naive_neighbourhood
from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.engine.explore import neighbourhood, walk
from sudoku_symmetry.engine.solve import check, solve_one
from sudoku_symmetry.engine.text import as_batch, format_lines

# a list 17 whose {-1+1} holds another list 17
NEAR_A = ".................1.....2.3......45....1.6.....4......7....8.4....9...2..3.61...9."


@pytest.fixture(scope="module")
def the_list():
    batch = as_batch(read_data_lines("17clue_49158.txt"))
    return batch, set(format_lines(canon_puzzles(batch).forms))


def test_every_17_found_is_in_the_list(the_list):
    batch, forms = the_list
    picks = [int(i) for i in np.random.default_rng(48).choice(len(batch), 6, replace=False)]
    found = []
    for p in [as_batch(NEAR_A)[0], *batch[picks]]:
        near = neighbourhood(p, 1, 1, clues=17)
        assert near.clues == 17 and near.checked > 0
        found += near.forms
    # the list is complete: a 17 found outside it would be a wrong answer
    assert found and set(found) <= forms
    # and the walk from the same puzzles reaches only list 17s too
    steps = list(walk(batch[picks[:2]], 1, 1, 2, clues=17))
    assert all(f in forms for s in steps for f in s.forms)


def _with_solution_digits(puzzle: np.ndarray, k: int, seed: int) -> np.ndarray:
    """``puzzle`` with ``k`` more of its solution's digits: a unique puzzle that is not minimal."""
    grid = solve_one(puzzle)
    out = puzzle.copy()
    cells = np.random.default_rng(seed).choice(np.flatnonzero(puzzle == 0), k, replace=False)
    out[cells] = grid[cells]
    return out


@pytest.mark.parametrize("minus,plus,puzzles", [(1, 1, 2), (2, 1, 1), (1, 0, 2), (0, 1, 2), (2, 0, 2)])
def test_the_naive_reference_gives_the_same_classes_and_candidates(the_list, minus, plus, puzzles):
    # a list 17, and a list 17 with 2 more digits of its solution (not minimal: {-1+0}, {-2+0} find puzzles)
    batch, _ = the_list
    for p in (as_batch(NEAR_A)[0], _with_solution_digits(batch[1000], 2, minus + 10 * plus))[:puzzles]:
        near = neighbourhood(p, minus, plus)
        forms, candidates = naive_neighbourhood(p, minus, plus)
        assert set(near.forms) == forms and len(near.forms) == len(forms)
        assert near.checked == candidates
        # minimal: the naive answer's minimal puzzles
        minimal = neighbourhood(p, minus, plus, minimal=True)
        if forms:
            keep = as_batch(sorted(forms))
            forms = set(format_lines(keep[check(keep)[1]]))
        assert set(minimal.forms) == forms


def test_gridchecker_finds_the_same_neighbourhoods():
    # gridchecker --similar --minus1 | --similar --plus1 --unique on list 17s (tests/data, with origin)
    cases = json.loads((Path(__file__).parent / "data" / "explore_gridchecker.json").read_text())["vicinity"]
    assert len(cases) >= 5 and sum(len(c["canonical"]) for c in cases) >= 10
    for case in cases:
        assert sorted(neighbourhood(case["puzzle"], 1, 1).forms) == case["canonical"], case["line"]
