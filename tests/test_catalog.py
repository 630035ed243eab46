"""The catalog layer: migrations, fast open, URL resolution, deduplicated writes, resumable runs.

Real SQLite files in tmp_path, no mocks. PostgreSQL: see tests/test_populate.py.
"""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.orm import Session

from sudoku_symmetry.catalog import db as catdb
from sudoku_symmetry.catalog.configurations import count_configurations, known_canonicals, make_row, store_configurations
from sudoku_symmetry.catalog.db import HEAD_REVISION, CatalogError, current_revision, migrated_from, open_catalog, resolve_url
from sudoku_symmetry.catalog.models import Base
from sudoku_symmetry.catalog.runs import (chunk, commit_chunk, finish_run, get_run, pending_shards, start_or_resume)

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))}
PUZZLE17 = "...........1..2.3....4.5...5.6...7...8..1...4.....2..9.1.........3......6..8....."


@pytest.fixture
def engine(tmp_path):
    e = open_catalog(str(tmp_path / "cat.sqlite"))
    yield e
    e.dispose()


def puzzles(n, start=0):
    """n distinct 81-character strings with 17 givens (not real puzzles; the catalog does not care)."""
    out = []
    for k in range(start, start + n):
        cells = ["."] * 81
        for j in range(17):  # k in base 9, digits 1-9
            cells[j * 4] = str(k % 9 + 1)
            k //= 9
        out.append("".join(cells))
    return out


# -- migrations ------------------------------------------------------------------------
def test_migrations_from_empty_create_every_table(engine):
    tables = set(inspect(engine).get_table_names())
    assert {"bands", "band_automorphisms", "runs", "run_checkpoints", "configurations", "alembic_version"} <= tables
    assert current_revision(engine) == HEAD_REVISION
    assert migrated_from(engine) is None


def test_head_constant_is_alembics_head():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from sudoku_symmetry import migrations

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD_REVISION


def test_models_match_migrations(engine):
    """Autogenerate finds nothing to do: catalog/models.py mirrors the migrations."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_constraint_names_follow_the_convention(engine):
    insp = inspect(engine)
    assert insp.get_unique_constraints("band_automorphisms")[0]["name"] == "uq_band_automorphisms_band_index_transformation"
    assert {c["name"] for c in insp.get_check_constraints("configurations")} == {
        "ck_configurations_kind", "ck_configurations_convention"}
    assert insp.get_foreign_keys("run_checkpoints")[0]["name"] == "fk_run_checkpoints_run_id_runs"


def test_upgrade_from_an_older_revision(tmp_path):
    url = resolve_url(str(tmp_path / "old.sqlite"))
    e = catdb.create_catalog_engine(url)
    catdb.upgrade(e, "0001")
    assert current_revision(e) == "0001"
    assert "configurations" not in inspect(e).get_table_names()
    e.dispose()
    e = open_catalog(url)
    assert migrated_from(e) == "0001" and current_revision(e) == HEAD_REVISION
    assert "configurations" in inspect(e).get_table_names()
    e.dispose()


def test_a_catalog_newer_than_the_code_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    open_catalog(str(path)).dispose()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(CatalogError, match="9999"):
        open_catalog(str(path))


def test_open_up_to_date_catalog_does_not_import_alembic(tmp_path):
    path = tmp_path / "fast.sqlite"
    open_catalog(str(path)).dispose()
    code = textwrap.dedent(f"""
        import sys, time
        from sudoku_symmetry.catalog.db import open_catalog, migrated_from
        t = time.perf_counter()
        e = open_catalog({str(path)!r})
        dt = time.perf_counter() - t
        print(migrated_from(e), 'alembic' in sys.modules, 'engine' in sys.modules, round(dt * 1000, 1))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, cwd=tmp_path,
                         check=True).stdout.split()
    assert out[:3] == [HEAD_REVISION, "False", "False"]  # no Alembic, and the catalog never imports the engine


def test_sqlite_connections_use_wal_and_normal_sync(engine):
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


