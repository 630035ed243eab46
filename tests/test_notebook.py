"""The flat API in a real notebook: a Jupyter kernel (ipykernel, driven by nbclient) runs a
notebook that calls every public function of ``ss`` once and shows a sudoku, an equivalence, an
unavoidable set and a plot as pictures; then a plain matplotlib plot of the user's own, which
must still be shown (the package never switches the user's backend)."""
from __future__ import annotations

import os

import nbformat
import pytest
from nbclient import NotebookClient

import sudoku_symmetry as ss

CELLS = [
    # 0: data and the values that draw themselves
    "import sudoku_symmetry as ss\n"
    "p = ss.datasets.load('17clue')[0]\n"
    "g = ss.solve(p)\n"
    "ss.Sudoku(p)",
    "ss.equivalent(p, str(ss.Sudoku(p).transform('1:321456789:123456789:912345678')))",
    "ss.unavoidable_sets(g, max_size=6)[0]",
    "ss.solve_logic(p)",
    # 4: every other function once
    "answers = {\n"
    "    'canon': ss.canon(p), 'count': ss.count(p), 'solutions': len(ss.solutions(p)),\n"
    "    'is_minimal': ss.is_minimal(p), 'rank': ss.rank(g), 'grid': ss.grid(1)[:9],\n"
    "    'band_index': ss.band_index(g[:27]), 'band': ss.band(g[:27]).index, 'ed_grids': len(ss.ed_grids(415)),\n"
    "    'patterns': len(ss.patterns(3)), 'pattern_count': ss.pattern_count(4), 'pattern_canon': ss.pattern_canon('x' + '.' * 80)[:1],\n"
    "    'setlogic': len(ss.setlogic(p, max_starts=1)), 'puzzles_in_grid': len(ss.puzzles_in_grid(g, 79, limit=2)),\n"
    "    's17_entry': len(ss.s17_entry(0, 'A', bands2=(0, 1))), 'search17': len(ss.search17(0, 'A', bands2=(0, 1))),\n"
    "    'query': len(ss.query('ed_grid_totals', db=DB)), 'Transform': str(ss.Transform.identity())[:1],\n"
    "    'Elimination': ss.Elimination.__name__, 'LogicState': ss.LogicState.__name__,\n"
    "    'UnavoidableSet': ss.UnavoidableSet.__name__, 'Equivalence': ss.Equivalence.__name__,\n"
    "    'datasets': ss.datasets.names()[0],\n"
    "    'rate': str(ss.rate(p)), 'random_grids': len(ss.random_grids(1)), 'generate': len(ss.generate(1)),\n"
    "    'minimize': ss.minimize(p) == p, 'vicinity': len(ss.vicinity(p)),\n"
    "    'puzzles_on_pattern': len(ss.puzzles_on_pattern(p, fixed=p[:64] + '.' * 17)),\n"
    "}\n"
    "print(sorted(answers))",
    # 5: a plot of the catalog
    "ss.plot('band1-grids', db=DB)",
    # 6: the user's own plot, after the package's
    "import matplotlib.pyplot as plt\n"
    "plt.plot([1, 3, 2])\n"
    "plt.show()",
]


def _outputs(cell) -> list[str]:
    """The MIME types a cell showed (display data and results)."""
    return [kind for out in cell.outputs if out.output_type in ("display_data", "execute_result")
            for kind in out.get("data", {})]


def test_a_notebook_uses_every_function_and_shows_the_pictures(populated_catalog, tmp_path, monkeypatch):
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel picks its own, as a user's does
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"DB = {str(populated_catalog)!r}")] + \
        [nbformat.v4.new_code_cell(source) for source in CELLS]
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    cells = nb.cells[1:]
    errors = [out for cell in cells for out in cell.outputs if out.output_type == "error"]
    assert errors == []
    for k in range(4):  # a sudoku, an equivalence, an unavoidable set, what logic reaches
        assert "image/svg+xml" in _outputs(cells[k]), (k, cells[k].outputs)
    assert 'class="cell"' in cells[2].outputs[0]["data"]["image/svg+xml"]
    source = "\n".join(CELLS)
    assert [n for n in ss.__all__ if f"ss.{n}(" not in source and f"ss.{n}." not in source] == []  # each once
    assert "".join(out.get("text", "") for out in cells[4].outputs).startswith("['Elimination'")
    assert "image/png" in _outputs(cells[5])  # the catalog's plot
    assert "image/png" in _outputs(cells[6]), cells[6].outputs  # and the user's own plot still shows
    assert os.environ.get("MPLBACKEND") is None
