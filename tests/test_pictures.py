"""Pictures: the SVG boards (81 cells, well-formed XML, what each drawing marks), bin/plot for
every kind from a real catalog (a valid SVG or PNG file), a clear message without matplotlib,
and bin/browse serving the catalog with Datasette on loopback (a canned query's JSON)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_symmetry.pictures import svg

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "bin"
NS = "{http://www.w3.org/2000/svg}"
GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
PUZZLE = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."


def cells(doc: str) -> list[ET.Element]:
    root = ET.fromstring(doc)
    assert root.tag == f"{NS}svg"
    found = [e for e in root.iter(f"{NS}rect") if e.get("class") == "cell"]
    return found


def texts(doc: str) -> list[ET.Element]:
    return list(ET.fromstring(doc).iter(f"{NS}text"))


def test_board_has_81_cells_and_bold_givens():
    doc = svg.board_svg(PUZZLE)
    found = cells(doc)
    assert [int(e.get("data-cell")) for e in found] == list(range(81))
    digits = [t for t in texts(doc) if t.text in set("123456789")]
    assert len(digits) == 17 and all(t.get("font-weight") == "bold" for t in digits)
    assert "".join(t.text for t in digits) == PUZZLE.replace(".", "")


def test_candidates_drawn_small_in_empty_cells_only():
    cands = ["" if v != "." else "19" for v in PUZZLE]
    doc = svg.board_svg(PUZZLE, candidates=cands)
    small = [t for t in texts(doc) if float(t.get("font-size")) < svg.CELL * 0.3]
    assert len(small) == 2 * 64
    with pytest.raises(ValueError, match="81 entries"):
        svg.board_svg(PUZZLE, candidates=["1"] * 80)


def test_pattern_unavoidable_set_and_pair():
    pattern = "".join("x" if v != "." else "." for v in PUZZLE)
    filled = [e for e in cells(svg.pattern_svg(pattern)) if e.get("fill") == svg.PATTERN]
    assert sorted(int(e.get("data-cell")) for e in filled) == [k for k, v in enumerate(PUZZLE) if v != "."]
    ua = svg.unavoidable_svg(GRID, "12.......45" + "." * 70)
    shaded = [int(e.get("data-cell")) for e in cells(ua) if e.get("fill") == svg.SHADE]
    assert shaded == [0, 1, 9, 10]
    assert svg.unavoidable_svg(GRID, [0, 1, 9, 10]) == ua
    pair = svg.pair_svg(PUZZLE, PUZZLE[::-1], caption=["0:123456789:987654321:123456789"])
    assert len(cells(pair)) == 162
    assert any(t.text == "0:123456789:987654321:123456789" for t in texts(pair))
    with pytest.raises(ValueError, match="81 cells"):
        svg.board_svg(PUZZLE[:80])


def _run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=600, **kw)


def test_plot_list_names_every_kind():
    r = _run([str(BIN / "plot"), "--list"])
    assert r.returncode == 0, r.stderr
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert names == ["band1-grids", "automorphisms", "s17-entry", "patterns", "ratings"]


@pytest.mark.parametrize("kind", ["band1-grids", "automorphisms", "s17-entry", "patterns"])
def test_plot_each_kind_from_a_catalog(kind, populated_catalog, tmp_path):
    pytest.importorskip("matplotlib")
    out_svg, out_png = tmp_path / f"{kind}.svg", tmp_path / f"{kind}.png"
    for out in (out_svg, out_png):
        r = _run([str(BIN / "plot"), kind, "--db", str(populated_catalog), "--out", str(out)])
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == str(out)
    root = ET.fromstring(out_svg.read_bytes())
    assert root.tag == f"{NS}svg"
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_refuses_a_missing_or_unfilled_catalog_and_a_bad_suffix(tmp_path):
    missing = tmp_path / "missing.sqlite"
    r = _run([str(BIN / "plot"), "band1-grids", "--db", str(missing), "--out", str(tmp_path / "x.svg")])
    assert r.returncode == 2 and "does not exist" in r.stderr and "Traceback" not in r.stderr
    assert not missing.exists()  # a read-only command never creates a catalog
    unfilled = tmp_path / "unfilled.sqlite"
    from sudoku_symmetry.catalog.db import open_catalog

    open_catalog(str(unfilled)).dispose()  # migrated, nothing stored
    r = _run([str(BIN / "plot"), "band1-grids", "--db", str(unfilled), "--out", str(tmp_path / "x.svg")])
    assert r.returncode == 2 and "run bin/populate first" in r.stderr and "Traceback" not in r.stderr
    r = _run([str(BIN / "plot"), "band1-grids", "--out", str(tmp_path / "x.pdf")])
    assert r.returncode == 2 and ".svg or .png" in r.stderr


def test_plot_without_matplotlib_says_how_to_install(populated_catalog, tmp_path):
    # a real interpreter in which importing matplotlib fails, as when it is not installed
    code = ("import sys; sys.modules['matplotlib'] = None; "
            "from sudoku_symmetry.commands import plot; sys.exit(plot.main(sys.argv[1:]))")
    r = _run([sys.executable, "-c", code, "automorphisms", "--db", str(populated_catalog),
              "--out", str(tmp_path / "a.svg")])
    assert r.returncode == 2, r.stderr
    # in a checkout, the extra of the checkout's own environment (installed: the PyPI form)
    assert r.stderr.strip() == f"plot: error: plots need matplotlib: .venv/bin/pip install -e '.[plot]' in {ROOT} " \
                               "(or: pip install matplotlib)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str, deadline: float):
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as resp:
                return json.loads(resp.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def test_browse_serves_canned_queries_on_loopback(populated_catalog, tmp_path):
    pytest.importorskip("datasette")
    port = _free_port()
    proc = subprocess.Popen([str(BIN / "browse"), "--db", str(populated_catalog), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}/{populated_catalog.stem}"
        deadline = time.monotonic() + 120
        totals = _get_json(f"{base}/ed_grid_totals.json?_shape=array", deadline)
        assert totals == [{"bands1": 416, "grids": 5472730538, "automorphic": 560151}]
        entry = _get_json(f"{base}/s17_entry_totals.json?_shape=array", deadline)
        assert entry == [{"variant": "A", "bands1": 416, "bands2": 983959110, "bands3": 5472730538},
                         {"variant": "C", "bands1": 416, "bands2": 983959110, "bands3": 32835497303}]
        gangsters = _get_json(f"{base}/gangster_classes.json?_shape=array", deadline)
        assert len(gangsters) == 44 and sum(g["bands"] for g in gangsters) == 416
        meta = _get_json(f"http://127.0.0.1:{port}/-/metadata.json", deadline)
        assert meta["databases"][populated_catalog.stem]["queries"]["grids_per_band1"]["title"]
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


def test_browse_refuses_postgresql_and_missing_files(tmp_path):
    r = _run([str(BIN / "browse"), "--db", "postgresql+psycopg://u@127.0.0.1:1/x"])
    assert r.returncode == 2 and "Datasette serves SQLite files" in r.stderr
    r = _run([str(BIN / "browse"), "--db", str(tmp_path / "nothing.sqlite")])
    assert r.returncode == 2 and "no such catalog" in r.stderr
    assert not (tmp_path / "nothing.sqlite").exists()


def test_canon_and_equiv_draw_svg(tmp_path, data_dir):
    puzzles = (data_dir / "17clue_49158.txt").read_text().splitlines()[:2]
    out = tmp_path / "canon.svg"
    r = _run([str(BIN / "canon"), "--svg", str(out)], input="\n".join(puzzles) + "\n")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 2  # every form printed; the first sudoku drawn
    doc = out.read_text()
    assert len(cells(doc)) == 162
    digits = "".join(t.text for t in texts(doc) if t.text in set("123456789"))
    assert digits.startswith(puzzles[0].replace(".", ""))
    assert any(t.text.startswith("transformation ") for t in texts(doc))
    pair = tmp_path / "pair.txt"
    assert _run([str(BIN / "equiv"), "--random-pair", "--related", "--seed", "7", "--givens", "20",
                 "--out", str(pair)]).returncode == 0
    drawing = tmp_path / "equiv.svg"
    r = _run([str(BIN / "equiv"), "--show", "--svg", str(drawing), str(pair)])
    assert r.returncode == 0, r.stderr
    captions = [t.text for t in texts(drawing.read_text()) if t.text and "equivalent" in t.text]
    assert len(cells(drawing.read_text())) == 162 and captions[0].startswith("equivalent (puzzles): A -> B ")
    r = _run([str(BIN / "canon"), "--svg", str(tmp_path / "no" / "such" / "dir.svg")], input=puzzles[0] + "\n")
    assert r.returncode == 2 and "--svg" in r.stderr and "Traceback" not in r.stderr
    r = _run([str(BIN / "canon"), "--store", "--svg", str(out), "-"], input=puzzles[0] + "\n")
    assert r.returncode == 2 and "does not go with --store" in r.stderr


def test_unavoidable_draws_the_first_grid_with_a_smallest_set(tmp_path):
    """``unavoidable --svg``: 81 cells, the shaded ones are exactly the first set printed."""
    out = tmp_path / "ua.svg"
    r = _run([str(BIN / "unavoidable"), "--max-size", "4", "--svg", str(out), GRID])
    assert r.returncode == 0, r.stderr
    first = [line for line in r.stdout.splitlines() if not line.startswith("#")][0]
    doc = out.read_text()
    assert len(cells(doc)) == 81
    shaded = sorted(int(e.get("data-cell")) for e in cells(doc) if e.get("fill") == svg.SHADE)
    assert shaded == [k for k, v in enumerate(first) if v != "."] and len(shaded) == 4
