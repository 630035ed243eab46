"""Set-logic solver: X-Wing, soundness against the fast solver, full growth leaves the solution."""
from __future__ import annotations


import numpy as np
import pytest

from sudoku_symmetry.engine.solve import setlogic as L
from sudoku_symmetry.engine.solve import solver
from sudoku_symmetry.engine.text import parse_lines

from sudoku_symmetry.commands import setlogic as setlogic_cmd

import naive_solver
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
        assert len({e.candidate for e in res.eliminations}) == len(res.eliminations)
        assert not any(e.candidate in truth for e in res.eliminations)
        assert not res.messages or all("cap" in m for m in res.messages)
        assert truth <= set(np.flatnonzero(L.mask_to_bool(res.alive))) | {
            L.cand_index(i // 9, i % 9, int(p[i])) for i in range(81) if p[i]
        }
    assert total == {"fewest-perms": 982, "overlap": 823, "fewest-new": 772}[strategy]  # the check saw real ones


# eliminations found on each of the first 20 puzzles of top1465.txt (max_sets=6, max_starts=30)
TOP20_ELIMINATIONS = {
    "fewest-perms": [37, 8, 8, 25, 23, 23, 11, 41, 43, 46, 42, 14, 40, 45, 32, 14, 37, 51, 37, 47],
    "overlap": [26, 8, 8, 25, 11, 11, 11, 26, 28, 26, 30, 14, 26, 32, 32, 14, 29, 46, 29, 37],
    "fewest-new": [18, 8, 8, 21, 8, 8, 11, 18, 17, 18, 17, 14, 18, 41, 25, 14, 18, 12, 18, 27],
}


@pytest.mark.parametrize("strategy", L.STRATEGIES)
def test_hard_puzzles_every_elimination_is_false_in_the_unique_solution(strategy):
    """20 hard puzzles: each has one solution (checked by the slow reference), and every
    eliminated candidate (an empty cell, a digit other than the solution's) is false in it."""
    puzzles = load("top1465.txt", 20)
    sols, found = solver.solve(puzzles)
    assert found.all() and (solver.count_solutions(puzzles, 2).counts == 1).all()
    checked = []
    for p, sol in zip(puzzles, sols):
        assert naive_solver.is_solution_of(sol.tolist(), p.tolist())
        res = L.eliminations(p, strategy, max_sets=6, max_starts=30)
        assert not res.messages
        seen = set()
        for e in res.eliminations:
            r, rest = divmod(e.candidate, 81)
            c, d = divmod(rest, 9)
            assert p[9 * r + c] == 0 and sol[9 * r + c] != d + 1, str(e)
            assert e.assumption is None and e.sets and all(name in L.SET_INDEX for name in e.sets)
            assert e.candidate not in seen
            seen.add(e.candidate)
        checked.append(len(res.eliminations))
    assert checked == TOP20_ELIMINATIONS[strategy]


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


def _cmd(capsys, argv):
    rc = setlogic_cmd.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _one_error(capsys, argv, *needles):
    rc, out, err = _cmd(capsys, argv)
    assert rc == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("setlogic: error: "), err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def test_command_checks_the_givens(capsys):
    """Two 1s in row 1 (and box 1): no elimination is printed, the conflict is named."""
    _one_error(capsys, ["11" + EASY[2:]], "givens conflict", "digit 1 repeated in row 1 at r1c1, r1c2",
               "digit 1 repeated in box 1")
    # a complete grid with a repeated digit is not "0 eliminations" either
    bad_grid = "123456789456789123789123456214365897365897214897214365531642978642978531978531641"
    _one_error(capsys, [bad_grid], "digit 1 repeated in row 9 at r9c6, r9c9")
    # a complete valid grid: nothing to eliminate, said on stderr
    good_grid = bad_grid[:-1] + "2"
    rc, out, err = _cmd(capsys, [good_grid])
    assert rc == 0 and out == "# 0 eliminations\n" and "complete" in err


def test_command_inputs(capsys, tmp_path):
    _one_error(capsys, [str(tmp_path / "nope.txt")], "nope.txt", "no such file, and not an 81-character puzzle")
    _one_error(capsys, [str(tmp_path)], "is a directory")
    binary = tmp_path / "binary.dat"
    binary.write_bytes(bytes(range(256)))
    _one_error(capsys, [str(binary)], "binary.dat", "not a text file")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    _one_error(capsys, [str(empty)], "empty")
    block = tmp_path / "block.txt"
    block.write_bytes(b"\xef\xbb\xbf" + "\n".join(EASY[9 * i: 9 * i + 9] for i in range(9)).encode() + b"\n")
    want = _cmd(capsys, ["--max-sets", "2", "--max-starts", "20", EASY])
    assert want[0] == 0 and want[1].endswith("# 5 eliminations\n")
    assert _cmd(capsys, ["--max-sets", "2", "--max-starts", "20", str(block)]) == want


@pytest.mark.parametrize("argv, needle", [
    (["--cap", "0"], "--cap"), (["--cap", "-5"], "--cap"), (["--max-sets", "-1"], "--max-sets"),
    (["--max-starts", "0"], "--max-starts"), (["--cap", "x"], "--cap"), (["--start", "r0c1"], "unknown set"),
    (["--assume", "r1c1"], "--assume"),
])
def test_command_rejects_bad_options(capsys, argv, needle):
    with pytest.raises(SystemExit) as exc:
        setlogic_cmd.main(argv + [EASY])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and needle in err.splitlines()[-1]


def test_command_start_set(capsys):
    # r1c3 holds the given 3, and so does 3r1: nothing to grow from
    _one_error(capsys, ["--start", "r1c3", EASY], "set r1c3 already holds a given")
    _one_error(capsys, ["--start", "3r1", EASY], "set 3r1 already holds a given")
    with pytest.raises(ValueError, match="already holds a given"):
        L.eliminations(EASY, start="r1c3")
    # a cap below the start set's own size is reported, not a traceback
    rc, out, err = _cmd(capsys, ["--start", "r1c1", "--cap", "1", EASY])
    assert rc == 0 and out == "# 0 eliminations\n" and "cap 1 reached: adding set r1c1 would give" in err
    rc, out, err = _cmd(capsys, ["--cap", "1", EASY])
    assert rc == 0 and out == "# 0 eliminations\n" and "cap 1 reached" in err
