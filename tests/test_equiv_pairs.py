"""bin/equiv: the pair file, --show, --random-pair, and the exact fewest steps for nearly empty puzzles."""
import numpy as np
import pytest

from sudoku_symmetry.commands import equiv
from sudoku_symmetry.engine.canon.equivalence import _fewest_steps, equivalence, fewest_step_transform
from sudoku_symmetry.engine.canon.puzzle import automorphisms_from, canon_puzzle
from sudoku_symmetry.engine.group.transform import Transform, compose, compose_all
from sudoku_symmetry.engine.text import SudokuFormatError, format_pair, format_sudoku, parse, parse_pair
from sudoku_symmetry.engine.validity import conflicts

from conftest import RANK1_GRID, read_data_lines


def _run(capsys, argv):
    rc = equiv.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _block(cells, sep=" ") -> str:
    s = format_sudoku(cells).replace(".", "0")
    return "\n".join(sep.join(s[9 * i : 9 * i + 9]) for i in range(9))


def test_pair_file_both_ways(tmp_path, capsys, data_dir):
    a = parse(read_data_lines("17clue_49158.txt")[11])
    b = Transform.random(np.random.default_rng(4)).apply(a)
    for sep, bom in ((" ", b""), ("", b"\xef\xbb\xbf")):
        path = tmp_path / "pair.txt"
        path.write_bytes(bom + (_block(a, sep) + "\n\n" + _block(b, sep) + "\n").encode())
        rc, out, err = _run(capsys, [str(path)])
        lines = out.splitlines()
        assert rc == 0 and lines[0] == "equivalent (puzzles)", err
        assert np.array_equal(Transform.parse(lines[1][8:]).apply(a), b)
    # two 81-character lines work too; the format round-trips
    assert [x.tolist() for x in parse_pair(format_sudoku(a) + "\n" + format_sudoku(b) + "\n")] == [a.tolist(), b.tolist()]
    assert [x.tolist() for x in parse_pair(format_pair(a, b))] == [a.tolist(), b.tolist()]
    assert format_pair(a, b).count("\n") == 19 and "\n\n" in format_pair(a, b)


def test_pair_file_errors(tmp_path, capsys):
    short = tmp_path / "short.txt"
    short.write_text("\n".join(["0 0 0 0 0 0 0 0 0"] * 17) + "\n")
    rc, out, err = _run(capsys, [str(short)])
    assert rc == 2 and out == "" and "found 17 rows" in err and len(err.splitlines()) == 1
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(["0 0 0 0 0 0 0 0 0"] * 12 + ["0 0 x 0 0 0 0 0 0"] + ["0 0 0 0 0 0 0 0 0"] * 5) + "\n")
    rc, out, err = _run(capsys, [str(bad)])
    assert rc == 2 and "bad.txt:13: this row: invalid character 'x'" in err
    rc, out, err = _run(capsys, [str(tmp_path / "missing.txt")])
    assert rc == 2 and "no such file" in err
    with pytest.raises(SudokuFormatError):
        parse_pair("1" * 81)


def test_show_prints_both_side_by_side(capsys):
    a = "1" + "." * 79 + "2"
    b = format_sudoku(Transform.rotation(2).apply(parse(a)))
    rc, out, err = _run(capsys, ["--show", a, b])
    lines = out.splitlines()
    assert rc == 0
    assert lines[0].split() == ["A", "B"]
    assert lines[1] == "+-------+-------+-------+   +-------+-------+-------+"
    assert lines[2] == "| 1 . . | . . . | . . . |   | 2 . . | . . . | . . . |"
    assert lines[12] == "| . . . | . . . | . . 2 |   | . . . | . . . | . . 1 |"
    assert lines[13] == lines[1] and lines[14] == "equivalent (puzzles)"


def test_random_pair_agrees_with_equiv_over_many_seeds(tmp_path, capsys):
    seen = set()
    for seed in range(16):
        givens = (0 if seed == 0 else 81 if seed == 1 else 2 + seed % 5 if seed % 3 == 0 else 18 + seed)
        argv = ["--random-pair", "--seed", str(seed), "--givens", str(givens)]
        if givens == 0:
            argv.append("--related")
        rc, out, err = _run(capsys, argv)
        assert rc == 0, err
        related = err.strip().endswith(": related")
        assert err.strip() in (f"equiv: random pair, seed {seed}: related", f"equiv: random pair, seed {seed}: unrelated")
        seen.add(related)
        a, b = parse_pair(out)
        assert int((a > 0).sum()) == int((b > 0).sum()) == givens and not conflicts(a) and not conflicts(b)
        assert _run(capsys, argv) == (0, out, err)  # the seed makes it reproducible
        path = tmp_path / f"pair{seed}.txt"
        assert _run(capsys, argv + ["--out", str(path)])[:2] == (0, "")
        assert path.read_text() == out
        rc, verdict, _ = _run(capsys, [str(path)])
        assert rc == (0 if related else 1) and verdict.startswith("equivalent" if related else "not equivalent")
    assert seen == {True, False}
    for flag, want in (("--related", 0), ("--unrelated", 1)):
        rc, out, err = _run(capsys, ["--random-pair", flag, "--seed", "7", "--givens", "3"])
        path = tmp_path / "forced.txt"
        path.write_text(out)
        assert _run(capsys, [str(path)])[0] == want


