"""find-puzzles --pattern and vicinity as a user runs them: the lines, the counts, the rows, the
picture, bad lines in their place, and the stored runs (a second run adds nothing, a killed or
stopped run resumes to the rows of an uninterrupted one)."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import numpy as np

from conftest import read_data_lines
from sudoku_symmetry.commands import find_puzzles, vicinity
from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.jobs import pattern_puzzles as pattern_job
from sudoku_symmetry.engine.explore import neighbourhood, puzzles_on_pattern, walk
from sudoku_symmetry.engine.text import format_lines

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SUDOKU_TEST_WARMUP": "0"}
P17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
PATTERN = "".join("x" if c != "." else "." for c in P17)
FIXED = P17[:64] + "." * 17
# a list 17 whose {-1+1} holds another list 17, and that one
NEAR_A = ".................1.....2.3......45....1.6.....4......7....8.4....9...2..3.61...9."
NEAR_B = "................12.....3..4.....56....1.7.....5.....8.....9.5....2...3..4.71....."


def test_pattern_lines(capsys):
    assert find_puzzles.main(["--pattern", P17, "--fixed", FIXED]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"# {PATTERN}: 17 cells, 1 automorphism", P17]
    assert "1 class of puzzles (once per class under its 1 automorphism), 1 on the pattern" in err
    assert find_puzzles.main(["--pattern", PATTERN, "--fixed", FIXED, "--count-only"]) == 0
    assert capsys.readouterr().out == f"{PATTERN} 1 1 1\n"


def test_a_file_of_patterns_a_block_and_bad_lines(tmp_path, capsys):
    block = "\n".join(" ".join(PATTERN[9 * i:9 * i + 9].replace("x", "X")) for i in range(9))
    (tmp_path / "block.txt").write_text("# the pattern of a 17\n" + block + "\n")
    assert find_puzzles.main(["--pattern", str(tmp_path / "block.txt"), "--fixed", FIXED]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [P17]
    few = PATTERN[:40] + "." * 41  # 9 cells: no puzzle
    row = "x" * 9 + "." * 72  # a whole row: too symmetric for the search
    (tmp_path / "many.txt").write_text(f"{few}\nnot a pattern\n{row}\n")
    assert find_puzzles.main(["--pattern", str(tmp_path / "many.txt"), "--count-only"]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{few} 0 0 24", "error line 2: a pattern has 81 cells, got 13",
                                "error line 3: the pattern has 186,624 automorphisms: too symmetric to search "
                                "(at most 65,536)"]
    assert f"error: {tmp_path / 'many.txt'}:2:" in err


def test_pattern_rows_and_picture(tmp_path, capsys):
    svg = tmp_path / "p.svg"
    assert find_puzzles.main(["--pattern", P17, "--fixed", FIXED, "--format", "jsonl", "--svg", str(svg)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["classes"], row["on_pattern"], row["automorphisms"], row["puzzles"]) == (1, 1, 1, [P17])
    text = svg.read_text()
    assert text.startswith("<svg") and text.count('class="cell"') == 2 * 81
    assert find_puzzles.main(["--pattern", P17, "--clues", "17"]) == 2
    assert "--pattern goes without --clues" in capsys.readouterr().err


def test_the_pattern_of_a_symmetric_puzzle_lists_its_automorphisms(capsys):
    # rows 1-9 of a pattern symmetric under the 180-degree turn
    pat = np.zeros(81, bool)
    pat[[0, 4, 10, 20, 30, 40]] = True
    pat |= pat[::-1].copy()
    text = "".join("x" if v else "." for v in pat)
    assert find_puzzles.main(["--pattern", text, "--limit", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    group = int(out[0].split(", ")[1].split()[0])
    assert group >= 2 and len([ln for ln in out if ln.startswith("# automorphism ")]) == group - 1


def test_vicinity_lines(capsys):
    assert vicinity.main([NEAR_A]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[1:] == [NEAR_B]
    assert out.startswith(f"# {NEAR_A}: {{-1+1}}: 1 class, ")
    assert vicinity.main(["--known", "/dev/null", "--minus", "1", "--plus", "1", "--clues", "16", NEAR_A]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == []


def test_vicinity_walk_and_known(tmp_path, capsys):
    known = tmp_path / "known.txt"
    known.write_text(NEAR_B + "\n")
    assert vicinity.main(["--closure", "3", NEAR_A]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["# step 1: 1 new class", NEAR_B, "# step 2: 0 new classes"]
    assert vicinity.main(["--closure", "3", "--known", str(known), NEAR_A]) == 0
    assert capsys.readouterr().out.splitlines() == ["# step 1: 0 new classes"]


def test_vicinity_bad_lines_and_rows(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(f"{NEAR_A}\n11{'.' * 79}\n{'.' * 81}\n")
    assert vicinity.main(["--format", "csv", str(path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "source,line,input,minus,plus,minimal,clues,rating,found,candidates,puzzles,error"
    assert out[1].endswith(f",1,1,false,,,1,{neighbourhood(NEAR_A).checked},{NEAR_B},")
    assert "not a puzzle: digit 1 repeated in row 1" in out[2]
    assert out[3].endswith(",cannot remove 1 clues from a puzzle of 0")


def _sql(db, query):
    with sqlite3.connect(db) as con:
        return con.execute(query).fetchall()


def test_stored_walk_and_a_second_run(tmp_path, capsys):
    path = tmp_path / "start.txt"
    path.write_text(NEAR_A + "\n")
    db = str(tmp_path / "c.sqlite")
    assert vicinity.main(["--store", "--closure", "3", "--db", db, str(path)]) == 0
    want = [(0, format_lines(canon_puzzles(NEAR_A).forms)[0]), (1, format_lines(canon_puzzles(NEAR_B).forms)[0])]
    assert _sql(db, "SELECT step, canonical FROM vicinity_walks ORDER BY step") == want
    assert sorted(_sql(db, "SELECT canonical FROM configurations")) == sorted((f,) for _, f in want)
    capsys.readouterr()
    assert vicinity.main(["--store", "--closure", "3", "--db", db, str(path)]) == 0
    assert "(already done)" in capsys.readouterr().err
    assert _sql(db, "SELECT count(*) FROM vicinity_walks") == [(2,)]


def _kill_after_checkpoints(argv, db, checkpoints):
    """Run a command, SIGKILL it once ``checkpoints`` chunks are committed; True if killed."""
    p = subprocess.Popen(argv, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 600
    while p.poll() is None and time.time() < deadline:
        try:
            done = _sql(db, "SELECT coalesce(sum(items_done), 0) FROM run_checkpoints")[0][0]
            chunks = _sql(db, "SELECT count(*) FROM run_checkpoints")[0][0]
        except sqlite3.Error:
            done = chunks = 0
        if done + chunks >= checkpoints:
            p.send_signal(signal.SIGKILL)
            p.wait()
            return True
        time.sleep(0.05)
    p.communicate(timeout=600)
    return False


def test_stored_walk_killed_and_resumed_gives_the_same_rows(tmp_path, capsys):
    # the uninterrupted run and the resumed one in this process, the killed one in its own
    lines = read_data_lines("17clue_49158.txt")[:12]
    path = tmp_path / "start.txt"
    path.write_text("\n".join(lines) + "\n")
    whole, cut = str(tmp_path / "whole.sqlite"), str(tmp_path / "cut.sqlite")
    args = ["--store", "--closure", "2", "--chunk", "2", str(path)]
    assert vicinity.main([*args, "--db", whole]) == 0
    assert _kill_after_checkpoints([str(ROOT / "bin" / "vicinity"), *args, "--db", cut], cut, 3)
    assert vicinity.main([*args, "--db", cut]) == 0
    query = "SELECT walk, step, canonical FROM vicinity_walks ORDER BY canonical"
    assert _sql(cut, query) == _sql(whole, query)
    steps = list(walk(lines, 1, 1, 2))
    assert sorted(r[2] for r in _sql(whole, query) if r[1] > 0) == sorted(f for s in steps for f in s.forms)


class _Stop(Exception):
    pass


def test_stored_patterns_stopped_and_resumed_give_the_same_rows(tmp_path, capsys, monkeypatch):
    lines = read_data_lines("17clue_49158.txt")
    path = tmp_path / "patterns.txt"
    path.write_text("\n".join("".join("x" if c != "." else "." for c in lines[k]) for k in (40, 41)) + "\n")
    whole, cut = str(tmp_path / "whole.sqlite"), str(tmp_path / "cut.sqlite")
    fixed = ["--fixed", lines[40][:50] + "." * 31]
    # with --fixed one pattern only: a file of two is refused
    assert find_puzzles.main(["--pattern", str(path), "--store", "--minimal", *fixed, "--db", whole]) == 2
    assert "--fixed goes with one pattern" in capsys.readouterr().err
    single = tmp_path / "one.txt"
    single.write_text(path.read_text().splitlines()[0] + "\n")
    args = ["--pattern", str(single), "--store", "--minimal", *fixed]
    assert find_puzzles.main([*args, "--db", whole]) == 0
    # a run stopped inside its last chunk's transaction (the puzzle stored, the pattern's record
    # and the end not), then run again: the walk test above kills a process, this one stops in
    # this process, at a chosen point
    real, calls = pattern_job.write, []

    def stopping(conn, found, **kw):
        calls.append(len(found))
        if len(calls) == 2:
            raise _Stop
        return real(conn, found, **kw)

    monkeypatch.setattr(pattern_job, "BUDGET", 2_000)  # chunks of 2,000 search nodes: two here
    monkeypatch.setattr(pattern_job, "write", stopping)
    try:
        find_puzzles.main([*args, "--db", cut])
    except _Stop:
        pass
    assert len(calls) == 2 and _sql(cut, "SELECT count(*) FROM pattern_searches") == [(0,)]
    assert _sql(cut, "SELECT count(*) FROM configurations") == [(1,)]
    monkeypatch.setattr(pattern_job, "write", real)
    assert find_puzzles.main([*args, "--db", cut]) == 0
    q = "SELECT canonical FROM configurations ORDER BY canonical"
    assert _sql(cut, q) == _sql(whole, q)
    found = puzzles_on_pattern(single.read_text().strip(), fixed=fixed[1], minimal=True)
    assert [r[0] for r in _sql(whole, q)] == sorted(set(format_lines(canon_puzzles(found.puzzles).forms)))
    rec = "SELECT pattern, fixed, minimal, classes, on_pattern, complete FROM pattern_searches"
    assert _sql(cut, rec) == _sql(whole, rec) == [(single.read_text().strip(), fixed[1], 1, found.classes,
                                                   found.on_pattern, 1)]
