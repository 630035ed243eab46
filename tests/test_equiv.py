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
    # among all transformations A -> B the printed one is the single rotation
    result = equivalence(grid, one.apply(grid))
    assert [str(s) for s in result.forward.steps()] == ["rotate 90 degrees clockwise 1 time"]
    assert str(result.forward) == "1:123456789:987654321:123456789"


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


def _stdin(monkeypatch, data: bytes):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def _one_error(capsys, argv, *needles):
    rc = equiv.main(argv)
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("equiv: error: "), err
    for needle in needles:
        assert needle in err, (needle, err)


def test_command_grid_and_puzzle_named_inputs(tmp_path, capsys, data_dir):
    puzzle = read_data_lines("17clue_49158.txt")[0]
    _one_error(capsys, [RANK1_GRID, puzzle], "A is a grid and B a puzzle", "a grid and a puzzle")
    _one_error(capsys, [puzzle, RANK1_GRID], "A is a puzzle and B a grid", "a grid and a puzzle")
    _one_error(capsys, ["12345", puzzle], "A: '12345': no such file, and not an 81-character sudoku",
               "expected 81 cells, got 5")
    _one_error(capsys, [puzzle, "1" * 80 + "x"], "B: ", "invalid character 'x' at position 81")
    _one_error(capsys, [puzzle, str(tmp_path / "missing.txt")], "B: ", "missing.txt", "no such file")
    _one_error(capsys, [str(tmp_path), puzzle], f"A: {tmp_path}: is a directory")
    binary = tmp_path / "b.dat"
    binary.write_bytes(b"\x00\xff" * 50)
    _one_error(capsys, [puzzle, str(binary)], f"B: {binary}: not a text file")
    two = tmp_path / "two.txt"
    two.write_text(puzzle + "\n" + puzzle + "\n")
    _one_error(capsys, [str(two), puzzle], "A: ", "two.txt", "block format needs 9 rows")


def test_command_reads_standard_input(tmp_path, capsys, monkeypatch, data_dir):
    puzzle = read_data_lines("17clue_49158.txt")[3]
    moved = format_sudoku(Transform.rotation(1).apply(parse(puzzle)))
    for argv in (["-", moved], [puzzle, "-"]):
        _stdin(monkeypatch, b"\xef\xbb\xbf" + (puzzle if argv[0] == "-" else moved).encode() + b"\n")
        assert equiv.main(argv) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == "equivalent (puzzles)" and out[1].startswith("A -> B: ")
        assert np.array_equal(Transform.parse(out[1][8:]).apply(parse(puzzle)), parse(moved))
    _stdin(monkeypatch, b"\xff\xfe" + b"1" * 81)
    _one_error(capsys, ["-", puzzle], "A: <stdin>: not a text file")
    with pytest.raises(SystemExit) as exc:
        equiv.main(["-", "-"])
    assert exc.value.code == 2 and "only one of A and B" in capsys.readouterr().err


def test_command_refuses_conflicting_givens(capsys):
    bad_grid = RANK1_GRID[:-1] + "1"  # a complete grid with 1 twice in row 9: not a grid
    _one_error(capsys, [RANK1_GRID, bad_grid], "B: the givens conflict: digit 1 repeated in row 9 at r9c6, r9c9",
               "(and 2 more)")
    _one_error(capsys, ["11" + "." * 79, "." * 81], "A: the givens conflict: digit 1 repeated in row 1")
