"""Rank <-> grid over the shipped counts (engine/grids/rank.py): rank 1 and the last rank are
docs/design.md's first and last grids, round trips on random ranks, and the fine counts (checkpoints
inside a prefix) agree with whole-prefix enumeration on sampled prefixes."""
import numpy as np
import pytest

from sudoku_symmetry.catalog.fine import load_fine_package, thin
from sudoku_symmetry.catalog.shipped import ED_GRID_COUNTS as COARSE
from sudoku_symmetry.engine.grids.index import rank_index
from sudoku_symmetry.jobs.ed_grids import catalog_counts
from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.engine.grids import N_ED_GRIDS, RankIndex, enumerate_band1, prefixes
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.group.transform import Transform
from sudoku_symmetry.engine.text import format_sudoku

from conftest import LAST_GRID, RANK1_GRID


@pytest.fixture(scope="module")
def fine():
    """The shipped fine checkpoints, loaded once for the module (1.3 GB while loading)."""
    return load_fine_package()


@pytest.fixture(scope="module")
def shipped():
    with np.load(COARSE) as f:
        c = {k: f[k] for k in f.files}  # read each array once: f[k] decompresses it again at every access
    totals = dict(zip(c["band1"].tolist(), c["grids"].tolist()))
    start = np.concatenate([[0], np.cumsum(c["prefixes"])])
    counts = {b: c["prefix_grids"][start[k] : start[k + 1]] for k, b in enumerate(c["band1"].tolist())}
    before = np.concatenate([[0], np.cumsum([totals[b] for b in range(416)])])
    return totals, counts, before


def test_first_and_last_ranks_are_the_design_grids(shipped, fine):
    totals, counts, _ = shipped
    index = RankIndex(totals, counts.get, fine.get)
    g = index.grids_at([1, N_ED_GRIDS])
    assert [format_sudoku(x) for x in g] == [RANK1_GRID, LAST_GRID]
    ranks, forms = index.ranks_of(np.stack([Transform.random(np.random.default_rng(1)).apply(x) for x in g]))
    assert ranks.tolist() == [1, N_ED_GRIDS] and np.array_equal(forms, g)
    with pytest.raises(ValueError, match="rank must be between 1 and 5,472,730,538"):
        index.grids_at([N_ED_GRIDS + 1])


@pytest.mark.parametrize("band1, prefix", [(0, 0), (0, 9), (5, 413), (17, 3), (208, 900), (350, 10)])
def test_fine_checkpoints_agree_with_whole_prefixes(shipped, band1, prefix):
    """Checkpoints every 32 grids of a sampled prefix (no checkpoints elsewhere in the band: those
    prefixes fall back to whole-prefix walks); every lookup agrees with the enumeration."""
    totals, counts, before = shipped
    prefix = next(p for p in range(prefix, len(counts[band1])) if counts[band1][p] > 0)
    whole = enumerate_band1(band1, prefix, prefix + 1, emit=True, step=32)
    assert whole.total == counts[band1][prefix]
    assert np.array_equal(enumerate_band1(band1, prefix, prefix + 1).counts, whole.counts)
    cps = whole.checkpoints
    assert len(cps) == whole.checkpoint_counts[0]
    if len(cps):  # increasing, a checkpoint after each 32 grids or more
        assert (np.diff(cps[:, 0]) > 0).all() and (np.diff(np.concatenate([[0], cps[:, 1]])) >= 32).all()
    per = np.zeros(len(prefixes(band1)), np.int64)
    per[prefix] = len(cps)
    fine = RankIndex(totals, counts.get, {band1: (per, cps)}.get)
    coarse = RankIndex(totals, counts.get)
    rng = np.random.default_rng(band1 + prefix)
    pos = sorted({0, whole.total - 1} | set(rng.integers(0, whole.total, 12).tolist())
                 | {int(c) for c in cps[:, 1] if c < whole.total} | {int(c) - 1 for c in cps[:, 1]})
    ranks = before[band1] + int(np.sum(counts[band1][:prefix])) + np.array(pos) + 1
    got = fine.grids_at(ranks)
    assert np.array_equal(got, whole.grids[pos])
    assert np.array_equal(coarse.grids_at(ranks[:3]), whole.grids[pos[:3]])
    moved = np.stack([Transform.random(np.random.default_rng(int(r))).apply(g) for r, g in zip(ranks, got)])
    r2, forms = fine.ranks_of(moved)
    assert r2.tolist() == ranks.tolist() and np.array_equal(forms, got)


