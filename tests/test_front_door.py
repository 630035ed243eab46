"""What a newcomer meets first: the shipped example sets (checked against the shared files they
were copied from, and against the counts published with them), every command's capability in
``ss`` answering what the command answers, the public names and nothing else in ``dir(ss)``,
plots that leave the user's matplotlib alone, and the commands' small courtesies (an aligned
``sudoku --help``, ``sudoku populate`` and the docs' address once installed, one text layout)."""
from __future__ import annotations

import gzip
import html
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudoku_symmetry as ss
from sudoku_symmetry import datasets
from sudoku_symmetry.commands import _common

from conftest import RANK1_GRID, data_path, read_data_lines

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "bin"
SHARED = {"17clue": "17clue_49158.txt", "sudoku3m": "sudoku3m_sample7034.txt",
          "tdoku-tests": "tdoku_test_puzzles_with_counts.txt", "16clue-multisol": "derived_16clue_multisol_1000.txt",
          "18clue-nosol": "derived_18clue_nosol_1000.txt"}


def _run(args, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=600)


# -- the shipped sets ------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SHARED))
def test_each_shipped_set_is_its_shared_file_line_for_line(name):
    assert datasets.names() == list(SHARED)
    shipped = list(datasets.lines(name))
    assert shipped == read_data_lines(SHARED[name]) == data_path(SHARED[name]).read_text().splitlines()
    assert len(shipped) == datasets.info(name).puzzles
    assert datasets.load(name) == [line.split(":")[0] for line in shipped]


def test_the_sets_are_small_and_compressed():
    files = [datasets.info(n).file for n in datasets.names()]
    assert all(f.suffix == ".gz" for f in files)
    assert sum(f.stat().st_size for f in files) < 1_000_000  # the wheel stays small
    with gzip.open(files[0]) as fh:
        assert fh.readline().rstrip() == ss.datasets.load("17clue")[0].encode()


def test_the_sets_answer_what_their_publishers_say():
    """tdoku's counts (with its solutions), the derived sets' counts, and the 17-clue list's
    puzzles being unique and minimal, through the flat API."""
    tdoku = datasets.load("tdoku-tests", as_frame=True)
    assert ss.count(tdoku["puzzle"], limit=10_000).tolist() == tdoku["solutions"].tolist()
    unique = tdoku[tdoku["solutions"] == 1]
    assert ss.solve(unique["puzzle"]).tolist() == unique["solution"].tolist()
    multi = datasets.load("16clue-multisol", as_frame=True)
    few = multi[multi["solutions"] < 20_000].head(5)  # exact counts, counted again in a second
    assert len(few) == 5 and few["solutions_exact"].all()
    assert ss.count(few["puzzle"], limit=10**6).tolist() == few["solutions"].tolist()
    assert (~multi["solutions_exact"]).sum() == 18 and multi["solutions"].max() == 1_000_000
    assert ss.count(datasets.load("18clue-nosol")) == [0] * 1000
    assert all(ss.is_minimal(datasets.load("17clue")[:200]))


def test_every_set_is_named_with_its_origin_and_licence_on_the_data_page():
    page = (ROOT / "docs" / "data.md").read_text()
    for name in datasets.names():
        info = datasets.info(name)
        assert f"`{name}`" in page and info.licence in page, name


