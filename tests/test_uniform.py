"""Exactly uniform random grids: the random stream against a plain-Python one, the sampler's
tables against brute force, and the draws against the catalog's counts (chi-square of the minlex
band 1, the share of grids with an automorphism), with the randomised fill failing the same test."""
from __future__ import annotations

import math

import numpy as np
import pytest

from naive_generate import Stream, chi2_sf, sorted_fills
from sudoku_symmetry.engine.bands import band_index, band_tables
from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.core import rng
from sudoku_symmetry.engine.grids import _uniform_kernels as K
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.grids.uniform import CHUNK, check_seed, sampler_tables, uniform_grids
from sudoku_symmetry.engine.validity import is_grid

DRAWS = 200_000


@pytest.mark.parametrize("seed,stream", [(0, 0), (7, 3), (2**63 - 1, 12345)])
def test_stream_matches_the_plain_python_xoshiro(seed, stream):
    state = np.zeros(rng.STATE_WORDS, np.uint64)
    rng.seed_stream(state, seed, stream)
    ref = Stream(seed, stream)
    assert [int(x) for x in state] == ref.s
    got = [int(rng.next_u64(state)) for _ in range(5)]
    assert got == [ref.next() for _ in range(5)]
    for n in (1, 2, 3, 56, 288, 46_712_288, 2**40 + 7):
        assert rng.below(state, n) == ref.below(n)
    a = np.arange(20)
    rng.shuffle(state, a, 20)
    b = list(range(20))
    ref.shuffle(b)
    assert a.tolist() == b


@pytest.mark.parametrize("fn", [rng.shuffle, rng.shuffle.py_func])
def test_shuffle_orders_are_uniform(fn):
    state = np.zeros(rng.STATE_WORDS, np.uint64)
    rng.seed_stream(state, 3, 0)
    counts = {}
    for _ in range(6000):
        a = np.arange(3)
        fn(state, a, 3)
        counts[tuple(a)] = counts.get(tuple(a), 0) + 1
    obs = np.array(list(counts.values()))
    assert len(obs) == 6
    assert chi2_sf(float(((obs - 1000) ** 2 / 1000).sum()), 5) > 1e-3


def test_seed_must_be_a_63_bit_whole_number():
    assert check_seed(5) == 5
    for bad in (-1, 2**63, 1.5, "3", True):
        with pytest.raises(ValueError):
            check_seed(bad)


def test_the_tables_count_every_cube_and_their_fills_by_brute_force():
    t = sampler_tables()
    assert int((t["cube_table"] != 0).sum()) == 22_620
    assert t["U"] == 288
    assert len(t["prefixes"]) == 834_148
    # a minlex band's own column sets: the table's count equals trying every column order
    cols3 = np.zeros(9, np.int64)
    coord = np.zeros(10, np.int64)
    for b in (0, 1, 17, 208, 415):
        band = band_tables().minlex[b].astype(int)
        sets = [{band[9 * r + j] for r in range(3)} for j in range(9)]
        for j in range(9):
            cols3[j] = sum(1 << d for d in sets[j])
        u = K.cube_u(t["cube_table"], K.cube_key(cols3, coord))
        assert u == sorted_fills(sets) >= 1


def test_draws_are_valid_reproducible_and_any_range_can_be_made_alone():
    g = uniform_grids(CHUNK + 50, seed=11)
    assert is_grid(g).all()
    assert (uniform_grids(CHUNK + 50, seed=11) == g).all()
    assert (uniform_grids(30, seed=11, first=CHUNK - 10) == g[CHUNK - 10: CHUNK + 20]).all()
    assert (uniform_grids(5, seed=11) == g[:5]).all()
    assert not (uniform_grids(5, seed=12) == g[:5]).all()


def _band1_test(grids):
    """(chi-square p of the minlex band 1 against the catalog's law, automorphic share)."""
    a = np.load(__import__("sudoku_symmetry.catalog.shipped", fromlist=["x"]).ED_GRID_COUNTS)
    # each ED grid's orbit holds |G| / |Aut| grids: weight 1 / |Aut| from the shipped histograms
    w = np.zeros(416)
    np.add.at(w, a["hist_band"], a["hist_grids"] / a["hist_count"])
    p = w / w.sum()
    share = float((a["hist_grids"] / a["hist_count"] * (a["hist_count"] > 1)).sum() / w.sum())
    c = canon_grids(grids)
    obs = np.bincount(band_index(c.forms[:, :27])[0], minlength=416)
    n = len(grids)
    e = p * n
    big = e >= 5
    chi = float(((obs[big] - e[big]) ** 2 / e[big]).sum() + (obs[~big].sum() - e[~big].sum()) ** 2 / e[~big].sum())
    return chi2_sf(chi, int(big.sum())), int((c.automorphisms > 1).sum()), share * n


def test_band_1_and_automorphisms_follow_the_catalog():
    p, automorphic, expected = _band1_test(uniform_grids(DRAWS, seed=2026))
    assert p > 1e-3
    # Poisson: about 10 expected in 200,000 (the catalog: 5.07e-5 of all grids)
    lo = sum(math.exp(-expected) * expected**k / math.factorial(k) for k in range(automorphic + 1))
    hi = 1 - lo + math.exp(-expected) * expected**automorphic / math.factorial(automorphic)
    assert min(lo, hi) > 1e-3, (automorphic, expected)


def test_the_randomised_fill_fails_the_same_test():
    p, _, _ = _band1_test(random_grids(DRAWS // 10, seed=2026))
    assert p < 1e-10
