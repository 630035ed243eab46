"""Searches that find millions of puzzles run in bounded memory: the text format prints them a
batch at a time (a part of the search that finds more than a batch is split at a cell and each
half searched alone); what must hold them together (``puzzles_in_grid``, a CSV or JSON row, a
stored run) refuses beyond its cap in one line with the number, and a list cut by ``--limit``
says so. Checked with small caps, against the obvious counts (every 2 cells of a grid can be
emptied: no unavoidable set has fewer than 4) and against the search in one piece."""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from math import comb

import numpy as np
import pytest

from sudoku_symmetry.commands import find_puzzles as cmd
from sudoku_symmetry.engine.text import format_sudoku, parse
from sudoku_symmetry.engine.unavoidable import TooManyPuzzles, puzzle_batches, puzzles_in_grid
from sudoku_symmetry.engine.unavoidable import puzzles as P
from sudoku_symmetry.engine.unavoidable.sets import arrays_to_masks, minimal_uas

from conftest import RANK1_GRID

GRID = "693784512487512936125963874932651487568247391741398625319475268856129743274836159"


def _sets(puzzles: np.ndarray) -> set[tuple[int, int]]:
    return {tuple(m) for m in arrays_to_masks(puzzles).tolist()}


def test_batches_are_bounded_and_hold_every_puzzle_once():
    found = puzzle_batches(GRID, 79, batch=64)
    sizes, every = [], set()
    for part in found:
        sizes.append(len(part))
        every |= _sets(part)
        assert all((part[k] == 0).sum() == 2 for k in range(len(part)))
    assert max(sizes) <= 64 and len(sizes) >= comb(81, 2) // 64
    assert found.found == sum(sizes) == len(every) == comb(81, 2) and found.complete
    cells = parse(GRID)
    for removed in itertools.combinations(range(81), 2):  # every 2 cells emptied: a puzzle of the grid
        p = cells.copy()
        p[list(removed)] = 0
        assert tuple(arrays_to_masks(p[None, :])[0].tolist()) in every


def test_a_split_search_finds_what_the_whole_one_finds():
    """Rows 1-2 of the catalog's first grid free, the rest given, 75 clues: 6 of the 18 cells
    emptied, every choice but the three 6-cell unavoidable sets there (columns 1, 4, 7 and their
    shifts: row 2 is row 1 moved by three). Batches of 500 split the search many times, and its
    first part (the givens already hit every other set) lists supersets until its batch fills:
    the same sets as in one piece, each once."""
    grid = parse(RANK1_GRID)
    uas, _ = minimal_uas(grid, P.SEARCH_UA_SIZE)
    given = (((1 << 64) - 1) & ~((1 << 18) - 1), (1 << 17) - 1)  # cells 18..80
    whole, complete, _ = P.search_masks(grid, 75, uas, given=given)
    parts = list(P.iter_masks(grid, 75, uas, given=given, batch=500))
    split = np.concatenate(parts)
    assert complete and max(len(p) for p in parts) <= 500 and len(parts) > 10
    assert len({tuple(m) for m in split.tolist()}) == len(split)
    assert {tuple(m) for m in split.tolist()} == {tuple(m) for m in whole.tolist()}
    assert len(whole) == comb(18, 6) - 3


def test_what_holds_them_together_refuses_beyond_its_cap(capsys, monkeypatch):
    with pytest.raises(TooManyPuzzles, match=r"^more than 100 puzzles of 79 clues"):
        puzzles_in_grid(GRID, 79, max_puzzles=100)
    cut = puzzles_in_grid(GRID, 79, limit=100, max_puzzles=100)  # a limit: cut, and said so
    assert len(cut) == 100 and not cut.complete
    monkeypatch.setattr(cmd, "ROW_MAX", 100)
    assert cmd.main(["--clues", "79", "--format", "csv", GRID]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "more than 100 puzzles" in err[0] and "--limit" in err[0], err
    assert cmd.main(["--clues", "79", "--limit", "5", GRID]) == 0
    got = capsys.readouterr()
    assert len(got.out.splitlines()) == 6 and "5 puzzles (limit 5 reached: there may be more)" in got.err


def test_the_text_format_prints_any_number_a_batch_at_a_time(capsys, monkeypatch):
    monkeypatch.setattr(P, "BATCH", 512)
    assert cmd.main(["--clues", "79", GRID]) == 0
    got = capsys.readouterr()
    lines = got.out.splitlines()
    assert lines[0] == f"# {GRID}: 79 clues" and len(lines) == 1 + comb(81, 2) == 1 + len(set(lines[1:]))
    assert f"{comb(81, 2)} puzzles (complete)" in got.err


CHILD = """
import sys
from sudoku_symmetry.engine.unavoidable import puzzles
puzzles.BATCH = 256
from sudoku_symmetry.commands.find_puzzles import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("clues", [70, 75])
def test_many_clues_stream_in_bounded_memory(clues):
    """--clues 70 and 75 of a grid: hundreds of millions of puzzles. The first 30,000 lines come
    out while the search runs, and the process's peak memory stays that of a small command."""
    p = subprocess.Popen([sys.executable, "-c", CHILD, "--clues", str(clues), GRID], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        header = p.stdout.readline()
        assert header == f"# {GRID}: {clues} clues\n", p.stderr.read() if p.poll() is not None else header
        for _ in range(30_000):
            line = p.stdout.readline()
            assert len(line) == 82 and line.count(".") == 81 - clues
        with open(f"/proc/{p.pid}/status") as fh:
            peak = next(int(l.split()[1]) for l in fh if l.startswith("VmHWM:")) // 1024  # MB
        assert p.poll() is None  # still searching: the lines came as they were found
        assert peak < 700, f"peak memory {peak} MB after {time.monotonic() - t0:.0f} s"
    finally:
        p.kill()
        p.communicate()
