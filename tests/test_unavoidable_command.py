"""bin/unavoidable and bin/find-puzzles: output against the engine and the naive references,
grids given as arguments, files and standard input, bad lines in their place, the executables."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.commands import find_puzzles as find_cmd
from sudoku_symmetry.commands import main as main_cmd
from sudoku_symmetry.commands import unavoidable as ua_cmd
from sudoku_symmetry.engine.canon import canon_grid
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.solve import count_solutions
from sudoku_symmetry.engine.text import format_sudoku, parse_lines
from sudoku_symmetry.engine.unavoidable import unavoidable_sets

from conftest import RANK1_GRID
from naive_unavoidable import puzzles_by_emptying, uas_by_refilling

ROOT = Path(__file__).resolve().parents[1]
GRID = format_sudoku(random_grids(1, seed=24)[0])
NOT_GRID = RANK1_GRID[:-1] + "1"  # the last digit repeated in its row


def call(capsys, fn, args, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = fn(args)
    out, err = capsys.readouterr()
    return rc, out.splitlines(), err.splitlines()


def blocks(lines):
    """{grid: [lines]} from the output's '# GRID: ...' headers."""
    out, cur = {}, None
    for ln in lines:
        if ln.startswith("# "):
            cur = ln[2:83]
            out[cur] = []
        else:
            out[cur].append(ln)
    return out


# -- unavoidable -------------------------------------------------------------------------------
def test_unavoidable_prints_every_minimal_ua_of_the_naive_reference(capsys):
    rc, out, err = call(capsys, ua_cmd.main, ["--max-size", "8", GRID])
    assert rc == 0
    assert out[0] == f"# {GRID}: {len(out) - 1} minimal UAs of at most 8 cells"
    grid = parse_lines([GRID]).sudokus[0]
    sets = [frozenset(c for c, ch in enumerate(line) if ch != ".") for line in out[1:]]
    assert set(sets) == uas_by_refilling(grid, 8) and len(set(sets)) == len(sets)
    assert [len(s) for s in sets] == sorted(len(s) for s in sets)
    assert all(line[c] == GRID[c] for line in out[1:] for c in range(81) if line[c] != ".")
    assert len(err) == 1 and err[0].startswith(f"unavoidable: argument 1: {GRID}: {len(sets)} minimal UAs")


