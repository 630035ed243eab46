"""`populate`: creates/upgrades the catalog, fills the band tables, and a second run changes nothing.

Facts are checked with plain SQL (the sqlite3 module), as a user would. PostgreSQL: when a
server binary is installed (/usr/lib/postgresql/*/bin/pg_ctl), a throwaway server on a loopback
port runs the migrations (Alembic's SQL for the postgresql dialect, through psql) and the
populate inserts; with a Python driver installed as well, the whole `populate` runs against it.
"""
from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from sudoku_symmetry.catalog.db import HEAD_REVISION
from sudoku_symmetry.engine.group.transform import Transform
from sudoku_symmetry.commands import populate

from conftest import _pg_driver, _psql

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))}
BAND0 = "123456789456789123789123456"


@pytest.fixture(scope="module")
def populated(tmp_path_factory):
    path = tmp_path_factory.mktemp("pop") / "catalog.sqlite"
    buf = io.StringIO()
    from contextlib import redirect_stdout
    with redirect_stdout(buf):
        assert populate.main(["--db", str(path)]) == 0
    first = buf.getvalue()
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert populate.main(["--db", str(path)]) == 0
    return path, first, buf.getvalue()


def test_first_run_fills_second_run_changes_nothing(populated):
    path, first, second = populated
    assert f"catalog: {path} (created at revision {HEAD_REVISION})" in first
    assert "bands: 416 (416 new), gangster classes: 44, sum of 1/|Aut|: 336" in first
    assert "band automorphisms: 935 (935 new)" in first
    assert "catalog: " in second and "up to date" in second
    assert "bands: 416 (0 new)" in second and "band automorphisms: 935 (0 new)" in second
    assert "nothing changed" in second


def test_shipped_17_clue_entry_counts_in_plain_sql(populated):
    from sudoku_symmetry.catalog.search17 import load_shipped_entry

    path, first, second = populated
    shipped = load_shipped_entry()["A"]
    n = len(shipped)
    assert f"17-clue entry counts, variant A: {n} of 416 bands 1 ({n} new), bands2 " in first
    assert f"17-clue entry counts, variant A: {n} of 416 bands 1 (0 new)" in second
    con = sqlite3.connect(path)
    got = con.execute("SELECT count(*), sum(bands2), sum(bands3) FROM s17_entry_bands WHERE variant = 'A'").fetchone()
    assert got == (n, sum(x[1] for x in shipped.values()), sum(x[2] for x in shipped.values()))
    # rank 0 of the search order is band 223 (the published entry's first band 1)
    assert con.execute("SELECT e.band1, b.s17_rank FROM s17_entry_bands e JOIN bands b ON b.band_index = e.band1 "
                       "WHERE e.variant = 'A' AND e.band1_rank = 0").fetchone() == (223, 0)


def test_band_facts_in_plain_sql(populated):
    con = sqlite3.connect(populated[0])
    assert con.execute("SELECT count(*), count(DISTINCT gangster_class), min(band_index), max(band_index) "
                       "FROM bands").fetchone() == (416, 44, 0, 415)
    assert con.execute("SELECT minlex, automorphism_count, class_size FROM bands WHERE band_index = 0").fetchone() \
        == (BAND0, 108, 72)
    auts = [a for (a,) in con.execute("SELECT automorphism_count FROM bands ORDER BY band_index")]
    assert sum(Fraction(1, a) for a in auts) == 336
    assert con.execute("SELECT sum(class_size) FROM bands").fetchone() == (2_612_736,)
    assert con.execute("SELECT (SELECT count(*) FROM band_automorphisms), sum(automorphism_count) "
                       "FROM bands").fetchone() == (935, 935)
    # per band too, and the minlex strings are in index order, all starting 12345678945
    assert con.execute("SELECT count(*) FROM bands b WHERE automorphism_count != "
                       "(SELECT count(*) FROM band_automorphisms a WHERE a.band_index = b.band_index)").fetchone() == (0,)
    minlex = [m for (m,) in con.execute("SELECT minlex FROM bands ORDER BY band_index")]
    assert minlex == sorted(minlex) and all(m.startswith("12345678945") for m in minlex)


