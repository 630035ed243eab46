"""One wording for one item: a bad value given alone raises the message it raises as the first
item of a list, without the ``item 0: `` in front, whatever its type; and a list of lists of
cells is answered as a list."""
from __future__ import annotations

import numpy as np
import pytest

import sudoku_symmetry as ss

from conftest import RANK1_GRID

P17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
NOT_SUDOKUS = [None, object(), "x", b"x", P17[:80] + "x", "11" + "." * 79, 3 + 0j, np.float64("nan")]
NOT_RANKS = [1.5, 0, None, True, "x", b"x", np.float64(2.5), np.int64(0), 10**12, -1, 3 + 0j, object(),
             np.array(0), np.array(2.5)]


def _message(call) -> str:
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


def _id(value) -> str:
    """A test id that is the same in every process (a bare object's repr holds its address)."""
    return "object()" if type(value) is object else repr(value)


@pytest.mark.parametrize("name", ["canon", "solve", "count", "rank"])
@pytest.mark.parametrize("bad", NOT_SUDOKUS, ids=_id)
def test_a_bad_sudoku_reads_the_same_alone_and_in_a_list(name, bad):
    fn = getattr(ss, name)
    if isinstance(bad, (complex, float)):  # a number in a list is an array of numbers: not one item
        assert _message(lambda: fn(bad)).startswith("expected a sudoku (a string of 81 cells or an array), got ")
        return
    if bad == "11" + "." * 79 and name in ("solve", "count"):  # a puzzle with no solution: an answer
        assert fn(bad) in (None, 0) and fn([bad]) in ([None], [0])
        return
    alone, listed = _message(lambda: fn(bad)), _message(lambda: fn([bad]))
    assert listed == f"item 0: {alone}" and not alone.startswith("item ")
    assert _message(lambda: fn([RANK1_GRID, bad])) == f"item 1: {alone}"


@pytest.mark.parametrize("bad", NOT_RANKS, ids=_id)
def test_a_bad_rank_reads_the_same_alone_and_in_a_list(bad):
    alone, listed = _message(lambda: ss.grid(bad)), _message(lambda: ss.grid([bad]))
    assert alone.startswith("rank must be a whole number from 1 to 5,472,730,538, got "), alone
    assert listed == f"item 0: {alone}"


def test_a_band_too():
    for bad in (None, "1234", "123456789123456789123456789"):
        alone = _message(lambda: ss.band_index(bad))
        assert _message(lambda: ss.band_index([bad])) == f"item 0: {alone}"


def test_a_list_of_lists_of_cells_is_answered_as_a_list():
    cells = [int(c) if c != "." else 0 for c in P17]
    grid = [int(c) for c in RANK1_GRID]
    solved = ss.solve([cells, grid])
    assert isinstance(solved, list) and len(solved) == 2
    assert all(isinstance(s, np.ndarray) and s.shape == (81,) for s in solved)
    assert "".join(map(str, solved[0])) == ss.solve(P17) and "".join(map(str, solved[1])) == RANK1_GRID
    assert ss.solve([cells, [1, 1] + [0] * 79])[1] is None
    assert ss.count([cells, grid]) == [1, 1]
    nine = [np.array(cells).reshape(9, 9).tolist()] * 2  # lists of 9 rows of 9 cells
    assert [c.shape for c in ss.canon(nine)] == [(9, 9), (9, 9)]
    assert isinstance(ss.canon(np.array([cells, grid])), np.ndarray)  # an array stays an array
    assert ss.solve(np.array(cells).reshape(9, 9).tolist()).shape == (9, 9)  # one sudoku as 9 lists of 9
