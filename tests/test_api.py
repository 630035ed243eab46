"""The flat Python API (``import sudoku_symmetry as ss``): its docstrings' examples, one and
many inputs in every accepted form answered in the same form and order, clear errors naming the
item, and an import that loads neither Numba nor SQLAlchemy."""
from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudoku_symmetry as ss
from sudoku_symmetry.engine.text import format_sudoku, parse

from conftest import LAST_GRID, RANK1_GRID, read_data_lines

ROOT = Path(__file__).resolve().parent.parent
P17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
SOLUTION = "953168742862734951417952836746893125281645397395271468138529674574386219629417583"


@pytest.mark.parametrize("module", ["sudoku_symmetry", "sudoku_symmetry._functions", "sudoku_symmetry._sudoku",
                                    "sudoku_symmetry.shipped", "sudoku_symmetry.datasets", "sudoku_symmetry._solving",
                                    "sudoku_symmetry._puzzles", "sudoku_symmetry._grids", "sudoku_symmetry._patterns",
                                    "sudoku_symmetry._search17", "sudoku_symmetry._catalog",
                                    "sudoku_symmetry._patterns_game", "sudoku_symmetry._rate"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", ["api.md", "getting-started.md", "puzzles-in-a-grid.md", "pattern-puzzles.md"])
def test_docs_page_examples(page):
    result = doctest.testfile(str(ROOT / "docs" / page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 3 and result.failed == 0


def test_every_public_name_is_documented_with_an_example():
    for name in ss.__all__:
        if name == "__version__":
            continue
        obj = getattr(ss, name)
        assert obj.__doc__ and ">>>" in obj.__doc__ or name == "Transform", name
    assert ss.__version__ == importlib.metadata.version("sudoku-symmetry")
    assert (ROOT / "api" / "py.typed").exists()


BLOCK = "\n".join(" ".join(P17[9 * i : 9 * i + 9]) for i in range(9))


def test_one_in_one_out_in_the_callers_form():
    assert ss.solve(P17) == SOLUTION
    assert ss.solve(BLOCK) == SOLUTION  # 9 lines of 9 cells
    arr = parse(P17)
    assert np.array_equal(ss.solve(arr), parse(SOLUTION)) and ss.solve(arr).shape == (81,)
    got = ss.solve(arr.reshape(9, 9).astype(np.int64))
    assert got.shape == (9, 9) and np.array_equal(got.reshape(81), parse(SOLUTION))
    assert ss.solve(ss.Sudoku(P17)) == ss.Sudoku(SOLUTION)
    assert ss.solve("11" + "." * 79) is None
    assert ss.count(P17) == 1 and type(ss.count(P17)) is int
    assert ss.canon(P17.replace(".", "0")) == ss.canon(P17)


def test_many_in_many_out_in_order():
    lines = read_data_lines("17clue_49158.txt")[:40] + ["." * 81, "11" + "." * 79, RANK1_GRID]
    from sudoku_symmetry.engine.canon import canonicalize
    from sudoku_symmetry.engine.solve import count_solutions

    counts = count_solutions(lines, 2).counts.tolist()
    assert counts[-3:] == [2, 0, 1]
    assert ss.count(lines) == counts  # a list gives a list
    assert ss.count(tuple(lines)) == counts
    assert ss.count(np.array(lines)).tolist() == counts  # a NumPy string array: no OverflowError
    assert ss.count(np.array(lines, dtype=object)).tolist() == counts
    batch = np.stack([parse(x) for x in lines])
    assert ss.count(batch).tolist() == counts and ss.count(batch.reshape(-1, 9, 9)).tolist() == counts
    sols = ss.solve(lines)
    assert sols[-2] is None and sols[-1] == RANK1_GRID and all(s is not None for s in sols[:-2])
    sol_arr = ss.solve(np.array(lines))
    assert sol_arr.dtype == object and sol_arr[-2] is None and sol_arr[0] == sols[0]
    valid = lines[:40] + [RANK1_GRID]
    forms = [format_sudoku(f) for f in canonicalize(valid).forms]
    assert ss.canon(valid) == forms
    assert ss.canon(np.array(valid)).tolist() == forms and ss.canon(np.array(valid)).dtype.kind == "U"
    got = ss.canon(np.stack([parse(x) for x in valid]).reshape(-1, 9, 9))
    assert got.shape == (41, 9, 9) and [format_sudoku(g.reshape(81)) for g in got] == forms
    mixed = ss.canon([valid[0], parse(valid[1]), ss.Sudoku(valid[2])])  # each item answered in its own form
    assert mixed[0] == forms[0] and np.array_equal(mixed[1], parse(forms[1])) and mixed[2] == ss.Sudoku(forms[2])
    assert ss.count([]) == [] and ss.canon(np.zeros((0, 81), np.uint8)).shape == (0, 81)


def test_pandas_series_in_series_out():
    pd = pytest.importorskip("pandas")
    lines = read_data_lines("17clue_49158.txt")[:5] + ["11" + "." * 79]
    s = pd.Series(lines, index=list("abcdef"), name="puzzle")
    counts = ss.count(s)
    assert isinstance(counts, pd.Series) and counts.index.tolist() == list("abcdef") and counts.name == "puzzle"
    assert counts.tolist() == [1, 1, 1, 1, 1, 0]
    sols = ss.solve(s)
    assert sols["f"] is None and sols["a"] == ss.solve(lines[0])
    assert ss.canon(s[:5]).tolist() == ss.canon(lines[:5])
    ranks = ss.rank(pd.Series([RANK1_GRID, LAST_GRID]))
    assert ranks.tolist() == [1, 5_472_730_538]
    assert ss.grid(pd.Series([1, 5_472_730_538], index=[7, 8])).to_dict() == {7: RANK1_GRID, 8: LAST_GRID}
    with pytest.raises(ValueError, match=r"^item 'c': expected 81 cells, got 80$"):
        ss.count(pd.Series([P17, P17, P17[:80]], index=list("abc")))


@pytest.mark.parametrize("call, message", [
    (lambda: ss.solve(P17[:80]), r"^expected 81 cells, got 80$"),
    (lambda: ss.solve([P17, P17[:80] + "x"]), r"^item 1: invalid character 'x' at position 81$"),
    (lambda: ss.solve(np.array([P17, P17, "12"])), r"^item 2: expected 81 cells, got 2$"),
    (lambda: ss.count(np.full((3, 81), 10)), r"^item 0: cell 1 holds 10; cells are 0 \(empty\) or 1-9$"),
    (lambda: ss.count(np.zeros((2, 80), np.uint8)), r"expected a sudoku of shape \(81,\) or \(9, 9\), or many"),
    (lambda: ss.count(np.zeros(81, float) + 0.5), r"cell 1 holds 0.5"),
    (lambda: ss.count(12), r"expected a sudoku \(a string of 81 cells or an array\), got int 12"),
    (lambda: ss.count(P17, limit=0), r"limit must be a whole number from 1"),
    (lambda: ss.canon([P17, "11" + "." * 79]), r"^item 1: not a sudoku: digit 1 repeated in row 1 at r1c1, r1c2$"),
    (lambda: ss.rank([RANK1_GRID, P17]), r"^item 1: not a solution grid"),
    (lambda: ss.grid([1, 0]), r"^item 1: rank must be a whole number from 1 to 5,472,730,538, got 0$"),
    (lambda: ss.grid("1"), r"rank must be a whole number"),
    (lambda: ss.grid(True), r"got True"),
    (lambda: ss.band_index("123456789123456789123456789"), r"^not a band: row 2 repeats a digit"),
    (lambda: ss.band_index(["123456789456789123789123456", "1234"]), r"^item 1: expected 27 cells, got 4$"),
    (lambda: ss.Sudoku([P17, P17]), r"a Sudoku is one sudoku; got 2"),
    (lambda: ss.equivalent([P17, P17], P17), r"equivalent takes two sudokus"),
])
def test_bad_input_names_the_item_and_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_sudoku_value():
    s = ss.Sudoku(BLOCK)
    assert str(s) == P17 and repr(s) == f"Sudoku({P17!r})" and s == ss.Sudoku(P17) and len({s, ss.Sudoku(P17)}) == 1
    assert np.asarray(s).shape == (9, 9) and not s.cells.flags.writeable
    g = ss.Sudoku(RANK1_GRID)
    assert g.is_grid and g.canon() == g and g.solve() == g and g.count() == 1
    autos = g.automorphisms()
    assert all(str(g.transform(t)) == RANK1_GRID for t in autos) and len(autos) == len(set(map(str, autos)))
    moved = g.transform("1:123456789:123456789:123456789")
    assert moved != g and g.equivalent(moved) and moved.canon() == g
    # a puzzle's automorphisms relabel the digits it does not use freely: 1 given -> 8! each
    one = ss.Sudoku("1" + "." * 80)
    with pytest.raises(ValueError, match="more than limit"):
        one.automorphisms()
    svg = s._repr_svg_()
    assert svg.startswith("<svg") and svg.count('class="cell"') == 81 and svg.count("<text") == 17


def test_import_is_cheap():
    code = ("import sys, sudoku_symmetry as ss; print(ss.__version__); "
            "print(sorted(m for m in ('numba', 'numpy', 'sqlalchemy', 'sudoku_symmetry.engine') if m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.split("\n")[:2] == [ss.__version__, "[]"]


def test_engine_and_catalog_never_import_the_flat_api():
    """The flat API (api/ -> sudoku_symmetry) sits above the engine and the catalog, like bin."""
    import re

    pattern = re.compile(r"^\s*(from\s+sudoku_symmetry\s+import\s+(?!(engine|catalog|migrations)\b)|"
                         r"import\s+sudoku_symmetry\s*($|as)|"
                         r"from\s+sudoku_symmetry\.(shipped|_functions|_sudoku|_inputs)\b)", re.M)
    offenders = [str(p.relative_to(ROOT)) for d in ("engine", "catalog", "migrations")
                 for p in (ROOT / d).rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []
