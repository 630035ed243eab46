"""``--format text|csv|jsonl`` on the commands that print a result per input line (canon, solve,
band, rank, patterns, and unavoidable and find-puzzles, a row per grid with its list): csv parses with the csv module and jsonl with json, every row echoes the source, the
line number and the input, a bad line is a row with ``error`` (nothing dropped), the fields agree
with the text output, and ``--version`` answers on every command."""
from __future__ import annotations

import csv
import importlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LAST_GRID, RANK1_GRID
from sudoku_symmetry import __version__
from sudoku_symmetry.commands import band as band_cmd
from sudoku_symmetry.commands import canon as canon_cmd
from sudoku_symmetry.commands import equiv as equiv_cmd
from sudoku_symmetry.commands import find_puzzles as find_cmd
from sudoku_symmetry.commands import patterns as patterns_cmd
from sudoku_symmetry.commands import rank as rank_cmd
from sudoku_symmetry.commands import setlogic as setlogic_cmd
from sudoku_symmetry.commands import solve as solve_cmd
from sudoku_symmetry.commands import unavoidable as unavoidable_cmd
from sudoku_symmetry.commands._formats import ECHO

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ".....6....59.....82....8....45........3........6..3.54...325..6.................."  # many solutions
SOLVED = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"  # unique
BAND0 = "123456789456789123789123456"
# the same mix for every command: good lines, a comment, a blank line, malformed lines, bytes that are not UTF-8
BAD_BYTES = b"\xff\xfe"


def _file(tmp_path: Path, lines: list[bytes]) -> Path:
    f = tmp_path / "in.txt"
    f.write_bytes(b"".join(line + b"\n" for line in lines))
    return f


def _run(capsys, cmd, argv) -> tuple[int, str, str]:
    code = cmd.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _parse(fmt: str, out: str) -> list[dict]:
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(out)))
    return [json.loads(line) for line in out.splitlines()]


def _rows(capsys, cmd, argv, fmt) -> tuple[int, list[dict], str, str]:
    """(status, rows of --format fmt, the text output of the same call, standard error of fmt)."""
    code, out, err = _run(capsys, cmd, argv + ["--format", fmt])
    text_code, text, text_err = _run(capsys, cmd, argv)
    assert code == text_code and err == text_err  # the format changes standard output only
    return code, _parse(fmt, out), text, err


def _check_echo(rows: list[dict], source: str, expected: dict[int, str], fields: tuple[str, ...], fmt: str) -> None:
    assert [int(r["line"]) for r in rows] == sorted(expected)
    for r in rows:
        assert list(r) == [*ECHO, *fields, "error"]
        assert r["source"] == source and r["input"] == expected[int(r["line"])]
        if r["error"]:  # a bad line: its fields are empty
            assert all(r[f] in ("", None) for f in fields)
        elif fmt == "jsonl":
            assert r["error"] is None


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_canon_rows(tmp_path, capsys, fmt):
    f = _file(tmp_path, [RANK1_GRID.encode(), b"# a comment", b"", PUZZLE.encode(), b"11" + b"." * 79, b"12345",
                         BAD_BYTES, (PUZZLE + "\r").encode()])
    code, rows, text, err = _rows(capsys, canon_cmd, [str(f)], fmt)
    assert code == 2
    expected = {1: RANK1_GRID, 4: PUZZLE, 5: "11" + "." * 79, 6: "12345", 7: r"\xff\xfe", 8: PUZZLE}
    _check_echo(rows, str(f), expected, canon_cmd.FIELDS, fmt)
    by_line = {int(r["line"]): r for r in rows}
    assert [n for n, r in by_line.items() if r["error"]] == [5, 6, 7]
    assert "repeated" in by_line[5]["error"] and "81 cells" in by_line[6]["error"] and "UTF-8" in by_line[7]["error"]
    # the fields are what --automorphisms --transform prints
    _, full, _ = _run(capsys, canon_cmd, [str(f), "--automorphisms", "--transform"])
    good = [line.split(" ") for line in full.splitlines() if not line.startswith("error")]
    assert [[r["form"], str(r["automorphisms"]), r["transform"]] for r in rows if not r["error"]] == good
    assert [r["kind"] for r in rows if not r["error"]] == ["grid", "puzzle", "puzzle"]
    assert [line for line in text.splitlines() if not line.startswith("error")] == [g[0] for g in good]
    assert err.count("error: ") == 3


