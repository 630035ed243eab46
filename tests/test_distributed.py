"""Scale-out with real parts: a PostgreSQL server started by the suite (conftest.pg_server), Dask
LocalClusters of 2 worker processes, a worker SIGKILLed in the middle of a shard, database
connections terminated by the server (pg_terminate_backend) mid-run. Nothing is mocked.

Cheap on purpose: the bands 1 380-393 hold 2-163 grids each (~1.5 s of enumeration apiece);
small chunks make many commits, so a kill or a dropped connection lands mid-shard."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import create_engine, select, text

from sudoku_symmetry.catalog.db import HEAD_REVISION, current_revision, open_catalog
from sudoku_symmetry.catalog.grids import BANDS, PREFIXES, load_totals
from sudoku_symmetry.catalog.runs import CHECKPOINTS, LEASES, RUNS
from sudoku_symmetry.jobs import ed_grids as tasks
from sudoku_symmetry.commands import canon as canon_cmd
from sudoku_symmetry.commands import enumerate as enum_cmd
from sudoku_symmetry.commands import patterns as patterns_cmd
from sudoku_symmetry.commands import rate as rate_cmd
from sudoku_symmetry.commands import s17_entry as s17_cmd
from sudoku_symmetry.engine.patterns import occupancy_groups

from conftest import _psql, pg_database

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
SHIPPED = np.load(ROOT / "catalog" / "data" / "ed_grid_counts.npz")
GRIDS = dict(zip(SHIPPED["band1"].tolist(), SHIPPED["grids"].tolist()))
PREFIX_COUNT = dict(zip(SHIPPED["band1"].tolist(), SHIPPED["prefixes"].tolist()))


def _catalog_rows(url: str):
    """Everything the enumeration stores, minus timestamps: prefix counts and band totals."""
    engine = open_catalog(url)
    with engine.connect() as conn:
        prefixes = conn.execute(select(PREFIXES.c.band1, PREFIXES.c.prefix, PREFIXES.c.row4, PREFIXES.c.grids)
                                .order_by(PREFIXES.c.band1, PREFIXES.c.prefix)).all()
        bands = conn.execute(select(BANDS.c.band1, BANDS.c.grids, BANDS.c.prefixes, BANDS.c.automorphic,
                                    BANDS.c.automorphism_histogram).order_by(BANDS.c.band1)).all()
    engine.dispose()
    return [tuple(r) for r in prefixes], [(*r[:4], json.loads(r[4])) for r in bands]


def _assert_exact(url: str, bands: list[int]) -> None:
    """Counts equal the shipped (published) ones, each prefix stored once, and the run's counters
    equal one uninterrupted run's (a chunk committed twice would count its grids twice)."""
    engine = open_catalog(url)
    assert load_totals(engine) == {b: GRIDS[b] for b in bands}
    with engine.connect() as conn:
        n = conn.scalar(select(text("count(*)")).select_from(PREFIXES))
        runs = conn.execute(select(RUNS.c.status, RUNS.c.items_done).where(RUNS.c.kind == enum_cmd.RUN_KIND)).all()
        per_shard = conn.execute(select(CHECKPOINTS.c.shard, CHECKPOINTS.c.items_done)).all()
    engine.dispose()
    assert n == sum(PREFIX_COUNT[b] for b in bands)
    assert runs == [("done", sum(GRIDS[b] for b in bands))]
    by_band: dict[int, int] = {}
    for shard, items in per_shard:
        by_band[int(shard.split(":")[0])] = by_band.get(int(shard.split(":")[0]), 0) + items
    assert by_band == {b: GRIDS[b] for b in bands}


def _enumerate(args: list[str], env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "sudoku_symmetry.commands.enumerate"] + args, cwd=ROOT,
                            env=env or ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_mid_shard(url: str, timeout: float = 240.0):
    """(shard, lease holder) once some shard has committed a chunk but is not done."""
    engine = create_engine(url)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                rows = conn.execute(select(CHECKPOINTS.c.shard, CHECKPOINTS.c.resume_cursor, LEASES.c.worker_id)
                                    .join(LEASES, (LEASES.c.run_id == CHECKPOINTS.c.run_id)
                                          & (LEASES.c.shard == CHECKPOINTS.c.shard))
                                    .where(CHECKPOINTS.c.done.is_(False), LEASES.c.worker_id.is_not(None))).all()
            for shard, cursor, holder in rows:
                if json.loads(cursor)["prefix"] >= 8:
                    return shard, holder
            time.sleep(0.05)
    finally:
        engine.dispose()
    pytest.fail("no shard was seen in the middle of its work")


# -- shards ----------------------------------------------------------------------------------
def test_pieces_cover_each_band_exactly():
    keys = tasks.shard_keys([5, 390, 0], 500_000)
    assert "390" in keys and all(k.startswith(("5:", "0:")) for k in keys if k != "390")
    for band in (5, 0):
        spans = sorted(tasks.parse_shard(k)[1:] for k in keys if k.startswith(f"{band}:"))
        assert spans[0][0] == 0 and spans[-1][1] == PREFIX_COUNT[band] and len(spans) > 1
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))  # contiguous, no overlap
    assert tasks.parse_shard("7") == (7, 0, None)


# -- a LocalCluster of 2 workers gives the serial run's catalog --------------------------------
def test_local_cluster_gives_the_serial_catalog(tmp_path, capsys):
    serial, dist = str(tmp_path / "serial.sqlite"), str(tmp_path / "dist.sqlite")
    bands = "388-393"
    assert enum_cmd.main(["--band1", bands, "--count-only", "--db", serial]) == 0
    # pieces of 10 grids: bands 388, 389 and 391 are cut in several shards, finished by several tasks
    assert enum_cmd.main(["--band1", bands, "--count-only", "--db", dist, "--workers", "2", "--split", "10",
                          "--chunk", "16"]) == 0
    assert "6 of 6 bands 1 counted, 164 grids" in capsys.readouterr().err
    assert _catalog_rows(dist) == _catalog_rows(serial)
    _assert_exact("sqlite:///" + dist, list(range(388, 394)))
    with open_catalog(dist).connect() as conn:
        shards = conn.scalars(select(CHECKPOINTS.c.shard)).all()
    assert any(":" in s for s in shards)  # really pieces
    assert enum_cmd.main(["--band1", bands, "--count-only", "--db", dist, "--workers", "2"]) == 0
    assert "counted already" in capsys.readouterr().err


@pytest.mark.parametrize("cmd, args", [(enum_cmd, ["--band1", "390"]),
                                       (s17_cmd, ["--variant", "C", "--band1-rank", "415"]),
                                       (s17_cmd, ["--variant", "A", "--band1-rank", "415", "--out", "x.txt"]),
                                       (patterns_cmd, ["--cells", "3"]),
                                       (patterns_cmd, ["--cells", "3", "--digits", "--out", "x.txt"])])
