"""bin/generate and bin/minimize: the lines of the API, byte-identical files from a seed, an
interrupted --out run resuming to the uninterrupted file, stored rows saying how each puzzle was
made, a run on a Dask worker storing the serial rows, errors in place and refusals."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

import sudoku_symmetry as ss
from sudoku_symmetry.commands import generate as gen_cmd
from sudoku_symmetry.commands import minimize as min_cmd
from sudoku_symmetry.jobs import generate as job
from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.engine.text import format_lines, parse

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


def test_an_interrupted_out_run_resumes_to_the_same_file_and_rows(tmp_path, capsys, monkeypatch):
    """Stopped while a chunk's rows are being stored (after its lines may have reached the file),
    then started again: the file and the rows of one uninterrupted run, nothing twice."""
    args = ["--count", "1500", "--seed", "9", "--store"]
    assert gen_cmd.main(["--count", "1500", "--seed", "9"]) == 0
    ref = capsys.readouterr().out.encode()
    whole = tmp_path / "whole.txt"
    assert gen_cmd.main(args + ["--out", str(whole), "--db", str(tmp_path / "whole.sqlite")]) == 0
    real, calls = job.write, []

    def stopped_at_the_second_chunk(conn, chunk_rows):
        calls.append(len(chunk_rows))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(conn, chunk_rows)

    out, db = tmp_path / "k.txt", str(tmp_path / "k.sqlite")
    monkeypatch.setattr(job, "write", stopped_at_the_second_chunk)
    assert gen_cmd.main(args + ["--out", str(out), "--db", db]) == 130
    assert rows(db, "SELECT items_done, status FROM runs")[0][0] == calls[0] < 1500
    monkeypatch.setattr(job, "write", real)
    capsys.readouterr()
    assert gen_cmd.main(args + ["--out", str(out), "--db", db]) == 0
    assert out.read_bytes() == ref == whole.read_bytes()
    assert rows(db, PUZZLES) == rows(str(tmp_path / "whole.sqlite"), PUZZLES)
    assert rows(db, "SELECT items_done, status FROM runs") == [(1500, "done")]


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


def test_a_run_on_a_dask_worker_stores_the_serial_rows(tmp_path, capsys):
    """Shards of 100 attempts, each made alone on a worker (a LocalCluster of one worker
    process): the serial run's rows, each once."""
    ref, dist = str(tmp_path / "ref.sqlite"), str(tmp_path / "dist.sqlite")
    args = ["--attempts", "200", "--seed", "3", "--store"]
    assert gen_cmd.main(args + ["--db", ref]) == 0
    assert gen_cmd.main(args + ["--db", dist, "--workers", "1", "--block", "100"]) == 0
    assert rows(dist, PUZZLES) == rows(ref, PUZZLES) and len(rows(ref, PUZZLES)) == 200
    assert rows(dist, "SELECT count(*), sum(done) FROM run_checkpoints") == [(2, 2)]


def test_generate_refusals(tmp_path, capsys):
    db = str(tmp_path / "x.sqlite")
    for args in (["--grids", "2", "--clues", "24"], ["--count", "2", "--workers", "2"], ["--count", "2", "--block", "5"],
                 ["--count", "2", "--clues", "24", "--store", "--workers", "2"], []):
        assert gen_cmd.main(args + ["--db", db]) == 2, args
        assert "error:" in capsys.readouterr().err
    for args in (["--count", "1", "--clues", "30-20"], ["--count", "1", "--symmetry", "spiral"],
                 ["--count", "1", "--rating", "x"]):
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