def test_canon_format_does_not_go_with_store(tmp_path, capsys):
    f = _file(tmp_path, [PUZZLE.encode()])
    code, out, err = _run(capsys, canon_cmd, ["--store", "--db", str(tmp_path / "c.sqlite"), "--format", "csv", str(f)])
    assert code == 2 and out == "" and "--format csv does not go with --store" in err


MODES = {  # solve's modes: argv, fields
    "solve": ([], ("solution", "count", "limit")),
    "limit": (["--limit", "2"], ("solution", "count", "limit")),
    "count": (["--count", "--limit", "50"], ("count", "limit")),
    "check": (["--check"], ("solutions", "minimal")),
    "logic": (["--logic-only"], ("state", "status")),
    "all": (["--all", "--cap", "3"], ("count", "capped", "solutions")),
}


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
@pytest.mark.parametrize("mode", sorted(MODES))
def test_solve_rows(tmp_path, capsys, mode, fmt):
    argv, fields = MODES[mode]
    f = _file(tmp_path, [SOLVED.encode(), b"", b"bad line", (PUZZLE + ":7").encode(), b"# end"])
    code, rows, text, err = _rows(capsys, solve_cmd, argv + [str(f)], fmt)
    assert code == 2 and "error: " + str(f) + ":3:" in err
    _check_echo(rows, str(f), {1: SOLVED, 3: "bad line", 4: PUZZLE + ":7"}, fields, fmt)
    ok, bad, many = rows[0], rows[1], rows[2]
    assert bad["error"] and not ok["error"] and not many["error"]
    lines = text.splitlines()
    typed = fmt == "jsonl"
    if mode in ("solve", "limit"):
        assert ok["solution"] == lines[0] and many["solution"] == lines[2].split(" ")[0]
        assert str(ok["count"]) == "1" and str(many["count"]) == ("2" if mode == "limit" else "1")
    elif mode == "count":
        assert [str(ok["count"]), str(many["count"])] == [lines[0], lines[2]] == ["1", "50"]
        assert many["limit"] == (50 if typed else "50")
    elif mode == "check":
        assert (ok["solutions"], many["solutions"]) == ("unique", "multiple") and lines[0].startswith("unique")
        assert ok["minimal"] in (True, "true", False, "false") and many["minimal"] in (None, "")
    elif mode == "logic":
        assert f"{ok['state']} {ok['status']}" == lines[0] and f"{many['state']} {many['status']}" == lines[2]
    else:  # --all --cap 3: the unique puzzle's one solution, the other's first three, cut by the cap
        sols = [line for line in lines if not line.startswith(("#", "error"))]
        listed = ok["solutions"] if typed else ok["solutions"].split("; ")
        more = many["solutions"] if typed else many["solutions"].split("; ")
        assert listed + more == sols and len(more) == 3
        assert str(ok["capped"]).lower() == "false" and str(many["capped"]).lower() == "true"
        assert str(many["count"]) == "3"


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_band_rows(tmp_path, capsys, fmt):
    swapped = BAND0[9:18] + BAND0[:9] + BAND0[18:]
    f = _file(tmp_path, [BAND0.encode(), b"#", swapped.encode(), b"111111111222222222333333333", b"12"])
    code, rows, text, err = _rows(capsys, band_cmd, [str(f)], fmt)
    assert code == 2
    _check_echo(rows, str(f), {1: BAND0, 3: swapped, 4: "111111111222222222333333333", 5: "12"}, band_cmd.FIELDS, fmt)
    lines = text.splitlines()
    for r, line in zip(rows[:2], lines[:2]):
        assert f"{r['index']} {r['band']} {r['transform']}" == line
    assert rows[0]["index"] == (0 if fmt == "jsonl" else "0")
    assert rows[2]["error"] and rows[3]["error"] and lines[3].startswith("error line 5:")


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_rank_rows(tmp_path, capsys, fmt):
    f = _file(tmp_path, [b"5472730538", RANK1_GRID.encode(), b"0"])
    args = ["1", str(f), "x", LAST_GRID]
    code, rows, text, err = _rows(capsys, rank_cmd, args, fmt)
    assert code == 2
    sources = [(r["source"], int(r["line"])) for r in rows]
    assert sources == [("<arguments>", 1), (str(f), 1), (str(f), 2), (str(f), 3), ("<arguments>", 3),
                       ("<arguments>", 4)]
    assert [r["input"] for r in rows] == ["1", "5472730538", RANK1_GRID, "0", "x", LAST_GRID]
    assert [str(r["rank"]) for r in rows if not r["error"]] == ["1", "5472730538", "1", "5472730538"]
    assert [r["grid"] for r in rows if not r["error"]] == [RANK1_GRID, LAST_GRID, RANK1_GRID, LAST_GRID]
    assert [bool(r["error"]) for r in rows] == [False, False, False, True, True, False]
    assert len(text.splitlines()) == 6 and err.count("error: ") == 2


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_patterns_rows(tmp_path, capsys, fmt):
    pattern, config = "x" + "." * 80, "12" + "." * 79
    f = _file(tmp_path, [pattern.encode(), b"# c", config.encode(), b"bad", b"11" + b"." * 79])
    code, rows, text, err = _rows(capsys, patterns_cmd, [str(f)], fmt)
    assert code == 2
    _check_echo(rows, str(f), {1: pattern, 3: config, 4: "bad", 5: "11" + "." * 79}, patterns_cmd.FIELDS, fmt)
    lines = text.splitlines()
    assert [f"{r['form']} {r['automorphisms']}" for r in rows[:2]] == lines[:2]
    assert [r["kind"] for r in rows[:2]] == ["pattern", "configuration"]
    assert rows[2]["error"] and rows[3]["error"] and not rows[0]["error"]
    code, out, err = _run(capsys, patterns_cmd, ["--cells", "2", "--format", fmt])
    assert code == 2 and out == "" and "goes with the canonical forms of input lines" in err


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_equiv_row(capsys, fmt):
    turned = PUZZLE[::-1]  # the puzzle turned by 180 degrees: a copy, with steps
    code, out, err = _run(capsys, equiv_cmd, ["--format", fmt, PUZZLE, turned])
    text_code, text, _ = _run(capsys, equiv_cmd, [PUZZLE, turned])
    assert code == text_code == 0 and err == ""
    (row,) = _parse(fmt, out)
    assert list(row) == list(equiv_cmd.FIELDS) and (row["a"], row["b"]) == (PUZZLE, turned)
    steps = row["forward_steps"] if fmt == "jsonl" else row["forward_steps"].split("; ")
    lines = text.splitlines()
    assert lines[0] == f"equivalent ({row['kind']}s)" and lines[1] == f"A -> B: {row['forward']}"
    assert [line.split(". ", 1)[1] for line in lines[2:2 + len(steps)]] == steps
    assert str(row["equivalent"]).lower() == "true" and row["reason"] in ("", None)
    code, out, _ = _run(capsys, equiv_cmd, ["--format", fmt, RANK1_GRID, LAST_GRID])
    (row,) = _parse(fmt, out)
    assert code == 1 and str(row["equivalent"]).lower() == "false" and row["reason"] and row["forward"] in ("", None)
    code, out, err = _run(capsys, equiv_cmd, ["--format", fmt, PUZZLE, RANK1_GRID])  # a puzzle and a grid: no row
    assert code == 2 and out == "" and err.startswith("equiv: error:")


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_setlogic_rows(capsys, fmt):
    puzzle = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
    argv = ["--max-starts", "3", puzzle]
    code, out, err = _run(capsys, setlogic_cmd, ["--format", fmt, *argv])
    text_code, text, text_err = _run(capsys, setlogic_cmd, argv)
    assert code == text_code == 0 and err == text_err
    rows = _parse(fmt, out)
    lines = text.splitlines()
    assert lines[-1] == f"# {len(rows)} eliminations" and len(rows) > 0
    for r, line in zip(rows, lines):
        assert list(r) == list(setlogic_cmd.FIELDS) and r["puzzle"] == puzzle
        sets = r["sets"] if fmt == "jsonl" else r["sets"].split("; ")
        assert line.startswith(r["elimination"] + "  (") and f"sets {', '.join(sets)} " in line
    with pytest.raises(SystemExit) as refused:  # argparse's usage error
        setlogic_cmd.main(["--format", fmt, "--show", puzzle])
    out, err = capsys.readouterr()
    assert refused.value.code == 2 and out == "" and "--show" in err


