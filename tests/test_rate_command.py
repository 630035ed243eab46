"""``bin/rate`` and ``ss.rate``: one line per puzzle in input order, the path with ``--steps``,
csv/jsonl, lower bounds with ``--max-level``, bad lines in their place with exit 2."""
from __future__ import annotations

import json

import pytest

import sudoku_symmetry as ss
from sudoku_symmetry.commands import rate as rate_cmd

EASY = "9....1..384.2....95....8.1....67....4...1.3.619..4...238....4...............3.2.."
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
# rated 9.7/9.7/2.6 by serate 1.2.1.3 (tests/data/hardest_db_110626_se1213.tsv): dynamic chains (+)
PLUS = "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4"
# two solutions: a deadly rectangle of two digits left open, the other givens pruned
TWO = ".6...1....4...357...3.........679.........3..1......82.8.....61.5..8.9..7...3...."
TWO_SOLUTIONS = 2


def run(capsys, argv):
    status = rate_cmd.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_a_line_per_puzzle_and_bad_lines_in_place(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text(f"# a comment\n{EASY}\n12345\n{TWO}\n\n{HARD}\n")
    status, out, err = run(capsys, ["--max-level", "1", str(f)])
    assert status == 2
    assert out.splitlines() == [f"{EASY} 1.5/1.2/1.2", "error line 3: expected 81 cells, got 5",
                                f"error line 4: not a unique puzzle ({TWO_SOLUTIONS} solutions)", f"{HARD} 9.0/1.2/1.2"]
    assert "p.txt:3" in err and "p.txt:4" in err


def test_the_count_of_solutions_is_the_solvers():
    assert ss.count(TWO) == TWO_SOLUTIONS


def test_steps_print_the_path(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text(EASY + "\n")
    status, out, _ = run(capsys, ["--steps", str(f)])
    lines = out.splitlines()
    assert status == 0 and lines[0] == f"{EASY} 1.5/1.2/1.2"
    assert lines[1] == "  1. Hidden Single (1.2): r2c3=1"
    assert len(lines) == 1 + 56 and all(ln.startswith("  ") for ln in lines[1:])


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_formats(tmp_path, capsys, fmt):
    f = tmp_path / "p.txt"
    f.write_text(f"{EASY}\n{TWO}\n")
    status, out, _ = run(capsys, ["--format", fmt, str(f)])
    assert status == 2
    if fmt == "jsonl":
        rows = [json.loads(ln) for ln in out.splitlines()]
        assert rows[0]["er"] == 1.5 and rows[0]["ep"] == 1.2 and rows[0]["complete"] is True
        assert rows[1]["er"] is None and rows[1]["error"].startswith("not a unique puzzle")
    else:
        header, first, second = out.splitlines()
        assert header == "source,line,input,puzzle,er,ep,ed,complete,steps,error"
        assert ",1.5,1.2,1.2,true,," in first and "not a unique puzzle" in second


def test_max_level_prints_a_lower_bound(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text(PLUS + "\n")
    status, out, _ = run(capsys, ["--max-level", "0", str(f)])
    assert (status, out) == (0, f"{PLUS} >=9.3/>=9.3/2.6\n")  # dynamic chains reach 9.3 before the stop
    status, out, _ = run(capsys, ["--max-level", "1", str(f)])
    assert (status, out) == (0, f"{PLUS} 9.7/9.7/2.6\n")


def test_api_one_many_and_a_frame():
    import pandas as pd

    r = ss.rate(EASY)
    assert (r.er, r.ep, r.ed, str(r)) == (1.5, 1.2, 1.2, "1.5/1.2/1.2")
    assert ss.Sudoku(EASY).rate() == r
    assert [str(x) for x in ss.rate([EASY, EASY])] == ["1.5/1.2/1.2"] * 2
    frame = ss.rate(pd.Series([EASY], index=["a"]))
    assert list(frame.columns) == ["er", "ep", "ed", "complete"] and frame.loc["a", "er"] == 1.5
    steps = ss.rate(EASY, steps=True).steps
    assert steps[0].technique == "Hidden Single" and steps[0].placement == (11, 1)
    with pytest.raises(ValueError, match=r"item 1: not a unique puzzle \(2 solutions\)"):
        ss.rate([EASY, TWO])


# -- --store: the catalog's ratings, a resumable run, the hardest query and the plot's data -----
def _stored(db):
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT puzzle, er, ep, ed, complete, lower, steps, source FROM ratings "
                            "ORDER BY puzzle").fetchall()


def test_store_is_a_resumable_run(tmp_path, capsys, monkeypatch):
    from sudoku_symmetry.jobs import rate_store

    db = str(tmp_path / "c.sqlite")
    f = tmp_path / "p.txt"
    f.write_text(f"{EASY}\nxx\n{HARD}\n{TWO}\n{EASY[::-1]}\n")
    status, want, err = run(capsys, ["--max-level", "1", f"{f}"])  # what the printing command says
    assert status == 2
    # a run killed after its first chunk of 2 lines: that chunk is committed with its cursor
    real, calls = rate_store.process, []

    def dies_on_the_second_chunk(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(rate_store, "process", dies_on_the_second_chunk)
    assert rate_cmd.main(["--store", "--chunk", "2", "--max-level", "1", "--db", db, str(f)]) == 130
    capsys.readouterr()
    assert [r[0] for r in _stored(db)] == [EASY]
    monkeypatch.setattr(rate_store, "process", real)
    status, out, err = run(capsys, ["--store", "--chunk", "2", "--max-level", "1", "--db", db, str(f)])
    assert status == 2 and out == want  # resumed at line 3; lines 1-2 printed from the catalog
    assert "resuming at line 3" in err and "read 5, bad 2, new 3, already stored 0" in err  # the run's totals
    rows = _stored(db)
    assert [(r[0], r[1], r[2], r[3], r[4], r[5], r[7]) for r in rows] == sorted([
        (EASY, 1.5, 1.2, 1.2, 1, "", "p.txt"), (HARD, 9.0, 1.2, 1.2, 1, "", "p.txt"),
        (EASY[::-1], *map(float, want.splitlines()[4].split()[1].split("/")), 1, "", "p.txt")])
    # a second run stores nothing new and prints the same lines
    status, out, err = run(capsys, ["--store", "--chunk", "2", "--max-level", "1", "--db", db, str(f)])
    assert (status, out) == (2, want) and "already rated" in err and _stored(db) == rows
    # the catalog's query and the plot kind read them (morphs of one puzzle share a canonical form)
    hardest = ss.query("hardest_puzzles", db=db)
    assert hardest.loc[0, "puzzle"] == HARD and list(hardest.er) == sorted(hardest.er, reverse=True)
    from sudoku_symmetry._catalog import PLOTS
    from sudoku_symmetry.catalog.db import open_catalog

    data, _ = PLOTS["ratings"].draw(open_catalog(db, create=False))
    assert sorted(tuple(r) for r in data) == sorted({(r[1], sum(x[1] == r[1] for x in rows)) for r in rows})


def test_bounds_are_stored_as_bounds(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    f = tmp_path / "p.txt"
    f.write_text(PLUS + "\n")
    status, out, _ = run(capsys, ["--store", "--max-level", "0", "--db", db, str(f)])
    assert (status, out) == (0, f"{PLUS} >=9.3/>=9.3/2.6\n")
    assert [(r[1], r[2], r[3], r[4], r[5]) for r in _stored(db)] == [(9.3, 9.3, 2.6, 0, "ER,EP")]
    assert ss.query("hardest_puzzles", db=db).empty  # bounds are not ratings
