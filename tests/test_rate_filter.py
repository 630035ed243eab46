"""Filters by Sudoku Explainer's rating (ER): the range a user gives, the chain level that decides
it (checked against serate 1.2.1.3's own figures), and the filters of generate, the pattern
search and the neighbourhood (each keeps exactly the puzzles of the unfiltered answer whose full
rating lies in the range, in the same order)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sudoku_symmetry as ss
from se_expected import ratings as se_ratings
from sudoku_symmetry.commands import find_puzzles, vicinity
from sudoku_symmetry.commands import generate as gen_cmd
from sudoku_symmetry.engine.rate import rate
from sudoku_symmetry.engine.rate.filter import er_within, level_for, parse_rating
from sudoku_symmetry.engine.text import as_batch
from sudoku_symmetry.jobs import generate as gen_job

# a list 17's pattern with 3 cells added, 14 of its digits fixed: 22 classes (bench/explore_native.py)
PATTERN20 = "................xx..x.xx........xx...x.x.....xx..x...x.x.xxx.....x...x...x......."
FIXED20 = "................12..3.4.........63...1.......72..8...9...27..............8......."


def easy_er(puzzles) -> list[float | None]:
    """The ER of each puzzle Sudoku Explainer rates without chains, None for the others (which
    are 6.5 or more): the references below use ranges under 6.5, so no test here runs a chain."""
    return [r.er if r.complete else None for r in rate(as_batch(puzzles), max_level=-1)]


def within(ers, lo, hi) -> list[bool]:
    return [e is not None and lo <= e <= hi for e in ers]


def test_ranges_and_the_level_that_decides_them():
    assert parse_rating("7-8") == (7.0, 8.0) and parse_rating(" 9.5- ") == (9.5, 20.0)
    assert parse_rating("-2") == (0.0, 2.0) and parse_rating("8.3") == (8.3, 8.3)
    assert parse_rating((None, 4)) == (0.0, 4.0) and parse_rating(None) is None
    for bad in ("x", "8-7", "0-21", "-1-3", "nan", "7-8-9", (1, 2, 3)):
        with pytest.raises(ValueError, match="rating must be"):
            parse_rating(bad)
    # the deepest chains a bound below them still decides: any chain is 6.5 or more, dynamic
    # chains (+) 9.0 or more, nested levels from 9.5 by halves
    assert [level_for(x) for x in (6.4, 6.5, 8.9, 9.0, 9.4, 9.5, 10.9, 11.0, 20.0)] == [-1, 0, 0, 1, 1, 2, 4, 5, 5]


def test_a_capped_filter_keeps_what_serate_rates_in_the_range():
    """serate 1.2.1.3's committed figures for the rating sample, the first puzzles of each band of
    ER (4 below 3, 4 of 3-6.4, 4 of 6.5-8.9, 2 of 9 and more): the filter, which stops rating at
    the range's level, keeps exactly those SE rates in the range, with SE's ER for each one kept."""
    rows = [(p, float(f.split("/")[0])) for _, p, f in se_ratings("se_ratings_1213.tsv")]
    bands = ((0, 3, 4), (3, 6.5, 4), (6.5, 9, 4), (9, 99, 2))
    rows = [r for a, b, k in bands for r in [r for r in rows if a <= r[1] < b][:k]]
    batch = as_batch([p for p, _ in rows])
    se = np.array([e for _, e in rows])
    assert len(se) == 14
    for lo, hi in ((0, 6.4), (2, 5), (6.5, 8.9)):  # no chain, then chains up to dynamic forcing chains
        keep, got = er_within(batch, (lo, hi))
        assert keep.tolist() == ((se >= lo) & (se <= hi)).tolist(), (lo, hi)
        assert got[keep].tolist() == se[keep].tolist()
        assert (got[~keep] < lo).sum() + (got[~keep] > hi).sum() == (~keep).sum()


def test_generate_keeps_the_rated_puzzles_of_the_stream_in_order(tmp_path, capsys):
    every = ss.generate(40, seed=3)
    want = [p for p, k in zip(every, within(easy_er(every), 2, 4)) if k][:3]
    assert len(want) == 3
    assert ss.generate(3, seed=3, rating="2-4") == want
    assert gen_cmd.main(["--count", "3", "--seed", "3", "--rating", "2-4", "--stats"]) == 0
    out, err = capsys.readouterr()
    ers = easy_er(want)
    assert out.split() == want and "3 puzzles from" in err
    assert f"ER: 3 rated, mean {np.mean(ers):.3f}" in err and f"max {max(ers):.1f}" in err
    # a resumable run keys on the range: run again, nothing new; another range, another run
    path, db = tmp_path / "r.txt", str(tmp_path / "r.sqlite")
    assert gen_cmd.main(["--count", "2", "--seed", "3", "--rating", "2-4", "--out", str(path), "--db", db]) == 0
    assert gen_cmd.main(["--count", "2", "--seed", "3", "--rating", "2-4", "--out", str(path), "--db", db]) == 0
    assert path.read_text().split() == want[:2]
    one = dict(what="puzzles", seed=3, count=2, out=str(path))
    assert gen_job.parameters(**one, rating="2-4") == gen_job.parameters(**one, rating=(2, 4.0))
    assert gen_job.parameters(**one, rating="2-4") != gen_job.parameters(**one, rating="2-5")
    with pytest.raises(ValueError, match="rating must be"):
        ss.generate(1, rating="9-3")
    try:
        status = gen_cmd.main(["--count", "1", "--rating", "hard"])
    except SystemExit as exc:  # argparse: usage and exit 2
        status = exc.code
    assert status == 2 and "rating must be" in capsys.readouterr().err


def test_pattern_and_neighbourhood_filters(capsys):
    every = ss.puzzles_on_pattern(PATTERN20, fixed=FIXED20)
    ers = easy_er(every)
    want = [p for p, k in zip(every, within(ers, 2.7, 6.4)) if k]
    assert len(every) == 22 and 0 < len(want) < 21
    assert ss.puzzles_on_pattern(PATTERN20, fixed=FIXED20, rating="2.7-6.4") == want
    assert ss.puzzles_on_pattern(PATTERN20, fixed=FIXED20, rating="2.7-6.4", limit=2) == want[:2]
    assert find_puzzles.main(["--pattern", PATTERN20, "--fixed", FIXED20, "--rating", "2.7-6.4"]) == 0
    out, err = capsys.readouterr()
    assert [ln for ln in out.splitlines() if not ln.startswith("#")] == want
    assert "22 classes" in err and f"{len(want)} rated 2.7-6.4" in err
    start = every[ers.index(max(e for e in ers if e is not None))]
    near = ss.vicinity(start, 1, 1)
    ners = easy_er(near)
    lo = sorted(e for e in ners if e is not None)[len(near) // 2]
    kept = [f for f, k in zip(near, within(ners, lo, 6.4)) if k]
    assert 0 < len(kept) < len(near)
    assert ss.vicinity(start, 1, 1, rating=(lo, 6.4)) == kept
    assert vicinity.main(["--rating", f"{lo}-6.4", start]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == kept
    assert find_puzzles.main(["--clues", "17", "--rating", "1-2", "x"]) == 2
    assert "--rating" in capsys.readouterr().err
