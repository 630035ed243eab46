"""Where long runs write their lines, and what a rerun does with them (issue 23): ``--out`` never
the catalog's own files, a finished ``--out`` file made again when deleted and refused (with the
command that makes it again) when changed, ``--out -`` and ``--out /dev/stdout`` are standard
output, ``canon --store`` prints every form every time and its summary describes the run, and a
pipe given to ``canon --store`` is stored like standard input."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_symmetry.commands import enumerate as enum_cmd
from sudoku_symmetry.commands import patterns as patterns_cmd
from sudoku_symmetry.commands import s17_entry as s17_cmd

from conftest import read_data_lines

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

# the three commands whose lines can go to --out, each on a small run
RUNS = [(enum_cmd, "enumerate", ["--band1", "415"]),
        (s17_cmd, "s17-entry", ["--variant", "C", "--band1-rank", "415"]),
        (patterns_cmd, "patterns", ["--cells", "3", "--digits"])]
IDS = [name for _, name, _ in RUNS]


@pytest.mark.parametrize("cmd, name, args", RUNS, ids=IDS)
@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_out_is_never_the_catalog(cmd, name, args, suffix, tmp_path, capsys, monkeypatch):
    db = tmp_path / "cat.sqlite"
    assert cmd.main(args + ["--count-only", "--db", str(db)]) == 0
    files = {f: f.read_bytes() for f in tmp_path.iterdir()}
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)  # the same file by another name: resolved paths are compared
    assert cmd.main(args + ["--out", f"./sub/../cat.sqlite{suffix}", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "catalog's own file" in err and err.startswith(f"{name}: error:")
    assert {f: f.read_bytes() for f in tmp_path.iterdir()} == files  # nothing created, nothing changed


@pytest.mark.parametrize("cmd, name, args", RUNS, ids=IDS)
def test_a_deleted_out_file_is_made_again(cmd, name, args, tmp_path, capsys):
    db, out = str(tmp_path / "c.sqlite"), tmp_path / "lines.txt"
    assert cmd.main(args + ["--out", str(out), "--db", db]) == 0
    first = out.read_bytes()
    assert first
    out.unlink()
    assert cmd.main(args + ["--out", str(out), "--db", db]) == 0
    assert out.read_bytes() == first
    assert cmd.main(args + ["--out", str(out), "--db", db]) == 0  # finished and intact: nothing to do
    assert out.read_bytes() == first
    assert "already complete" in capsys.readouterr().err


@pytest.mark.parametrize("cmd, name, args", RUNS, ids=IDS)
@pytest.mark.parametrize("change", ["shorter", "edited"])
def test_a_changed_out_file_is_refused_with_the_command_that_redoes_it(cmd, name, args, change, tmp_path, capsys):
    db, out = str(tmp_path / "c.sqlite"), tmp_path / "lines.txt"
    argv = args + ["--out", str(out), "--db", db]
    assert cmd.main(argv) == 0
    first = out.read_bytes()
    if change == "shorter":
        out.write_bytes(first[: len(first) // 2])
    else:  # same length, one byte changed
        out.write_bytes(first[:3] + (b"9" if first[3:4] != b"9" else b"8") + first[4:])
    changed = out.read_bytes()
    capsys.readouterr()
    assert cmd.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "changed outside the run" in err
    redo = err.split("to make it again: ", 1)[1]
    assert redo == f"rm {shlex.quote(str(out))} && " + shlex.join([f"bin/{name}", *argv])
    assert out.read_bytes() == changed  # refused: left as it was
    r = subprocess.run(redo, shell=True, cwd=ROOT, env=ENV, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == first


@pytest.mark.parametrize("cmd, name, args", RUNS, ids=IDS)
def test_out_dash_is_standard_output(cmd, name, args, tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "c.sqlite")
    assert cmd.main(args + ["--db", db]) == 0
    want = capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    assert cmd.main(args + ["--out", "-", "--db", db]) == 0
    assert capsys.readouterr().out == want and want
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("cmd, name, args", RUNS, ids=IDS)
def test_out_dev_stdout_writes_to_standard_output(cmd, name, args, tmp_path):
    db = str(tmp_path / "c.sqlite")
    module = f"sudoku_symmetry.commands.{name.replace('-', '_')}"
    plain = subprocess.run([str(ROOT / "bin" / name), *args, "--db", db], env=ENV, capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    for how in ("pipe", "file"):
        if how == "pipe":
            r = subprocess.run([str(ROOT / "bin" / name), *args, "--out", "/dev/stdout", "--db", db], env=ENV,
                               capture_output=True, text=True)
            got = r.stdout
        else:  # standard output redirected to a file
            target = tmp_path / "redirected.txt"
            with open(target, "w") as fh:
                r = subprocess.run([sys.executable, "-m", module, *args, "--out",
                                    "/dev/stdout", "--db", db], env=ENV, stdout=fh, stderr=subprocess.PIPE, text=True)
            got = target.read_text()
        assert r.returncode == 0, r.stderr
        assert got == plain.stdout, how


def test_canon_store_prints_every_form_every_time(tmp_path, data_dir):
    src = tmp_path / "top.txt"
    src.write_text("\n".join(read_data_lines("top1465.txt")[:300] + ["12"]) + "\n")
    copy = tmp_path / "same-content.txt"
    copy.write_bytes(src.read_bytes())
    db = str(tmp_path / "c.sqlite")
    plain = subprocess.run([str(ROOT / "bin" / "canon"), str(src)], env=ENV, capture_output=True, text=True)
    runs = [subprocess.run([str(ROOT / "bin" / "canon"), "--store", "--db", db, str(f)], env=ENV, capture_output=True,
                           text=True) for f in (src, src, copy)]
    assert all(r.returncode == 2 for r in runs)
    assert all(r.stdout == plain.stdout for r in runs) and len(plain.stdout.splitlines()) == 301
    summaries = [r.stderr.splitlines()[-1] for r in runs]
    assert summaries == ["canon: read 301, malformed 1, new 300, already known 0"] + \
        ["canon: read 301, malformed 1, new 0, already known 300"] * 2
    assert "already stored (run 1)" in runs[2].stderr


def test_canon_store_of_a_pipe_is_stored_like_standard_input(tmp_path, data_dir):
    src = data_dir / "top1465.txt"
    db = tmp_path / "c.sqlite"
    plain = subprocess.run([str(ROOT / "bin" / "canon"), str(src)], env=ENV, capture_output=True, text=True)
    r = subprocess.run(["bash", "-c", f'"{ROOT}/bin/canon" --store --db "{db}" <(cat "{src}")'], env=ENV,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == plain.stdout
    assert "canon: read 1465, malformed 0, new 1464, already known 1" in r.stderr
    # a cluster cannot share out a pipe: refused, naming it
    r = subprocess.run(["bash", "-c", f'"{ROOT}/bin/canon" --store --workers 2 --db "{db}" <(cat "{src}")'], env=ENV,
                       capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert "/dev/fd/" in r.stderr and "not a regular file" in r.stderr