def test_random_ranks_round_trip(shipped, fine):
    totals, counts, _ = shipped
    index = RankIndex(totals, counts.get, fine.get)
    ranks = np.random.default_rng(8).integers(1, N_ED_GRIDS + 1, 6)
    grids = index.grids_at(ranks)
    assert index.ranks_of(grids)[0].tolist() == ranks.tolist()
    # random (not minlex) grids: rank then grid gives back their minlex forms
    r, forms = index.ranks_of(random_grids(4, seed=5))
    assert np.array_equal(index.grids_at(r), forms)


def test_thinning_keeps_checkpoints_a_step_apart():
    per = np.array([3, 0, 2])
    cps = np.array([[2, 130], [5, 300], [9, 420], [1, 128], [4, 260]])
    p, d, c = thin(per, cps, np.array([500, 10, 260]), 256)
    assert p.tolist() == [1, 0, 0] and d.tolist() == [5] and c.tolist() == [300 - 256]


def test_rank_index_of_a_catalog_uses_only_its_counted_bands(tmp_path):
    from sudoku_symmetry.catalog.grids import store_band_total, store_prefix_counts

    engine = open_catalog(str(tmp_path / "c.sqlite"))
    r = enumerate_band1(415)
    store_prefix_counts(engine, 415, 0, ["x" * 9] * len(r.counts), r.counts.tolist())
    store_band_total(engine, 415, r.total, len(r.counts), {1: 1})
    index = rank_index(lambda: catalog_counts(engine))
    from sudoku_symmetry.engine.grids import MissingBand

    with pytest.raises(MissingBand, match="band 1 = 0 is not counted yet"):
        index.grids_at([1])


def test_flat_arrays_answer_like_the_index_they_came_from(shipped, fine, tmp_path, monkeypatch):
    """to_arrays -> stored memory-mapped -> from_arrays: the same grids and ranks (bands 1 0-2),
    the next band missing, and a second store reads the folder the first one wrote."""
    from sudoku_symmetry.engine import _cache
    from sudoku_symmetry.engine.grids import MissingBand

    totals, counts, before = shipped
    index = RankIndex({b: totals[b] for b in range(3)}, counts.get, fine.get)
    monkeypatch.setenv("SUDOKU_CACHE_DIR", str(tmp_path))
    built = []
    arrays = _cache.stored_arrays("rank-test", lambda: built.append(1) or index.to_arrays(), prefix="rank-")
    again = _cache.stored_arrays("rank-test", lambda: built.append(1) or index.to_arrays(), prefix="rank-")
    assert built == [1] and all(isinstance(a, np.memmap) and not a.flags.writeable for a in again.values())
    assert sorted(arrays) == sorted(("totals", "prefix_off", "keys", "before", "cp_off", "cp_ord", "cp_cnt"))
    flat = RankIndex.from_arrays(again)
    rng = np.random.default_rng(26)
    ranks = np.concatenate([[1, before[1], before[1] + 1, before[3]], rng.integers(1, before[3] + 1, 20)])
    got = flat.grids_at(ranks)
    assert np.array_equal(got, index.grids_at(ranks))
    moved = np.stack([Transform.random(rng).apply(g) for g in got])
    assert flat.ranks_of(moved)[0].tolist() == ranks.tolist()
    with pytest.raises(MissingBand, match="band 1 = 3 is not counted yet"):
        flat.grids_at([before[3] + 1])


def test_shipped_rank_index_needs_no_catalog():
    from sudoku_symmetry.shipped import rank_index as shipped_index

    index = shipped_index()
    assert [format_sudoku(g) for g in index.grids_at([1, N_ED_GRIDS])] == [RANK1_GRID, LAST_GRID]
    assert index.ranks_of(LAST_GRID)[0].tolist() == [N_ED_GRIDS]