def test_distributed_needs_count_only(cmd, args, tmp_path, capsys):
    """Lines printed or written to --out come in order from one process: refused on a cluster."""
    assert cmd.main(args + ["--db", str(tmp_path / "c.sqlite"), "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "need --count-only" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x.txt").exists()


def _rows(url: str, query: str) -> list[tuple]:
    engine = open_catalog(url)
    with engine.connect() as conn:
        rows = sorted(tuple(r) for r in conn.execute(text(query)))
    engine.dispose()
    return rows


RUN_ROWS = "SELECT kind, status, items_done, items_new, items_total FROM runs"


def _wait_for_checkpoint(db: Path, p: subprocess.Popen, timeout: float = 240.0) -> None:
    """Until the run in ``db`` has committed a chunk of a shard it has not finished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and p.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.1) as conn:
                    if conn.execute("SELECT count(*) FROM run_checkpoints WHERE done = 0").fetchone()[0]:
                        return
            except sqlite3.OperationalError:  # not created or migrated yet, or locked
                pass
        time.sleep(0.02)
    pytest.fail("the serial run was not seen in the middle of a shard")


# -- s17-entry and patterns on a LocalCluster of 2 workers ---------------------------------------
def test_s17_entry_on_workers_resumes_a_serial_run_to_the_serial_catalog(tmp_path, capsys):
    """Variant C of the two lightest bands 1 (ranks 414 and 415: 525 bands 2, 15,780 bands 3).
    A cluster run has the serial run's shards and cursors, so a serial run killed in the middle
    of band 1 414 (a commit per slice: --checkpoint-seconds 0) goes on with --workers 2 as the
    same run (414 from its checkpoint, 415 from the start, each on a worker) and ends with the
    catalog of one uninterrupted serial run."""
    args = ["--variant", "C", "--band1-rank", "414,415", "--count-only", "--chunk", "1",
            "--checkpoint-seconds", "0"]
    serial, killed = tmp_path / "serial.sqlite", tmp_path / "killed.sqlite"
    assert s17_cmd.main(args + ["--db", str(serial)]) == 0
    p = subprocess.Popen([sys.executable, "-m", "sudoku_symmetry.commands.s17_entry", *args, "--db", str(killed)],
                         cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for_checkpoint(killed, p)
        p.send_signal(signal.SIGKILL)
        p.communicate()
    finally:
        if p.poll() is None:
            p.kill()
    capsys.readouterr()
    assert s17_cmd.main(args + ["--db", str(killed), "--workers", "2"]) == 0
    assert "2 of 2 bands 1 done, bands2 525 bands3 15,780" in capsys.readouterr().err
    entry = "SELECT variant, band1_rank, band1, bands2, bands3 FROM s17_entry_bands"
    checkpoints = "SELECT r.parameters, c.shard, c.resume_cursor, c.items_done, c.done FROM run_checkpoints c " \
                  "JOIN runs r ON r.id = c.run_id"
    for query in (entry, RUN_ROWS, checkpoints):
        assert _rows(str(killed), query) == _rows(str(serial), query)
    assert _rows(str(serial), entry) == [("C", 414, 30, 465, 14501), ("C", 415, 28, 60, 1279)]
    assert _rows(str(killed), "SELECT count(*) FROM runs") == [(1,)]  # resumed, not a new run
    assert s17_cmd.main(args + ["--db", str(killed), "--workers", "2"]) == 0
    assert "2 of the bands 1 are done already: skipped" in capsys.readouterr().err


@pytest.mark.parametrize("cells, digits, count", [(7, False, 16847), (5, True, 6146)])
def test_patterns_on_workers_equals_serial(cells, digits, count, tmp_path, capsys):
    """One shard per box occupancy (23 for 7 cells, 17 for 5), the serial catalog's rows."""
    args = ["--cells", str(cells), "--count-only", "--chunk", "500"] + (["--digits"] if digits else [])
    serial, dist = str(tmp_path / "serial.sqlite"), str(tmp_path / "dist.sqlite")
    assert patterns_cmd.main(args + ["--db", serial]) == 0
    want = capsys.readouterr().out
    assert patterns_cmd.main(args + ["--db", dist, "--workers", "2"]) == 0
    assert capsys.readouterr().out == want == f"{count}\n"
    rows = "SELECT canonical, kind, convention, n_givens, automorphism_count, source FROM configurations"
    assert _rows(dist, rows) == _rows(serial, rows) and len(_rows(dist, rows)) == count
    assert _rows(dist, RUN_ROWS) == _rows(serial, RUN_ROWS)
    shards = _rows(dist, "SELECT shard, done FROM run_checkpoints")
    assert shards == sorted((f"boxes:{occ}", 1) for occ, _, _ in occupancy_groups(cells)) and len(shards) > 10
    assert patterns_cmd.main(args + ["--db", dist, "--workers", "2"]) == 0
    assert "already complete" in capsys.readouterr().err


# -- PostgreSQL ------------------------------------------------------------------------------
def test_postgresql_migrations_enumerate_and_canon(pg_server, tmp_path, capsys):
    url = pg_database(pg_server, "cmds")
    assert enum_cmd.main(["--band1", "390-393", "--count-only", "--db", url]) == 0
    assert current_revision(create_engine(url)) == HEAD_REVISION
    _assert_exact(url, [390, 391, 392, 393])
    assert enum_cmd.main(["--status", "--db", url]) == 0
    assert "4 of 416 bands 1 counted, 78 grids" in capsys.readouterr().out
    from conftest import RANK1_GRID, LAST_GRID

    src = tmp_path / "in.txt"
    src.write_text(f"{RANK1_GRID}\n{LAST_GRID}\nbad\n{RANK1_GRID}\n")
    assert canon_cmd.main(["--store", "--db", url, str(src)]) == 2
    err = capsys.readouterr().err
    assert "read 4, malformed 1, new 2, already known 1" in err
    assert canon_cmd.main(["--store", "--db", url, str(src)]) == 2
    assert "already stored" in capsys.readouterr().err
    assert _psql(pg_server, "\\c cmds\nSELECT count(*) FROM configurations;") == "2"


def test_worker_killed_mid_shard_resumes_exactly(pg_server):
    url = pg_database(pg_server, "killed")
    open_catalog(url).dispose()
    bands = [380, 381]
    p = _enumerate(["--band1", "380-381", "--count-only", "--db", url, "--workers", "2", "--chunk", "3",
                    "--split", "0"])
    try:
        shard, holder = _wait_mid_shard(url)
        pid = int(holder.split(":")[1])
        assert pid != p.pid
        os.kill(pid, signal.SIGKILL)  # the Dask worker process holding the shard: its chunk in flight is lost
        out, err = p.communicate(timeout=400)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    _assert_exact(url, bands)
    with open_catalog(url).connect() as conn:
        cursor = conn.scalar(select(CHECKPOINTS.c.resume_cursor).where(CHECKPOINTS.c.shard == shard))
    assert json.loads(cursor)["prefix"] == PREFIX_COUNT[int(shard)]


def test_dropped_connections_are_retried(pg_server):
    url = pg_database(pg_server, "dropped")
    open_catalog(url).dispose()
    p = _enumerate(["--band1", "384-385", "--count-only", "--db", url, "--workers", "2", "--chunk", "3",
                    "--split", "0"])
    try:
        _wait_mid_shard(url)
        killed = []
        for _ in range(3):  # every connection of the run, workers' and client's, cut by the server
            killed.append(int(_psql(pg_server, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                               "WHERE datname = 'dropped' AND pid <> pg_backend_pid();")))
            time.sleep(0.7)
        # the first round cuts the run mid-shard; a later one may find every process asleep in its
        # reconnect backoff (0.5 s, then 1 s: no connection open), which is no failure of the run
        assert killed[0] >= 1, killed
        out, err = p.communicate(timeout=400)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    _assert_exact(url, [384, 385])


def test_connection_gone_stops_with_one_line_then_resumes(pg_server):
    url = pg_database(pg_server, "gone")
    open_catalog(url).dispose()
    env = dict(ENV, SUDOKU_DB_RETRIES="2", SUDOKU_DB_BACKOFF="0.2")
    args = ["--band1", "380-381", "--count-only", "--db", url, "--chunk", "2"]
    p = _enumerate(args, env)
    try:
        _wait_mid_shard(url)
        _psql(pg_server, "ALTER DATABASE gone ALLOW_CONNECTIONS false; SELECT pg_terminate_backend(pid) "
                         "FROM pg_stat_activity WHERE datname = 'gone';")
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
        _psql(pg_server, "ALTER DATABASE gone ALLOW_CONNECTIONS true;")
    assert p.returncode == 2, err
    lines = err.strip().splitlines()
    assert lines[-1].startswith("enumerate: error: cannot use the catalog") and "Traceback" not in err
    assert "2 retries" in lines[-1] and "run the same command again to resume" in lines[-1]
    p = _enumerate(args, env)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    _assert_exact(url, [380, 381])


def test_two_clusters_on_one_catalog_share_the_shards(pg_server):
    url = pg_database(pg_server, "two")
    open_catalog(url).dispose()
    args = ["--band1", "384-389", "--count-only", "--db", url, "--workers", "1", "--chunk", "8", "--split", "0"]
    a, b = _enumerate(args), _enumerate(args)
    ra, rb = a.communicate(timeout=400), b.communicate(timeout=400)
    assert a.returncode == 0 and b.returncode == 0, (ra[1], rb[1])
    _assert_exact(url, list(range(384, 390)))  # one run, each shard's grids counted once


def test_canon_store_on_workers_equals_serial(pg_server, tmp_path, data_dir, capsys):
    src = tmp_path / "in.txt"
    lines = (data_dir / "top1465.txt").read_text().splitlines()[:400]
    src.write_text("\n".join(lines[:250] + ["12x"] + lines[100:] + ["1" * 81]) + "\n")  # repeats, 2 bad lines
    serial = str(tmp_path / "serial.sqlite")
    assert canon_cmd.main(["--store", "--db", serial, str(src)]) == 2
    want = capsys.readouterr().err.splitlines()
    url = pg_database(pg_server, "canonw")
    assert canon_cmd.main(["--store", "--db", url, "--workers", "2", "--chunk", "64", str(src)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [w for w in want if w.startswith(("error:", "canon: read"))]
    rows = {}
    for db in (serial, url):
        with open_catalog(db).connect() as conn:
            rows[db] = sorted(conn.execute(text("SELECT canonical, kind, convention, n_givens, automorphism_count "
                                                "FROM configurations")).all())
    assert rows[url] == rows[serial] and len(rows[url]) > 300
    assert canon_cmd.main(["--store", "--db", url, "--workers", "2", "--chunk", "64", str(src)]) == 2
    assert "already stored" in capsys.readouterr().err


def test_rate_store_on_workers_equals_serial(tmp_path, data_dir, capsys):
    """``rate --store --workers 2``: the same ratings stored and the same error lines as a serial
    run (a malformed line and a puzzle with two solutions among 17-clue puzzles)."""
    src = tmp_path / "in.txt"
    lines = (data_dir / "17clue_49158.txt").read_text().splitlines()[:12]
    two = "." * 81
    src.write_text("\n".join(lines[:5] + ["12x", two] + lines[5:]) + "\n")
    stored, errors = {}, {}
    for name, extra in (("serial", []), ("workers", ["--workers", "2", "--chunk", "4"])):
        db = str(tmp_path / f"{name}.sqlite")
        assert rate_cmd.main(["--store", "--db", db, *extra, str(src)]) == 2
        errors[name] = [e for e in capsys.readouterr().err.splitlines() if e.startswith("error")]
        with open_catalog(db).connect() as conn:
            stored[name] = sorted(conn.execute(text(
                "SELECT puzzle, line, max_level, canonical, n_givens, er, ep, ed, complete, lower, steps, source "
                "FROM ratings")).all())
    assert stored["workers"] == stored["serial"] and len(stored["serial"]) == 12
    assert errors["workers"] == errors["serial"] and len(errors["serial"]) == 2


def test_postgresql_copy_path_counts_new_rows_exactly(pg_server):
    from sudoku_symmetry.catalog._dml import COPY_MIN
    from sudoku_symmetry.catalog.configurations import make_row, store_configurations

    url = pg_database(pg_server, "copy")
    engine = open_catalog(url)
    rows = [make_row(format(k, "081d").replace("0", "."), source="t") for k in range(COPY_MIN + 500)]
    assert store_configurations(engine, rows[:300]) == (300, 0)  # multi-row VALUES
    mixed = rows + rows[:10]  # 300 known, 10 repeated inside the batch
    assert store_configurations(engine, mixed) == (len(rows) - 300, 310)  # COPY + INSERT ... SELECT
    with engine.connect() as conn:
        assert conn.scalar(text("SELECT count(*) FROM configurations")) == len(rows)
        assert conn.scalar(text("SELECT count(DISTINCT source) FROM configurations")) == 1
    engine.dispose()
