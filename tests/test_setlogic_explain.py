"""Set logic: minimal explanations, units, start vectors, --show, --start on a given."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from sudoku_symmetry.commands import setlogic as setlogic_cmd
from sudoku_symmetry.engine.solve import setlogic as L
from sudoku_symmetry.engine.solve import solver

from conftest import data_path

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
XWING = ["1r1", "1r5", "1c2", "1c7"]


def xwing_alive():
    alive = np.ones(729, dtype=bool)
    for r in (0, 4):
        for c in range(9):
            if c not in (1, 6):
                alive[L.cand_index(r, c, 1)] = False
    return L._bool_to_mask(alive)


def _cmd(capsys, argv):
    rc = setlogic_cmd.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _excludes(alive, steps, k, base=None) -> bool:
    excl = L._excluded_by(alive, base, None, [L.step_of(s) for s in steps], 200_000)
    return excl is not None and L._has(excl, k)


def test_xwing_explanation_drops_the_sets_it_does_not_need():
    """Irrelevant sets added before and between the X-wing's four are left out of the explanation."""
    alive = xwing_alive()
    db = L.PermutationDB(alive)
    order = ["1b1", "1r1", "r3c3", "1r5", "2r1", "1c2", "1c7"]
    res = L.grow(db, np.zeros(324, bool), "overlap", None, steps=order, apply=False)
    want = {L.cand_index(r, c, 1) for r in range(9) for c in (1, 6) if r not in (0, 4)}
    xw = [e for e in res.eliminations if e.candidate in want]
    assert {e.candidate for e in xw} == want
    for e in xw:
        assert e.sets == tuple(XWING) and e.minimal == "smallest" and "1b1" not in str(e)
    # every explanation is a true minimum: it excludes the candidate, no smaller subset does
    for e in res.eliminations:
        assert _excludes(alive, e.sets, e.candidate)
        for size in range(len(e.sets)):
            for sub in combinations(order, size):
                assert not _excludes(alive, sub, e.candidate), (str(e), sub)


def test_explanations_on_a_puzzle_are_smallest():
    """A hard puzzle, grown from its smallest sets until some elimination needs 3 or more sets:
    every explanation excludes its candidate and no smaller subset of the steps does."""
    puzzle = open(data_path("top1465.txt")).readline().split(":")[0].strip()
    sol = "".join(map(str, solver.solve_one(puzzle)))
    alive, usable = L.candidates_of(puzzle)
    live = L._popcount(L.SET_MASKS & alive)
    for start in [int(s) for s in np.argsort(live, kind="stable") if usable[s] and live[s] >= 2]:
        db = L.PermutationDB(alive)
        db.add(start)
        res = L.grow(db, usable, "fewest-perms", 6, apply=False)
        if any(len(e.sets) >= 3 for e in res.eliminations):
            break
    else:
        raise AssertionError("no start gives an elimination of 3 sets")
    steps = db.set_names()
    for e in sorted(res.eliminations, key=lambda e: -len(e.sets))[:6]:
        r, rest = divmod(e.candidate, 81)
        c, d = divmod(rest, 9)
        assert int(sol[9 * r + c]) != d + 1
        assert e.minimal == "smallest" and _excludes(alive, e.sets, e.candidate)
        for size in range(len(e.sets)):
            assert not any(_excludes(alive, sub, e.candidate) for sub in combinations(steps, size))


def test_past_the_exact_limit_explanations_are_irreducible(monkeypatch):
    monkeypatch.setattr(L, "EXACT_EXPLANATION_MAX", 2)
    alive = xwing_alive()
    db = L.PermutationDB(alive)
    order = ["1b1", "1r1", "r3c3", "1r5", "2r1", "1c2", "1c7"]
    res = L.grow(db, np.zeros(324, bool), "overlap", None, steps=order, apply=False)
    late = [e for e in res.eliminations if e.minimal == "irreducible"]
    assert late and all("irreducible, not proven smallest" in str(e) for e in late)
    for e in late:
        assert _excludes(alive, e.sets, e.candidate)
        for drop in e.sets:  # no single step can be removed
            assert not _excludes(alive, [s for s in e.sets if s != drop], e.candidate)
    # a long growth (no --max-sets) says its explanation is not reduced
    monkeypatch.setattr(L, "REDUCED_EXPLANATION_MAX", 3)
    res = L.grow(L.PermutationDB(alive), np.zeros(324, bool), "overlap", None, steps=order, apply=False)
    assert any(e.minimal == "all" and "not reduced" in str(e) for e in res.eliminations)