# -- where the catalog is ----------------------------------------------------------------
def test_resolution_db_then_env_then_default(tmp_path, monkeypatch):
    monkeypatch.delenv("SUDOKU_CATALOG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert resolve_url(None) == f"sqlite:///{tmp_path}/xdg/sudoku-symmetry/catalog.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert resolve_url(None) == f"sqlite:///{tmp_path}/home/.local/share/sudoku-symmetry/catalog.sqlite"
    monkeypatch.setenv("SUDOKU_CATALOG", str(tmp_path / "env.sqlite"))
    assert resolve_url(None) == f"sqlite:///{tmp_path}/env.sqlite"
    assert resolve_url(str(tmp_path / "opt.sqlite")) == f"sqlite:///{tmp_path}/opt.sqlite"
    assert resolve_url("postgresql+psycopg://u:pw@host/db") == "postgresql+psycopg://u:pw@host/db"
    assert catdb.describe("postgresql+psycopg://u:pw@host/db") == "postgresql+psycopg://u:***@host/db"
    monkeypatch.chdir(tmp_path)
    assert resolve_url("rel.sqlite") == f"sqlite:///{tmp_path}/rel.sqlite"  # relative paths are made absolute


def test_default_location_is_created(tmp_path, monkeypatch):
    monkeypatch.delenv("SUDOKU_CATALOG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    open_catalog().dispose()
    assert (tmp_path / "xdg" / "sudoku-symmetry" / "catalog.sqlite").exists()


# -- configurations ---------------------------------------------------------------------------
def test_store_configurations_deduplicates(engine):
    rows = [make_row(p, automorphism_count=1) for p in puzzles(2500)]
    assert store_configurations(engine, rows, source="t") == (2500, 0)
    assert store_configurations(engine, rows, source="t") == (0, 2500)
    more = [make_row(p) for p in puzzles(10, start=2495)]  # 5 known, 5 new
    assert store_configurations(engine, more) == (5, 5)
    assert count_configurations(engine, kind="puzzle", n_givens=17) == 2505


def test_duplicates_inside_one_call_count_once(engine):
    p = puzzles(3)
    assert store_configurations(engine, [{"canonical": s} for s in p + p[:2]]) == (3, 2)


def test_same_form_under_two_conventions_are_two_rows(engine):
    assert store_configurations(engine, [make_row(PUZZLE17), make_row(PUZZLE17, convention="pattern_first")]) == (2, 0)


def test_store_in_the_callers_transaction(engine):
    with Session(engine) as s:
        assert store_configurations(s, [make_row(PUZZLE17)]) == (1, 0)
        s.rollback()
    assert count_configurations(engine) == 0
    with engine.begin() as conn:
        store_configurations(conn, [make_row(PUZZLE17)])
    assert known_canonicals(engine, [PUZZLE17, "." * 81]) == {PUZZLE17}


def test_bad_rows_are_refused(engine):
    with pytest.raises(ValueError):
        store_configurations(engine, [{"canonical": "123"}])
    with pytest.raises(ValueError):
        store_configurations(engine, [{"canonical": PUZZLE17, "kind": "band"}])


def test_users_answer_in_plain_sql_from_the_index(engine, tmp_path):
    rows = [make_row(p, automorphism_count=1 + (k % 7 == 0), source="sample") for k, p in enumerate(puzzles(70))]
    rows.append(make_row("1" * 81, automorphism_count=648))  # kind 'grid'
    store_configurations(engine, rows)
    with sqlite3.connect(tmp_path / "cat.sqlite") as con:
        q17 = "SELECT count(*) FROM configurations WHERE kind = 'puzzle' AND n_givens = 17"
        assert con.execute(q17).fetchone() == (70,)
        qaut = q17 + " AND automorphism_count > 1"
        assert con.execute(qaut).fetchone() == (10,)
        plan = " ".join(r[-1] for r in con.execute("EXPLAIN QUERY PLAN " + qaut))
        assert "ix_configurations_kind_n_givens_automorphism_count" in plan
        assert con.execute("SELECT source, kind FROM configurations WHERE n_givens = 81").fetchone() == (None, "grid")


# -- runs and checkpoints ------------------------------------------------------------------------
def test_start_or_resume(engine):
    r = start_or_resume(engine, "ed_grids", {"band1": 0, "order": "minlex"}, items_total=10)
    assert not r.resumed and r.status == "running" and r.cursor("s") is None
    again = start_or_resume(engine, "ed_grids", {"order": "minlex", "band1": 0})  # same parameters, any key order
    assert again.resumed and again.id == r.id and again.items_total == 10
    other = start_or_resume(engine, "ed_grids", {"band1": 1})
    assert other.id != r.id
    finish_run(engine, r.id, "failed")
    assert start_or_resume(engine, "ed_grids", {"band1": 0, "order": "minlex"}).status == "running"
    finish_run(engine, r.id)
    done = start_or_resume(engine, "ed_grids", {"band1": 0, "order": "minlex"})
    assert done.status == "done" and done.id == r.id
    assert start_or_resume(engine, "ed_grids", {"band1": 0, "order": "minlex"}, restart=True).id != r.id


def test_chunk_and_checkpoint_commit_together(engine):
    run = start_or_resume(engine, "scan", {"file": "x"})
    p = puzzles(30)
    with chunk(engine, run.id, "file-x") as c:
        new, known = store_configurations(c.conn, [make_row(s) for s in p[:10]])
        c.advance({"line": 10}, items=10, new=new)
    commit_chunk(engine, run.id, "file-x", {"line": 20}, items=10,
                 write=lambda conn: store_configurations(conn, [make_row(s) for s in p[5:20]]))
    state = get_run(engine, run.id)
    assert state.cursor("file-x") == {"line": 20}
    assert state.checkpoints["file-x"].items_done == 20 and (state.items_done, state.items_new) == (20, 20)
    assert count_configurations(engine) == 20

    # a failure in the middle of the next chunk: its rows AND its checkpoint are rolled back
    with pytest.raises(ZeroDivisionError):
        with chunk(engine, run.id, "file-x") as c:
            store_configurations(c.conn, [make_row(s) for s in p[20:30]])
            c.advance({"line": 30}, items=10, new=10)
            1 / 0
    state = get_run(engine, run.id)
    assert state.cursor("file-x") == {"line": 20} and state.items_done == 20
    assert count_configurations(engine) == 20

    # a chunk that forgets its checkpoint is rolled back too
    with pytest.raises(RuntimeError, match="advance"):
        with chunk(engine, run.id, "file-x") as c:
            store_configurations(c.conn, [make_row(s) for s in p[20:30]])
    assert count_configurations(engine) == 20

    commit_chunk(engine, run.id, "file-x", {"line": 30}, items=10, done=True,
                 write=lambda conn: store_configurations(conn, [make_row(s) for s in p[20:30]]))
    assert pending_shards(engine, run.id, ["file-x", "file-y"]) == ["file-y"]
    assert count_configurations(engine) == 30


def test_a_killed_process_loses_nothing_and_duplicates_nothing(tmp_path):
    """A real kill (os._exit) after a chunk's rows are written but before its commit."""
    path = tmp_path / "kill.sqlite"
    code = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_catalog import puzzles
        from sudoku_symmetry.catalog.db import open_catalog
        from sudoku_symmetry.catalog.configurations import make_row, store_configurations
        from sudoku_symmetry.catalog.runs import start_or_resume, chunk
        e = open_catalog({str(path)!r})
        run = start_or_resume(e, "kill-test", {{}})
        start = run.cursor("only") or 0
        p = puzzles(100)
        for k in range(start, 100, 25):
            with chunk(e, run.id, "only") as c:
                new, _ = store_configurations(c.conn, [make_row(s) for s in p[k:k + 25]])
                c.advance(k + 25, items=25, new=new, done=k + 25 == 100)
                if k == 50 and "--kill" in sys.argv:
                    os._exit(9)
        print("finished")
    """)
    r = subprocess.run([sys.executable, "-c", code, "--kill"], env=ENV, capture_output=True, text=True)
    assert r.returncode == 9, r.stderr
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM configurations").fetchone() == (50,)
        assert con.execute("SELECT resume_cursor, items_done, done FROM run_checkpoints").fetchall() == [("50", 50, 0)]
    r = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True)
    assert r.stdout.strip() == "finished", r.stderr
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM configurations").fetchone() == (100,)
        assert con.execute("SELECT items_done, items_new FROM runs").fetchone() == (100, 100)
        assert con.execute("SELECT resume_cursor, done FROM run_checkpoints").fetchone() == ("100", 1)


# -- faults: one-line CatalogErrors, concurrency, other applications' databases ---------------------
def test_several_processes_create_one_new_catalog_at_once(tmp_path):
    path = tmp_path / "new" / "cat.sqlite"
    code = textwrap.dedent(f"""
        import sys
        import time
        from sudoku_symmetry.catalog.db import open_catalog
        from sudoku_symmetry.catalog.runs import start_or_resume
        time.sleep(max(0.0, {time.time() + 1.0} - time.time()))  # start together
        t0 = time.time()
        try:
            e = open_catalog({str(path)!r})
            print(start_or_resume(e, "same", {{"k": 1}}).id)
        except BaseException:  # how long it waited, for the assertion's message (a rare CI failure)
            print(f"failed after {{time.time() - t0:.1f}} s", file=sys.stderr)
            raise
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(6)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [e for _, e in outs]
    assert {o.strip() for o, _ in outs} == {"1"}  # one run, found by all
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD_REVISION,)]
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (1,)


