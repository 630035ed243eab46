"""Set-logic solver: X-Wing, soundness against the fast solver, full growth leaves the solution."""
from __future__ import annotations


import numpy as np
import pytest

from sudoku_symmetry.engine.solve import setlogic as L
from sudoku_symmetry.engine.solve import solver
from sudoku_symmetry.engine.text import parse_lines

from sudoku_symmetry.commands import setlogic as setlogic_cmd

from conftest import data_path

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def load(name, n, step=1):
    lines = data_path(name).read_text().splitlines()[::step][:n]
    return parse_lines(lines, allow_suffix=True, errors="raise").sudokus


def truth_of(solution) -> set[int]:
    return {L.cand_index(i // 9, i % 9, int(solution[i])) for i in range(81)}


def xwing_alive():
    alive = np.ones(729, dtype=bool)
    for r in (0, 4):
        for c in range(9):
            if c not in (1, 6):
                alive[L.cand_index(r, c, 1)] = False
    return L._bool_to_mask(alive)


def test_set_table():
    assert len(L.SET_NAMES) == 324
    assert (L._popcount(L.SET_MASKS) == 9).all()
    # every candidate is in exactly 4 sets: its cell, row-digit, column-digit, box-digit
    per_cand = np.zeros(729, dtype=int)
    for mem in L.SET_MEMBERS:
        per_cand[mem] += 1
    assert (per_cand == 4).all()
    assert L.SET_NAMES[L.CAND_SETS[L.cand_index(4, 7, 3)][3]] == "3b6"


def test_xwing_elimination_found():
    db = L.PermutationDB(xwing_alive())
    for s in ["1r1", "1r5", "1c2", "1c7"]:
        db.add(L.SET_INDEX[s])
    assert len(db) == 2  # the two diagonals of the rectangle
    want = {L.cand_index(r, c, 1) for r in range(9) for c in (1, 6) if r not in (0, 4)}
    assert set(db.excluded()) == want
    # the same by the driver: start from the row set and let a strategy pick the others
    for strategy in L.STRATEGIES:
        db = L.PermutationDB(xwing_alive())
        db.add(L.SET_INDEX["1r1"])
        usable = np.zeros(324, dtype=bool)
        usable[[L.SET_INDEX[s] for s in ["1r5", "1c2", "1c7", "1c1", "r1c2", "1b1"]]] = True
        res = L.grow(db, usable, strategy, None)
        assert want <= {e.candidate for e in res.eliminations}, strategy
        e = next(e for e in res.eliminations if e.candidate in want)
        assert {"1r1", "1r5", "1c2", "1c7"} <= set(e.sets) and "1r5" in str(e)


def test_count_after_matches_add():
    alive, usable = L.candidates_of(EASY)
    db = L.PermutationDB(alive)
    rng = np.random.default_rng(1)
    for s in rng.permutation(np.flatnonzero(usable))[:6]:
        predicted = db.count_after(int(s))
        db.add(int(s))
        assert predicted == len(db)


@pytest.mark.parametrize("strategy", L.STRATEGIES)
def test_no_elimination_removes_a_true_candidate(strategy):
    puzzles = np.concatenate([load("top1465.txt", 70, step=20), load("sudoku3m_sample7034.txt", 40, step=170)])
    sols, found = solver.solve(puzzles)
    assert found.all()
    total = 0
    for p, sol in zip(puzzles, sols):
        truth = truth_of(sol)
        res = L.eliminations(p, strategy, max_sets=5, max_starts=12)
        total += len(res.eliminations)
        assert not any(e.candidate in truth for e in res.eliminations)
        assert not res.messages or all("cap" in m for m in res.messages)
        assert truth <= set(np.flatnonzero(L.mask_to_bool(res.alive))) | {
            L.cand_index(i // 9, i % 9, int(p[i])) for i in range(81) if p[i]
        }
    assert total > 100  # the check saw real eliminations


def test_true_candidate_then_all_sets_leaves_the_solution():
    puzzles = load("norvig_easy50.txt", 3, step=7)
    sols, _ = solver.solve(puzzles)
    for p, sol in zip(puzzles, sols):
        alive, usable = L.candidates_of(p)
        cell = int(np.flatnonzero(p == 0)[0])
        k = L.cand_index(cell // 9, cell % 9, int(sol[cell]))
        db = L.PermutationDB(alive)
        db.assume(k, True)
        res = L.grow(db, usable, "fewest-perms", None, (k, True))
        assert not res.messages
        assert len(db) == 1
        assert db.covered.tolist() == alive.tolist()  # every usable set was added
        want = L._mask(truth_of(sol)) & alive
        assert db.rows[0].tolist() == want.tolist()


def test_false_assumption_is_refuted():
    p = load("norvig_easy50.txt", 1)[0]
    sol = solver.solve_one(p)
    cell = int(np.flatnonzero(p == 0)[0])
    wrong = next(d for d in range(1, 10) if d != sol[cell] and L.mask_to_bool(L.candidates_of(p)[0])[L.cand_index(cell // 9, cell % 9, d)])
    k = L.cand_index(cell // 9, cell % 9, wrong)
    res = L.eliminations(p, assume=(k, True), max_sets=None)
    assert any(e.contradiction and e.candidate == k for e in res.eliminations)
    assert "assuming" in str(res.eliminations[-1])


def test_cap_message_and_contradiction():
    alive, usable = L.candidates_of("." * 81)
    db = L.PermutationDB(alive, cap=50)
    res = L.grow(db, usable, "overlap", None)
    assert res.messages and "cap 50" in res.messages[0]
    nosol = load("derived_18clue_nosol_1000.txt", 1)[0]
    res = L.eliminations(nosol, max_sets=None, max_starts=3, cap=20_000)
    assert res.messages  # either the cap or the contradiction is reported, never silence


def test_command(capsys, tmp_path):
    rc = setlogic_cmd.main(["--strategy", "overlap", "--max-sets", "4", EASY])
    out = capsys.readouterr().out
    assert rc == 0 and "<>" in out and "eliminations" in out
    rc = setlogic_cmd.main(["--start", "1r1", "--max-sets", "3", EASY])
    assert rc == 0
    rc = setlogic_cmd.main(["not a puzzle"])
    assert rc == 2
    with pytest.raises(SystemExit):
        setlogic_cmd.main(["--strategy", "nonsense", EASY])


def test_assume_dead_candidate_rejected(capsys):
    # r1c3 is a given 3 in EASY, so r1c3=5 is not a live candidate
    with pytest.raises(ValueError):
        L.eliminations(EASY, assume=(L.cand_index(0, 2, 5), True))
    assert setlogic_cmd.main(["--assume", "r1c3=5", EASY]) == 2
    assert "not a live candidate" in capsys.readouterr().err
