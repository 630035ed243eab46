"""bin/solve: output modes, alignment with input lines, malformed lines, the thin executable."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sudoku_symmetry.commands import solve as solve_cmd

import naive_solver
from conftest import data_path

ROOT = Path(__file__).resolve().parents[1]
UNIQUE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# the 17-clue list's first puzzle: unique and minimal
SEVENTEEN = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
NOSOL = "12345678." + "........9" + "." * 63  # r1c9 needs 9, column 9 already has it


def two_solutions() -> str:
    # swap-able rectangle: blank a deadly pattern of four cells of the solution
    s = list(SOLUTION)
    g = [int(c) for c in s]
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 == r2 // 3:
                continue
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if c1 // 3 != c2 // 3:
                        continue
                    a, b = g[9 * r1 + c1], g[9 * r1 + c2]
                    if g[9 * r2 + c1] == b and g[9 * r2 + c2] == a:
                        for p in (9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2):
                            s[p] = "."
                        return "".join(s)
    raise AssertionError("no deadly rectangle in the test grid")


def run_main(capsys, args, text):
    path = None
    if text is not None:
        import tempfile

        fd, path = tempfile.mkstemp(suffix=".txt")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        args = args + [path]
    try:
        rc = solve_cmd.main(args)
    finally:
        if path:
            os.unlink(path)
    out, err = capsys.readouterr()
    return rc, out.splitlines(), err


@pytest.fixture(scope="module")
def multi():
    p = two_solutions()
    assert naive_solver.count([int(c) if c != "." else 0 for c in p], 5) == 2
    return p


def test_default_and_limit(capsys, multi):
    text = f"{UNIQUE}\n# comment\n\n{multi}:2\nnot a sudoku\n{NOSOL}\n"
    rc, out, err = run_main(capsys, [], text)
    assert rc == 2
    assert out[0] == SOLUTION
    assert naive_solver.is_solution_of(out[1], [int(c) if c != "." else 0 for c in multi])
    assert out[2:] == ["error line 5: expected 81 cells, got 12", "none"]
    assert ":5:" in err and "expected 81 cells" in err
    rc, out, _ = run_main(capsys, ["--limit", "2"], text)
    assert out[0] == SOLUTION and out[1].endswith(" multiple") and out[2:] == ["error line 5: expected 81 cells, got 12", "none"]


def test_count_and_check(capsys, multi):
    text = f"{UNIQUE}\n{multi}\n{NOSOL}\n{SEVENTEEN}\n{'.' * 81}\n"
    rc, out, _ = run_main(capsys, ["--count", "--limit", "7"], text)
    assert rc == 0 and out == ["1", "2", "0", "1", "7"]
    rc, out, _ = run_main(capsys, ["--check"], text)
    assert out == ["unique not-minimal", "multiple", "none", "unique minimal", "multiple"]


def test_count_files_fed_directly(capsys):
    data = data_path("tdoku_test_puzzles_with_counts.txt")
    lines = data.read_text().splitlines()
    rc, out, _ = run_main(capsys, ["--count"], "\n".join(lines) + "\n")
    assert rc == 0
    assert out == [ln.split(":")[1] for ln in lines]


def test_all_with_cap(capsys, multi):
    rc, out, _ = run_main(capsys, ["--all"], f"{multi}\n{NOSOL}\n")
    assert len(out) == 4 and out[2] == "# 2 solutions" and out[3] == "# 0 solutions"
    assert set(out[:2]) != {out[0]}
    rc, out, err = run_main(capsys, ["--all", "--cap", "1"], f"{multi}\n")
    assert len(out) == 2 and out[1] == "# 1 solutions (cap 1 reached: there are more)"  # cut by the cap: said
    assert rc == 0 and "the cap (1) was reached: 1 puzzle(s)" in err and "(line 1)" in err
    rc, out, err = run_main(capsys, ["--all", "--cap", "2"], f"{multi}\n{UNIQUE}\n")
    assert out[2] == "# 2 solutions" and out[4] == "# 1 solutions" and err == ""  # exactly the cap: complete


def test_bad_options(capsys):
    with pytest.raises(SystemExit):
        solve_cmd.main(["--cap", "3"])
    with pytest.raises(SystemExit):
        solve_cmd.main(["--count", "--check"])
    with pytest.raises(SystemExit):
        solve_cmd.main(["--help"])
    assert "usage" in capsys.readouterr().out


def test_thin_executable_stdin():
    env = dict(os.environ)  # the engine's cache folder ($SUDOKU_CACHE_DIR) is shared with the test process
    proc = subprocess.run(
        [str(ROOT / "bin" / "solve"), "--check"], input=f"{UNIQUE}\n{SEVENTEEN}\n", capture_output=True,
        text=True, env=env, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["unique not-minimal", "unique minimal"]


def test_logic_only(capsys):
    from sudoku_symmetry.engine.solve import solver

    clash = "11" + "." * 79
    text = f"{UNIQUE}\n{SEVENTEEN}\n{NOSOL}\n{clash}\nnot a sudoku\n"
    rc, out, err = run_main(capsys, ["--logic-only"], text)
    assert rc == 2 and len(out) == 5
    assert out[0] == SOLUTION + " solved"
    stuck, word = out[1].split()
    assert word == "stuck" and len(stuck) == 81 and "." in stuck
    # logic only places digits of the (unique) solution, and keeps every given
    sol = solver.solve_one(SEVENTEEN)
    assert all(ch == "." or int(ch) == sol[k] for k, ch in enumerate(stuck))
    assert all(ch == "." or stuck[k] == ch for k, ch in enumerate(SEVENTEEN))
    assert out[2].endswith(" contradiction") and out[3].endswith(" contradiction")
    assert out[4].startswith("error line 5: ")
    rc, cand, _ = run_main(capsys, ["--logic-only", "--candidates"], f"{UNIQUE}\n{SEVENTEEN}\n{NOSOL}\n")
    assert rc == 0 and cand[0] == " ".join(SOLUTION) + " solved"
    cells = cand[1].split()
    assert cells[-1] == "stuck" and len(cells) == 82
    for k, c in enumerate(cells[:81]):
        assert (c == stuck[k]) if stuck[k] != "." else (len(c) >= 2 and str(sol[k]) in c)
    assert "-" in cand[2].split()  # r1c9 has no candidate left
    state = solver.logic_state(SEVENTEEN)
    assert state.status == "stuck" and (state.cells[state.cells > 0] == sol[state.cells > 0]).all()


def test_logic_only_options(capsys):
    for argv, needle in ((["--candidates"], "--candidates goes with --logic-only"),
                         (["--logic-only", "--count"], "not allowed with"),
                         (["--logic-only", "--limit", "2"], "--limit does not go with --logic-only")):
        with pytest.raises(SystemExit) as exc:
            solve_cmd.main(argv + ["-"])
        assert exc.value.code == 2 and needle in capsys.readouterr().err
