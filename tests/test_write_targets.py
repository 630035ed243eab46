"""Every file a command writes goes through one check (``catalog.files.check_write_target``):
never a catalog's file or its ``-wal``/``-shm``/``-journal`` companions, however the path is
spelled (symbolic links, ``..``, hard links, the default catalog with no ``--db``), never an
existing SQLite database. The writing options are found from the commands' own parsers, so a
new command's ``--out`` is walked too."""
from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import sqlite3
from pathlib import Path

import pytest

from sudoku_symmetry.catalog.files import WriteRefused, catalog_files, check_write_target
from sudoku_symmetry.commands._common import CommandParser, written_options
from sudoku_symmetry.commands.main import COMMANDS, _module

FILE_WORDS = ("FILE", "PATH", "DIR")
WRITE_WORDS = ("out", "export", "svg", "save", "write", "dump")


class _Parsed(Exception):
    pass


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser, caught as the command parses its arguments (whatever builds it)."""
    parsers = {}
    real = argparse.ArgumentParser.parse_args

    def catch(self, args=None, namespace=None):
        parsers[current] = self
        raise _Parsed

    argparse.ArgumentParser.parse_args = catch
    try:
        for current in COMMANDS:
            module = importlib.import_module(_module(current))
            with pytest.raises(_Parsed):
                module.main(["--help"])
    finally:
        argparse.ArgumentParser.parse_args = real
    return parsers


PARSERS = command_parsers()


def _looks_written(action: argparse.Action) -> bool:
    """An option that names a file (metavar) or whose name says it writes one; ``--db`` is the
    catalog itself."""
    if not action.option_strings or action.nargs == 0 or action.dest == "db":
        return False
    metavar = str(action.metavar or "")
    return any(w in metavar for w in FILE_WORDS) or any(w in action.dest for w in WRITE_WORDS)


WRITING = sorted((name, a.option_strings[-1]) for name, p in PARSERS.items() for a in p._actions if _looks_written(a))


def test_the_walk_sees_every_writing_option_and_each_is_marked():
    # the options known to write today are among those found (the walk itself works)...
    known = {("canon", "--svg"), ("equiv", "--svg"), ("equiv", "--out"), ("enumerate", "--export"),
             ("enumerate", "--export-fine"), ("enumerate", "--out"), ("patterns", "--out"), ("s17-entry", "--export"),
             ("s17-entry", "--out"), ("unavoidable", "--svg"), ("s17-search", "--export"),
             ("s17-search", "--export-table"), ("s17-search", "--out"), ("plot", "--out"),
             ("browse", "--metadata-out")}
    assert known <= set(WRITING)
    # ... and every command parses with the checking parser, every such option marked
    for name, parser in PARSERS.items():
        assert isinstance(parser, CommandParser), name
        marked = {a.option_strings[-1] for a in written_options(parser)}
        assert {opt for cmd, opt in WRITING if cmd == name} <= marked, name


@pytest.fixture()
def catalog(tmp_path, monkeypatch):
    """A catalog in WAL mode with a connection open (so its -wal and -shm files exist), named as
    the default catalog too; the files' hashes before."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "catalog.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    monkeypatch.setenv("SUDOKU_CATALOG", str(path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.sqlite").symlink_to(path)
    (tmp_path / "linked").symlink_to(folder)
    os.link(path, tmp_path / "hard.sqlite")
    before = _state(path)
    yield path
    assert _state(path) == before
    conn.close()


def _state(path: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.iterdir())
            if not p.name.endswith("-shm")}


def _spellings(path: Path) -> list[str]:
    """The catalog's files as a user may name them."""
    return [str(path), "data/catalog.sqlite-wal", str(path) + "-shm", "data/catalog.sqlite-journal",
            "link.sqlite", "linked/../data/./catalog.sqlite", "linked/catalog.sqlite-wal", "hard.sqlite"]


