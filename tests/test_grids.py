"""ED grids band 1 by band 1 (engine/grids): published counts, the catalog's last grid, every
grid its own minlex form in increasing order, and completeness against random grids."""
import numpy as np
import pytest

from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.grids import band1_chunks as work
from sudoku_symmetry.engine.grids import enumerate_band1, prefixes
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.text import format_lines, format_sudoku

from conftest import LAST_GRID, RANK1_GRID


def test_band_415_has_exactly_the_last_grid():
    r = enumerate_band1(415, emit=True)
    assert r.total == 1
    assert format_lines(r.grids) == [LAST_GRID]
    assert list(r.automorphisms) == [int(canon_grids(LAST_GRID).automorphisms[0])]


def test_band_0_gives_the_published_count():
    r = enumerate_band1(0)
    assert r.total == 1_007_170
    assert r.hist.sum() == 1_007_170
    assert len(r.counts) == len(prefixes(0))


def test_first_grid_of_band_0_is_rank_1():
    r = enumerate_band1(0, 0, 1, emit=True)
    assert format_sudoku(r.grids[0]) == RANK1_GRID
    assert r.automorphisms[0] == 3


@pytest.mark.parametrize("band1, start", [(0, 40), (17, 0), (100, 300), (208, 900), (350, 10)])
def test_grids_are_their_own_minlex_forms_in_increasing_order(band1, start):
    r = enumerate_band1(band1, start, start + 6, emit=True)
    assert len(r.grids) == r.total == r.counts.sum()
    forms, _, auts = canon_grids(r.grids)
    assert np.array_equal(forms, r.grids)
    assert np.array_equal(auts, r.automorphisms)
    lines = format_lines(r.grids)
    assert all(a < b for a, b in zip(lines, lines[1:]))
    assert all(line.startswith(format_sudoku(r.grids[0][:27])) for line in lines)
    assert np.bincount(auts, minlength=len(r.hist))[: len(r.hist)].tolist() == r.hist.tolist()


def test_random_grids_are_found_under_their_prefix():
    # completeness: the minlex form of any grid appears, once, under its band 1 and row 4
    forms, _, auts = canon_grids(random_grids(25, seed=7))
    for form, n_aut in zip(forms, auts):
        band = int(canon_band_index(form[:27]))
        p = int(np.flatnonzero((prefixes(band) == form[27:36]).all(axis=1))[0])
        r = enumerate_band1(band, p, p + 1, emit=True)
        hits = [k for k, g in enumerate(r.grids) if np.array_equal(g, form)]
        assert len(hits) == 1
        assert r.automorphisms[hits[0]] == n_aut


def canon_band_index(band27):
    from sudoku_symmetry.engine.bands import band_index

    return band_index(band27)[0][0]


def test_work_resumes_where_it_stopped():
    band, total = 410, len(prefixes(410))
    first = next(work(band, None, chunk=500))
    assert first[1] == 500 and first[2] is False
    rest = list(work(band, first[1], chunk=700))
    assert rest[-1][2] is True and rest[-1][1] == total
    counts = np.concatenate([first[0].counts] + [r.counts for r, _, _ in rest])
    assert np.array_equal(counts, enumerate_band1(band).counts)
    assert list(work(band, total)) [0][2] is True


def test_band_208_gives_the_published_count():
    assert enumerate_band1(208).total == 2_443_960


def test_bit_tables_match_the_band_table():
    from sudoku_symmetry.engine.bands import band_tables
    from sudoku_symmetry.engine.grids.enumeration import band1

    index = band_tables().table & 0xFFFF
    keys = np.random.default_rng(5).integers(0, len(index), 20_000)
    for i in (0, 208, 415):
        b = band1(i)
        ge = (b.ge_bits[keys >> 3] >> (keys & 7)) & 1
        eq = (b.eq_bits[keys >> 3] >> (keys & 7)) & 1
        assert np.array_equal(ge, index[keys] >= i)
        assert np.array_equal(eq, index[keys] == i)


def test_stack_verdicts_match_band_lookups():
    # every order of band 3's columns, each stack read as a band: its index against band 1's
    from sudoku_symmetry.engine._bits import PERM3
    from sudoku_symmetry.engine.bands import band_index
    from sudoku_symmetry.engine.core.chutes import stack_verdicts
    from sudoku_symmetry.engine.grids.enumeration import _tables, band1

    T = _tables()
    for g, threshold in zip(random_grids(4, seed=11), (0, 100, 208, 300)):
        b = band1(threshold)
        grid = np.ascontiguousarray(g, dtype=np.uint8)
        col3d = np.array([sorted(int(x) for x in g[[54 + j, 63 + j, 72 + j]]) for j in range(9)], np.int64)
        verdict = np.full((3, 216), -9, np.int64)
        for st in range(3):
            stack_verdicts(T, b, st, grid, col3d, np.zeros(10, np.uint8), verdict, 63, 63, 63)
        stacks = np.zeros((3 * 216, 27), np.uint8)
        for st in range(3):
            for code in range(216):
                orders = (code // 36, code // 6 % 6, code % 6)
                for r in range(3):
                    c = 3 * st + r
                    for i in range(6):
                        stacks[st * 216 + code, r * 9 + i] = grid[i * 9 + c]
                    for k in range(3):
                        stacks[st * 216 + code, r * 9 + 6 + k] = col3d[c, PERM3[orders[r], k]]
        index = band_index(stacks)[0].astype(np.int64)
        assert np.array_equal(verdict.ravel(), np.sign(index - threshold))
