"""Inputs as users really give them (issue 23): pipes, FIFOs and process substitution read once
and never dropped; a lone CR and bytes that are not UTF-8 reported the same way in a file and
on standard input; ``rank`` reading ``-`` and FILEs like every other command; numbers written
in ASCII digits only, in every integer argument, as puzzle text refuses other digits.

Every case runs the real command (``bin/...``) or its ``main``; a hang fails through a timeout."""
from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sudoku_symmetry.commands import canon as canon_cmd
from sudoku_symmetry.commands import enumerate as enum_cmd
from sudoku_symmetry.commands import equiv as equiv_cmd
from sudoku_symmetry.commands import patterns as patterns_cmd
from sudoku_symmetry.commands import populate as populate_cmd
from sudoku_symmetry.commands import rank as rank_cmd
from sudoku_symmetry.commands import s17_entry as s17_cmd
from sudoku_symmetry.commands import setlogic as setlogic_cmd
from sudoku_symmetry.commands import solve as solve_cmd
from sudoku_symmetry.engine import text

from conftest import LAST_GRID, RANK1_GRID

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "bin"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
TIMEOUT = 300  # a command that waits for a second writer on a FIFO fails here instead of hanging

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SEVENTEEN = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
PUZZLES = f"{EASY}\n# a comment\n{SEVENTEEN}\nnot a sudoku\n{EASY}\n"


