"""Two ``bin/populate`` of one new catalog at once: each waits while another populate of that
catalog runs, says so, and then finishes (finding the work done); all exit 0. Real processes."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from pathlib import Path

from sudoku_symmetry.catalog.db import HEAD_REVISION
from sudoku_symmetry.catalog.locks import exclusive

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}


def _populate(db: Path) -> subprocess.Popen:
    return subprocess.Popen([str(ROOT / "bin" / "populate"), "--db", str(db), "--step", "bands"], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _until_waiting(p: subprocess.Popen) -> str:
    deadline = time.monotonic() + 120
    line = p.stderr.readline()
    while "waiting" not in line and line and time.monotonic() < deadline:
        line = p.stderr.readline()
    return line


def test_populates_of_one_catalog_wait_for_each_other_and_all_finish(tmp_path):
    db = tmp_path / "new.sqlite"
    with exclusive(str(db), "populate"):  # as a first populate holds it
        both = [_populate(db), _populate(db)]
        for p in both:
            line = _until_waiting(p)
            assert f"another populate of {db} is running: waiting for it to finish" in line, line
        assert all(p.poll() is None for p in both) and not db.exists()  # they wait: nothing done yet
    results = [p.communicate(timeout=600) for p in both]  # now both at once, one after the other
    for p, (out, err) in zip(both, results):
        assert p.returncode == 0 and "error" not in err, err
        assert out.splitlines()[-1].startswith(("done: ", "nothing changed: "))
    assert sorted(out.splitlines()[0].split("(")[1] for out, _ in results) == \
        [f"created at revision {HEAD_REVISION})", f"revision {HEAD_REVISION}, up to date)"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM bands").fetchone() == (416,)
