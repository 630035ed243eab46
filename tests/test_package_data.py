"""The ED-grid counts shipped as package data: checksum, consistency, agreement with the
enumerator on small bands, and, once all 416 bands 1 are in, the published totals."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry import catalog
from sudoku_symmetry.engine.grids import N_ED_GRIDS, enumerate_band1, prefixes

DATA = Path(catalog.__file__).parent / "data" / "ed_grid_counts.npz"


@pytest.fixture(scope="module")
def shipped():
    if not DATA.exists():
        pytest.fail(f"{DATA} is missing")
    manifest = json.loads(DATA.with_suffix(".json").read_text())
    with np.load(DATA) as f:
        arrays = {k: f[k] for k in f.files}
    return manifest, arrays


def test_checksum_and_consistency(shipped):
    manifest, a = shipped
    assert hashlib.sha256(DATA.read_bytes()).hexdigest() == manifest["sha256"]
    assert a["band1"].tolist() == manifest["bands"] == sorted(set(manifest["bands"]))
    assert manifest["complete"] == (len(manifest["bands"]) == 416)
    start = np.concatenate([[0], np.cumsum(a["prefixes"])])
    for k, b in enumerate(a["band1"].tolist()):
        counts = a["prefix_grids"][start[k] : start[k + 1]]
        assert a["prefixes"][k] == len(prefixes(b))
        assert np.array_equal(a["prefix_row4"][start[k] : start[k + 1]], prefixes(b))
        assert counts.sum() == a["grids"][k]
        sel = a["hist_band"] == b
        assert a["hist_grids"][sel].sum() == a["grids"][k]
        assert a["hist_grids"][sel & (a["hist_count"] > 1)].sum() == a["automorphic"][k]
    assert int(a["grids"].sum()) == manifest["grids"]


def test_published_totals_when_complete(shipped):
    manifest, a = shipped
    grids = dict(zip(a["band1"].tolist(), a["grids"].tolist()))
    if 0 in grids:
        assert grids[0] == 1_007_170
    if 208 in grids:
        assert grids[208] == 2_443_960
    if manifest["complete"]:
        assert int(a["grids"].sum()) == N_ED_GRIDS
        assert int(a["automorphic"].sum()) == 560_151
        assert sum(1 for g in grids.values() if g == 0) == 15
    else:
        assert int(a["grids"].sum()) < N_ED_GRIDS


def test_a_small_shipped_band_agrees_with_the_enumerator(shipped):
    _, a = shipped
    start = np.concatenate([[0], np.cumsum(a["prefixes"])])
    k = int(np.argmin(a["grids"]))  # the cheapest band shipped
    b = int(a["band1"][k])
    assert np.array_equal(enumerate_band1(b).counts, a["prefix_grids"][start[k] : start[k + 1]])


def test_shipped_fine_counts():
    """The fine counts (catalog/data/ed_grid_fine.npz): checksum, budget, and on sampled prefixes
    of the bands covered exactly what the enumerator's checkpoints thin to."""
    from sudoku_symmetry.catalog.fine import DATA as FINE, load_fine_package, thin

    manifest = json.loads(FINE.with_suffix(".json").read_text())
    assert hashlib.sha256(FINE.read_bytes()).hexdigest() == manifest["sha256"]
    assert DATA.stat().st_size + FINE.stat().st_size <= 25_000_000
    assert manifest["complete"] == (len(manifest["bands"]) == 416)
    assert "bin/enumerate --all --count-only --fine" in manifest["command"]
    fine = load_fine_package()
    assert sorted(fine) == manifest["bands"]
    assert sum(len(c) for _, c in fine.values()) == manifest["checkpoints"]
    with np.load(DATA) as f:
        start = np.concatenate([[0], np.cumsum(f["prefixes"])])
        band_k = {b: k for k, b in enumerate(f["band1"].tolist())}
        grids = f["prefix_grids"]
    rng = np.random.default_rng(4)
    covered = sorted(fine)
    for b in covered[:2] + [int(rng.choice(covered))] + covered[-1:]:
        per, cps = fine[b]
        counts = grids[start[band_k[b]] : start[band_k[b] + 1]]
        assert len(per) == len(prefixes(b)) and (per.sum() == len(cps))
        off = np.concatenate([[0], np.cumsum(per)])
        nonzero = np.flatnonzero(counts > 0)  # band 415 has one grid, so one prefix
        for p in rng.choice(nonzero, min(2, len(nonzero)), replace=False).tolist():
            r = enumerate_band1(b, p, p + 1, step=128)  # the step of bin/enumerate --fine
            q, d, c = thin(r.checkpoint_counts, r.checkpoints, counts[p : p + 1], manifest["step"])
            mine = cps[off[p] : off[p + 1]]
            assert q[0] == len(mine)
            assert np.array_equal(np.diff(np.concatenate([[0], mine[:, 0]])), d)
            assert np.array_equal(np.diff(np.concatenate([[0], mine[:, 1]])) - manifest["step"], c)
