"""The ratings against Sudoku Explainer itself: every puzzle SE rated in the committed expected
values (``tests/se_expected.py`` names the files; each file's header names the SE commit and the
exact command that made it), rated here in one in-process batch per file.

The bar: per group of the sample, ER, EP and ED all exactly SE's on at least 99 % of the rows and
within 0.1 on all; the solution paths equal to SE's step by step (technique, difficulty, what the
step places or removes) wherever SE's path is committed. ``bench/rate_check.py`` prints the same
comparison with every difference and the CPU time.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

import se_expected
from sudoku_symmetry.engine.rate import rate
from sudoku_symmetry.engine.text import parse_lines

NESTED = 9.5
"""SE's first nested level: puzzles rated at or above it take seconds each here (minutes in SE);
the cheapest of them are checked below, the rest by ``bench/rate_check.py``."""


def _rate(puzzles, **options):
    return [str(r) for r in rate(parse_lines(puzzles).sudokus, **options)]


def _agreement(rows, got):
    groups = defaultdict(lambda: [0, 0, []])
    for (group, puzzle, want), mine in zip(rows, got):
        g = groups[group]
        g[0] += 1
        g[1] += mine == want
        if se_expected.off_by(mine, want) > 0.1 + 1e-9:
            g[2].append((puzzle, mine, want))
    return groups


def _assert_bar(groups):
    for group, (n, exact, far) in groups.items():
        assert exact >= 0.99 * n, (group, n, exact)
        assert far == [], group


@pytest.fixture(scope="module")
def sample():
    """SE 1.2.1.3's rows below the nested levels (the forum groups' and the hardest database's
    nested rows are rated in the test after), with the ratings of this project."""
    rows = [r for r in se_expected.ratings("se_ratings_1213.tsv") if float(r[2].split("/")[0]) < NESTED]
    return rows, _rate([p for _, p, _ in rows], max_level=1)


def test_the_sample_has_the_groups_se_rated():
    groups = {g for g, _, _ in se_expected.ratings("se_ratings_1213.tsv")}
    assert {"norvig_easy50", "sudoku3m", "norvig_top95", "norvig_hardest11", "top1465", "17clue"} <= groups
    assert len(se_expected.ratings("se_ratings_1213.tsv")) >= 290


def test_ratings_are_ses_on_the_sample(sample):
    rows, got = sample
    groups = _agreement(rows, got)
    assert sum(n for n, _, _ in groups.values()) >= 280
    _assert_bar(groups)


def test_ratings_are_the_2022_lines_with_its_option():
    rows = [r for r in se_expected.ratings("se_ratings_2022.tsv") if float(r[2].split("/")[0]) < NESTED]
    _assert_bar(_agreement(rows, _rate([p for _, p, _ in rows], max_level=1, line="2022")))
    # the two lines differ where a Direct hint's eliminations matter, and the option follows SE there
    ref = dict((p, w) for _, p, w in se_expected.ratings("se_ratings_1213.tsv"))
    differ = [(p, w) for _, p, w in rows if p in ref and ref[p] != w]
    assert differ and _rate([p for p, _ in differ], max_level=1, line="2022") == [w for _, w in differ]


def test_paths_are_ses_step_by_step():
    paths = {p: s for p, s in se_expected.paths().items()
             if max(float(d) for d, _, _ in s) < NESTED}
    assert len(paths) >= 50
    puzzles = list(paths)
    ratings = rate(parse_lines(puzzles).sudokus, max_level=1, steps=True)
    differ = {}
    for p, r in zip(puzzles, ratings):
        mine = [(f"{s.difficulty:.1f}", s.technique, s.action) for s in r.steps]
        d = se_expected.first_difference(mine, paths[p])
        if d is not None:
            differ[p] = d
    assert differ == {}


def test_bounds_below_the_nested_levels_never_pass_ses_figures():
    # the sample's puzzles SE rates 9.5 and up (the forum's hardest), stopped before the nested
    # levels: SE's own rating where dynamic chains (+) suffice, else lower bounds under SE's figures
    # (the nested levels themselves compile for minutes: bench/rate_check.py checks them)
    rows = [r for r in se_expected.ratings("se_ratings_1213.tsv") + se_expected.ratings("hardest_db_110626_se1213.tsv")
            if float(r[2].split("/")[0]) >= NESTED]
    assert len(rows) >= 10
    ratings = rate(parse_lines([p for _, p, _ in rows]).sudokus, max_level=1)
    bounds = 0
    for (_, puzzle, want), r in zip(rows, ratings):
        if r.complete:
            assert str(r) == want, puzzle
            continue
        bounds += 1
        assert str(r).startswith(">=") and 9.5 <= r.er, (puzzle, str(r))
        for got, low, se in zip((r.er, r.ep, r.ed), r.lower, map(float, want.split("/"))):
            assert got <= se if low else got == se, (puzzle, str(r), want)
    assert bounds >= 5
