"""find-puzzles --store: the catalog rows of a file's searches (puzzles as minlex forms, one search
record per grid), a second run adding nothing, and a killed run resuming to the same rows as an
uninterrupted one (no duplicates, no gaps)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from sudoku_symmetry.commands import find_puzzles as cmd
from sudoku_symmetry.engine.canon import canon_grids, canon_puzzles
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.text import format_lines
from sudoku_symmetry.engine.unavoidable import puzzles_in_grid

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SUDOKU_TEST_WARMUP": "0"}
SEARCHES = "SELECT grid, clues, minimal, complete, found, automorphism_count FROM grid_searches ORDER BY grid"
PUZZLES = "SELECT canonical, kind, automorphism_count FROM configurations ORDER BY canonical"


def grids_file(tmp_path, n, seed, bad_line=True):
    lines = format_lines(random_grids(n, seed=seed))
    if bad_line:
        lines.insert(2, "not a grid")
    path = tmp_path / "grids.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def rows(db, query):
    with sqlite3.connect(db) as con:
        return con.execute(query).fetchall()


def test_store_records_the_puzzles_and_one_search_per_grid(tmp_path, capsys):
    path, lines = grids_file(tmp_path, 3, seed=5)
    db = str(tmp_path / "c.sqlite")
    assert cmd.main(["--store", "--clues", "80", "--db", db, str(path)]) == 2  # one bad line
    err = capsys.readouterr().err
    assert f"error: {path}:3: expected 81 cells" in err
    assert "3 grids searched for 80-clue puzzles, 1 bad line, 243 puzzles found, 243 new in the catalog" in err
    grids = random_grids(3, seed=5)
    want = sorted((f, 80, 0, 1, 81, 1) for f in format_lines(canon_grids(grids).forms))
    assert rows(db, SEARCHES) == want
    forms = set()
    for g in grids:
        forms |= set(format_lines(canon_puzzles(puzzles_in_grid(g, 80).puzzles).forms))
    assert {r[0] for r in rows(db, PUZZLES)} == forms and {r[1] for r in rows(db, PUZZLES)} == {"puzzle"}
    # a second run is the same run, done: nothing new
    assert cmd.main(["--store", "--clues", "80", "--db", db, str(path)]) == 2
    assert "(already done: nothing new)" in capsys.readouterr().err
    assert rows(db, "SELECT count(*) FROM grid_searches") == [(3,)]


def test_store_refusals(tmp_path, capsys):
    path, _ = grids_file(tmp_path, 1, seed=1, bad_line=False)
    grid = path.read_text().split()[0]
    for args in (["--store", "--clues", "17", grid], ["--store", "--clues", "17", "-"],
                 ["--workers", "2", "--clues", "17", str(path)]):
        assert cmd.main(args + ["--db", str(tmp_path / "x.sqlite")]) == 2, args
        assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite").exists()


def _run(args, db=None, kill_after=None):
    """The command; with ``kill_after``, SIGKILL it once the run has checkpointed that many lines.
    True when it was killed before finishing."""
    p = subprocess.Popen([str(ROOT / "bin" / "find-puzzles")] + args, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if kill_after is None:
        _, err = p.communicate(timeout=900)
        assert p.returncode in (0, 2), err.decode()
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


def test_killed_run_resumes_to_the_same_rows(tmp_path):
    path, lines = grids_file(tmp_path, 10, seed=9)
    args = ["--store", "--clues", "79", str(path)]
    ref = str(tmp_path / "ref.sqlite")
    _run(args + ["--db", ref])
    db = str(tmp_path / "k.sqlite")
    killed = sum(_run(args + ["--db", db], db, kill_after=k) for k in (2, 5, 8))
    assert killed >= 1
    _run(args + ["--db", db])
    assert rows(db, SEARCHES) == rows(ref, SEARCHES) and len(rows(ref, SEARCHES)) == 10
    assert rows(db, PUZZLES) == rows(ref, PUZZLES)
    assert sum(r[4] for r in rows(ref, SEARCHES)) == 10 * 3240
    runs = "SELECT items_done, items_new, status FROM runs"
    assert rows(db, runs) == rows(ref, runs) == [(11, len(rows(ref, PUZZLES)), "done")]


def test_a_run_on_dask_workers_stores_the_serial_rows(tmp_path):
    """With --workers 2 the file is cut into pieces of --chunk lines, one shard each, searched on a
    LocalCluster of 2 worker processes (a run of its own: its parameters name the pieces); the
    rows are the serial run's, and a second cluster run finds every piece done."""
    path, _ = grids_file(tmp_path, 6, seed=9)
    args = ["--store", "--clues", "79", str(path)]
    ref, dist = str(tmp_path / "ref.sqlite"), str(tmp_path / "dist.sqlite")
    _run(args + ["--db", ref])
    _run(args + ["--db", dist, "--workers", "2", "--chunk", "3"])
    assert rows(dist, SEARCHES) == rows(ref, SEARCHES) and len(rows(ref, SEARCHES)) == 6
    assert rows(dist, PUZZLES) == rows(ref, PUZZLES)
    # 7 lines (one bad) in pieces of 3: three shards, each done
    assert rows(dist, "SELECT count(*), sum(done) FROM run_checkpoints") == [(3, 3)]
    assert rows(dist, "SELECT items_done, status FROM runs") == [(7, "done")]
    _run(args + ["--db", dist, "--workers", "2", "--chunk", "3"])
    assert rows(dist, "SELECT count(*) FROM runs") == [(1,)]
    assert rows(dist, SEARCHES) == rows(ref, SEARCHES)