def _run(argv, stdin: bytes | None = None, env=None, timeout: int = TIMEOUT) -> tuple[int, str, str]:
    p = subprocess.run(argv, input=stdin, capture_output=True, env=env or ENV, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _from_fifo(argv, data: bytes, fifo: Path) -> tuple[int, str, str]:
    """``argv FIFO`` with one writer that writes ``data`` once and closes."""
    os.mkfifo(fifo)

    def write():
        try:
            fifo.write_bytes(data)
        except OSError:  # the command went away without reading
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()  # blocks in open() until the command opens the FIFO
    try:
        return _run(argv + [str(fifo)], timeout=120)
    finally:
        writer.join(5)
        if writer.is_alive():  # the command never opened it: let the writer go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))


@pytest.mark.parametrize("cmd", [["canon"], ["solve", "--count"]])
def test_pipes_fifos_and_process_substitution_are_read_once(tmp_path, cmd):
    """A pipe, a FIFO or ``<(...)`` gives what the same lines in a regular file give (issue 23
    item 1: counting lines first consumed the pipe, so nothing was printed, exit 0; a FIFO hung)."""
    path = tmp_path / "puzzles.txt"
    path.write_text(PUZZLES)
    exe = [str(BIN / cmd[0])] + cmd[1:]
    expected = _run(exe + [str(path)])
    rc, out, err = expected
    assert rc == 2 and len(out.splitlines()) == 4 and "error line 4:" in out, expected  # 3 puzzles, 1 bad line
    data = PUZZLES.encode()
    for got in (_run(exe + ["/dev/stdin"], stdin=data), _run(exe + ["-"], stdin=data), _run(exe, stdin=data),
                _from_fifo(exe, data, tmp_path / "fifo"),
                _run(["bash", "-c", f"exec {shlex.join(exe)} <(cat {shlex.quote(str(path))})"])):
        assert got[:2] == expected[:2], got  # the same lines and status (stderr names the source)
        assert ":4: expected 81 cells, got 12" in got[2], got


def test_a_lone_cr_is_part_of_its_line_in_a_file_and_on_stdin(tmp_path):
    """Lines end at LF (CRLF too); a lone CR does not end a line, in a file as on standard input
    (issue 23: a file split the line in two, standard input did not, so line numbers differed)."""
    body = (EASY + "\n" + EASY[:40] + "\r" + EASY[41:] + "\n" + EASY + "\r\n" + SEVENTEEN + "\n").encode()
    path = tmp_path / "cr.txt"
    path.write_bytes(body)
    from_file = _run([str(BIN / "solve"), "--count", str(path)])
    from_stdin = _run([str(BIN / "solve"), "--count"], stdin=body)
    assert from_file[1] == from_stdin[1], (from_file, from_stdin)
    lines = from_file[1].splitlines()
    assert lines[0] == "1" and lines[2] == "1" and lines[3] == "1" and len(lines) == 4, lines
    assert lines[1] == "error line 2: invalid character '\\r' at position 41"
    assert from_file[0] == from_stdin[0] == 2


def test_crlf_lines_take_the_bulk_path_and_parse_as_lf():
    lf = [EASY + "\n", SEVENTEEN + "\n"]
    crlf = [EASY + "\r\n", SEVENTEEN + "\r\n"]
    assert text._parse_clean_chunk(crlf, 81, 1) is not None  # no slow path for Windows files
    a, b = text.parse_lines(lf), text.parse_lines(crlf)
    assert (a.sudokus == b.sudokus).all() and (a.linenos == b.linenos).all()
    assert text._parse_clean_chunk([EASY + "\r\n", SEVENTEEN + "\n"], 81, 1) is None  # mixed: the careful path


def test_bytes_that_are_not_utf8_are_named_with_their_line(tmp_path):
    """Latin-1 bytes: "not UTF-8 text" with the line number and the byte, in a file and on
    standard input, from every reader (issue 23: a wrong cell count or a U+FFFD was reported)."""
    body = (EASY + "\n" + EASY[:40] + "\xe9" + EASY[41:] + "\n" + EASY + "\xe9\n").encode("latin-1")
    path = tmp_path / "latin1.txt"
    path.write_bytes(body)
    want = ["error line 2: not UTF-8 text: byte 0xE9 at position 41 (save the file as UTF-8)",
            "error line 3: not UTF-8 text: byte 0xE9 at position 82 (save the file as UTF-8)"]
    strict = dict(ENV, PYTHONIOENCODING="utf-8:strict")  # standard input decoded strictly by Python
    for cmd in (["solve", "--count"], ["canon"]):
        for rc, out, err in (_run([str(BIN / cmd[0])] + cmd[1:] + [str(path)]),
                             _run([str(BIN / cmd[0])] + cmd[1:], stdin=body, env=strict)):
            assert rc == 2 and out.splitlines()[1:] == want, (cmd, out, err)
            assert "Traceback" not in err
    rc, out, err = _run([str(BIN / "patterns"), str(path)])
    assert rc == 2 and out.splitlines()[1:] == want, (out, err)


# -- rank: '-' and FILE, and ASCII digits ------------------------------------------------------
@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """A catalog with the shipped counts of every band 1 (what ranks need)."""
    db = str(tmp_path_factory.mktemp("rank") / "cat.sqlite")
    assert populate_cmd.main(["--db", db, "--step", "ed_grids"]) == 0
    return db


def _rank(capsys, monkeypatch, args, stdin: str | None = None) -> tuple[int, list[str], str]:
    capsys.readouterr()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    rc = rank_cmd.main(args)
    out, err = capsys.readouterr()
    return rc, out.splitlines(), err


def test_rank_reads_standard_input_and_files(tmp_path, capsys, monkeypatch, counted):
    """``rank -`` and ``rank FILE`` read their lines (issue 23: both were taken as a bad LINE)."""
    db = ["--db", counted]
    rc, expected, _ = _rank(capsys, monkeypatch, ["1", LAST_GRID, "5472730538"] + db)
    assert rc == 0 and expected == [RANK1_GRID, f"5472730538 {LAST_GRID}", LAST_GRID]
    lines = f"1\n# a comment\n{LAST_GRID}\n5472730538\n"
    assert _rank(capsys, monkeypatch, ["-"] + db, stdin=lines)[:2] == (0, expected)
    assert _rank(capsys, monkeypatch, db, stdin=lines)[:2] == (0, expected)
    path = tmp_path / "ranks.txt"
    path.write_text(lines)
    assert _rank(capsys, monkeypatch, [str(path)] + db)[:2] == (0, expected)
    # arguments in order: a LINE, a FILE, a LINE; a bad line in the file is named with its line
    path.write_text(f"1\nnonsense\n")
    rc, out, err = _rank(capsys, monkeypatch, ["5472730538", str(path), "1"] + db)
    assert rc == 2 and out == [LAST_GRID, RANK1_GRID, "error line 2: expected an 81-digit grid or a rank", RANK1_GRID]
    assert f"error: {path}:2: expected an 81-digit grid or a rank" in err
    missing = str(tmp_path / "missing.txt")
    rc, out, err = _rank(capsys, monkeypatch, [missing] + db)
    assert rc == 2 and out == [f"error line 1: {missing}: no such file, and not an 81-digit grid or a rank"], out


@pytest.mark.parametrize("number", ["\u0663", "\uff13", "1_0"])  # Arabic-Indic 3, fullwidth 3, underscore
def test_rank_takes_ascii_digits_only(capsys, monkeypatch, counted, number):
    """``rank ٣`` is refused as puzzle text refuses ``٣`` (issue 23: it printed the grid at rank 3)."""
    rc, out, err = _rank(capsys, monkeypatch, [number, "--db", counted])
    assert rc == 2 and out == ["error line 1: expected an 81-digit grid or a rank"], (out, err)
    grid = RANK1_GRID[:5] + "\u0666" + RANK1_GRID[6:]  # an Arabic-Indic 6 inside a grid
    rc, out, _ = _rank(capsys, monkeypatch, [grid, "--db", counted])
    assert rc == 2 and out[0].startswith("error line 1:")


NUMBER_ARGUMENTS = [
    (solve_cmd._parser, ["--limit", "{}"]),
    (solve_cmd._parser, ["--all", "--cap", "{}"]),
    (canon_cmd.build_parser, ["--chunk", "{}"]),
    (canon_cmd.build_parser, ["--store", "--workers", "{}", "f.txt"]),
    (enum_cmd.build_parser, ["--band1", "{}"]),
    (enum_cmd.build_parser, ["--band1", "0-{}"]),
    (enum_cmd.build_parser, ["--export-fine", "x.npz", "--fine-step", "{}"]),
    (enum_cmd.build_parser, ["--band1", "0", "--chunk", "{}"]),
    (s17_cmd.build_parser, ["--variant", "A", "--band1-rank", "{}"]),
    (s17_cmd.build_parser, ["--variant", "A", "--band1-rank", "0", "--checkpoint-seconds", "{}"]),
    (patterns_cmd.build_parser, ["--cells", "{}"]),
    (patterns_cmd.build_parser, ["--cells", "3", "--chunk", "{}"]),
    (equiv_cmd._parser, ["--random-pair", "--givens", "{}"]),
    (equiv_cmd._parser, ["--random-pair", "--seed", "{}"]),
    (setlogic_cmd._parser, ["--cap", "{}", EASY]),
    (setlogic_cmd._parser, ["--max-sets", "{}", EASY]),
]


@pytest.mark.parametrize("number", ["\u0663", "\uff13", "1_0"])
@pytest.mark.parametrize("make, argv", NUMBER_ARGUMENTS)
def test_every_integer_argument_takes_ascii_digits_only(capsys, make, argv, number):
    """One parser (``_common.decimal``) for every integer argument: ``٣``, ``３`` and ``1_0``, which
    Python's ``int`` takes, are refused like puzzle text refuses them (exit 2, argparse's line)."""
    parser = make()
    with pytest.raises(SystemExit) as exc:
        parser.parse_args([a.format(number) for a in argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err
    assert parser.parse_args([a.format("3") for a in argv])  # and 3 itself is taken


def test_canon_chunk_from_the_environment_takes_ascii_digits_only(monkeypatch):
    monkeypatch.setenv(canon_cmd.CHUNK_ENV, "\u0663")
    assert canon_cmd._env_chunk() == canon_cmd.CHUNK
    monkeypatch.setenv(canon_cmd.CHUNK_ENV, "3")
    assert canon_cmd._env_chunk() == 3
