"""``bin/s17-search``: the 17-clue search as a command (``jobs/s17_search.py`` run by the runner).

Cheap on purpose: pass C of band-1 rank 2 over bands 2 18136..18140 (5 pairs, 0.2-1 s each
here) holds one 17 of the shared list (at band 2 18137, ``naive_locations``); rank 3 over the same
bands 2 holds none. (This Dask test found an engine bug: a searcher resumed at band 2 18134 missed that 17,
``test_search17_finds.test_a_slice_finds_the_same_from_any_start``.) What is checked against the outside world: every line printed or exported is
a 17-clue puzzle with one solution (the naive backtracking solver) whose class is in the shared
list, and the finds are exactly the list's puzzles located in the slice. A run killed at random
instants (a commit per band 2) and started again ends with the rows and the ``--out`` file of one
uninterrupted run; the same run goes on on a real Dask cluster of 2 workers.
"""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_symmetry.commands import s17_search as cmd
from sudoku_symmetry.engine.text import parse_lines

from naive_solver import count as naive_count
from test_search17_finds import _forms, list_slice, shared_list

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
SLICE = ["--variant", "C", "--band1-rank", "2", "--bands2", "18136:18141"]
# 20 bands 2 around the same find: about 8 CPU-s, long enough to be killed twice in the middle
LONG_SLICE = ["--variant", "C", "--band1-rank", "2", "--bands2", "18136:18196"]  # seconds of work: a kill lands mid-shard
FINE = ["--chunk", "1", "--checkpoint-seconds", "0"]  # a commit per band 2: a kill lands mid-shard
# what a run stores, minus times (CPU seconds and timestamps differ from run to run)
BANDS = "SELECT pass, band1_rank, band1, bands2_total, bands2_done, pairs, bands3, found, complete " \
        "FROM s17_search_bands ORDER BY 1, 2"
FINDS = "SELECT pass, band1_rank, canonical, puzzle FROM s17_search_finds ORDER BY 1, 2, 3"
PUZZLES = "SELECT canonical FROM configurations WHERE kind = 'puzzle' ORDER BY 1"
CHECKPOINTS = "SELECT c.shard, c.resume_cursor, c.items_done, c.done FROM run_checkpoints c ORDER BY 1"
RUNS = "SELECT kind, status, items_done, items_new, items_total FROM runs"


def _rows(db, query):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(query).fetchall()


def _main(args, capsys):
    assert cmd.main(args) == 0
    return capsys.readouterr()


def _assert_valid_17s(lines: list[str]) -> set[str]:
    """Each line a 17-clue puzzle with one solution whose class is in the shared list: the classes."""
    assert lines and all(len(line) == 81 for line in lines)
    for line in lines:
        assert sum(c != "." for c in line) == 17
        assert naive_count([0 if c == "." else int(c) for c in line], limit=2) == 1
    forms = _forms(parse_lines(lines).sudokus)
    assert forms <= _forms(shared_list()[0])
    return forms


