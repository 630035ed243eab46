"""The runner (jobs/runner.py, jobs/leases.py) and its first user, ``canon --store FILE``: resumable runs, shard leases on
SQLite and PostgreSQL (processes claiming at once never work the same shard), SIGKILL at random
moments, a closed output pipe, standard input, concurrent commands on a brand-new catalog.

Real SQLite files, a real PostgreSQL server (conftest.pg_server), real processes; no mocks.
"""
from __future__ import annotations

import io
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
import zlib
from collections import defaultdict
from contextlib import redirect_stdout
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from sudoku_symmetry.catalog.configurations import count_configurations, make_row, store_configurations
from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.jobs.leases import claim, holders, release, worker_name
from sudoku_symmetry.jobs.runner import drive, run_shard
from sudoku_symmetry.catalog.errors import ConnectionLost, LeaseLost
from sudoku_symmetry.catalog.models import utcnow
from sudoku_symmetry.catalog.runs import CHECKPOINTS, LEASES, RUNS, chunk, get_run, start_or_resume
from sudoku_symmetry.catalog.grids import load_totals
from sudoku_symmetry.commands import canon
from sudoku_symmetry.commands import enumerate as enum_cmd
from sudoku_symmetry.commands import s17_entry
from sudoku_symmetry.jobs.output import OutputError as CommandError
from sudoku_symmetry.jobs.output import OutputFile, with_output

from conftest import pg_database, read_data_lines
from test_catalog import puzzles

ROOT = Path(__file__).resolve().parent.parent
CANON = str(ROOT / "bin" / "canon")
ENV = {**os.environ, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))}


def write(conn, rows):
    return store_configurations(conn, rows)


def counting_work(n_items: int, per_chunk: int, fail_at: int | None = None):
    """Shard s holds items s*1000 .. s*1000+n_items-1; the cursor is the next item."""
    def work(shard, cursor):
        k = cursor or 0
        while k < n_items:
            if fail_at is not None and k >= fail_at:
                raise RuntimeError("the computation failed")
            nxt = min(k + per_chunk, n_items)
            yield [make_row(p) for p in puzzles(nxt - k, start=int(shard, 36) * 1000 + k)], nxt, nxt == n_items
            k = nxt
    return work


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "driver.sqlite")
    return pg_database(request.getfixturevalue("pg_server"), f"driver_{os.getpid()}")


@pytest.fixture
def engine(url):
    e = open_catalog(url)
    yield e
    e.dispose()


def _counters(engine, run_id):
    with engine.connect() as conn:
        run = conn.execute(select(RUNS.c.items_done, RUNS.c.items_new, RUNS.c.status).where(RUNS.c.id == run_id)).one()
        cps = conn.execute(select(func.sum(CHECKPOINTS.c.items_done)).where(CHECKPOINTS.c.run_id == run_id)).scalar()
        held = conn.execute(select(func.count()).select_from(LEASES).where(LEASES.c.worker_id.is_not(None))).scalar()
    return tuple(run), cps, held


# -- the driver in one process --------------------------------------------------------------------
def test_drive_every_shard_then_already_done(engine):
    run = start_or_resume(engine, "count", {"n": 10}, items_total=50)
    shards = ["0", "1", "2", "3", "4"]
    res = drive(engine, run.id, shards, counting_work(10, 3), write, progress=False)
    assert res.finished and not res.already_done and (res.items, res.new, res.known) == (50, 50, 0)
    assert [s.chunks for s in res.shards] == [4] * 5 and all(s.done for s in res.shards)
    assert _counters(engine, run.id) == ((50, 50, "done"), 50, 0)  # every lease given back
    assert count_configurations(engine) == 50
    again = drive(engine, run.id, shards, counting_work(10, 3), write, progress=False)
    assert again.already_done and again.items == 0 and not again.shards