def test_another_applications_database_is_refused_unless_adopted(tmp_path):
    path = tmp_path / "app.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        con.execute("INSERT INTO users (name) VALUES ('ada')")
    with pytest.raises(CatalogError, match=r"is not a sudoku catalog \(it has 1 other tables: users"):
        open_catalog(str(path))
    with sqlite3.connect(path) as con:  # untouched
        assert con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == [("users",)]
    open_catalog(str(path), adopt=True).dispose()
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT name FROM users").fetchall() == [("ada",)]
        assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD_REVISION,)
    open_catalog(str(path)).dispose()  # a catalog now: no adopt needed


def _fault(tmp_path, kind: str) -> str:
    """A --db value that cannot be used, of each kind."""
    if kind == "unknown scheme":
        return "foo://x"
    if kind == "unparsable URL":
        return "postgresql+psycopg://user@host:notaport/db"
    if kind == "not a database":
        (tmp_path / "junk.sqlite").write_bytes(b"this is not an SQLite file, it is text\n" * 200)
        return str(tmp_path / "junk.sqlite")
    if kind == "folder cannot be created":
        (tmp_path / "afile").write_text("x")
        return str(tmp_path / "afile" / "sub" / "cat.sqlite")
    if kind == "read-only":  # a read-only connection to an empty file: the migration must write
        (tmp_path / "ro.sqlite").touch()
        return f"sqlite:///file:{tmp_path / 'ro.sqlite'}?mode=ro&uri=true"
    if kind == "newer than the code":
        open_catalog(str(tmp_path / "newer.sqlite")).dispose()
        with sqlite3.connect(tmp_path / "newer.sqlite") as con:
            con.execute("UPDATE alembic_version SET version_num = '9999'")
        return str(tmp_path / "newer.sqlite")
    if kind == "server unreachable":
        return "postgresql+psycopg://postgres@127.0.0.1:1/catalog"
    raise AssertionError(kind)