def test_commands_read_a_set_by_name():
    r = _run([BIN / "solve", "--count", "@tdoku-tests"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(n) for n in datasets.load("tdoku-tests", as_frame=True)["solutions"].clip(upper=1_000_000)]
    with pytest.raises(_common.CommandError, match="no shipped set 'nothing'.*@17clue"):
        _common.check_inputs(["@nothing"])
    assert _common.count_lines(["@17clue"]) == 49_158
    r = _run([BIN / "data"])
    assert r.returncode == 0 and [line.split()[0] for line in r.stdout.splitlines()] == datasets.names()
    r = _run([BIN / "data", "tdoku-tests", "--fields"])
    assert r.stdout.splitlines() == list(datasets.lines("tdoku-tests"))


# -- the flat API ----------------------------------------------------------------------------
def test_dir_shows_the_public_names_only():
    public = sorted(ss._public())
    assert dir(ss) == sorted(public + ["__version__"])
    assert ss.__all__ == public and not any(n.startswith("_") for n in public)
    for name in public:
        assert getattr(ss, name) is not None
    for name in ("canon", "solve", "unavoidable_sets", "puzzles_in_grid", "is_minimal", "solve_logic", "setlogic",
                 "query", "plot", "datasets", "Sudoku", "Equivalence", "UnavoidableSet"):
        assert name in public
    r = _run([sys.executable, "-c", "import sudoku_symmetry as ss; print([n for n in dir(ss) if 'engine' in n])"])
    assert r.stdout.strip() == "[]"
    with pytest.raises(AttributeError):
        ss.no_such_name


def test_python_dash_m_is_the_sudoku_command():
    r = _run([sys.executable, "-m", "sudoku_symmetry", "--version"])
    assert (r.returncode, r.stdout) == (0, f"sudoku (sudoku-symmetry) {ss.__version__}\n")
    r = _run([sys.executable, "-m", "sudoku_symmetry", "band"], "123456789456789123789123456\n")
    assert r.stdout.startswith("0 123456789456789123789123456")


def test_a_grid_and_a_puzzle_are_not_equivalent_and_the_answer_draws_itself():
    p17 = datasets.load("17clue")[0]
    e = ss.equivalent(RANK1_GRID, p17)
    assert not e and e.kind == "mixed" and "never copies" in e.reason
    moved = str(ss.Sudoku(p17).transform("1:321456789:123456789:912345678"))
    e = ss.equivalent(p17, moved)
    assert e and str(ss.Sudoku(p17).transform(e.forward)) == moved
    svg = e._repr_svg_()
    assert svg.count('class="cell"') == 162 and all(html.escape(step) in svg for step in e.steps)


def test_unavoidable_sets_are_the_commands_and_draw_shaded():
    sets = ss.unavoidable_sets(RANK1_GRID, max_size=8)
    r = _run([BIN / "unavoidable", "--max-size", "8", RANK1_GRID])
    assert [str(s) for s in sets] == [ln for ln in r.stdout.splitlines() if not ln.startswith("#")]
    assert [len(s) for s in sets] == sorted(len(s) for s in sets)
    svg = sets[0]._repr_svg_()
    assert svg.count('class="cell"') == 81 and svg.count('fill="#f6d7a7"') == sets[0].size
    assert ss.unavoidable_sets([RANK1_GRID, RANK1_GRID], max_size=4) == [sets[:6], sets[:6]]
    with pytest.raises(ValueError, match="item 1: not a solution grid"):
        ss.unavoidable_sets([RANK1_GRID, "." * 81])


def test_puzzles_in_a_grid_are_the_lists_17s():
    """The 17-clue list is complete: the 17s of a grid are the list's puzzles with that solution."""
    lines = datasets.load("17clue")
    solutions = ss.solve(lines[:300])
    grid = solutions[17]
    expected = sorted(ss.canon([p for p, s in zip(lines[:300], solutions) if s == grid]))
    found = ss.puzzles_in_grid(grid, 17)
    assert sorted(ss.canon(found)) == expected and all(ss.count(found) == np.ones(len(found)))
    assert ss.puzzles_in_grid(grid, 79, limit=3) == [str(p) for p in ss.puzzles_in_grid(ss.Sudoku(grid), 79, limit=3)]


def test_solving_answers_match_the_solve_command():
    puzzles = datasets.load("tdoku-tests")[10:30] + datasets.load("sudoku3m")[:5]
    r = _run([BIN / "solve", "--check"], "\n".join(puzzles) + "\n")
    assert ["unique minimal" if m else None for m in ss.is_minimal(puzzles)] == \
        [ln if ln == "unique minimal" else None for ln in r.stdout.splitlines()]
    r = _run([BIN / "solve", "--logic-only"], "\n".join(puzzles) + "\n")
    assert [str(s) for s in ss.solve_logic(puzzles)] == r.stdout.splitlines()
    state = ss.solve_logic(datasets.load("17clue")[0])
    assert state.status == "stuck" and len(state.candidates) == 81
    assert state._repr_svg_().count('class="cell"') == 81
    many = datasets.load("tdoku-tests")[36]
    assert sorted(ss.solutions(many)) == sorted(_run([BIN / "solve", "--all"], many + "\n").stdout.split()[:3])


def test_setlogic_answers_what_the_command_prints():
    p = datasets.load("17clue")[0]
    found = ss.setlogic(p, max_starts=4)
    r = _run([BIN / "setlogic", "--max-starts", "4"], p + "\n")  # standard input without '-'
    assert r.returncode == 0, r.stderr
    assert [str(e) for e in found] == r.stdout.splitlines()[:-1]
    assert r.stdout.splitlines()[-1] == f"# {len(found)} eliminations"
    under = ss.setlogic(p, assume="r1c1=2", max_sets=4)
    assert under and all(e.assumption == "r1c1=2" for e in under)


def test_bands_grids_and_patterns():
    b = ss.band("123456789457893612986217354")
    assert (b.index, b.minlex) == (415, "123456789457893612986217354")
    moved = "456789123789123456123456789"
    assert ss.band(moved).transform.apply_band(np.array([int(c) for c in moved], np.uint8)).tolist() == \
        [int(c) for c in ss.band(moved).minlex]
    grids = ss.ed_grids(410)  # by enumeration; the ranks come from the shipped counts
    ranks = ss.rank(grids)
    assert ranks == list(range(ranks[0], ranks[0] + len(grids))) and ss.canon(grids) == grids
    assert ss.band_index([g[:27] for g in grids]) == [410] * len(grids)
    assert len(ss.patterns(4)) == ss.pattern_count(4) == 109
    assert ss.pattern_canon(["x" + "." * 80, "." * 80 + "x"]) == ss.patterns(1) * 2


def test_the_entry_of_a_band_1_has_the_shipped_counts(populated_catalog):
    table = ss.query("s17_entry_table", db=str(populated_catalog))
    smallest = table[table["bands2"] > 0].sort_values("bands2").iloc[0]  # 465 bands 2, 14,501 bands 3 of C
    entry = ss.s17_entry(int(smallest["band1_rank"]), "C", bands2=None)
    assert entry["band2"].nunique() == smallest["bands2"]
    assert entry["band3"].notna().sum() == smallest["bands3_c"]


def test_a_slice_of_the_search_finds_unique_17s():
    found = ss.search17(0, "A", bands2=(0, 1))
    assert all(len(p) == 81 and p.count(".") == 64 for p in found)
    assert ss.count(found) == [1] * len(found) and ss.canon(found) == found


# -- plots leave the user's matplotlib alone -------------------------------------------------
def test_a_plot_is_a_figure_and_the_users_backend_is_untouched(populated_catalog):
    pytest.importorskip("matplotlib")
    code = ("import matplotlib; matplotlib.use('svg'); import sudoku_symmetry as ss, sys\n"
            f"fig = ss.plot('band1-grids', db={str(populated_catalog)!r})\n"
            "import matplotlib.figure\n"
            "print(isinstance(fig, matplotlib.figure.Figure), matplotlib.get_backend(), 'matplotlib.pyplot' in sys.modules,"
            " fig._repr_png_()[:4] == b'\\x89PNG')\n"
            "import matplotlib.pyplot as plt; plt.plot([1, 2]); print(len(plt.get_fignums()))\n")
    r = _run([sys.executable, "-c", code])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "svg", "False", "True", "1"]