def test_a_failure_mid_shard_resumes_without_duplicates(engine):
    run = start_or_resume(engine, "count", {"n": 10})
    with pytest.raises(RuntimeError, match="failed"):
        drive(engine, run.id, ["0", "1"], counting_work(10, 3, fail_at=7), write, progress=False)
    state = get_run(engine, run.id)
    assert state.cursor("0") == 9 and state.items_done == 9 and not state.shard_done("0")  # chunks 0-3-6-9
    assert holders(engine, run.id) == {}  # the failed worker released its lease
    res = drive(engine, run.id, ["0", "1"], counting_work(10, 3), write, progress=False)
    assert res.finished and res.items == 11
    assert _counters(engine, run.id) == ((20, 20, "done"), 20, 0)
    assert count_configurations(engine) == 20


def test_a_generator_that_just_ends_marks_its_shard_done(engine):
    run = start_or_resume(engine, "empty", {})

    def work(shard, cursor):
        yield [make_row(puzzles(1)[0])], 1, False  # never says done: the driver closes the shard

    assert drive(engine, run.id, ["a"], work, write, progress=False).finished
    assert get_run(engine, run.id).checkpoints["a"].done and get_run(engine, run.id).cursor("a") == 1


def test_output_file_holds_each_committed_chunk_once(tmp_path, monkeypatch):
    """``--out FILE`` of enumerate, s17-entry and patterns (bin/_common.with_output): a chunk
    whose commit was lost after its bytes were written (a dropped connection, retried by the
    driver) is in the file once, whether it started its shard or not; a restart cuts the file
    back to the last checkpoint, and refuses a file shorter than that."""
    monkeypatch.setenv("SUDOKU_DB_BACKOFF", "0.01")
    engine = open_catalog(str(tmp_path / "out.sqlite"))
    path = tmp_path / "out.txt"
    run = start_or_resume(engine, "out", {})
    lost = {"a1", "b0"}  # these chunks' first commits fail

    def work(shard, cursor):
        for k in range(0 if cursor is None else cursor["k"], 3):
            yield [f"{shard}{k}"], {"k": k + 1}, k == 2, 1, f"{shard}{k}\n".encode()

    def write_or_drop(conn, rows):
        if rows[0] in lost:
            lost.discard(rows[0])
            raise ConnectionLost("the server went away")
        return 0, 0

    res = drive(engine, run.id, ["a", "b"], with_output(work, OutputFile(str(path), run)), write_or_drop,
                progress=False)
    assert res.finished and not lost and get_run(engine, run.id).items_done == 6
    assert path.read_text() == "a0\na1\na2\nb0\nb1\nb2\n"
    # the file's end and the CRC-32 of what was written before it (issue 23: a changed file is detected)
    assert get_run(engine, run.id).cursor("b") == {"k": 3, "offset": 18, "crc": zlib.crc32(b"a0\na1\na2\nb0\nb1\nb2\n")}
    with open(path, "a") as fh:
        fh.write("bands2 ...\n")  # a summary after the last checkpoint
    OutputFile(str(path), get_run(engine, run.id))
    assert path.read_text() == "a0\na1\na2\nb0\nb1\nb2\n"
    path.write_text("a0\n")
    with pytest.raises(CommandError, match="shorter than the run's checkpoint"):
        OutputFile(str(path), get_run(engine, run.id))
    engine.dispose()