FAULTS = {
    "unknown scheme": "unknown catalog URL scheme 'foo'",
    "unparsable URL": "cannot parse the catalog URL",
    "not a database": "is not an SQLite database",
    "folder cannot be created": "cannot create the catalog folder",
    "read-only": "is read-only",
    "newer than the code": "at revision '9999', which this code does not know",
    "server unreachable": "cannot use the catalog postgresql+psycopg://postgres@127.0.0.1:1/catalog",
}


@pytest.mark.parametrize("kind", list(FAULTS))
def test_faults_are_one_line_catalog_errors(tmp_path, kind):
    with pytest.raises(CatalogError) as exc:
        open_catalog(_fault(tmp_path, kind))
    message = str(exc.value)
    assert FAULTS[kind] in message and "\n" not in message and "SELECT" not in message


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files (the URI mode=ro case covers it)")
def test_a_read_only_catalog_file(tmp_path):
    path = tmp_path / "ro" / "cat.sqlite"
    open_catalog(str(path)).dispose()
    path.chmod(0o444)
    path.parent.chmod(0o555)
    try:
        with pytest.raises(CatalogError, match="read-only|cannot open"):
            e = open_catalog(str(path))
            store_configurations(e, [make_row(PUZZLE17)])
    finally:
        path.parent.chmod(0o755)
