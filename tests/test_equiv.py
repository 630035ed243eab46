"""Equivalence of two sudokus and the bin/equiv command."""
import numpy as np
import pytest

from sudoku_symmetry.engine.canon.equivalence import equivalence
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.text import format_sudoku, parse
from sudoku_symmetry.engine.group.transform import Transform, compose_all
from sudoku_symmetry.commands import equiv

from conftest import RANK1_GRID, read_data_lines


def _moved_clue(puzzle: str, rng) -> str:
    """The puzzle with one clue moved to an empty cell where it breaks no rule."""
    cells = parse(puzzle)
    given = np.flatnonzero(cells)
    empty = np.flatnonzero(cells == 0)
    for src in rng.permutation(given):
        for dst in rng.permutation(empty):
            out = cells.copy()
            out[dst], out[src] = out[src], 0
            from sudoku_symmetry.engine.validity import is_valid

            if is_valid(out)[0]:
                return format_sudoku(out)
    raise AssertionError("no legal move")


@pytest.mark.parametrize("seed", range(6))
def test_transformed_pairs_are_recognised_with_working_steps(data_dir, seed):
    rng = np.random.default_rng(seed)
    lines = read_data_lines("17clue_49158.txt")
    a = parse(lines[int(rng.integers(len(lines)))]) if seed % 2 else random_grids(1, seed=seed)[0]
    b = Transform.random(rng).apply(a)
    result = equivalence(a, b)
    assert result.equivalent and result.kind == ("puzzle" if seed % 2 else "grid")
    assert np.array_equal(compose_all(s.transform for s in result.forward.steps()).apply(a), b)
    assert np.array_equal(compose_all(s.transform for s in result.backward.steps()).apply(b), a)


def test_fewest_steps_are_chosen():
    grid = parse(RANK1_GRID)
    same = equivalence(grid, grid)
    assert same.equivalent and same.forward.steps() == []
    one = Transform.rotation(1)
    # among all transformations A -> B (3 here) the printed one has at most one step
    assert len(equivalence(grid, one.apply(grid)).forward.steps()) <= 1


@pytest.mark.parametrize("seed", range(4))
def test_one_clue_moved_is_not_equivalent(data_dir, seed):
    rng = np.random.default_rng(100 + seed)
    puzzle = read_data_lines("17clue_49158.txt")[int(rng.integers(49158))]
    assert not equivalence(puzzle, _moved_clue(puzzle, rng)).equivalent


def test_command_prints_steps_that_work(tmp_path, capsys, data_dir):
    a = read_data_lines("17clue_49158.txt")[7]
    t = Transform.random(np.random.default_rng(1))
    b_file = tmp_path / "b.txt"
    cells = t.apply(parse(a))
    b_file.write_text("\n".join(" ".join(format_sudoku(cells)[9 * i : 9 * i + 9]) for i in range(9)) + "\n")
    assert equiv.main([a, str(b_file)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "equivalent (puzzles)"
    forward = Transform.parse(out[1].split(": ", 1)[1])
    assert np.array_equal(forward.apply(parse(a)), cells)
    back_line = next(line for line in out if line.startswith("B -> A: "))
    assert np.array_equal(Transform.parse(back_line[8:]).apply(cells), parse(a))


def test_command_exit_status(tmp_path, capsys, data_dir):
    lines = read_data_lines("17clue_49158.txt")
    assert equiv.main([lines[0], lines[1]]) == 1
    assert "not equivalent" in capsys.readouterr().out
    capsys.readouterr()
    assert equiv.main([lines[0], RANK1_GRID]) == 2  # a puzzle against a grid: bad input
    assert "A is a puzzle and B a grid" in capsys.readouterr().err
    assert equiv.main([lines[0], "12345"]) == 2
    assert "expected 81 cells" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("123456789\n" * 8 + "12345678x\n")
    assert equiv.main([str(bad), lines[0]]) == 2
    assert "bad.txt:9: this row: invalid character" in capsys.readouterr().err