def test_query_is_a_frame_of_the_named_query(populated_catalog):
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.queries import QUERIES, run_query

    frame = ss.query("grids_per_band1", db=str(populated_catalog))
    assert list(frame.columns) == ["band1", "grids", "automorphic"]
    assert [tuple(r) for r in frame.itertuples(index=False)] == run_query(open_catalog(str(populated_catalog)), "grids_per_band1")
    assert int(frame["grids"].sum()) == 5_472_730_538
    assert ss.query()["name"].tolist() == [q.name for q in QUERIES]
    with pytest.raises(ValueError, match="no query 'nope'"):
        ss.query("nope", db=str(populated_catalog))


# -- the commands' courtesies ----------------------------------------------------------------
def test_sudoku_help_lines_up_and_lists_every_command():
    r = _run([sys.executable, "-m", "sudoku_symmetry", "--help"])
    rows = [ln for ln in r.stdout.splitlines() if ln.startswith("  ")]
    from sudoku_symmetry.commands.main import COMMANDS

    assert [ln.split()[0] for ln in rows] == list(COMMANDS)
    assert len({ln.index(ln.split(None, 1)[1]) for ln in rows}) == 1  # every description starts in one column


def test_installed_the_messages_name_sudoku_commands_and_the_docs_address(monkeypatch):
    monkeypatch.setattr(_common, "in_checkout", lambda: False)
    text = _common.for_user("run bin/populate first; see docs/formats.md")
    assert text.startswith("run sudoku populate first; see https://") and text.endswith("/formats.md")
    assert _common.for_user("bin/COMMAND") == "bin/COMMAND"
    monkeypatch.setattr(_common, "in_checkout", lambda: True)
    assert _common.for_user("run bin/populate first") == "run bin/populate first"
    assert _common.in_checkout()


def test_the_pair_file_equiv_writes_is_read_by_solve_and_canon(tmp_path):
    pair = tmp_path / "pair.txt"
    r = _run([BIN / "equiv", "--random-pair", "--related", "--givens", "20", "--seed", "7", "--out", pair])
    assert r.returncode == 0, r.stderr
    a, b = pair.read_text().splitlines()
    r = _run([BIN / "canon", pair])  # one line each; related, so one form
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 2 and len(set(r.stdout.splitlines())) == 1, r.stderr
    r = _run([BIN / "solve", pair])
    assert r.returncode == 0 and r.stdout.splitlines() == ss.solve([a, b]), r.stderr


def test_summaries_count_in_words():
    r = _run([BIN / "find-puzzles", "--clues", "80", "--limit", "1", RANK1_GRID])
    assert r.returncode == 0, r.stderr
    assert f"find-puzzles: argument 1: {RANK1_GRID}: 80 clues: 1 puzzle (limit 1 reached" in r.stderr
