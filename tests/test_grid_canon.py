"""Minlex form of solution grids: published facts, the slow reference, property tests."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sudoku_symmetry.engine.canon import _grid_kernels as K
from sudoku_symmetry.engine.canon.grid import InvalidGridError, _tables, canon_grid, canon_grids, grid_automorphisms
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.text import format_sudoku, parse
from sudoku_symmetry.engine.group.transform import Transform, apply_batch, random_transforms

from conftest import LAST_GRID, RANK1_GRID
from naive_canon import naive_canon

GRID_648 = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"


def test_published_facts():
    form, _, n = canon_grid(RANK1_GRID)
    assert format_sudoku(form) == RANK1_GRID and n == 3
    assert canon_grid(GRID_648)[2] == 648
    form, _, _ = canon_grid(LAST_GRID)
    assert format_sudoku(form) == LAST_GRID


@pytest.mark.parametrize("grid", [RANK1_GRID, LAST_GRID] + [format_sudoku(g) for g in random_grids(2, seed=11)])
def test_slow_reference_agrees(grid):
    moved = Transform.random(np.random.default_rng(4)).apply(parse(grid))
    ref_form, ref_count, _ = naive_canon(moved)
    form, t, count = canon_grid(moved)
    assert np.array_equal(form, ref_form) and count == ref_count
    assert np.array_equal(t.apply(moved), form)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_transformations_never_change_the_form(seed):
    rng = np.random.default_rng(seed)
    grid = random_grids(1, seed=seed % 1000)[0]
    form, _, count = canon_grid(grid)
    moved = Transform.random(rng).apply(grid)
    form2, t2, count2 = canon_grid(moved)
    assert np.array_equal(form, form2) and count == count2
    assert np.array_equal(t2.apply(moved), form2)


def test_batch_of_transformed_copies():
    grids = random_grids(3000, seed=5)
    forms, transforms, counts = canon_grids(grids)
    assert np.array_equal(apply_batch(transforms, grids), forms)
    moved = apply_batch(random_transforms(len(grids), np.random.default_rng(6)), grids)
    forms2, transforms2, counts2 = canon_grids(moved)
    assert np.array_equal(forms, forms2) and np.array_equal(counts, counts2)
    assert np.array_equal(apply_batch(transforms2, moved), forms2)
    # every form starts with a minlex band, and its band 1 is the smallest-index chute
    assert (forms[:, :11] == parse("12345678945" + "." * 70)[:11]).all()


@pytest.mark.parametrize("grid", [RANK1_GRID, GRID_648])
def test_automorphisms_fix_the_grid(grid):
    cells = parse(grid)
    autos = grid_automorphisms(grid)
    assert len(autos) == canon_grid(grid)[2]
    assert len({str(a) for a in autos}) == len(autos)
    assert all(np.array_equal(a.apply(cells), cells) for a in autos)
    assert any(a.is_identity for a in autos)


@pytest.mark.parametrize("fn", [K.canon_grids, K.canon_grids.py_func])
def test_kernel_and_python_paths(fn):
    grids = np.stack([parse(RANK1_GRID), parse(GRID_648)])
    forms = np.zeros((2, 81), np.uint8)
    transforms = np.zeros((2, 29), np.uint8)
    counts = np.zeros(2, np.int64)
    fn(grids, *_tables(), forms, transforms, counts)
    assert counts.tolist() == [3, 648]
    assert np.array_equal(apply_batch(transforms, grids), forms)


def test_invalid_grids_are_refused():
    bad = RANK1_GRID[:-2] + RANK1_GRID[-1] + RANK1_GRID[-2]  # swap two cells: breaks columns
    with pytest.raises(InvalidGridError, match="not a valid complete grid"):
        canon_grid(bad)
    _, _, counts = canon_grids([RANK1_GRID, bad], check=False)
    assert counts.tolist() == [3, 0]