def test_random_pair_bad_options(capsys):
    rc, out, err = _run(capsys, ["--random-pair", "--unrelated", "--givens", "1", "--seed", "1"])
    assert rc == 2 and "no unrelated pair" in err
    for argv, needle in ((["--random-pair", "--givens", "82"], "--givens"), (["--seed", "3", RANK1_GRID, RANK1_GRID], "--seed goes with"),
                         (["--random-pair", RANK1_GRID], "takes no A or B"), ([], "give A and B"),
                         (["--random-pair", "--related", "--unrelated"], "not allowed with")):
        with pytest.raises(SystemExit) as exc:
            equiv.main(argv)
        assert exc.value.code == 2 and needle in capsys.readouterr().err


@pytest.mark.parametrize("puzzle", ["1" + "." * 79 + "2", "12" + "." * 79, "1...5" + "." * 70 + "3.....",
                                    "." * 40 + "7" + "." * 40])
def test_half_turn_of_nearly_empty_puzzle_is_one_step(puzzle, capsys):
    a = parse(puzzle)
    b = Transform.rotation(2).apply(a)
    result = equivalence(a, b)
    assert result.fewest_proven
    for t, src, dst in ((result.forward, a, b), (result.backward, b, a)):
        assert len(t.steps()) <= 1 and np.array_equal(t.apply(src), dst)
    rc, out, _ = _run(capsys, [puzzle, format_sudoku(b)])
    assert rc == 0 and "not proven" not in out
    assert sum(line.startswith("  1. ") for line in out.splitlines()) <= 2
    assert not any(line.startswith("  2. ") for line in out.splitlines())


def test_step_search_matches_the_automorphism_search():
    """On small puzzles with few enough automorphisms to list, the search by step count finds a
    transformation with exactly as many steps, and the same one (same tie-break)."""
    rng = np.random.default_rng(5)
    done = 0
    while done < 5:
        n = int(rng.integers(5, 9))
        a = np.zeros(81, np.uint8)
        a[rng.choice(81, n, replace=False)] = rng.integers(1, 10, n)
        if conflicts(a):
            continue
        _, ta, count = canon_puzzle(a)
        if count > 3000:
            continue
        t = Transform.rotation(2) if done % 2 == 0 else Transform.random(rng)
        b = t.apply(a)
        _, tb, _ = canon_puzzle(b)
        t_ab = compose(ta, tb.inverse())
        old = _fewest_steps([compose(x, t_ab) for x in automorphisms_from(np.ascontiguousarray(a), ta)])
        new = fewest_step_transform(a, b)
        assert len(new.steps()) == len(old.steps()) and str(new) == str(old)
        assert np.array_equal(compose_all(s.transform for s in new.steps()).apply(a), b)
        done += 1


def test_step_search_level_limit_is_reported(capsys):
    rng = np.random.default_rng(2)
    a = parse("1...5" + "." * 70 + "3.....")
    b = Transform.random(rng).apply(a)
    full = equivalence(a, b)
    assert full.fewest_proven and len(full.forward.steps()) > 2
    limited = equivalence(a, b, max_level=1)
    assert not limited.fewest_proven and np.array_equal(limited.forward.apply(a), b)
    assert equiv.NOT_PROVEN.strip().startswith("(not proven fewest")


def test_pair_on_standard_input_and_one_sudoku_file(tmp_path, capsys, monkeypatch):
    import io

    a = parse("1...5" + "." * 70 + "3.....")
    b = Transform.rotation(1).apply(a)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + format_pair(a, b).encode()),
                                                      encoding="utf-8"))
    rc, out, _ = _run(capsys, ["-"])
    assert rc == 0 and out.splitlines()[1:3] == ["A -> B: 1:123456789:987654321:123456789",
                                                 "  1. rotate 90 degrees clockwise 1 time"]
    one = tmp_path / "one.txt"
    one.write_text(_block(a) + "\n")
    rc, out, err = _run(capsys, [str(one)])
    assert rc == 2 and "found 9 rows" in err and "give B as a second argument" in err