def test_stored_automorphisms_fix_their_band(populated):
    con = sqlite3.connect(populated[0])
    rows = con.execute("SELECT b.minlex, a.transformation FROM band_automorphisms a JOIN bands b USING (band_index) "
                       "WHERE b.band_index IN (0, 1, 207, 415) ORDER BY a.band_index, a.ordinal").fetchall()
    assert rows[0] == (BAND0, "0:123456789:123456789:123456789")
    for minlex, t in rows:
        band = [int(ch) for ch in minlex]
        assert "".join(map(str, Transform.parse(t).apply_band(band))) == minlex


def test_upgrade_from_revision_0001_is_reported(tmp_path, capsys):
    from sudoku_symmetry.catalog.db import create_catalog_engine, resolve_url, upgrade
    e = create_catalog_engine(resolve_url(str(tmp_path / "old.sqlite")))
    upgrade(e, "0001")
    e.dispose()
    assert populate.main(["--db", str(tmp_path / "old.sqlite")]) == 0
    assert f"upgraded from revision 0001 to {HEAD_REVISION}" in capsys.readouterr().out


def test_env_var_and_another_working_directory(tmp_path):
    target = tmp_path / "env" / "cat.sqlite"
    work = tmp_path / "elsewhere"
    work.mkdir()
    r = subprocess.run([str(ROOT / "bin" / "populate"), "--step", "bands"], cwd=work, capture_output=True,
                       text=True, env={**ENV, "SUDOKU_CATALOG": str(target)})
    assert r.returncode == 0, r.stderr
    assert f"catalog: {target} (created" in r.stdout and target.exists()


