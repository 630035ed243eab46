"""bin/patterns: enumeration into the catalog, a killed run resumed to the same rows and a
byte-identical file, Burnside counts, canonical forms of lines, clear errors."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

from sqlalchemy import text

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.patterns import count_patterns
from sudoku_symmetry.commands import patterns as cmd
from sudoku_symmetry.engine.patterns import burnside

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}


def test_enumerate_prints_and_stores(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    assert cmd.main(["--cells", "4", "--db", db]) == 0
    cap = capsys.readouterr()
    lines = cap.out.splitlines()
    assert len(lines) == 109 == len(set(lines)) and "109 ED patterns with 4 cells" in cap.err
    assert all(len(x) == 81 and x.count("x") == 4 for x in lines)
    assert cmd.main(["--cells", "3", "--digits", "--count-only", "--db", db]) == 0
    assert capsys.readouterr().out == "43\n"
    engine = open_catalog(db)
    assert count_patterns(engine, digits=False, n_givens=4) == 109
    assert count_patterns(engine, digits=True, n_givens=3) == 43
    with engine.connect() as conn:  # the README's query
        rows = conn.execute(text("SELECT n_givens, count(*) FROM configurations WHERE kind = 'pattern' "
                                 "AND convention = 'box_first' GROUP BY n_givens")).all()
        orbit = conn.execute(text("SELECT sum(3359232 / automorphism_count) FROM configurations "
                                  "WHERE kind = 'pattern' AND n_givens = 4")).scalar()
    assert rows == [(4, 109)] and orbit == 1663740  # C(81, 4)
    # again (stdout: a new run): deduplicated, nothing new
    assert cmd.main(["--cells", "4", "--db", db]) == 0
    capsys.readouterr()
    assert count_patterns(engine, digits=False) == 109


def test_count_only_says_what_it_stored_and_no_store_stores_nothing(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    assert cmd.main(["--cells", "5", "--count-only", "--db", db]) == 0
    cap = capsys.readouterr()
    assert cap.out == "548\n"
    assert "548 ED patterns with 5 cells; 548 rows stored in the catalog, 548 of them new" in cap.err
    assert cmd.main(["--cells", "4", "--count-only", "--no-store", "--db", db]) == 0
    cap = capsys.readouterr()
    assert cap.out == "109\n" and "none stored (--no-store)" in cap.err
    engine = open_catalog(db)
    assert count_patterns(engine, digits=False, n_givens=5) == 548
    assert count_patterns(engine, digits=False, n_givens=4) == 0
    assert cmd.main(["--cells", "4", "--no-store", "--db", db]) == 0  # the forms printed, none stored
    assert len(capsys.readouterr().out.splitlines()) == 109
    assert count_patterns(engine, digits=False) == 548
    assert cmd.main(["--no-store"]) == 2
    assert "go with --cells N" in capsys.readouterr().err


def test_burnside_and_canonical_lines(tmp_path, capsys):
    assert cmd.main(["--burnside", "--cells", "all"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 82 and out[:5] == ["0 1", "1 1", "2 5", "3 21", "4 109"]
    assert out[10] == f"10 {burnside.pattern_count(10)}"
    src = tmp_path / "in.txt"
    a = "." * 40 + "x" + "." * 40
    b = "." * 80 + "7"
    src.write_text(f"# comment\n{a}\nxx\n{b}\n{'11' + '.' * 79}\n")
    assert cmd.main([str(src)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out == ["x" + "." * 80 + " 41472", "error line 3: expected 81 characters, got 2",
                   "1" + "." * 80 + " 1672151040", "error line 5: two equal digits share a row, column or box"]


def test_bad_arguments(capsys):
    for args, why in [(["--cells", "82"], "between 0 and 81"), (["--cells", "-1"], "between 0 and 81"),
                      (["--cells", "x"], "expected a number"), (["--cells", "all"], "only with --burnside"),
                      (["--burnside"], "needs --cells"), (["--burnside", "--digits", "--cells", "3"], "not available"),
                      (["--digits"], "go with --cells"),
                      (["--cells", "3", "--count-only", "--out", "f"], "exclude each other")]:
        try:
            status = cmd.main(args)
        except SystemExit as exc:  # argparse's own errors
            status = exc.code
        assert status == 2, args
        assert why in capsys.readouterr().err


def _run(args, kill_at=None, out=None):
    """Run the command; with ``kill_at``, SIGKILL it once ``out`` has grown past that many bytes
    (so the kill lands in the middle of the run). True when it was killed before finishing."""
    p = subprocess.Popen([str(ROOT / "bin" / "patterns")] + args, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if kill_at is None:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()
        return False
    deadline = time.time() + 300
    while p.poll() is None and time.time() < deadline:
        if out.exists() and out.stat().st_size > kill_at:
            p.send_signal(signal.SIGKILL)
            break
        time.sleep(0.02)
    p.communicate()
    return p.returncode == -signal.SIGKILL


def test_killed_run_resumes_to_identical_rows_and_file(tmp_path):
    args = ["--cells", "7", "--chunk", "500"]
    ref_db, ref_out = tmp_path / "ref.sqlite", tmp_path / "ref.txt"
    _run(args + ["--out", str(ref_out), "--db", str(ref_db)])
    db, out = tmp_path / "k.sqlite", tmp_path / "k.txt"
    size = ref_out.stat().st_size
    rng = random.Random(4)
    killed = 0
    for frac in sorted(rng.uniform(0.1, 0.9) for _ in range(3)):
        killed += _run(args + ["--out", str(out), "--db", str(db)], kill_at=int(frac * size), out=out)
    assert killed >= 1
    _run(args + ["--out", str(out), "--db", str(db)])
    assert out.read_bytes() == ref_out.read_bytes()
    assert len(ref_out.read_text().splitlines()) == burnside.pattern_count(7)
    q = "SELECT canonical, automorphism_count FROM configurations ORDER BY canonical"
    with open_catalog(str(ref_db)).connect() as a, open_catalog(str(db)).connect() as b:
        assert a.execute(text(q)).all() == b.execute(text(q)).all()
        runs = "SELECT items_done, items_new, status FROM runs"
        assert a.execute(text(runs)).all() == b.execute(text(runs)).all() == [(16847, 16847, "done")]


def test_postgresql_catalog(pg_server, capsys):
    """Migration 0007 on PostgreSQL: the new kinds, and 64-bit automorphism counts (a
    configuration's count includes relabelings: 3,359,232 x 9! for the empty one)."""
    from conftest import pg_database

    url = pg_database(pg_server, f"patterns_{os.getpid()}")
    assert cmd.main(["--cells", "0", "--digits", "--count-only", "--db", url]) == 0
    assert cmd.main(["--cells", "3", "--count-only", "--db", url]) == 0
    assert capsys.readouterr().out == "1\n21\n"
    engine = open_catalog(url)
    with engine.connect() as conn:
        got = conn.execute(text("SELECT kind, n_givens, automorphism_count FROM configurations "
                                "WHERE n_givens = 0")).all()
    assert got == [("configuration", 0, 3359232 * 362880)]
    assert count_patterns(engine, digits=False, n_givens=3) == 21
    engine.dispose()


def test_migration_0007_down_and_up(tmp_path):
    """Downgrading to 0004 drops the pattern rows and restores the old constraints; opening the
    catalog again upgrades it back."""
    from alembic import command

    from sudoku_symmetry.catalog import db as catdb

    url = catdb.resolve_url(str(tmp_path / "m.sqlite"))
    assert cmd.main(["--cells", "2", "--count-only", "--db", url]) == 0
    engine = open_catalog(url)
    cfg = catdb._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    assert catdb.current_revision(engine) == "0004"
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM configurations")).scalar() == 0
    engine.dispose()
    engine = open_catalog(url)
    assert catdb.current_revision(engine) == catdb.HEAD_REVISION
    assert cmd.main(["--cells", "2", "--db", url]) == 0
    assert count_patterns(engine, digits=False) == 5
