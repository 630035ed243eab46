"""Patterns and configurations near 81 cells (issue 23 item 5).

What is true there: a pattern's complement is a pattern, and the complement commutes with every
position map, so the ED patterns of n and of 81 - n cells are equinumerous (checked below by
enumeration against Burnside's count, an independent computation). Configurations are not like
that: a configuration of 81 clues is a solution grid (5,472,730,538 of them up to the group,
counted by ``bin/enumerate``), one of 80 clues is a grid with one cell emptied (its 80 digits
leave one digit 8 times, missing from exactly the empty cell's row, column and box), so their ED
classes number in the hundreds of billions: nothing an enumeration of configurations reaches,
and near 81 the patterns are so symmetric that the search cannot hold their automorphisms.
So ``patterns --cells 78|80|81 --digits`` says so in one line (exit 2) instead of a traceback."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sudoku_symmetry.engine.patterns import enumeration
from sudoku_symmetry.engine.patterns.burnside import pattern_counts

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_patterns_of_n_and_81_minus_n_cells_are_equinumerous(n):
    burnside = pattern_counts()
    assert enumeration.count(n) == enumeration.count(81 - n) == burnside[n] == burnside[81 - n]


@pytest.mark.parametrize("n, needle", [
    (78, "a pattern of 78 cells has more automorphisms than the configuration search holds"),
    (80, "a pattern of 80 cells has more automorphisms than the configuration search holds"),
    (81, "configurations of 81 clues are the solution grids: bin/enumerate --all --count-only counts the "
         "5,472,730,538 essentially different ones"),
])
def test_configurations_near_81_clues_are_refused_in_one_line(tmp_path, n, needle):
    """``--cells 78|80|81 --digits --count-only`` ended in ``RuntimeError`` (exit 1)."""
    r = subprocess.run([sys.executable, "-m", "sudoku_symmetry.commands.patterns", "--cells", str(n), "--digits",
                        "--count-only", "--db", str(tmp_path / "c.sqlite")],
                       capture_output=True, text=True, env=ENV, timeout=600)
    assert r.returncode == 2 and r.stdout == "", r
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"patterns: error: {needle}"), r.stderr