def test_default_location(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SUDOKU_CATALOG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert populate.main([]) == 0
    where = tmp_path / "xdg" / "sudoku-symmetry" / "catalog.sqlite"
    assert f"catalog: {where}" in capsys.readouterr().out and where.exists()


def test_help_and_steps(capsys):
    with pytest.raises(SystemExit) as exc:
        populate.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--db" in out and "bands" in out
    assert populate.main(["--list-steps"]) == 0
    assert capsys.readouterr().out.startswith("bands: ")


def test_sudoku_entry_point_dispatches(tmp_path):
    r = subprocess.run([sys.executable, "-m", "sudoku_symmetry.commands.main", "populate", "--help"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV)
    assert r.returncode == 0 and "usage: populate" in r.stdout


# -- PostgreSQL (the throwaway server fixture is in conftest.py) -----------------------------
def test_postgresql_migrations_and_populate_inserts(pg_server):
    """No Python driver needed: Alembic writes the PostgreSQL SQL, psql runs it."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy.dialects import postgresql

    from sudoku_symmetry import migrations
    from sudoku_symmetry.catalog._dml import insert_new_statement
    from sudoku_symmetry.catalog.bands import AUTOMORPHISMS, BANDS
    from sudoku_symmetry.engine.bands.tables import band_tables
    from sudoku_symmetry.catalog.bands import automorphism_rows, band_row

    _psql(pg_server, "DROP DATABASE IF EXISTS offline; CREATE DATABASE offline;")
    cfg = Config(output_buffer=io.StringIO())
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    cfg.set_main_option("sqlalchemy.url", "postgresql://")
    command.upgrade(cfg, "head", sql=True)
    _psql(pg_server, "\\c offline\n" + cfg.output_buffer.getvalue())
    tables = _psql(pg_server, "\\c offline\nSELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                              "WHERE schemaname = 'public';")
    # the offline SQL makes exactly the models' tables (a migration forgotten or a model without one fails)
    from sudoku_symmetry.catalog.models import Base

    assert tables == ",".join(sorted(["alembic_version", *Base.metadata.tables]))
    assert {"bands", "configurations", "runs", "s17_entry_bands", "s17_search_finds", "grid_searches"} < set(tables.split(","))

    T = band_tables()
    bands = [band_row(i, T.minlex_string(i), int(T.automorphism_count[i]), int(T.gangster_class[i])) for i in range(416)]
    auts = [r for i in range(416) for r in automorphism_rows(i, map(str, T.automorphisms(i)))]
    dialect = postgresql.dialect()
    sql = "\\c offline\n"
    for table, rows, key in ((BANDS, bands, ["band_index"]), (AUTOMORPHISMS, auts, ["band_index", "ordinal"])):
        stmt = insert_new_statement("postgresql", table, key).values(rows)
        sql += f"{stmt.compile(dialect=dialect, compile_kwargs={'literal_binds': True})};\n"
    assert _psql(pg_server, sql).count("\n") + 1 == 416 + 935  # RETURNING: every row was new
    assert _psql(pg_server, sql) == ""  # the second time: nothing new
    facts = _psql(pg_server, "\\c offline\nSELECT count(*), count(DISTINCT gangster_class), sum(class_size), "
                             "(SELECT count(*) FROM band_automorphisms) FROM bands;")
    assert facts == "416|44|2612736|935"


def test_postgresql_full_populate(pg_server, capsys):
    scheme = _pg_driver()
    if scheme is None:
        pytest.skip("no PostgreSQL driver for Python (pip install 'sudoku-symmetry[postgres]')")
    _psql(pg_server, "DROP DATABASE IF EXISTS online; CREATE DATABASE online;")
    url = f"{scheme}://postgres@127.0.0.1:{pg_server[1]}/online"
    assert populate.main(["--db", url]) == 0
    assert "bands: 416 (416 new)" in capsys.readouterr().out
    assert populate.main(["--db", url]) == 0
    assert "nothing changed" in capsys.readouterr().out
    from sudoku_symmetry.catalog.configurations import make_row, store_configurations
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.runs import commit_chunk, get_run, start_or_resume
    e = open_catalog(url)
    run = start_or_resume(e, "pg", {})
    rows = [make_row("1" * 17 + "." * 64), make_row("2" * 17 + "." * 64)]
    assert commit_chunk(e, run.id, "s", 2, items=2, write=lambda c: store_configurations(c, rows)) == (2, 0)
    assert commit_chunk(e, run.id, "s", 4, items=2, write=lambda c: store_configurations(c, rows)) == (0, 2)
    assert get_run(e, run.id).checkpoints["s"].items_done == 4
    e.dispose()


def test_another_applications_database_needs_adopt(tmp_path, capsys):
    path = tmp_path / "app.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        con.execute("INSERT INTO notes (body) VALUES ('keep me')")
    assert populate.main(["--db", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("populate: error: ") and "--adopt" in err[0]
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == [("notes",)]
    assert populate.main(["--db", str(path), "--adopt"]) == 0
    assert "bands: 416 (416 new)" in capsys.readouterr().out
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT body FROM notes").fetchall() == [("keep me",)]


def test_postgresql_catalog_created_by_several_processes_at_once(pg_server, tmp_path):
    """The migration takes an advisory lock: concurrent opens of a new database all succeed."""
    from conftest import pg_database

    url = pg_database(pg_server, "concurrent")
    code = ("import sys\nfrom sudoku_symmetry.catalog.db import open_catalog\n"
            "from sudoku_symmetry.catalog.runs import start_or_resume\n"
            "print(start_or_resume(open_catalog(sys.argv[1]), 'same', {}).id)")
    procs = [subprocess.Popen([sys.executable, "-c", code, url], env=ENV, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _, e in outs]
    assert {o.strip() for o, _ in outs} == {"1"}
    assert _psql(pg_server, "\\c concurrent\nSELECT version_num FROM alembic_version;") == HEAD_REVISION
