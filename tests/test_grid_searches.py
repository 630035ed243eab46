"""``grid_searches`` records what each search of a grid found: a search cut by a larger limit, or a
complete one, replaces what a smaller search recorded; a complete record stays. Migration 0011
takes a catalog of 0010 (one record per (grid, clues, minimal, complete)) to one record per
question, on SQLite and PostgreSQL."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import pytest
from sqlalchemy import text

from sudoku_symmetry.catalog import db as catdb
from sudoku_symmetry.catalog.grid_searches import store_grid_searches
from sudoku_symmetry.commands import find_puzzles as cmd
from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.text import format_lines, parse

from conftest import RANK1_GRID, pg_database

GRID = "693784512487512936125963874932651487568247391741398625319475268856129743274836159"
RECORD = "SELECT clues, minimal, complete, found FROM grid_searches ORDER BY clues, minimal"


def _rows(db, query=RECORD):
    with sqlite3.connect(db) as conn:
        return conn.execute(query).fetchall()


def test_each_search_records_what_it_found(tmp_path, capsys):
    grids = tmp_path / "grids.txt"
    grids.write_text(GRID + "\n")
    db = str(tmp_path / "c.sqlite")

    def store(*extra):
        assert cmd.main(["--store", "--clues", "80", "--db", db, *extra, str(grids)]) == 0
        capsys.readouterr()
        return _rows(db)

    assert store("--limit", "4") == [(80, 0, 0, 4)]
    assert store("--limit", "5") == [(80, 0, 0, 5)]  # found 5 per grid: recorded
    assert store("--limit", "3") == [(80, 0, 0, 5)]  # found fewer: the record knows more
    assert store() == [(80, 0, 1, 81)]  # complete
    assert store("--limit", "80") == [(80, 0, 1, 81)]  # a complete record stays
    assert store("--minimal", "--limit", "2") == [(80, 0, 1, 81), (80, 1, 1, 0)]  # none is minimal: complete
    forms = format_lines(canon_grids(parse(GRID)[None, :]).forms)
    assert _rows(db, "SELECT grid FROM grid_searches") == [(forms[0],)] * 2


def _row(grid, complete, found, clues=17):
    return {"grid": grid, "clues": clues, "minimal": False, "complete": complete, "found": found,
            "automorphism_count": 1, "seconds": 1.0}


def _catalog_at_0010(url: str):
    """A catalog migrated to 0010 holding the records 0010 kept apart: a complete and a limited
    search of one question, and a limited one alone."""
    engine = catdb.create_catalog_engine(url)
    catdb._migrate(engine, "0010")
    now = datetime.now(timezone.utc)
    with engine.begin() as conn:
        for grid, complete, found in ((RANK1_GRID, True, 7), (RANK1_GRID, False, 3), (GRID, False, 4)):
            conn.execute(text("INSERT INTO grid_searches (grid, clues, minimal, complete, found, automorphism_count, "
                              "seconds, computed_at) VALUES (:g, 17, :m, :c, :f, 1, 1.0, :t)"),
                         {"g": grid, "m": False, "c": complete, "f": found, "t": now})
    engine.dispose()


def _migrated_rows(url: str):
    engine = catdb.open_catalog(url)
    assert catdb.current_revision(engine) == catdb.HEAD_REVISION
    with engine.connect() as conn:
        got = conn.execute(text("SELECT grid, complete, found FROM grid_searches ORDER BY grid")).all()
    store_grid_searches(engine, [_row(GRID, False, 9), _row(RANK1_GRID, False, 50)])
    with engine.connect() as conn:
        after = conn.execute(text("SELECT grid, complete, found FROM grid_searches ORDER BY grid")).all()
    engine.dispose()
    return [tuple(r) for r in got], [tuple(r) for r in after]


def _check_migration(url: str):
    _catalog_at_0010(url)
    got, after = _migrated_rows(url)
    first, second = sorted([GRID, RANK1_GRID])
    want = {RANK1_GRID: (RANK1_GRID, True, 7), GRID: (GRID, False, 4)}
    assert got == [want[first], want[second]]
    want_after = {RANK1_GRID: (RANK1_GRID, True, 7), GRID: (GRID, False, 9)}
    assert after == [want_after[first], want_after[second]]


def test_migration_0011_on_sqlite(tmp_path):
    _check_migration(catdb.resolve_url(str(tmp_path / "m.sqlite")))


def test_migration_0011_on_postgresql(pg_server):
    _check_migration(pg_database(pg_server, "grid_searches_0011"))


def test_one_statement_keeps_the_best_of_its_rows(tmp_path):
    engine = catdb.open_catalog(str(tmp_path / "c.sqlite"))
    assert store_grid_searches(engine, [_row(GRID, False, 3), _row(GRID, False, 8), _row(GRID, False, 5)]) == 1
    assert store_grid_searches(engine, [_row(GRID, True, 10), _row(GRID, False, 12)]) == 1
    with engine.connect() as conn:
        assert conn.execute(text("SELECT complete, found FROM grid_searches")).all() == [(1, 10)]
    assert store_grid_searches(engine, [_row(GRID, True, 10)]) == 0
    engine.dispose()
