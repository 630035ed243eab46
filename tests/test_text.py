"""Text <-> arrays: line and block formats, errors that name the line."""
import numpy as np
import pytest

from sudoku_symmetry.engine.text import (
    SudokuFormatError,
    as_batch,
    format_block,
    format_lines,
    format_sudoku,
    parse,
    parse_block,
    parse_lines,
    parse_one,
)

from conftest import RANK1_GRID, read_data_lines


def test_empty_markers_and_round_trip():
    line = "1.0*" + "." * 77
    cells = parse(line)
    assert cells[:4].tolist() == [1, 0, 0, 0]
    assert format_sudoku(cells) == "1" + "." * 80


def test_lines_skip_comments_and_blanks_and_keep_line_numbers():
    p = parse_lines(["# header", "", RANK1_GRID, "  ", "." * 81])
    assert p.sudokus.shape == (2, 81) and p.linenos.tolist() == [3, 5] and p.skipped == 3


@pytest.mark.parametrize(
    "bad, message",
    [("1" * 80, "line 2: expected 81 cells, got 80"), ("1" * 80 + "x", "line 2: invalid character 'x' at position 81")],
)
def test_malformed_line_names_line_number(bad, message):
    with pytest.raises(SudokuFormatError, match=message):
        parse_lines(["." * 81, bad])
    p = parse_lines(["." * 81, bad, "." * 81], errors="collect", source="in.txt")
    assert len(p) == 2 and len(p.errors) == 1 and p.errors[0].lineno == 2
    assert str(p.errors[0]).startswith("in.txt:2:")


def test_suffix_is_kept_aside():
    p = parse_lines(["." * 81 + ":12", RANK1_GRID + ":1:" + RANK1_GRID], allow_suffix=True)
    assert p.suffixes == ["12", "1:" + RANK1_GRID]
    with pytest.raises(SudokuFormatError):
        parse_lines(["." * 81 + ":12"])


def test_block_format_with_and_without_spaces():
    spaced = format_block(parse(RANK1_GRID))
    assert np.array_equal(parse_block(spaced), parse(RANK1_GRID))
    dense = "\n".join(RANK1_GRID[9 * i : 9 * i + 9] for i in range(9))
    assert np.array_equal(parse_one(dense), parse(RANK1_GRID))
    boxed = "\n".join(
        (" | ".join(" ".join(RANK1_GRID[9 * i + 3 * s : 9 * i + 3 * s + 3]) for s in range(3)))
        + ("\n------+-------+------" if i in (2, 5) else "")
        for i in range(9)
    )
    assert np.array_equal(parse_one(boxed), parse(RANK1_GRID))
    with pytest.raises(SudokuFormatError, match="line 2: this row: expected 9 cells"):
        parse_block("123456789\n12345678\n" + "123456789\n" * 7)


def test_shared_file_parses_whole(data_dir):
    lines = read_data_lines("17clue_49158.txt")
    p = parse_lines(lines)
    assert len(p) == 49158 and not p.errors
    assert format_lines(p.sudokus) == lines
    assert ((p.sudokus > 0).sum(axis=1) == 17).all()


def test_bulk_path_agrees_with_line_by_line():
    rng = np.random.default_rng(2)
    cells = rng.integers(0, 10, (50, 81)).astype(np.uint8)
    lines = [s + "\n" for s in format_lines(cells)]
    bulk = parse_lines(lines)  # a list of clean lines takes the numpy path
    careful = parse_lines(iter(lines))  # an iterator takes the per-line path
    assert np.array_equal(bulk.sudokus, cells) and np.array_equal(careful.sudokus, cells)
    assert bulk.linenos.tolist() == careful.linenos.tolist() == list(range(1, 51))
    for odd in ("# comment\n", "1" * 80 + "\n", "1" * 80 + "x\n", "1" * 80 + "é\n", "1" * 81):
        mixed = lines[:5] + [odd] + lines[5:10]
        got = parse_lines(mixed, errors="collect")
        want = parse_lines(iter(mixed), errors="collect")
        assert np.array_equal(got.sudokus, want.sudokus) and got.linenos.tolist() == want.linenos.tolist()
        assert [str(e) for e in got.errors] == [str(e) for e in want.errors]


def test_invisible_character_is_named():
    """A byte-order mark the reader did not drop (one in the middle of a file) is named, not
    counted as a mysterious 82nd cell."""
    p = parse_lines(["." * 81, "\ufeff" + RANK1_GRID], errors="collect")
    assert len(p) == 1 and [str(e) for e in p.errors] == [
        "line 2: expected 81 cells, got 82, including the invisible character U+FEFF at position 1"]
    with pytest.raises(SudokuFormatError, match="U\\+200B at position 3"):
        parse_one(RANK1_GRID[:2] + "\u200b" + RANK1_GRID[2:])


def test_as_batch_reads_string_arrays_and_columns():
    """A NumPy array of strings (or of bytes, or objects: a pandas column) is text, not numbers
    (converting it to uint8 raised OverflowError)."""
    rows = [RANK1_GRID, "." * 80 + "9"]
    want = np.stack([parse(r) for r in rows])
    for arr in (np.array(rows), np.array(rows, dtype=object), np.array([r.encode() for r in rows])):
        assert np.array_equal(as_batch(arr), want)
    assert as_batch(np.array([], dtype=str)).shape == (0, 81)
    with pytest.raises(SudokuFormatError, match="expected 81 cells, got 2"):
        as_batch(np.array(["12"]))
