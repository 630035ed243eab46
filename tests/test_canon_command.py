"""bin/canon on the shared data: forms, the catalog store, errors, and the command as a user runs it."""
import os
import sqlite3
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.engine.canon.puzzle import canon_puzzles
from sudoku_symmetry.engine.text import format_lines, parse, parse_lines
from sudoku_symmetry.engine.group.transform import Transform, apply_batch, random_transforms
from sudoku_symmetry.commands import canon

from conftest import RANK1_GRID, read_data_lines
from naive_canon import naive_canon

ROOT = Path(__file__).resolve().parent.parent

# The shared list says every line is its own pure-minlex form. For 1,505 of its lines that is
# false: the engine finds a smaller string, proves it by a transformation checked here in plain
# Python, and the brute-force reference over all 3,359,232 position maps agrees on a sample.
NOT_MINLEX_COUNT = 1505


def _plain_apply(t: Transform, line: str) -> str:
    """Apply a transformation to a puzzle string and relabel, in plain Python (no engine)."""
    rows = [line[9 * i : 9 * i + 9] for i in range(9)]
    if t.transpose:
        rows = ["".join(rows[j][i] for j in range(9)) for i in range(9)]
    image = "".join(rows[t.rows[i]][t.cols[j]] for i in range(9) for j in range(9))
    labels: dict[str, str] = {}
    return "".join(ch if ch == "." else labels.setdefault(ch, str(len(labels) + 1)) for ch in image)


@pytest.fixture(scope="module")
def clue17(data_dir):
    return read_data_lines("17clue_49158.txt")


