"""``bin/browse`` as a visitor and an operator meet it: a real Datasette server and real HTTP
requests. Without ``--allow-sql`` a visitor reads the tables and the named queries, not their own
SQL; with it, a query is bounded in time, rows and the size of each value (``randomblob`` of a
gigabyte is an error at once); the pages that show the catalog's path are not served; a file
that is not a catalog is refused before anything is served; ``kill -TERM`` stops the server and
leaves no process and no temporary folder behind."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

pytest.importorskip("datasette")


def _start(db: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen([str(ROOT / "bin" / "browse"), "--db", str(db), "--port", "0", *extra], env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    assert line.startswith(f"browse: serving {db} on http://127.0.0.1:"), line + (p.stderr.read() if p.poll() else "")
    base = line.split(" on ", 1)[1].split("/:", 1)[0] + "/"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(base + "-/versions.json", timeout=5).read()
            return p, base
        except OSError:
            assert time.monotonic() < deadline and p.poll() is None, "the server did not answer"
            time.sleep(0.2)


def _get(url: str) -> tuple[int, bytes, float]:
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.read(), time.monotonic() - t0
    except urllib.error.HTTPError as e:
        return e.code, e.read(), time.monotonic() - t0


def _sql(base: str, db: str, sql: str):
    return _get(f"{base}{db}.json?" + urllib.parse.urlencode({"sql": sql, "_shape": "array"}))


def _stop(p: subprocess.Popen, port: int, before_tmp: set[str]) -> None:
    """SIGTERM: the process ends at once, the port is free, no child and no temporary folder."""
    import psutil

    children = psutil.Process(p.pid).children(recursive=True)
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=20)
    assert p.returncode in (0, -signal.SIGTERM, 128 + signal.SIGTERM), p.returncode
    assert not any(c.is_running() and c.status() != psutil.STATUS_ZOMBIE for c in children)
    import socket

    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0  # nothing listens any more
    assert not [n for n in set(os.listdir(tempfile.gettempdir())) - before_tmp if n.startswith("sudoku-browse")]


def test_a_visitor_reads_tables_and_named_queries_not_their_own_sql(populated_catalog):
    before_tmp = set(os.listdir(tempfile.gettempdir()))
    p, base = _start(populated_catalog)
    db = populated_catalog.stem
    try:
        status, body, _ = _get(f"{base}{db}/ed_grid_totals.json?_shape=array")
        assert status == 200 and json.loads(body) == [{"bands1": 416, "grids": 5472730538, "automorphic": 560151}]
        assert _get(f"{base}{db}/bands.json?_shape=array&_size=max")[0] == 200
        assert _sql(base, db, "select randomblob(999999999)")[0] == 403  # no arbitrary SQL
        assert _sql(base, db, "select 1")[0] == 403
        for hidden in ("-/databases.json", "-/databases"):
            status, body, _ = _get(base + hidden)
            assert status == 404 and str(populated_catalog) not in body.decode()
        meta = json.loads(_get(base + "-/metadata.json")[1])
        assert "not your own SQL" in meta["description"] and str(populated_catalog) not in json.dumps(meta)
        assert _get(f"{base}{db}.db")[0] in (403, 404)  # the file is not downloadable
    finally:
        _stop(p, int(base.rsplit(":", 1)[1].strip("/")), before_tmp)


def test_with_allow_sql_a_query_is_bounded(populated_catalog):
    p, base = _start(populated_catalog, "--allow-sql")
    db = populated_catalog.stem
    try:
        status, body, seconds = _sql(base, db, "select randomblob(999999999)")
        assert status == 400 and b"too big" in body and seconds < 10
        status, body, seconds = _sql(base, db, "with recursive c(x) as (select 1 union all select x + 1 from c) "
                                               "select count(*) from c")
        assert status == 400 and b"too long" in body and seconds < 20
        status, body, _ = _get(f"{base}{db}.json?" + urllib.parse.urlencode({"sql": "select minlex from bands"}))
        got = json.loads(body)  # 416 rows: about the first 100, marked truncated
        assert status == 200 and got["truncated"] and 100 <= len(got["rows"]) <= 101
        assert _sql(base, db, "select " + ", ".join(["1"] * 40))[0] == 400  # too many columns
        assert _sql(base, db, "select count(*) as n from bands")[:2] == (200, b'[{"n": 416}]')
        assert _sql(base, db, "insert into bands (band_index) values (999)")[0] in (400, 403)  # read only
    finally:
        _stop(p, int(base.rsplit(":", 1)[1].strip("/")), set(os.listdir(tempfile.gettempdir())))


def test_a_file_that_is_not_a_catalog_is_refused_before_serving(tmp_path):
    junk = tmp_path / "notes.sqlite"
    junk.write_text("not a database\n" * 100)
    r = subprocess.run([str(ROOT / "bin" / "browse"), "--db", str(junk), "--port", "0"], env=ENV,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("browse: error: ") and "not an SQLite database" in lines[0], lines
    assert "serving" not in r.stderr and junk.read_text() == "not a database\n" * 100
