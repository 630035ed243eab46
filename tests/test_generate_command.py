"""bin/generate and bin/minimize: the lines of the API, byte-identical files from a seed, a killed
--out run resuming to the uninterrupted file, stored rows saying how each puzzle was made, a run
on Dask workers storing the serial rows, errors in place and refusals."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import numpy as np

import sudoku_symmetry as ss
from sudoku_symmetry.commands import generate as gen_cmd
from sudoku_symmetry.commands import minimize as min_cmd
from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.engine.text import format_lines, parse

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SUDOKU_TEST_WARMUP": "0"}
PUZZLES = "SELECT canonical, kind, n_givens, automorphism_count, source FROM configurations ORDER BY canonical"


def rows(db, query):
    with sqlite3.connect(db) as con:
        return con.execute(query).fetchall()


def test_lines_are_the_apis(capsys):
    assert gen_cmd.main(["--grids", "3", "--seed", "4"]) == 0
    assert capsys.readouterr().out.split() == ss.random_grids(3, seed=4)
    assert gen_cmd.main(["--count", "4", "--seed", "4", "--clues", "24-25", "--symmetry", "180", "--solutions"]) == 0
    out, err = capsys.readouterr()
    lines = [ln.split() for ln in out.splitlines()]
    assert [p for p, _ in lines] == ss.generate(4, seed=4, clues="24-25", symmetry="rotate180")
    assert all(ss.solve(p) == g for p, g in lines)
    assert "4 puzzles kept from" in err


def test_stats_compare_with_berthier(capsys):
    assert gen_cmd.main(["--count", "300", "--seed", "1", "--stats"]) == 0
    err = capsys.readouterr().err
    assert "300 puzzles from 300 attempts" in err and "Berthier 24.38" in err
    made = ss.generate(300, seed=1, as_array=True)
    mean = float((made > 0).sum(axis=1).mean())
    assert f"mean {mean:.3f}" in err


def _run(args, db=None, kill_after=None, out=None):
    """bin/generate; with ``kill_after``, SIGKILL it once the run has checkpointed that many
    items. True when it was killed before finishing."""
    p = subprocess.Popen([str(ROOT / "bin" / "generate")] + args, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if kill_after is None:
        stdout, err = p.communicate(timeout=900)
        assert p.returncode == 0, err.decode()
        if out is not None:
            Path(out).write_bytes(stdout)
        return False
    deadline = time.time() + 600
    while p.poll() is None and time.time() < deadline:
        try:
            done = rows(db, "SELECT coalesce(sum(items_done), 0) FROM run_checkpoints")[0][0]
        except sqlite3.Error:
            done = 0
        if done >= kill_after:
            p.send_signal(signal.SIGKILL)
            break
        time.sleep(0.01)
    p.communicate()
    return p.returncode == -signal.SIGKILL


def test_a_killed_out_run_resumes_to_the_same_file_and_rows(tmp_path):
    args = ["--count", "3000", "--seed", "9", "--store"]
    ref = tmp_path / "ref.txt"
    _run(["--count", "3000", "--seed", "9"], out=ref)
    _run(args + ["--out", str(tmp_path / "whole.txt"), "--db", str(tmp_path / "whole.sqlite")])
    out, db = tmp_path / "k.txt", str(tmp_path / "k.sqlite")
    killed = sum(_run(args + ["--out", str(out), "--db", db], db, kill_after=k) for k in (1000, 2000))
    assert killed >= 1
    _run(args + ["--out", str(out), "--db", db])
    assert out.read_bytes() == ref.read_bytes() == (tmp_path / "whole.txt").read_bytes()
    assert rows(db, PUZZLES) == rows(str(tmp_path / "whole.sqlite"), PUZZLES)
    assert rows(db, "SELECT items_done, status FROM runs") == [(3000, "done")]


def test_stored_rows_say_how_each_puzzle_was_made(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    assert gen_cmd.main(["--attempts", "50", "--seed", "2", "--clues", "25", "--symmetry", "none", "--store",
                         "--db", db]) == 0
    assert "puzzles stored (run 1)" in capsys.readouterr().err
    from sudoku_symmetry.engine.generate import generate

    made = generate(50, seed=2, clues="25", max_attempts=50)
    forms = canon_puzzles(made.puzzles)
    want = sorted((f, "puzzle", 25, a, f"generate seed=2 attempt={t}")
                  for f, a, t in zip(format_lines(forms.forms), forms.automorphisms.tolist(), made.attempts.tolist()))
    assert rows(db, PUZZLES) == want and len(want) >= 5
    assert gen_cmd.main(["--attempts", "50", "--seed", "2", "--clues", "25", "--store", "--db", db]) == 0
    assert "already complete" in capsys.readouterr().err
    assert gen_cmd.main(["--status", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("run 1: puzzles of 50 attempts, seed 2, clues 25-25 (stored): done")


def test_a_run_on_dask_workers_stores_the_serial_rows(tmp_path):
    args = ["--attempts", "300", "--seed", "3", "--store"]
    ref, dist = str(tmp_path / "ref.sqlite"), str(tmp_path / "dist.sqlite")
    _run(args + ["--db", ref])
    _run(args + ["--db", dist, "--workers", "2", "--block", "100"])
    assert rows(dist, PUZZLES) == rows(ref, PUZZLES) and len(rows(ref, PUZZLES)) == 300
    assert rows(dist, "SELECT count(*), sum(done) FROM run_checkpoints") == [(3, 3)]


def test_generate_refusals(tmp_path, capsys):
    db = str(tmp_path / "x.sqlite")
    for args in (["--grids", "2", "--clues", "24"], ["--count", "2", "--workers", "2"], ["--count", "2", "--block", "5"],
                 ["--count", "2", "--clues", "24", "--store", "--workers", "2"], []):
        assert gen_cmd.main(args + ["--db", db]) == 2, args
        assert "error:" in capsys.readouterr().err
    for args in (["--count", "1", "--clues", "30-20"], ["--count", "1", "--symmetry", "spiral"]):
        try:
            status = gen_cmd.main(args)
        except SystemExit as exc:  # argparse: usage and exit 2
            status = exc.code
        assert status == 2, args
    assert not Path(db).exists()


def test_minimize_prints_minimal_puzzles_and_errors_in_place(tmp_path, capsys):
    made = ss.generate(2, seed=6)
    grid = ss.solve(made[0])
    extra = "".join(g if p == "." and k % 7 == 0 else p for k, (p, g) in enumerate(zip(made[0], grid)))
    path = tmp_path / "p.txt"
    path.write_text("\n".join([extra, "# a comment", "11" + "." * 79, "." * 81, made[1]]) + "\n")
    assert min_cmd.main(["--order", "forward", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == ss.minimize(extra, order="forward") and lines[3] == made[1]
    assert lines[1] == "error line 3: not a puzzle: digit 1 repeated in row 1 at r1c1, r1c2"
    assert lines[2] == "error line 4: not a unique puzzle: more than one solution"
    assert f"error: {path}:4: not a unique puzzle" in err
    assert (ss.count(lines[0]), ss.count(lines[3])) == (1, 1)
    assert min_cmd.main(["--all", str(tmp_path / "p.txt")]) == 2
    out = capsys.readouterr().out
    inside = ss.minimize(extra, all=True)
    assert out.startswith(f"# {extra}: {len(inside)} minimal puzzles\n" + "\n".join(inside) + "\n")
    # random orders: puzzle k of the input gets stream k of the seed
    assert min_cmd.main(["--seed", "5", str(path)]) == 2
    first = capsys.readouterr().out.splitlines()[0]
    from sudoku_symmetry.engine.generate import minimize

    assert first == format_lines(minimize(parse(extra)[None], "random", 5, streams=[0])[0])[0]
    assert np.all(parse(first) <= parse(extra))
