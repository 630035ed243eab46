"""Every command, run as a real process through both entry points (bin/CMD and the installed
`sudoku CMD` console script): the same answers, and one clear line with exit status 2 (never a
traceback) for a missing file, a directory, closed standard input or output, a full disk; a
closed pipe ends quietly; a byte-order mark is accepted; out-of-range counts are refused.

Most cases fail before any kernel is compiled, so each process takes a fraction of a second;
the cases with output use kernels from the warm cache ($SUDOKU_CACHE_DIR)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "bin"
SUDOKU = Path(sys.executable).parent / "sudoku"  # the console script of this environment
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
SETLOGIC_ARGS = ["--max-sets", "2", "--max-starts", "20"]  # a quick run with 5 eliminations
GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
BAND = "123456789456789123789123456"
COMMANDS = ("band", "canon", "solve", "setlogic", "equiv")


def entry_points(cmd: str) -> list[list[str]]:
    if not SUDOKU.exists():
        pytest.skip(f"no console script {SUDOKU}: install the project into this environment")
    return [[str(BIN / cmd)], [str(SUDOKU), cmd]]


def run(argv, stdin=None, shell_redirect: str | None = None, cwd=None) -> tuple[int, str, str]:
    """Run ``argv``; ``shell_redirect`` (e.g. ``<&-``) is applied by sh to the command."""
    if shell_redirect is not None:
        argv = ["sh", "-c", f'exec "$@" {shell_redirect}', "sh", *argv]
    p = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=ENV, cwd=cwd, timeout=300)
    return p.returncode, p.stdout, p.stderr


def both(cmd: str, args: list[str], **kw) -> tuple[int, str, str]:
    """Run ``cmd args`` through both entry points; they must agree exactly. Returns the result."""
    first, second = (run(ep + args, **kw) for ep in entry_points(cmd))
    assert first == second, (cmd, args, first, second)
    return first


def one_error_line(cmd: str, result, *needles: str) -> None:
    rc, out, err = result
    assert rc == 2, result
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{cmd}: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def _file_args(cmd: str, path: str) -> list[str]:
    """The arguments that make ``cmd`` read ``path`` as its (first) input."""
    return [path, EASY] if cmd == "equiv" else [path]


def _valid_input(cmd: str, tmp_path: Path) -> list[str]:
    """Arguments for a run that succeeds and prints something."""
    if cmd == "band":
        f = tmp_path / "bands.txt"
        f.write_text(BAND + "\n")
        return [str(f)]
    if cmd in ("canon", "solve"):
        f = tmp_path / "sudokus.txt"
        f.write_text(EASY + "\n")
        return [str(f)]
    if cmd == "setlogic":
        return SETLOGIC_ARGS + [EASY]
    return [GRID, GRID]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_bad_inputs_give_one_line_through_both_entry_points(cmd, tmp_path):
    missing = str(tmp_path / "missing.txt")
    one_error_line(cmd, both(cmd, _file_args(cmd, missing)), "missing.txt", "no such file")
    one_error_line(cmd, both(cmd, _file_args(cmd, str(tmp_path))), str(tmp_path), "is a directory")
    stdin_args = ["-", EASY] if cmd == "equiv" else ["-"] if cmd == "setlogic" else []
    one_error_line(cmd, both(cmd, stdin_args, shell_redirect="<&-"), "standard input is closed")
    valid = _valid_input(cmd, tmp_path)
    one_error_line(cmd, both(cmd, valid, shell_redirect=">&-"), "standard output is closed")
    one_error_line(cmd, both(cmd, valid, shell_redirect=">/dev/full"), "No space left on device")


@pytest.mark.parametrize("cmd", COMMANDS)
def test_closed_pipe_is_quiet_through_both_entry_points(cmd, tmp_path):
    """The reader is gone before the command writes (as with `| head -0`): exit 0, nothing on stderr."""
    args = _valid_input(cmd, tmp_path)
    results = []
    for ep in entry_points(cmd):
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.run(ep + args, stdout=w, stderr=subprocess.PIPE, text=True, env=ENV, timeout=300)
        finally:
            os.close(w)
        results.append((p.returncode, p.stderr))
    assert results[0] == results[1] == (0, ""), results


@pytest.mark.parametrize("cmd, args", [("band", []), ("solve", ["--all", "--cap", "100000"])])
def test_head_reads_one_line_then_closes(cmd, args, tmp_path):
    """`CMD ... | head -1` on a long output: the first line arrives, no traceback, exit 0."""
    text = BAND + "\n" if cmd == "band" else "." * 81 + "\n"
    f = tmp_path / "in.txt"
    f.write_text(text * (100_000 if cmd == "band" else 1))
    for ep in entry_points(cmd):
        p = subprocess.Popen(ep + args + [str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        first = p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        p.stderr.close()
        assert p.wait(timeout=300) == 0 and err == b"", err
        if cmd == "band":
            assert first.split()[:2] == [b"0", BAND.encode()]
        else:
            assert len(first.strip()) == 81 and b"." not in first


def _expected_output(cmd: str, capsys) -> str:
    if cmd == "band":
        return f"0 {BAND} 0:123456789:123456789:123456789\n"
    if cmd == "solve":
        return SOLUTION + "\n"
    if cmd == "canon":
        return GRID + "\n"  # the first grid of the catalog is its own minlex form
    if cmd == "equiv":
        return "equivalent (grids)\nA -> B: 0:123456789:123456789:123456789\n  (they are identical: no step)\n" \
               "B -> A: 0:123456789:123456789:123456789\n  (they are identical: no step)\n"
    from sudoku_symmetry.commands import setlogic

    assert setlogic.main(SETLOGIC_ARGS + [EASY]) == 0
    out = capsys.readouterr().out
    assert out.endswith("# 5 eliminations\n")
    return out


@pytest.mark.parametrize("cmd", COMMANDS)
def test_byte_order_mark_is_accepted(cmd, tmp_path, capsys):
    """A UTF-8 byte-order mark at the start of a file (or of standard input) is not a cell."""
    line = BAND if cmd == "band" else EASY if cmd in ("solve", "setlogic") else GRID
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\n")
    extra = SETLOGIC_ARGS if cmd == "setlogic" else []
    want = _expected_output(cmd, capsys)
    assert both(cmd, extra + [str(f)] + ([GRID] if cmd == "equiv" else [])) == (0, want, "")
    stdin_args = extra + (["-", GRID] if cmd == "equiv" else ["-"] if cmd == "setlogic" else [])
    assert run(entry_points(cmd)[0] + stdin_args, stdin="\ufeff" + line + "\n") == (0, want, "")


@pytest.mark.parametrize(
    "cmd, args, needle",
    [
        ("solve", ["--limit", str(2**64)], "--limit"),
        ("solve", ["--limit", str(2**64 - 1)], "--limit"),
        ("solve", ["--limit", str(2**63)], "--limit"),
        ("solve", ["--limit", "0"], "--limit"),
        ("solve", ["--count", "--limit", "-1"], "--limit"),
        ("solve", ["--all", "--cap", "-1"], "--cap"),
        ("setlogic", ["--cap", "0", EASY], "--cap"),
        ("setlogic", ["--max-sets", "-1", EASY], "--max-sets"),
        ("setlogic", ["--max-starts", "0", EASY], "--max-starts"),
        ("setlogic", ["--cap", str(2**64), EASY], "--cap"),
    ],
)
def test_out_of_range_counts_are_refused(cmd, args, needle):
    rc, out, err = run([str(BIN / cmd)] + args, stdin="")
    assert rc == 2 and out == "" and "Traceback" not in err, err
    errors = [ln for ln in err.splitlines() if "error" in ln]
    assert len(errors) == 1 and errors[0].startswith(f"{cmd}: error: argument {needle}"), err


def test_solve_all_limit_stops_at_the_limit():
    for args in (["--all", "--limit", "3"], ["--all", "--cap", "5", "--limit", "3"]):
        rc, out, err = run([str(BIN / "solve")] + args, stdin="." * 81 + "\n")
        lines = out.splitlines()
        assert rc == 0 and len(lines) == 4 and lines[-1] == "# 3 solutions (cap 3 reached: there are more)", \
            (args, out, err)
        assert err.splitlines() == ["solve: the cap (3) was reached: 1 puzzle(s) have more solutions than printed "
                                    "(line 1)"]
        assert len(set(lines[:3])) == 3 and all(len(s) == 81 and "." not in s for s in lines[:3])


def test_sudoku_lists_commands_and_refuses_unknown_ones(capsys, tmp_path):
    from sudoku_symmetry.commands import main as sudoku

    assert sudoku.main(["--help"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: sudoku COMMAND") and err == ""
    assert [ln.split()[0] for ln in out.splitlines()[3:] if ln.startswith("  ")] == list(sudoku.COMMANDS)
    assert sudoku.main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: sudoku COMMAND")
    assert sudoku.main(["nope", "x"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("sudoku: error: unknown command 'nope'") and len(err.splitlines()) == 1
    # a command's own output and status come back unchanged
    f = tmp_path / "bands.txt"
    f.write_text(f"{BAND}\nxyz\n")
    assert sudoku.main(["band", str(f)]) == 2
    assert capsys.readouterr() == run([str(BIN / "band"), str(f)])[1:]
