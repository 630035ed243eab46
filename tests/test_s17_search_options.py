"""``s17-search``'s options read as ``--help`` says: read-only options never make a catalog, a
band-1 range is whole or refused, ``--status`` says what each run does and whether a process still
works it."""
from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path

import pytest

from sudoku_symmetry.commands import s17_search as cmd
from sudoku_symmetry.commands._s17 import parse_ranks

from test_s17_search_command import ENV, FINE, LONG_SLICE, ROOT, _wait_for_checkpoint


def _status(args, capsys) -> tuple[int, str, str]:
    try:
        status = cmd.main(args)
    except SystemExit as exc:  # argparse
        status = exc.code
    got = capsys.readouterr()
    return status, got.out, got.err


@pytest.mark.parametrize("option", [["--table"], ["--status"], ["--export", "-"], ["--export-table", "t.json"]])
def test_read_only_options_never_make_a_catalog(tmp_path, capsys, option, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "new.sqlite"
    status, out, err = _status(option + ["--db", str(db)], capsys)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and "populate" in err, err
    assert list(tmp_path.iterdir()) == []  # no file, no -wal, no -shm


@pytest.mark.parametrize("text", ["1-", "-5", "1-2-3", "3-1", "1,", "1-416", " - "])
def test_a_band1_range_is_whole_or_refused(capsys, text):
    import argparse

    from sudoku_symmetry.commands.enumerate import parse_bands

    for parse in (parse_ranks, parse_bands):  # s17-search and s17-entry; enumerate --band1
        with pytest.raises(argparse.ArgumentTypeError, match="0-415"):
            parse(text)
    status, _, err = _status(["--variant", "A", "--band1-rank", text, "--db", "unused.sqlite"], capsys)
    assert status == 2 and "--band1-rank" in err


def test_ranks_and_the_help_say_the_same():
    assert parse_ranks("1-3,7,2") == [1, 2, 3, 7] and parse_ranks("415") == [415] and parse_ranks("0-1") == [0, 1]
    assert "K-M" in " ".join(a.help for a in cmd.build_parser()._actions if a.dest == "band1_rank")


def test_status_says_what_a_run_does_and_whether_it_runs(tmp_path, capsys):
    """A --store run is listed as storing (not "count only"); a run printing on standard output
    stopped by SIGTERM is listed as stopped, with the age of its last checkpoint."""
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.runs import finish_run, start_or_resume
    from sudoku_symmetry.jobs import s17_search

    db = tmp_path / "c.sqlite"
    engine = open_catalog(str(db))  # a --store run, done (what the command records for one)
    finish_run(engine, start_or_resume(engine, s17_search.KIND, s17_search.parameters("C", [2], [18136, 18137],
                                                                                       None, False)).id)
    engine.dispose()
    p = subprocess.Popen([str(ROOT / "bin" / "s17-search")] + LONG_SLICE + FINE + ["--db", str(db)], env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for_checkpoint(db, p)
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    capsys.readouterr()
    status, out, err = _status(["--status", "--db", str(db)], capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 2, out
    assert "stored, no lines" in lines[0] and "count only" not in lines[0] and "done" in lines[0]
    assert re.search(r"stopped \(no process works it; last checkpoint \d+ s ago", lines[1]), lines[1]
    assert "standard output" in lines[1]


def test_a_bands2_range_past_the_end_is_refused(tmp_path, capsys):
    """Band 1 rank 2 has 54,424 bands 2: a range beyond them is a slip, not "found 0"."""
    db = tmp_path / "c.sqlite"
    status, out, err = _status(["--variant", "C", "--band1-rank", "2", "--bands2", "60000:60010", "--db", str(db)],
                               capsys)
    assert status == 2 and out == ""
    assert err.splitlines() == ["s17-search: error: --bands2 60000:60010 is past the end of band 1 rank 2 "
                                "(it has 54,424 bands 2: 0:54424)"]
    status, out, err = _status(["--variant", "C", "--band1-rank", "2", "--bands2", "54423:60000", "--db", str(db)],
                               capsys)
    assert status == 0 and out.splitlines()[-1].startswith("found ")
    assert "band 1 rank 2 has 54,424 bands 2: searching 54423:54424" in err