@pytest.mark.parametrize("name, option", WRITING)
def test_every_writing_option_refuses_the_catalog(catalog, capsys, name, option):
    """Each spelling of the catalog's files, with --db naming it and with no --db (the default
    catalog): one line, exit 2, the catalog's bytes unchanged (checked by the fixture)."""
    module = importlib.import_module(_module(name))
    has_db = any(a.dest == "db" for a in PARSERS[name]._actions)
    for target in _spellings(catalog):
        for argv in ([option, target, "--db", str(catalog)] if has_db else None, [option, target]):
            if argv is None:
                continue
            assert module.main(argv) == 2, (name, argv)
            err = capsys.readouterr().err.splitlines()
            assert len(err) == 1 and err[0].startswith(f"{name}: error: {option} ") and "destroy" in err[0], err


def _database(path: Path) -> Path:
    """A small SQLite database at ``path``."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    return path


def test_another_sqlite_database_is_refused_too(tmp_path, capsys):
    """cp CATALOG copy.sqlite; s17-search --export copy.sqlite --db copy.sqlite left 0 bytes."""
    other = _database(tmp_path / "copy.sqlite")
    data = other.read_bytes()
    module = importlib.import_module(_module("s17-search"))
    for argv in (["--export", str(other), "--db", str(other)], ["--export", str(other), "--db", str(tmp_path / "c")],
                 ["--export-table", str(other) + "-journal", "--db", str(tmp_path / "c")]):
        assert module.main(argv) == 2
        err = capsys.readouterr().err
        assert "destroy" in err and len(err.splitlines()) == 1, err
    assert other.read_bytes() == data


def test_the_check_itself(tmp_path, monkeypatch):
    monkeypatch.setenv("SUDOKU_CATALOG", str(tmp_path / "cat.sqlite"))
    monkeypatch.chdir(tmp_path)
    # the default catalog and the one named are both protected, existing or not
    files = catalog_files(str(tmp_path / "other.sqlite"))
    assert str(tmp_path / "cat.sqlite-wal") in files and str(tmp_path / "other.sqlite-journal") in files
    with pytest.raises(WriteRefused, match="catalog's own file \\(the -wal file of "):
        check_write_target("--out", "cat.sqlite-wal")
    with pytest.raises(WriteRefused, match="catalog's own file"):
        check_write_target("--out", "other.sqlite", "sqlite:///" + str(tmp_path / "other.sqlite"))
    # a dangling link to where the catalog will be
    (tmp_path / "later").symlink_to(tmp_path / "cat.sqlite")
    with pytest.raises(WriteRefused):
        check_write_target("--svg", "later")
    with pytest.raises(WriteRefused, match="is a directory"):
        check_write_target("--out", str(tmp_path))
    with pytest.raises(WriteRefused, match="no such folder"):
        check_write_target("--out", "nowhere/x.txt")
    for fine in ("-", "/dev/stdout", "/dev/fd/1", "pair.txt", str(tmp_path / "x.json")):
        check_write_target("--out", fine)


def test_files_named_after_an_option_go_through_the_check(tmp_path, capsys, monkeypatch):
    """enumerate --export FILE.npz writes FILE.json beside it; plot writes KIND.svg by default."""
    monkeypatch.chdir(tmp_path)
    catalog = _database(tmp_path / "counts.json")  # a catalog may be named anything
    data = catalog.read_bytes()
    enumerate_cmd = importlib.import_module(_module("enumerate"))
    assert enumerate_cmd.main(["--export", "counts.npz", "--db", str(catalog)]) == 2
    assert "--export counts.json is the catalog's own file" in capsys.readouterr().err
    assert enumerate_cmd.main(["--export", "x.json", "--db", str(tmp_path / "c.sqlite")]) == 2
    assert "FILE.npz" in capsys.readouterr().err
    plot_cmd = importlib.import_module(_module("plot"))
    default = tmp_path / "band1-grids.svg"
    default.write_bytes(data)  # an SQLite database where the picture would go
    assert plot_cmd.main(["band1-grids", "--db", str(catalog)]) == 2
    assert "band1-grids.svg is an SQLite database" in capsys.readouterr().err
    assert catalog.read_bytes() == data and default.read_bytes() == data
    assert not (tmp_path / "counts.npz").exists()
