"""The rating engine: its kernels against slow references, its paths against the puzzles'
solutions, its figures against Sudoku Explainer's own (``tests/data/se_ratings_1213.tsv``)."""
from __future__ import annotations

import numpy as np
import pytest

from sudoku_symmetry.engine.rate import _graph, _state, _tables, rate, not_unique
from sudoku_symmetry.engine.rate import _basic
from sudoku_symmetry.engine.rate.rating import se_round
from sudoku_symmetry.engine.text import parse, parse_lines

import naive_rate
from conftest import data_path

# rated by serate 1.2.1.3 (tests/data/se_ratings_1213.tsv): an easy one, one that needs a
# uniqueness test, chains up to dynamic (+)
EASY = "9....1..384.2....95....8.1....67....4...1.3.619..4...238....4...............3.2.."
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def puzzles(name, n, step=1):
    lines = data_path(name).read_text().splitlines()
    lines = [ln for ln in lines if ln.strip() and not ln.startswith("#")][::step][:n]
    return parse_lines(lines, allow_suffix=True).sudokus


# -- kernels, compiled and as Python, on tiny inputs ---------------------------------------------
@pytest.mark.parametrize("fn", [_graph.length_difficulty, _graph.length_difficulty.py_func])
def test_length_difficulty_is_ses_table(fn):
    for complexity in range(0, 3000, 7):
        assert se_round(6.5 + fn(complexity)) == se_round(6.5 + naive_rate.length_difficulty(complexity))
    assert fn(6) == 0.0 and se_round(fn(7)) == 0.1 and se_round(fn(11)) == 0.3 and se_round(fn(15)) == 0.4


@pytest.mark.parametrize("place", [_state.place, _state.place.py_func])
def test_state_keeps_positions_in_step_with_candidates(place):
    g = np.zeros(_tables.GLEN, dtype=np.int32)
    _state.init_state(g, parse(EASY))
    place(g, 1, 6)  # r1c2 = 6
    cand = g[_tables.CAND:_tables.CAND + 81]
    for reg in range(27):
        for d in range(9):
            want = sum(1 << i for i, c in enumerate(_tables.REGION_CELLS[reg]) if cand[c] >> d & 1)
            assert g[_tables.RPOS + 9 * reg + d] == want
        assert g[_tables.EMPTY + reg] == sum(g[_tables.VAL + c] == 0 for c in _tables.REGION_CELLS[reg])
    assert cand[1] == 0 and g[_tables.VAL + 1] == 6 and not any(cand[p] >> 5 & 1 for p in naive_rate.PEERS[1])


@pytest.mark.parametrize("producer", [_basic.hidden_single, _basic.hidden_single.py_func])
def test_hidden_single_finds_the_first_in_ses_order(producer):
    g = np.zeros(_tables.GLEN, dtype=np.int32)
    _state.init_state(g, parse(EASY))
    hi, hd, hrem = np.zeros(8, np.int64), np.zeros(1), np.zeros(81, np.int32)
    assert producer(g, hi, hd, hrem)
    # SE's first step on this puzzle: a hidden single in block 1, r2c3 = 1
    assert (hi[1], hi[2], hd[0]) == (11, 1, 1.2)


# -- paths: every step sound -------------------------------------------------------------------
def test_paths_remove_no_digit_of_the_solution():
    batch = np.concatenate([puzzles("sudoku3m_sample7034.txt", 20, 350), puzzles("top1465.txt", 3, 480)])
    for p, r in zip(batch, rate(batch, max_level=1, steps=True)):
        sols = naive_rate.solutions(p, 2)
        assert len(sols) == 1
        assert naive_rate.unsound_steps(p, r.steps, sols) == []
        assert r.er == max(s.difficulty for s in r.steps)


def test_paths_are_sound_where_a_puzzle_has_several_solutions():
    # without uniqueness every technique but the uniqueness tests stays sound: no step removes a
    # digit any solution has (puzzles of sudoku3m less their first given: 2 to 40 solutions)
    checked, tried = 0, 0
    for p in puzzles("sudoku3m_sample7034.txt", 40, 170):
        p = p.copy()
        p[np.flatnonzero(p)[0]] = 0
        sols = naive_rate.solutions(p, 41)
        if not 2 <= len(sols) <= 40:
            continue
        tried += 1
        r, = rate(p[None], max_level=0, steps=True)
        assert r.er == 20.0 or not r.complete  # logic cannot fill a grid that has two solutions
        steps = []
        for s in r.steps:  # up to the first uniqueness test, which assumes one solution
            if s.technique.startswith(("Unique", "BUG")):
                break
            steps.append(s)
        assert naive_rate.unsound_steps(p, steps, sols, full=False) == []
        checked += len(steps)
        if tried == 6:
            break
    assert tried == 6 and checked > 100


def test_not_unique_names_the_count():
    batch = np.stack([parse(EASY), parse("." * 81), parse("11" + "." * 79)])
    assert not_unique(batch) == {1: "not a unique puzzle (at least 1000 solutions)",
                                 2: "not a unique puzzle (0 solutions)"}


def test_lower_bounds_stop_at_the_level():
    # SE rates it 9.7/9.7/2.6 (hardest_db_110626_se1213.tsv): its ninth step is a dynamic chain (+)
    plus = "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4"
    full, = rate(parse(plus)[None], max_level=1)
    bound, = rate(parse(plus)[None], max_level=0)
    assert full.complete and str(full) == "9.7/9.7/2.6"
    assert not bound.complete and bound.lower == (True, True, False) and str(bound) == ">=9.3/>=9.3/2.6"
