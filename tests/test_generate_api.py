"""``ss.random_grids``, ``ss.generate``, ``ss.minimize`` and ``Sudoku.minimize``: their examples,
answers in the caller's form, and clear errors naming the item."""
from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import sudoku_symmetry as ss


@pytest.mark.parametrize("module", ["sudoku_symmetry._generate", "sudoku_symmetry.engine.grids.uniform",
                                    "sudoku_symmetry.engine.generate.topdown", "sudoku_symmetry.engine.generate.symmetry"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_grids_and_puzzles_as_strings_or_arrays():
    grids = ss.random_grids(3, seed=5)
    assert isinstance(grids, list) and all(len(g) == 81 and "." not in g for g in grids)
    assert (ss.random_grids(3, seed=5, as_array=True) == np.array([[int(c) for c in g] for g in grids])).all()
    puzzles = ss.generate(3, seed=5, clues="23-25")
    assert all(23 <= 81 - p.count(".") <= 25 for p in puzzles) and ss.count(puzzles) == [1, 1, 1]
    assert ss.generate(3, seed=5, clues="23-25", as_array=True).shape == (3, 81)
    with pytest.raises(ValueError, match="unknown symmetry"):
        ss.generate(1, symmetry="spiral")
    with pytest.raises(ValueError, match="seed"):
        ss.random_grids(1, seed=-1)


def test_minimize_answers_in_the_callers_form():
    grid = ss.grid(7)
    one = ss.minimize(grid, seed=1)
    assert isinstance(one, str) and ss.count(one) == 1
    many = ss.minimize(np.array([grid, grid]), order="forward")
    assert isinstance(many, np.ndarray) and many[0] == many[1]
    s = ss.Sudoku(one)
    assert s.minimize() == s  # already minimal
    inside = ss.minimize(one, all=True)
    assert inside == [one]
    with pytest.raises(ValueError, match="item 1: not a unique puzzle: more than one solution"):
        ss.minimize([grid, "." * 81])
    with pytest.raises(ValueError, match="not a unique puzzle: no solution"):
        ss.minimize("12345678." + "........9" + "." * 63)
