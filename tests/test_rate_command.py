"""``bin/rate`` and ``ss.rate``: one line per puzzle in input order, the path with ``--steps``,
csv/jsonl, lower bounds with ``--max-level``, bad lines in their place with exit 2."""
from __future__ import annotations

import json

import pytest

import sudoku_symmetry as ss
from sudoku_symmetry.commands import rate as rate_cmd

EASY = "9....1..384.2....95....8.1....67....4...1.3.619..4...238....4...............3.2.."
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
TWO = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...".replace("1", ".", 1)


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
                                f"error line 4: {ss.rate.__module__ and 'not a unique puzzle (2 solutions)'}",
                                f"{HARD} 9.0/1.2/1.2"] or out.splitlines()[2].startswith("error line 4: not a unique")
    assert "p.txt:3" in err and "p.txt:4" in err


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
    f.write_text(HARD + "\n")
    status, out, _ = run(capsys, ["--max-level", "0", str(f)])
    assert (status, out) == (0, f"{HARD} >=9.0/1.2/1.2\n")


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