def test_unavoidable_file_with_bad_lines_keeps_them_in_place(capsys, tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text(f"# a comment\n{RANK1_GRID}\nnot a grid\n\n{NOT_GRID}\n{GRID}:suffix ignored\n")
    rc, out, err = call(capsys, ua_cmd.main, ["--max-size", "6", str(path)])
    assert rc == 2
    got = blocks([ln for ln in out if not ln.startswith("error line")])
    assert list(got) == [RANK1_GRID, GRID]
    assert got[RANK1_GRID] == unavoidable_sets(RANK1_GRID, 6).lines()
    assert got[GRID] == unavoidable_sets(GRID, 6).lines()
    errors = [ln for ln in out if ln.startswith("error line")]
    assert [e.split(":")[0] for e in errors] == ["error line 3", "error line 5"]
    assert "not a valid complete grid" in errors[1]
    # in place: the error lines sit between the two grids' blocks
    assert out.index(errors[0]) > out.index(f"# {RANK1_GRID}: 120 minimal UAs of at most 6 cells")
    assert out.index(errors[1]) < out.index(next(ln for ln in out if ln.startswith(f"# {GRID}")))
    assert sum(e.startswith(f"error: {path}:") for e in err) == 2
    assert sum(e.startswith("unavoidable: ") for e in err) == 2


def test_unavoidable_reads_standard_input(capsys, monkeypatch):
    rc, out, _ = call(capsys, ua_cmd.main, ["--max-size", "4", "-"], stdin=RANK1_GRID + "\n", monkeypatch=monkeypatch)
    assert rc == 0 and out[1:] == unavoidable_sets(RANK1_GRID, 4).lines() and len(out) == 7
    rc, out2, _ = call(capsys, ua_cmd.main, ["--max-size", "4"], stdin=RANK1_GRID + "\n", monkeypatch=monkeypatch)
    assert out2 == out


def test_unavoidable_refusals(capsys):
    rc, out, err = call(capsys, ua_cmd.main, ["no-such-file.txt"])
    assert rc == 2 and out == [] and "no such file, and not an 81-character sudoku" in err[0]
    with pytest.raises(SystemExit) as exc:
        ua_cmd.main(["--max-size", "19", GRID])
    assert exc.value.code == 2
    rc, out, err = call(capsys, ua_cmd.main, [NOT_GRID])
    assert rc == 2 and out == ["error line 1: " + out[0].split(": ", 1)[1]] and "not a valid complete grid" in out[0]


# -- find-puzzles ------------------------------------------------------------------------------
def test_find_puzzles_of_80_and_79_clues_are_the_brute_forces(capsys):
    grid = parse_lines([GRID]).sudokus[0]
    for clues, empty in ((80, 1), (79, 2)):
        rc, out, err = call(capsys, find_cmd.main, ["--clues", str(clues), GRID])
        assert rc == 0 and out[0] == f"# {GRID}: {clues} clues"
        found = {frozenset(c for c, ch in enumerate(line) if ch != ".") for line in out[1:]}
        assert len(found) == len(out) - 1 == len(puzzles_by_emptying(grid, empty))
        assert found == puzzles_by_emptying(grid, empty)
        assert f": {clues} clues: {len(found)} puzzles (complete), 1 automorphism" in err[0]
    batch = parse_lines(out[1:]).sudokus
    assert (count_solutions(batch, 2).counts == 1).all()


def test_find_puzzles_limit_minimal_and_two_grids(capsys, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(f"{GRID}\n{NOT_GRID}\n{RANK1_GRID}\n")
    rc, out, err = call(capsys, find_cmd.main, ["--clues", "79", "--limit", "4", str(path)])
    assert rc == 2
    assert out[0] == f"# {GRID}: 79 clues" and len(out[1:5]) == 4 and out[5].startswith("error line 2: ")
    assert out[6] == f"# {RANK1_GRID}: 79 clues" and len(out) == 11
    assert all(": 4 puzzles (limit 4 reached: there may be more)" in e for e in err if e.startswith("find-puzzles"))
    autos = canon_grid(RANK1_GRID).automorphisms
    assert f"{autos} automorphisms" in [e for e in err if e.startswith("find-puzzles")][1] and autos > 1
    rc, out, err = call(capsys, find_cmd.main, ["--clues", "78", "--minimal", GRID])
    assert rc == 0 and out == [f"# {GRID}: 78 clues"] and "0 minimal puzzles (complete)" in err[0]


def test_find_puzzles_refusals(capsys):
    rc, out, err = call(capsys, find_cmd.main, [GRID])  # --clues is needed (or --pattern)
    assert rc == 2 and out == [] and "--clues N is needed" in "".join(err)
    with pytest.raises(SystemExit):
        find_cmd.main(["--clues", "82", GRID])
    capsys.readouterr()
    rc, out, err = call(capsys, find_cmd.main, ["--clues", "17", GRID[:80]])
    assert rc == 2 and out == [] and "not an 81-character sudoku" in err[0]
    rc, out, err = call(capsys, find_cmd.main, ["--method", "bands", "--clues", "80", GRID])
    assert rc == 2 and out == [] and "--method bands takes --clues 16, 17, 18, got 80" in "".join(err)


def test_find_puzzles_methods(capsys):
    """Both methods from the command: 80 clues by hitting sets as by default; 16 clues band-wise,
    nothing found and complete (the summary names the count)."""
    assert call(capsys, find_cmd.main, ["--method", "hitting", "--clues", "80", GRID])[1] == \
        call(capsys, find_cmd.main, ["--clues", "80", GRID])[1]
    rc, out, err = call(capsys, find_cmd.main, ["--method", "bands", "--clues", "16", GRID])
    assert rc == 0 and out == [f"# {GRID}: 16 clues"] and "16 clues: 0 puzzles (complete)" in err[-1]


def test_the_executables_and_the_sudoku_entry_point(capsys):
    run = subprocess.run([str(ROOT / "bin" / "find-puzzles"), "--clues", "80", GRID], capture_output=True, text=True)
    assert run.returncode == 0 and len(run.stdout.splitlines()) == 82
    run = subprocess.run([str(ROOT / "bin" / "unavoidable"), "--help"], capture_output=True, text=True)
    assert run.returncode == 0 and "example: unavoidable --max-size 6" in run.stdout
    assert main_cmd.main(["unavoidable", "--max-size", "4", RANK1_GRID]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == unavoidable_sets(RANK1_GRID, 4).lines()