def test_status_lines_of_enumerate_and_s17_entry(tmp_path, capsys):
    """``--status`` (bin/_common.list_runs, shared since issue 11): the lines each command printed
    with its own listing, word for word (scripts read them)."""
    db = str(tmp_path / "status.sqlite")
    assert enum_cmd.main(["--band1", "390", "--count-only", "--db", db]) == 0
    assert s17_entry.main(["--variant", "C", "--band1-rank", "415", "--count-only", "--db", db]) == 0
    capsys.readouterr()
    engine = open_catalog(db)
    grids = load_totals(engine)[390]
    engine.dispose()
    assert enum_cmd.main(["--status", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines()[0] == \
        f"run 1: done, 1 bands 1 (count only), 1 done, 0 pending, {grids:,} grids"
    assert s17_entry.main(["--status", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "run 2: variant C, done, 1 bands 1 (count only), 1 done, 0 pending, 1,279 bands 3",
        "catalog: variant C: 1 of 416 bands 1 done, bands2 60 bands3 1,279"]


def test_leases_two_workers_never_hold_one_shard(engine):
    run = start_or_resume(engine, "lease", {})
    a, b = worker_name(), worker_name()
    assert claim(engine, run.id, "s", a) and claim(engine, run.id, "s", a)  # ours: claimed again
    assert not claim(engine, run.id, "s", b)
    assert run_shard(engine, run.id, "s", counting_work(4, 2), write, b).claimed is False
    with pytest.raises(LeaseLost):  # b cannot commit on a's shard
        with chunk(engine, run.id, "s", lease=(b, 60)) as c:
            c.advance(2, items=2)
    # a's lease expires; b takes it over; a's next chunk is refused and nothing of it is committed
    with engine.begin() as conn:
        conn.execute(update(LEASES).values(expires_at=utcnow() - timedelta(seconds=1)))
    assert claim(engine, run.id, "s", b) and not claim(engine, run.id, "s", a)
    with pytest.raises(LeaseLost, match="taken over"):
        with chunk(engine, run.id, "s", lease=(a, 60)) as c:
            store_configurations(c.conn, [make_row(p) for p in puzzles(2)])
            c.advance(2, items=2)
    assert count_configurations(engine) == 0 and get_run(engine, run.id).cursor("s") is None
    release(engine, run.id, "s", a)  # not a's any more: changes nothing
    assert holders(engine, run.id)["s"][0] == b
    # a lease held by a dead process on this host is free at once (a SIGKILLed run resumes)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    with engine.begin() as conn:
        conn.execute(update(LEASES).values(worker_id=f"{socket.gethostname()}:{dead.pid}:x",
                                           expires_at=utcnow() + timedelta(hours=1)))
    assert holders(engine, run.id) == {}
    res = run_shard(engine, run.id, "s", counting_work(4, 2), write, a)
    assert res.claimed and res.done and res.items == 4


CLAIMER = textwrap.dedent("""
    import sys, time
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.jobs.leases import worker_name
    from sudoku_symmetry.jobs.runner import drive
    from sudoku_symmetry.catalog.configurations import make_row, store_configurations
    url, run_id, log, go = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    e = open_catalog(url)
    me = worker_name()

    def work(shard, cursor):
        k = cursor or 0
        while k < 4:
            time.sleep(0.01)
            row = "".join(str((int(shard) * 4 + k) // 9 ** j % 9 + 1) for j in range(17)) + "." * 64
            yield [make_row(row)], k + 1, k == 3
            with open(log, "a") as fh:  # after the commit
                fh.write(f"{shard} {k} {me}\\n")
            k += 1

    time.sleep(max(0.0, go - time.time()))  # start together
    drive(e, run_id, [str(s) for s in range(24)], work, lambda c, r: store_configurations(c, r),
          worker_id=me, wait=False, progress=False)
""")


def test_processes_claiming_at_once_never_work_the_same_shard(engine, url, tmp_path):
    run = start_or_resume(engine, "claim-race", {}, items_total=96)
    log = tmp_path / "log.txt"
    go = time.time() + 2.0
    procs = [subprocess.Popen([sys.executable, "-c", CLAIMER, url, str(run.id), str(log), str(go)], env=ENV,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    for p in procs:
        assert p.wait(timeout=60) == 0, p.stderr.read()
    by_shard = defaultdict(list)
    for line in log.read_text().splitlines():
        shard, k, worker = line.split()
        by_shard[shard].append((int(k), worker))
    assert sorted(by_shard, key=int) == [str(s) for s in range(24)]
    for shard, chunks in by_shard.items():
        assert sorted(k for k, _ in chunks) == [0, 1, 2, 3], shard  # each chunk committed once
        assert len({w for _, w in chunks}) == 1, shard  # by one worker
    assert _counters(engine, run.id) == ((96, 96, "done"), 96, 0)
    assert count_configurations(engine) == 96


# -- canon --store FILE as a run ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    """About 107,000 lines from the shared data: the 17-clue list twice (so most rows are
    already known the second time), comments, a malformed line per copy, and two other lists."""
    clue17 = read_data_lines("17clue_49158.txt")
    lines = []
    for k in range(2):
        lines += [f"# copy {k}"] + clue17 + ["123"]
    lines += read_data_lines("sudoku3m_sample7034.txt") + read_data_lines("top1465.txt")
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, len(lines)


def _table(db: Path):
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT canonical, kind, convention, n_givens, automorphism_count, source "
                           "FROM configurations ORDER BY canonical, convention").fetchall()
        runs = con.execute("SELECT kind, status, items_done, items_new, items_total FROM runs").fetchall()
        cps = con.execute("SELECT shard, resume_cursor, items_done, done FROM run_checkpoints").fetchall()
        leases = con.execute("SELECT count(*) FROM run_leases WHERE worker_id IS NOT NULL").fetchone()[0]
    return rows, runs, cps, leases


def _checkpoint_line(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as con:
        try:
            row = con.execute("SELECT resume_cursor FROM run_checkpoints").fetchone()
        except sqlite3.OperationalError:
            return 0
    import json
    return json.loads(row[0])["line"] if row and row[0] else 0


def test_canon_store_killed_at_random_moments_ends_as_one_uninterrupted_run(big_file, tmp_path):
    path, n_lines = big_file
    ref = tmp_path / "ref.sqlite"
    err = io.StringIO()
    t0 = time.perf_counter()
    with redirect_stdout(io.StringIO()) as forms:
        old, sys.stderr = sys.stderr, err
        try:
            assert canon.main(["--store", "--chunk", "2000", "--db", str(ref), str(path)]) == 2  # 2 malformed
        finally:
            sys.stderr = old
    wall = time.perf_counter() - t0
    summary = [ln for ln in err.getvalue().splitlines() if ln.startswith("canon: read")]
    # a run that finds the file stored already describes itself: nothing new (issue 23)
    read, bad = (int(x.split()[-1]) for x in summary[0].split(", ")[:2])
    stored = [f"canon: read {read}, malformed {bad}, new 0, already known {read - bad}"]
    ref_rows, ref_runs, ref_cps, _ = _table(ref)
    assert ref_runs == [("canon-store", "done", n_lines, len(ref_rows), n_lines)]

    db = tmp_path / "killed.sqlite"
    rng = random.Random()
    seen = [0]
    for kill in range(4):
        p = subprocess.Popen([CANON, "--store", "--chunk", "2000", "--db", str(db), str(path)], env=ENV,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if kill == 0:  # anywhere in the start-up: imports, creating the catalog, hashing, the claim, chunk 1
            time.sleep(rng.uniform(0.1, 2.0))
        else:  # once the run has moved past the line reached, after a random delay
            deadline = time.monotonic() + 60
            while _checkpoint_line(db) <= seen[-1] and p.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 0.3 * wall))
        if p.poll() is not None:  # it finished first: nothing left to resume
            seen.append(_checkpoint_line(db))
            break
        p.send_signal(signal.SIGKILL)
        p.wait()
        seen.append(_checkpoint_line(db))
    final = subprocess.run([CANON, "--store", "--chunk", "2000", "--db", str(db), str(path)], env=ENV,
                           capture_output=True, text=True)
    assert final.returncode == 2, final.stderr
    finished_first = seen[-1] == n_lines  # the last run was not killed in time: the final one stores nothing
    assert [ln for ln in final.stderr.splitlines() if ln.startswith("canon: read")] == \
        (stored if finished_first else summary)
    assert final.stdout == forms.getvalue()  # every form printed, those the killed runs stored too (issue 23)
    rows, runs, cps, leases = _table(db)
    assert rows == ref_rows  # the same rows, and (unique constraint) no duplicates
    assert runs == ref_runs and leases == 0
    assert [(s, c, n, d) for s, c, n, d in cps] == ref_cps  # same final cursor, items_done counted once
    assert any(0 < line < n_lines for line in seen), seen  # some kill landed mid-run
    if 0 < seen[-1] < n_lines:
        assert f"resuming at line {seen[-1] + 1} (run 1)" in final.stderr
    again = subprocess.run([CANON, "--store", "--db", str(db), str(path)], env=ENV, capture_output=True, text=True)
    # run again on a stored file: every form printed again, the summary says nothing was new (issue 23)
    assert again.returncode == 2 and again.stdout == forms.getvalue()
    assert f"{path}: already stored (run 1); nothing new to store" in again.stderr
    assert [ln for ln in again.stderr.splitlines() if ln.startswith("canon: read")] == stored


def test_closed_output_pipe_keeps_storing_to_the_end(data_dir, tmp_path):
    db, src = tmp_path / "pipe.sqlite", data_dir / "17clue_49158.txt"
    r = subprocess.run(["sh", "-c", f'{{ "{CANON}" --store --chunk 5000 --db "{db}" "{src}"; '
                                    f'echo "canon-exit=$?" >&2; }} | head -1'],
                       env=ENV, capture_output=True, text=True, timeout=120)
    assert len(r.stdout.splitlines()) == 1 and "canon-exit=0" in r.stderr, r.stderr
    assert "standard output was closed" in r.stderr
    assert "canon: read 49158, malformed 0, new 49158, already known 0" in r.stderr
    assert "Traceback" not in r.stderr
    rows, runs, _, _ = _table(db)
    assert len(rows) == 49158 and runs[0][:3] == ("canon-store", "done", 49158)


def test_standard_input_is_stored_without_a_run(tmp_path):
    db = tmp_path / "stdin.sqlite"
    text = "\n".join(read_data_lines("top1465.txt")[:300] + ["12"]) + "\n"
    r = subprocess.run([CANON, "--store", "--chunk", "100", "--db", str(db)], input=text, env=ENV,
                       capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stdout.splitlines()) == 301
    assert "canon: read 301, malformed 1, new 300, already known 0" in r.stderr
    rows, runs, _, _ = _table(db)
    assert len(rows) == 300 and runs == [] and {row[5] for row in rows} == {"stdin"}


def test_several_canon_store_at_once_on_a_new_catalog(data_dir, tmp_path):
    """Two stores of the same file (the second waits for the first, or finds it done) and another,
    all at once on a catalog that does not exist yet."""
    db = tmp_path / "new" / "catalog.sqlite"
    files = [data_dir / "top1465.txt", data_dir / "top1465.txt", data_dir / "forum_hardest_1106.txt"]
    procs = [subprocess.Popen([CANON, "--store", "--db", str(db), str(f)], env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for f in files]
    errs = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 3, errs
    assert all("error" not in e for e in errs), errs
    # the same run's summary (the second waited for it), or, when the second found it stored, nothing new
    summaries = sorted(errs[k].splitlines()[-1] for k in (0, 1))
    assert summaries[-1].startswith("canon: read 1465, malformed 0, new 1464, already known 1")
    assert summaries[0] in (summaries[-1], "canon: read 1465, malformed 0, new 0, already known 1465")
    rows, runs, cps, leases = _table(db)
    assert sorted(r[:2] for r in runs) == [("canon-store", "done")] * 2 and leases == 0
    assert all(done == 1 for *_, done in cps)
    assert len({r[0] for r in rows}) == len(rows) == sum(r[3] for r in runs)