def _blocks(text: str) -> list[list[str]]:
    """The lines under each ``# GRID`` header of unavoidable's and find-puzzles' text output."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("# "):
            blocks.append([])
        elif not line.startswith("error"):
            blocks[-1].append(line)
    return blocks


def _grid_rows(capsys, cmd, argv, fmt, list_field):
    """Rows of --format fmt and the text output's blocks (standard error holds timings: not compared)."""
    code, out, _ = _run(capsys, cmd, argv + ["--format", fmt])
    text_code, text, _ = _run(capsys, cmd, argv)
    assert code == text_code
    rows = _parse(fmt, out)
    lists = [r[list_field] if fmt == "jsonl" else (r[list_field].split("; ") if r[list_field] else [])
             for r in rows if not r["error"]]
    assert lists == _blocks(text)  # the same sets or puzzles, grid by grid, in the same order
    return code, rows


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_unavoidable_rows(tmp_path, capsys, fmt):
    f = _file(tmp_path, [RANK1_GRID.encode(), b"# a comment", b"", b"12345", BAD_BYTES, (LAST_GRID + "\r").encode()])
    code, rows = _grid_rows(capsys, unavoidable_cmd, [str(f), "--max-size", "6"], fmt, "sets")
    assert code == 2
    expected = {1: RANK1_GRID, 4: "12345", 5: r"\xff\xfe", 6: LAST_GRID}
    _check_echo(rows, str(f), expected, unavoidable_cmd.FIELDS, fmt)
    good = [r for r in rows if not r["error"]]
    assert [int(r["count"]) for r in good] == [len(r["sets"] if fmt == "jsonl" else r["sets"].split("; "))
                                               for r in good]
    assert all(int(r["max_size"]) == 6 for r in good) and int(good[0]["count"]) > 0


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_find_puzzles_rows(tmp_path, capsys, fmt):
    f = _file(tmp_path, [RANK1_GRID.encode(), b"not a grid", LAST_GRID.encode()])
    code, rows = _grid_rows(capsys, find_cmd, [str(f), "--clues", "80"], fmt, "puzzles")
    assert code == 2
    _check_echo(rows, str(f), {1: RANK1_GRID, 2: "not a grid", 3: LAST_GRID}, find_cmd.FIELDS, fmt)
    good = [r for r in rows if not r["error"]]
    assert [str(r["found"]) for r in good] == ["81", "81"]  # every cell can be emptied alone
    assert [str(r["complete"]).lower() for r in good] == ["true", "true"]
    code, rows = _grid_rows(capsys, find_cmd, [RANK1_GRID, "--clues", "79", "--limit", "4"], fmt, "puzzles")
    assert code == 0 and str(rows[0]["complete"]).lower() == "false" and str(rows[0]["found"]) == "4"
    code, out, err = _run(capsys, find_cmd, ["--store", "--clues", "80", "--db", str(tmp_path / "c.sqlite"),
                                             "--format", fmt, str(f)])
    assert code == 2 and out == "" and "--format goes without --store" in err


