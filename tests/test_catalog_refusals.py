"""What the catalog refuses it leaves alone (issue 23): a foreign database or one of a newer
revision stays byte-identical (no WAL switch, no table); a read-only command never creates a
catalog nor its folder: it says the catalog does not exist, one line, exit 2."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from sudoku_symmetry.catalog.db import CatalogError, open_catalog
from sudoku_symmetry.commands import enumerate as enum_cmd
from sudoku_symmetry.commands import populate as populate_cmd
from sudoku_symmetry.commands import rank as rank_cmd
from sudoku_symmetry.commands import s17_entry as s17_cmd

from conftest import _psql, pg_database


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _folder_state(folder: Path) -> dict[str, str]:
    return {p.name: _sha(p) for p in sorted(folder.iterdir())}


def _one_line(capsys, prog: str, *needles: str) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{prog}: error: ") and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def _foreign(path: Path) -> None:
    """Another application's SQLite file, in the default (rollback journal) mode."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    conn.executemany("INSERT INTO customers (name) VALUES (?)", [("ada",), ("grace",)])
    conn.commit()
    conn.close()


def _newer(path: Path) -> None:
    """A catalog made by newer code: a revision this code does not know."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
    conn.execute("INSERT INTO alembic_version VALUES ('9999')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("make, needle", [(_foreign, "is not a sudoku catalog"), (_newer, "revision '9999'")])
def test_a_refused_sqlite_file_stays_byte_identical(tmp_path, capsys, make, needle):
    """populate refuses another application's database (and a newer catalog) without changing a
    byte (issue 23 item 7: the first connection switched the file to WAL mode for good)."""
    folder = tmp_path / "dbs"
    folder.mkdir()
    path = folder / "other_app.sqlite"
    make(path)
    before = _folder_state(folder)
    assert populate_cmd.main(["--db", str(path)]) == 2
    _one_line(capsys, "populate", needle, str(path))
    with pytest.raises(CatalogError, match=needle):
        open_catalog(str(path))
    assert _folder_state(folder) == before  # the same bytes, and no -wal or -shm file beside it
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_adopt_still_adds_the_tables_to_a_foreign_file(tmp_path, capsys):
    path = tmp_path / "other_app.sqlite"
    _foreign(path)
    assert populate_cmd.main(["--db", str(path), "--adopt", "--step", "bands"]) == 0
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"customers", "alembic_version", "bands"} <= tables
    assert conn.execute("SELECT count(*) FROM customers").fetchone()[0] == 2


READ_ONLY = [
    (rank_cmd, "rank", ["5"]),
    (enum_cmd, "enumerate", ["--status"]),
    (enum_cmd, "enumerate", ["--export", "{out}/x.npz"]),
    (enum_cmd, "enumerate", ["--export-fine", "{out}/x.npz"]),
    (s17_cmd, "s17-entry", ["--status"]),
    (s17_cmd, "s17-entry", ["--export", "{out}/x.json"]),
]


@pytest.mark.parametrize("module, prog, argv", READ_ONLY)
def test_read_only_commands_never_create_a_catalog(tmp_path, capsys, module, prog, argv):
    """A typo in --db: one line that says the catalog does not exist, exit 2, and no folder and
    no file made (issue 23 item 9: rank created the folder and an empty catalog)."""
    out = tmp_path / "out"
    out.mkdir()
    db = tmp_path / "nonexistent" / "dir" / "x.sqlite"
    args = [a.format(out=out) for a in argv] + ["--db", str(db)]
    assert module.main(args) == 2
    _one_line(capsys, prog, f"the catalog {db} does not exist", "nothing was created")
    assert not (tmp_path / "nonexistent").exists() and list(out.iterdir()) == []
    # an empty file (what the old code left behind) is not a catalog either, and stays empty
    db.parent.mkdir(parents=True)
    db.touch()
    assert module.main(args) == 2
    _one_line(capsys, prog, f"the catalog {db} is empty, not a catalog yet")
    assert db.stat().st_size == 0 and sorted(p.name for p in db.parent.iterdir()) == ["x.sqlite"]


def test_a_read_only_command_creates_no_tables_in_an_empty_postgresql_database(pg_server, capsys):
    url = pg_database(pg_server, "sudoku_empty_ro")
    assert rank_cmd.main(["5", "--db", url]) == 2
    _one_line(capsys, "rank", "is empty, not a catalog yet")
    count = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public';"
    assert _psql(pg_server, f"\\c sudoku_empty_ro\n{count}").splitlines()[-1] == "0"