def test_17clue_lines_and_the_erratum(clue17):
    puzzles = parse_lines(clue17).sudokus
    forms, transforms, _ = canon_puzzles(puzzles)
    assert np.array_equal(apply_batch(transforms, puzzles), forms)
    text = format_lines(forms)
    differ = [k for k in range(len(clue17)) if text[k] != clue17[k]]
    for k in differ:  # each is a proof that the published line is not minimal
        assert _plain_apply(Transform.from_array(transforms[k]), clue17[k]) == text[k] < clue17[k]
    assert len(differ) == NOT_MINLEX_COUNT
    for k in differ[:: len(differ) // 3][:3] + [0]:  # the slow reference finds the same minimum
        assert format_lines(naive_canon(puzzles[k])[0][None])[0] == text[k]
    assert len(set(text)) == 49158  # still 49,158 distinct classes


def test_transformed_copies_map_back(clue17):
    puzzles = parse_lines(clue17).sudokus
    moved = apply_batch(random_transforms(len(puzzles), np.random.default_rng(2)), puzzles)
    for pattern_first in (False, True):
        f1, _, a1 = canon_puzzles(puzzles, pattern_first=pattern_first)
        f2, t2, a2 = canon_puzzles(moved, pattern_first=pattern_first)
        assert np.array_equal(f1, f2) and np.array_equal(a1, a2)
        assert np.array_equal(apply_batch(t2, moved), f2)


def test_canon_and_store(tmp_path, capsys, clue17, data_dir):
    db = tmp_path / "c.sqlite"
    sample = data_dir / "17clue_49158.txt"
    assert canon.main(["--store", "--db", str(db), "--automorphisms", str(sample)]) == 0
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert len(out) == 49158 and out[0].split() == [clue17[0], "1"]
    assert "read 49158, malformed 0, new 49158, already known 0" in captured.err
    # the same file again, and a transformed copy of part of it, add nothing
    moved = apply_batch(random_transforms(500, np.random.default_rng(3)), parse_lines(clue17[:500]).sudokus)
    copy = tmp_path / "moved.txt"
    copy.write_text("\n".join(format_lines(moved)) + "\n")
    assert canon.main(["--store", "--db", str(db), str(sample), str(copy)]) == 0
    captured = capsys.readouterr()  # the summary describes this run: nothing new (issue 23)
    err = captured.err
    assert f"{sample}: already stored (run 1); nothing new to store" in err
    assert "read 49658, malformed 0, new 0, already known 49658" in err
    assert len(captured.out.splitlines()) == 49658  # every form printed again
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM configurations WHERE kind='puzzle' AND n_givens=17").fetchone() == (49158,)
    with_aut = con.execute("SELECT count(*) FROM configurations WHERE n_givens=17 AND automorphism_count>1").fetchone()
    _, _, counts = canon_puzzles(parse_lines(clue17).sudokus)
    assert with_aut[0] == int((counts > 1).sum())  # the SQL answer is the engine's
    source = con.execute("SELECT DISTINCT source FROM configurations").fetchall()
    assert source == [("17clue_49158.txt",)]


def test_grids_transform_column_and_pattern_first(tmp_path, capsys):
    t = Transform.random(np.random.default_rng(8))
    moved = format_lines(t.apply(parse(RANK1_GRID))[None])[0]
    f = tmp_path / "g.txt"
    f.write_text(f"# a grid and a puzzle\n{moved}\n\n{'.' * 80}5\n")
    assert canon.main(["--automorphisms", "--transform", "--pattern-first", str(f)]) == 0
    grid_line, puzzle_line = capsys.readouterr().out.splitlines()
    form, count, tstr = grid_line.split()
    assert form == RANK1_GRID and count == "3"
    assert format_lines(Transform.parse(tstr).apply(parse(moved))[None])[0] == RANK1_GRID
    assert puzzle_line.split()[0] == "." * 80 + "1"


def test_bad_lines_are_reported_in_place(tmp_path, capsys, clue17):
    f = tmp_path / "bad.txt"
    f.write_text("\n".join([clue17[0], "123", "11" + "." * 79, clue17[1]]) + "\n")
    assert canon.main([str(f)]) == 2
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[0] == clue17[0] and out[3] == clue17[1]
    assert out[1] == "error line 2: expected 81 cells, got 3"
    assert out[2].startswith("error line 3: digit 1 repeated in row 1")
    assert f"{f}:2:" in captured.err and "read 4, malformed 2" in captured.err


def test_commands_run_from_anywhere(tmp_path):
    for name in ("canon", "equiv"):
        res = subprocess.run([str(ROOT / "bin" / name), "--help"], cwd=tmp_path, capture_output=True, text=True)
        assert res.returncode == 0 and "usage:" in res.stdout
    res = subprocess.run([str(ROOT / "bin" / "canon")], input=RANK1_GRID + "\n", cwd=tmp_path,
                         capture_output=True, text=True, env={**os.environ})
    assert res.returncode == 0 and res.stdout == RANK1_GRID + "\n"


def test_17clue_automorphisms_agree_with_their_solution_grids(clue17):
    """A puzzle's automorphism fixes its unique solution, so it is among the grid's automorphisms:
    count them that independent way (solver + grid canon) and compare with the puzzle canon."""
    from sudoku_symmetry.engine.solve import solver
    from sudoku_symmetry.engine.canon.grid import canon_grids, grid_automorphisms

    puzzles = parse_lines(clue17).sudokus
    res = solver.count_solutions(puzzles, 2, solutions=True)
    assert (res.counts == 1).all()
    _, _, grid_counts = canon_grids(res.solutions)
    expected = np.ones(len(puzzles), np.int64)
    for k in np.flatnonzero(grid_counts > 1):  # 6 automorphic solution grids
        expected[k] = sum(np.array_equal(g.apply(puzzles[k]), puzzles[k]) for g in grid_automorphisms(res.solutions[k]))
    _, _, puzzle_counts = canon_puzzles(puzzles)
    assert np.array_equal(puzzle_counts, expected)


@pytest.mark.parametrize("kind", ["unknown scheme", "unparsable URL", "not a database", "folder cannot be created",
                                  "read-only", "newer than the code", "server unreachable", "another application"])
def test_catalog_faults_are_one_line_and_exit_2(tmp_path, capsys, kind):
    """Through the command as a user meets them: `canon: error: ...`, exit 2, no traceback, no SQL."""
    from test_catalog import FAULTS, _fault

    if kind == "another application":
        db, expected = tmp_path / "app.sqlite", "is not a sudoku catalog"
        with sqlite3.connect(db) as con:
            con.execute("CREATE TABLE users (id INTEGER)")
    else:
        db, expected = _fault(tmp_path, kind), FAULTS[kind]
    sample = tmp_path / "one.txt"
    sample.write_text(RANK1_GRID + "\n")
    assert canon.main(["--store", "--db", str(db), str(sample)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("canon: error: ") and expected in err[0], err
    assert not any(word in err[0] for word in ("Traceback", "SELECT", "INSERT", "[SQL", "parameters"))


def test_a_write_to_a_read_only_catalog_is_one_line(tmp_path, capsys):
    """An up-to-date catalog opened read-only (URI mode=ro) opens fine; the first write fails cleanly."""
    from sudoku_symmetry.catalog.db import open_catalog

    open_catalog(str(tmp_path / "cat.sqlite")).dispose()
    sample = tmp_path / "one.txt"
    sample.write_text(RANK1_GRID + "\n")
    ro = f"sqlite:///file:{tmp_path / 'cat.sqlite'}?mode=ro&uri=true"
    assert canon.main(["--store", "--db", ro, str(sample)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "is read-only (cannot write to it)" in err[0], err