def test_csv_header_without_rows_and_empty_jsonl(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("# nothing but a comment\n\n"))
    assert _run(capsys, band_cmd, ["--format", "csv"])[1] == "source,line,input,index,band,transform,error\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO("# nothing but a comment\n"))
    assert _run(capsys, band_cmd, ["--format", "jsonl"])[1] == ""


def test_csv_quotes_what_needs_quoting(tmp_path, capsys):
    f = _file(tmp_path, [b'a,"b" c'])
    code, out, _ = _run(capsys, band_cmd, [str(f), "--format", "csv"])
    assert code == 2 and '"a,""b"" c"' in out
    assert list(csv.DictReader(io.StringIO(out)))[0]["input"] == 'a,"b" c'


COMMANDS = ["band", "browse", "canon", "enumerate", "equiv", "find-puzzles", "patterns", "plot", "populate", "rank", "s17-entry", "s17-search", "setlogic",
            "solve", "unavoidable"]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_has_version(cmd, capsys):
    module = importlib.import_module(f"sudoku_symmetry.commands.{cmd.replace('-', '_')}")
    with pytest.raises(SystemExit) as done:
        module.main(["--version"])
    out, err = capsys.readouterr()
    assert done.value.code == 0 and err == "" and out == f"{cmd} (sudoku-symmetry) {__version__}\n"


def test_version_through_the_executable():
    res = subprocess.run([str(ROOT / "bin" / "band"), "--version"], capture_output=True, text=True, timeout=120)
    assert (res.returncode, res.stdout, res.stderr) == (0, f"band (sudoku-symmetry) {__version__}\n", "")