def test_finds_are_the_lists_17s_stored_once_exported_and_tabled(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    out = _main(SLICE + ["--db", db], capsys)
    lines = out.out.splitlines()
    assert lines[-1] == "found 1"
    found = _assert_valid_17s(lines[:-1])
    assert found == list_slice("C", 2, 18136, 18141)
    assert (lines[0][54:].count(".")) <= 27 - 7  # pass C: band 3 (rows 7-9) holds 7 clues or more
    assert "1 of 1 bands 1 searched (0 complete), 1 17s" in out.err
    assert _rows(db, BANDS) == [("C", 2, 0, 54424, 5, 5, 144, 1, 0)]
    assert [r[2] for r in _rows(db, FINDS)] == sorted(found) == [r[0] for r in _rows(db, PUZZLES)]
    # standard output is not resumable: the same command again is a new run; it stores nothing
    # new and counts nothing twice (its slice is stored already: the band 1's row stays as it was)
    cpu = _rows(db, "SELECT cpu_seconds FROM s17_search_bands")
    again = _main(SLICE + ["--db", db], capsys)
    assert "1 of 1 bands 1 searched (0 complete), 1 17s" in again.err
    assert len(_rows(db, FINDS)) == 1 and len(_rows(db, PUZZLES)) == 1
    assert _rows(db, BANDS) == [("C", 2, 0, 54424, 5, 5, 144, 1, 0)]
    assert _rows(db, "SELECT cpu_seconds FROM s17_search_bands") == cpu
    assert _rows(db, "SELECT pass, band1_rank, first_band2, stop_band2, pairs, bands3, found FROM s17_search_slices") \
        == [("C", 2, 18136, 18141, 5, 144, 1)]
    # a wider range later: only its bands 2 outside the stored slice count
    _main(["--variant", "C", "--band1-rank", "2", "--bands2", "18141:18143", "--db", db], capsys)
    assert _rows(db, BANDS)[0][4] == 7
    exported = tmp_path / "finds.txt"
    assert "exported 1 17-clue puzzles" in _main(["--export", str(exported), "--db", db], capsys).err
    assert set(exported.read_text().splitlines()) == found
    assert _main(["--export", "-", "--variant", "A", "--db", db], capsys).out == ""
    assert _main(["--export", "-", "--of", "0-1,3", "--db", db], capsys).out == ""
    status = _main(["--status", "--db", db], capsys).out.splitlines()
    assert len(status) == 3 and all(s.startswith("run ") and "pass C" in s and "done" in s for s in status)
    table = _main(["--table", "--db", db], capsys).out
    assert "C 2 0 7/54424" in table and "# estimate pass C: 416 bands 1 from 1 measured ranks" in table
    assert "# wall on 64 workers" in table and "# wall on 256 workers" in table
    # and from the package's random samples: every pass, the whole search in CPU-years
    sampled = [line for line in table.splitlines() if line.startswith("# estimate from the package's random samples")]
    assert len(sampled) == 1 and all(f"pass {p} " in sampled[0] for p in "ABC") and "CPU-years" in sampled[0]



def test_a_run_cut_by_cost_stores_what_one_shard_stores(tmp_path, capsys):
    """``--shard-seconds``: the same bands 2 cut into ranges of about 0.1 estimated CPU-s (several
    shards ``C:2:A-B`` that tile the range in order) store the rows of the same run in one shard.
    (The estimate is the shipped rates': about 0.4 CPU-s for this slice since the pair's sockets;
    at 0.5 the slice was one shard.)"""
    one, cut = tmp_path / "one.sqlite", tmp_path / "cut.sqlite"
    _main(SLICE + ["--store", "--db", str(one)], capsys)
    err = _main(SLICE + ["--store", "--shard-seconds", "0.1", "--db", str(cut)], capsys).err
    shards = [r[0] for r in _rows(cut, CHECKPOINTS)]
    assert f"{len(shards)} shards of about 0.1 CPU-s over 1 bands 1" in err and len(shards) >= 2
    ranges = sorted(tuple(int(v) for v in s.split(":")[2].split("-")) for s in shards)
    assert ranges[0][0] == 18136 and ranges[-1][1] == 18141
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    for query in (BANDS, FINDS, PUZZLES):
        assert _rows(cut, query) == _rows(one, query), query
    status = _main(["--status", "--db", str(cut)], capsys).out
    assert f"1 bands 1 in {len(shards)} shards (stored, no lines), {len(shards)} done, 0 pending" in status


def test_a_band1_is_complete_once_its_ranges_cover_it(tmp_path):
    """The catalog marks a band 1 complete when the slices stored, from any runs, cover its bands 2."""
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.search17 import load_search_bands, store_search_chunk

    catalog = open_catalog(str(tmp_path / "c.sqlite"), create=True)

    def chunk(a, b):
        sl = {"first": a, "stop": b, "pairs": b - a, "bands3": 2 * (b - a), "found": 0, "cpu_seconds": 0.5}
        with catalog.begin() as conn:
            store_search_chunk(conn, "A", 7, [], {"band1": 9, "bands2_total": 10, "complete": False, "slices": [sl]})
        return load_search_bands(catalog)[("A", 7)]

    assert not chunk(4, 10)["complete"]
    assert not chunk(0, 2)["complete"]
    assert not chunk(1, 3)["complete"]  # overlaps a stored slice: counts nothing
    row = chunk(2, 4)
    assert row["complete"] and row["bands2_done"] == 10 and row["pairs"] == 10 and row["cpu_seconds"] == 1.5


def test_bad_arguments(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    for args in (["--variant", "D", "--band1-rank", "1"], ["--variant", "A", "--band1-rank", "416"],
                 ["--band1-rank", "1"], ["--variant", "A", "--band1-rank", "1", "--store", "--out", "x"],
                 ["--variant", "A", "--band1-rank", "1", "--bands2", "5:5"],
                 ["--variant", "A", "--band1-rank", "1", "--bands2", "x"],
                 ["--variant", "A", "--band1-rank", "1", "--workers", "2"],
                 ["--table", "--variant", "A"], ["--status", "--store"], ["--table", "--of", "1"],
                 ["--variant", "A", "--band1-rank", "1", "--shard-seconds", "60"],
                 ["--variant", "A", "--band1-rank", "1", "--store", "--shard-seconds", "0"],
                 ["--table", "--shard-seconds", "60"]):
        try:
            status = cmd.main(args + ["--db", db])
        except SystemExit as exc:  # argparse
            status = exc.code
        assert status == 2, args
        assert "error" in capsys.readouterr().err
    assert not Path(db).exists() or _rows(db, "SELECT count(*) FROM s17_search_finds") == [(0,)]


def _run(args):
    p = subprocess.Popen([str(ROOT / "bin" / "s17-search")] + args, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    _out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err.decode()


def _kill_mid_run(args, db: Path, extra: float) -> None:
    """Start the command, wait until it has committed a band 2 more than the catalog held, then
    ``extra`` seconds more (a random instant, perhaps inside a commit), and SIGKILL it."""
    before = _items_done(db)
    p = subprocess.Popen([str(ROOT / "bin" / "s17-search")] + args, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        _wait_for_checkpoint(db, p, more_than=before)
        time.sleep(extra)
        p.send_signal(signal.SIGKILL)
        p.communicate()
    finally:
        if p.poll() is None:
            p.kill()


def _items_done(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.1) as conn:
            return int(conn.execute("SELECT coalesce(sum(items_done), 0) FROM run_checkpoints").fetchone()[0])
    except sqlite3.OperationalError:  # not created or migrated yet, or locked
        return -1


def test_killed_run_resumes_to_the_same_finds_and_file(tmp_path):
    """Killed at random instants after a commit (a commit per band 2, then slices gathered per 2 s:
    the same run either way), resumed: the ``--out`` file byte for byte, the finds and counters of one
    uninterrupted run, each find once."""
    ref_db, ref_out = tmp_path / "ref.sqlite", tmp_path / "ref.txt"
    _run(LONG_SLICE + FINE + ["--out", str(ref_out), "--db", str(ref_db)])
    db, out = tmp_path / "k.sqlite", tmp_path / "k.txt"
    rng = random.Random(7)
    for every in (FINE, ["--chunk", "1", "--checkpoint-seconds", "2"]):
        _kill_mid_run(LONG_SLICE + every + ["--out", str(out), "--db", str(db)], db, extra=rng.uniform(0.0, 1.5))
    assert len(_rows(db, "SELECT * FROM runs")) == 1
    _run(LONG_SLICE + FINE + ["--out", str(out), "--db", str(db)])
    assert out.read_bytes() == ref_out.read_bytes()
    assert out.read_text().splitlines()[-1] == "found 1"
    for query in (BANDS, FINDS, PUZZLES, CHECKPOINTS, RUNS):
        assert _rows(db, query) == _rows(ref_db, query), query
    assert len(_rows(db, FINDS)) == 1


def _wait_for_checkpoint(db: Path, p: subprocess.Popen, more_than: int = 0, timeout: float = 240.0) -> None:
    """Until the run in ``db`` has committed more than ``more_than`` bands 2 in a shard it has not
    finished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and p.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.1) as conn:
                    if conn.execute("SELECT count(*) FROM run_checkpoints WHERE done = 0").fetchone()[0] and \
                            conn.execute("SELECT sum(items_done) FROM run_checkpoints").fetchone()[0] > more_than:
                        return
            except sqlite3.OperationalError:  # not created or migrated yet, or locked
                pass
        time.sleep(0.02)
    pytest.fail("the run was not seen in the middle of a shard")


def test_dask_workers_resume_a_killed_serial_run_to_the_serial_catalog(tmp_path, capsys):
    """Ranks 2 and 3, the same bands 2: a serial run killed in the middle of rank 2 goes on on a
    LocalCluster of 2 worker processes as the same run (the same shards and cursors) and ends
    with the catalog of one uninterrupted serial run; a third run finds nothing left to do."""
    args = ["--variant", "C", "--band1-rank", "2,3", "--bands2", "18136:18141", "--store", *FINE]
    serial, killed = tmp_path / "serial.sqlite", tmp_path / "killed.sqlite"
    assert cmd.main(args + ["--db", str(serial)]) == 0
    p = subprocess.Popen([sys.executable, "-m", "sudoku_symmetry.commands.s17_search", *args, "--db", str(killed)],
                         cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for_checkpoint(killed, p)
        p.send_signal(signal.SIGKILL)
        p.communicate()
    finally:
        if p.poll() is None:
            p.kill()
    capsys.readouterr()
    assert cmd.main(args + ["--db", str(killed), "--workers", "2"]) == 0
    assert "2 of 2 bands 1 searched (0 complete), 1 17s" in capsys.readouterr().err
    for query in (BANDS, FINDS, PUZZLES, CHECKPOINTS, RUNS):
        assert _rows(killed, query) == _rows(serial, query), query
    assert [r[:2] + r[4:] for r in _rows(serial, BANDS)] == [("C", 2, 5, 5, 144, 1, 0), ("C", 3, 5, 5, 138, 0, 0)]
    assert _rows(killed, "SELECT count(*) FROM runs") == [(1,)]
    assert cmd.main(args + ["--db", str(killed), "--workers", "2"]) == 0
    assert "already complete" in capsys.readouterr().err


def test_version_and_listed_by_sudoku(capsys):
    from sudoku_symmetry import __version__
    from sudoku_symmetry.commands import main as sudoku

    with pytest.raises(SystemExit) as done:
        cmd.main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"s17-search (sudoku-symmetry) {__version__}\n"
    assert "s17-search" in sudoku.COMMANDS
