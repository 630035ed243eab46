"""bin/enumerate and bin/rank: counts in the catalog, resumable runs killed at random moments,
rank <-> grid on band 0 (rank 1 is the catalog's first grid), clear errors."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.grids import load_prefix_counts, load_totals
from sudoku_symmetry.commands import enumerate as enum_cmd
from sudoku_symmetry.commands import rank as rank_cmd
from sudoku_symmetry.engine.grids import N_ED_GRIDS, enumerate_band1, grid_at, prefixes, rank_of
from sudoku_symmetry.engine.group.transform import Transform
from sudoku_symmetry.engine.text import format_lines, format_sudoku, parse

from conftest import LAST_GRID, RANK1_GRID

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}


@pytest.fixture(scope="module")
def band0_catalog(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("enum") / "cat.sqlite")
    assert enum_cmd.main(["--band1", "0", "--count-only", "--db", db]) == 0
    return db


def test_band0_counts_in_the_catalog(band0_catalog, capsys):
    engine = open_catalog(band0_catalog)
    assert load_totals(engine) == {0: 1_007_170}
    counts = load_prefix_counts(engine, 0)
    assert len(counts) == len(prefixes(0)) and sum(counts) == 1_007_170
    assert enum_cmd.main(["--band1", "0", "--count-only", "--db", band0_catalog]) == 0
    assert "counted already: skipped" in capsys.readouterr().err
    assert enum_cmd.main(["--status", "--db", band0_catalog]) == 0
    assert "catalog: 1 of 416 bands 1 counted, 1,007,170 grids" in capsys.readouterr().out


def test_rank_command(band0_catalog, capsys):
    moved = format_sudoku(Transform.random(np.random.default_rng(3)).apply(parse(RANK1_GRID)))
    args = ["1", moved, "0", str(N_ED_GRIDS + 1), "12x", LAST_GRID, "--db", band0_catalog]
    assert rank_cmd.main(args) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == RANK1_GRID
    assert out[1] == f"1 {RANK1_GRID}"
    assert out[2].startswith("error line 3: rank must be between 1 and 5,472,730,538")
    assert out[3].startswith("error line 4: rank must be between")
    assert out[4] == "error line 5: expected an 81-digit grid or a rank"
    assert out[5] == f"{N_ED_GRIDS} {LAST_GRID}"  # the shipped counts hold every band 1, not only the catalog's


def test_rank_of_grid_at_round_trip(band0_catalog):
    engine = open_catalog(band0_catalog)
    totals = load_totals(engine)
    counts = lambda b: load_prefix_counts(engine, b)  # noqa: E731
    rng = random.Random(5)
    for r in [1, 2, 1_007_170] + [rng.randrange(1, 1_007_171) for _ in range(20)]:
        g = grid_at(r, totals, counts)
        moved = Transform.random(np.random.default_rng(r)).apply(g)
        rank, form = rank_of(moved, totals, counts)
        assert rank == r and np.array_equal(form, g)
    # consecutive ranks are consecutive grids of the enumeration
    p = 7
    under = enumerate_band1(0, p, p + 1, emit=True).grids
    start = int(np.sum(load_prefix_counts(engine, 0)[:p]))
    ks = sorted({0, 1, len(under) - 1} | set(random.Random(2).sample(range(len(under)), 5)))
    assert [format_sudoku(grid_at(start + k + 1, totals, counts)) for k in ks] == [format_lines(under)[k] for k in ks]


def test_a_band_that_is_never_band_1_gives_0(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    assert enum_cmd.main(["--band1", "414,415", "--count-only", "--db", db]) == 0
    assert load_totals(open_catalog(db)) == {414: 0, 415: 1}


def test_bad_arguments(tmp_path, capsys):
    for bad in (["--band1", "416"], ["--band1", "3-1"], ["--band1", "x"], []):
        with pytest.raises(SystemExit) as e:
            enum_cmd.main(bad + ["--db", str(tmp_path / "c.sqlite")])
        assert e.value.code == 2
    assert enum_cmd.main(["--band1", "1", "--count-only", "--out", "x", "--db", str(tmp_path / "c.sqlite")]) == 2
    assert "exclude each other" in capsys.readouterr().err


def _run(args, env, kill_after=None):
    p = subprocess.Popen([str(ROOT / "bin" / "enumerate")] + args, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if kill_after is None:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
        return
    time.sleep(kill_after)
    p.send_signal(signal.SIGKILL)
    p.communicate()


def test_killed_runs_resume_to_identical_counts_and_file(tmp_path):
    env = dict(ENV)
    args = ["--band1", "395,400,410,415", "--chunk", "8"]
    ref_db, ref_out = tmp_path / "ref.sqlite", tmp_path / "ref.txt"
    _run(args + ["--out", str(ref_out), "--db", str(ref_db)], env)
    db, out = tmp_path / "k.sqlite", tmp_path / "k.txt"
    rng = random.Random(11)
    for _ in range(4):
        _run(args + ["--out", str(out), "--db", str(db)], env, kill_after=rng.uniform(1.0, 6.0))
    _run(args + ["--out", str(out), "--db", str(db)], env)
    assert out.read_bytes() == ref_out.read_bytes()
    assert len(ref_out.read_text().splitlines()) == 11 + 1 + 3 + 1
    ref, got = open_catalog(str(ref_db)), open_catalog(str(db))
    assert load_totals(got) == load_totals(ref) == {395: 11, 400: 1, 410: 3, 415: 1}
    for b in (395, 400, 410, 415):
        assert load_prefix_counts(got, b) == load_prefix_counts(ref, b)
    lines = out.read_text().splitlines()
    assert lines == sorted(lines) and lines[-1] == LAST_GRID


def test_export_and_populate_round_trip(tmp_path, capsys):
    from sudoku_symmetry.catalog.grids import export_counts, import_counts

    db = str(tmp_path / "a.sqlite")
    assert enum_cmd.main(["--band1", "410,414,415", "--count-only", "--db", db]) == 0
    path = tmp_path / "counts.npz"
    assert enum_cmd.main(["--export", str(path), "--db", db]) == 0
    manifest = __import__("json").loads(path.with_suffix(".json").read_text())
    assert manifest["bands"] == [410, 414, 415] and manifest["grids"] == 4 and manifest["complete"] is False
    other = open_catalog(str(tmp_path / "b.sqlite"))
    with np.load(path) as arrays:
        assert import_counts(other, {k: arrays[k] for k in arrays.files}) == 3
    src = open_catalog(db)
    assert load_totals(other) == load_totals(src)
    assert all(load_prefix_counts(other, b) == load_prefix_counts(src, b) for b in (410, 414, 415))
    a, b = export_counts(src), export_counts(other)
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_fine_counts_recount_check_and_export(tmp_path, capsys):
    """--fine recounts bands 1 that lack fine counts, checks them against the catalog's counts,
    stores checkpoints per chunk, and --export-fine ships them; a disagreeing count stops it."""
    import json

    from sqlalchemy import update

    from sudoku_symmetry.catalog.fine import load_fine_package
    from sudoku_symmetry.catalog.grids import PREFIXES, fine_prefixes, load_fine

    db = str(tmp_path / "f.sqlite")
    assert enum_cmd.main(["--band1", "395,415", "--count-only", "--db", db]) == 0
    assert enum_cmd.main(["--band1", "395,415", "--count-only", "--fine", "--chunk", "100", "--db", db]) == 0
    engine = open_catalog(db)
    assert fine_prefixes(engine) == {395: len(prefixes(395)), 415: len(prefixes(415))}
    step, per, cps = load_fine(engine, 395)
    ref = enumerate_band1(395, step=step)
    assert np.array_equal(per, ref.checkpoint_counts) and np.array_equal(cps, ref.checkpoints)
    assert enum_cmd.main(["--band1", "395,415", "--count-only", "--fine", "--db", db]) == 0
    assert "counted already (with fine counts): skipped" in capsys.readouterr().err
    path = tmp_path / "fine.npz"
    assert enum_cmd.main(["--export-fine", str(path), "--fine-step", "4", "--db", db]) == 0
    manifest = json.loads(path.with_suffix(".json").read_text())
    assert manifest["bands"] == [395, 415] and manifest["step"] == 4 and manifest["complete"] is False
    assert "--fine-step 4" in manifest["command"]
    assert set(load_fine_package(path)) == {395, 415}
    # a catalog whose counts disagree with the recount: the run stops, nothing stored for it
    bad = str(tmp_path / "bad.sqlite")
    assert enum_cmd.main(["--band1", "410", "--count-only", "--db", bad]) == 0
    with open_catalog(bad).begin() as conn:
        conn.execute(update(PREFIXES).where(PREFIXES.c.band1 == 410).values(grids=PREFIXES.c.grids + 1))
    assert enum_cmd.main(["--band1", "410", "--count-only", "--fine", "--db", bad]) == 2
    assert "differs from the counts in the catalog" in capsys.readouterr().err
    assert fine_prefixes(open_catalog(bad)) == {}
    assert enum_cmd.main(["--band1", "410", "--fine", "--db", bad]) == 2


def test_export_fine_keeps_shipped_bands(tmp_path, monkeypatch):
    """--export-fine --keep-shipped: a recount in pieces adds to the shipped fine counts; the
    carried bands decode exactly as they were shipped, and the file holds the same arrays as one
    export from a catalog that counted every band itself."""
    import sudoku_symmetry.catalog.fine as fine_mod

    one, two = str(tmp_path / "one.sqlite"), str(tmp_path / "two.sqlite")
    for db in (one, two):
        assert enum_cmd.main(["--band1", "301,306,331", "--count-only", "--db", db]) == 0
    assert enum_cmd.main(["--band1", "301,331", "--count-only", "--fine", "--db", one]) == 0
    shipped = tmp_path / "shipped.npz"
    assert enum_cmd.main(["--export-fine", str(shipped), "--fine-step", "4", "--db", one]) == 0
    monkeypatch.setattr(fine_mod, "DATA", shipped)  # the package data this checkout "ships"
    assert enum_cmd.main(["--band1", "306", "--count-only", "--fine", "--db", two]) == 0
    merged = tmp_path / "merged.npz"
    assert enum_cmd.main(["--export-fine", str(merged), "--fine-step", "4", "--keep-shipped", "--db", two]) == 0
    assert enum_cmd.main(["--band1", "306", "--count-only", "--fine", "--db", one]) == 0
    whole = tmp_path / "whole.npz"
    assert enum_cmd.main(["--export-fine", str(whole), "--fine-step", "4", "--db", one]) == 0
    with np.load(merged) as m, np.load(whole) as w:
        assert sorted(m.files) == sorted(w.files) and all(np.array_equal(m[k], w[k]) for k in m.files)
    got, before = fine_mod.load_fine_package(merged), fine_mod.load_fine_package(shipped)
    assert sorted(got) == [301, 306, 331] and all(len(got[b][1]) > 0 for b in got)
    for b in (301, 331):
        assert all(np.array_equal(x, y) for x, y in zip(got[b], before[b]))
    # another step cannot be carried over (thinned data cannot be thinned again to it)
    assert enum_cmd.main(["--export-fine", str(tmp_path / "x.npz"), "--fine-step", "8", "--keep-shipped",
                          "--db", two]) == 2