def test_units_are_one_step():
    alive = xwing_alive()
    db = L.PermutationDB(alive)
    db.add("1r1+1r5")
    assert db.set_names() == ["1r1+1r5"] and len(db.sets) == 2 and len(db) == 4
    res = L.grow(db, np.zeros(324, bool), "overlap", None, steps=[["1c2", "1c7"], "1b1"], apply=False)
    e = next(e for e in res.eliminations if e.candidate == L.cand_index(2, 1, 1))
    assert e.sets == ("1r1+1r5", "1c2+1c7") and "sets 1r1+1r5, 1c2+1c7 has it" in str(e).replace("no permutation of ", "")
    with pytest.raises(ValueError, match="appears twice"):
        L.step_of("1r1+1r1")
    with pytest.raises(ValueError, match="unknown set"):
        L.step_of("1r1+9z9")
    # a unit that passes the cap leaves the database as it was
    db = L.PermutationDB(L.candidates_of("." * 81)[0], cap=100)
    db.add("r1c1")
    with pytest.raises(L.DatabaseFull, match="of unit r2c2\\+r3c3"):
        db.add("r2c2+r3c3")
    assert db.set_names() == ["r1c1"] and len(db) == 9


def test_command_units_and_add(capsys):
    rc, out, err = _cmd(capsys, ["--start", "7r1+7r2", "--add", "7b1", "--max-sets", "3", "--show", "--show-max", "0", EASY])
    assert rc == 0 and out.startswith("+ 7r1+7r2: 20 permutations\n+ 7b1: ")
    for argv, needle in ((["--start", "1r1+x"], "--start: unknown set 'x'"), (["--add", "1r1"], "--add needs --start"),
                         (["--show-max", "3"], "--show-max goes with --show"),
                         (["--start", "r1c1", "--add", "5r0"], "--add: unknown set")):
        with pytest.raises(SystemExit) as exc:
            setlogic_cmd.main(argv + [EASY])
        assert exc.value.code == 2 and needle in capsys.readouterr().err


def test_command_start_vector(capsys):
    rc, out, err = _cmd(capsys, ["--start-vector", "r1c1=4,r1c2<>4", "--max-sets", "4", EASY])
    lines = out.splitlines()
    assert rc == 0 and lines[-1].startswith("# ") and len(lines) > 2
    for line in lines[:-1]:
        assert line.startswith("if r1c1=4,r1c2<>4 then r")
        cand = line.split(" then ")[1].split()[0]  # r1c5<>7
        r, c, d = int(cand[1]), int(cand[3]), int(cand[-1])
        assert int(SOLUTION[9 * (r - 1) + c - 1]) != d  # r1c1=4 holds in the solution
    # a false vector is refuted
    rc, out, err = _cmd(capsys, ["--start-vector", "r1c1=5", "--max-sets", "0", EASY])
    assert rc == 0 and "assuming r1c1=5: sets" in err and "have no permutation" in err
    rc, out, err = _cmd(capsys, ["--start-vector", "r1c3=5", EASY])
    assert rc == 2 and "r1c3=5 is not a live candidate" in err
    with pytest.raises(SystemExit):
        setlogic_cmd.main(["--start-vector", "r1c1=4,nonsense", EASY])
    assert "expected comma-separated" in capsys.readouterr().err


def test_command_show(capsys):
    rc, out, err = _cmd(capsys, ["--start", "r1c1", "--show", "--max-sets", "2", EASY])
    lines = out.splitlines()
    assert rc == 0 and lines[:4] == ["+ r1c1: 2 permutations", "    r1c1=4 r1c1=5", "      1      0", "      0      1"]
    assert lines[4].startswith("+ ") and lines[5].startswith("    r1c1=4 ")
    assert any(line.startswith("= forced: ") for line in lines)
    n_rows = int(lines[4].split(": ")[1].split()[0])
    assert len([ln for ln in lines[6:] if ln.startswith("    ")]) == n_rows
    # --show-max 1 hides the permutations of larger databases
    rc, out, _ = _cmd(capsys, ["--start", "r1c1", "--show", "--show-max", "1", "--max-sets", "2", EASY])
    assert not any(line.startswith("    ") for line in out.splitlines())
    # grown from the true r1c1=4 to the end, the database determines the solution
    rc, out, _ = _cmd(capsys, ["--assume", "r1c1=4", "--show", "--show-max", "0", "--max-sets", "0", EASY])
    assert rc == 0 and f"= solution: {SOLUTION}" in out.splitlines()
    forced = next(ln for ln in out.splitlines() if ln.startswith("= forced: "))
    assert "r1c1=4" in forced and "r1c2=8" in forced


def test_command_start_on_a_given(capsys):
    rc, out, err = _cmd(capsys, ["--start", "r1c3", EASY])
    assert rc == 2 and out == "" and err == ("setlogic: error: set r1c3 already holds a given, so it has no "
                                             "candidate to grow from; start from a set with live candidates\n")
    rc, out, err = _cmd(capsys, ["--start", "r1c1+r1c3", EASY])
    assert rc == 2 and "set r1c3 already holds a given" in err
