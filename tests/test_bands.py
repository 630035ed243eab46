"""The 416 bands: published facts, the full 2,612,736-band sweep, a brute-force reference."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sudoku_symmetry.engine.bands import _kernels as K
from sudoku_symmetry.engine.bands.tables import (
    InvalidBandError,
    _PERM3,
    band_compare,
    band_index,
    band_index_one,
    band_tables,
    build_tables,
    random_bands,
)
from sudoku_symmetry.engine.text import format_sudoku
from sudoku_symmetry.engine.group.transform import Transform

from naive_bands import automorphism_count, gangster, gangster_form, gangster_witness, minlex_band


@pytest.fixture(scope="module")
def T():
    return band_tables()


def _apply_band_transforms(bands, transforms):
    """Numpy (not the engine) applies band transformations, so the check is independent."""
    n = len(bands)
    rows = transforms[:, 1:4].astype(np.intp)
    cols = transforms[:, 10:19].astype(np.intp)
    cells = bands.reshape(n, 3, 9)[np.arange(n)[:, None, None], rows[:, :, None], cols[:, None, :]]
    return np.take_along_axis(transforms[:, 19:29], cells.reshape(n, 27).astype(np.intp), axis=1)


def _all_normalized_bands(T):
    """All 2,612,736 bands with row 1 = 123456789, decoded without the engine's key code."""
    ids = np.flatnonzero(T.row2_rank_to_id >= 0)
    assert len(ids) == 12096
    from itertools import permutations

    perms = np.array(list(permutations(range(1, 10))), dtype=np.uint8)
    row2 = perms[ids]
    out = np.empty((12096, 216, 27), np.uint8)
    out[:, :, 0:9] = np.arange(1, 10, dtype=np.uint8)
    out[:, :, 9:18] = row2[:, None, :]
    for box in range(3):
        used = np.zeros((12096, 10), bool)
        used[:, 3 * box + 1 : 3 * box + 4] = True
        used[np.arange(12096)[:, None], row2[:, 3 * box : 3 * box + 3]] = True
        rest = np.nonzero(~used[:, 1:])[1].reshape(12096, 3) + 1  # the 3 digits row 3 needs, ascending
        code = (np.arange(216) // (36, 6, 1)[box]) % 6
        out[:, :, 18 + 3 * box : 21 + 3 * box] = rest[:, _PERM3[code]].astype(np.uint8)
    return out.reshape(-1, 27)


def test_416_classes_and_band_0(T):
    assert len(T.minlex) == 416
    assert T.minlex_string(0) == "123456789456789123789123456"
    assert T.automorphism_count[0] == 108
    strings = [T.minlex_string(i) for i in range(416)]
    assert strings == sorted(strings) and len(set(strings)) == 416
    assert all(s.startswith("12345678945") for s in strings)


def test_burnside_336(T):
    assert sum(Fraction(1, int(a)) for a in T.automorphism_count) == 336
    assert int(T.class_size.sum()) == 2_612_736


# bands (of the 416) in each gangster class, by class number (numbered by their first band)
GANGSTER_CLASS_BANDS = [2, 3, 2, 7, 6, 24, 8, 9, 16, 22, 11, 9, 26, 2, 3, 3, 14, 8, 9, 2, 2, 30, 13, 28, 26, 9,
                        14, 20, 10, 5, 4, 8, 8, 6, 5, 6, 3, 8, 6, 4, 6, 4, 4, 1]


def test_44_gangster_classes_match_brute_force(T):
    """The engine's gangster classes are the partition that a brute force over the 1,296
    stack-preserving column orders finds (tests/naive_bands.py), with the same band counts."""
    naive: dict = {}
    for i in range(416):
        naive.setdefault(gangster_form(T.minlex_string(i)), []).append(i)
    engine: dict = {}
    for i, c in enumerate(T.gangster_class.tolist()):
        engine.setdefault(c, []).append(i)
    assert len(naive) == 44 and sorted(engine) == list(range(44))
    assert sorted(naive.values()) == sorted(engine.values())
    assert [len(engine[c]) for c in range(44)] == GANGSTER_CLASS_BANDS
    assert [engine[c][0] for c in range(44)] == sorted(engine[c][0] for c in range(44))  # numbered by first band
    assert sum(int(T.class_size[engine[c]].sum()) for c in range(44)) == 2_612_736
    # direct checks without a canonical form: a witness maps a class's first band onto its last,
    # and none maps the first bands of neighbouring classes onto each other
    for c in (0, 5, 21, 43):
        first, last = T.minlex_string(engine[c][0]), T.minlex_string(engine[c][-1])
        order, digits = gangster_witness(first, last)
        moved = [frozenset(digits[d] for d in gangster(first)[order[j]]) for j in range(9)]
        assert moved == gangster(last)
    for c in (0, 5, 21, 42):
        assert gangster_witness(T.minlex_string(engine[c][0]), T.minlex_string(engine[c + 1][0])) is None


def test_automorphism_lists_fix_their_band(T):
    for i in (0, 1, 207, 208, 415):
        auts = T.automorphisms(i)
        assert len(auts) == T.automorphism_count[i]
        assert len({str(a) for a in auts}) == len(auts)
        for a in auts:
            assert format_sudoku(a.apply_band(T.minlex[i])) == T.minlex_string(i)


def test_every_normalized_band(T):
    """Each of the 2,612,736 bands gets an index and a transformation that really maps it
    onto that minlex band; class sizes match 7,776 / |Aut|."""
    bands = _all_normalized_bands(T)
    assert len(bands) == 2_612_736
    index, transforms = band_index(bands)
    mapped = _apply_band_transforms(bands, transforms)
    assert np.array_equal(mapped, T.minlex[index])
    assert np.array_equal(np.bincount(index, minlength=416), T.class_size)


@pytest.mark.parametrize("seed", range(3))
def test_brute_force_reference_agrees(T, seed):
    bands = random_bands(8, np.random.default_rng(seed))
    index, _ = band_index(bands)
    for band, i in zip(bands, index):
        s = format_sudoku(band)
        assert minlex_band(s) == T.minlex_string(i)
    for i in np.random.default_rng(seed).choice(416, 3, replace=False):
        assert automorphism_count(T.minlex_string(i)) == T.automorphism_count[i]


def _random_band_transform(rng) -> Transform:
    rows = [int(x) for x in rng.permutation(3)] + list(range(3, 9))
    order = rng.permutation(3)
    cols = [3 * int(order[s]) + int(p) for s in range(3) for p in rng.permutation(3)]
    return Transform(False, rows, cols, [0] + [int(x) + 1 for x in rng.permutation(9)])


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_transformations_keep_the_index(seed):
    rng = np.random.default_rng(seed)
    band = random_bands(1, rng)[0]
    moved = _random_band_transform(rng).apply_band(band)
    i1, t1 = band_index_one(band)
    i2, t2 = band_index_one(moved)
    assert i1 == i2
    assert np.array_equal(t1.apply_band(band), t2.apply_band(moved))


def test_threshold_form(T):
    bands = random_bands(5000, np.random.default_rng(7))
    index, full = band_index(bands)
    for threshold in (0, 17, 208, 415):
        cmp, transforms = band_compare(bands, threshold)
        assert np.array_equal(cmp, np.sign(index.astype(int) - threshold))
        eq = cmp == 0
        assert np.array_equal(_apply_band_transforms(bands[eq], transforms[eq]), T.minlex[index[eq]])


@pytest.mark.parametrize(
    "band, problem",
    [
        ("123456788456789123789123456", "row 1"),
        ("123456789123456789789123456", "row 2"),
        ("123456789456789123789123455", "row 3"),
        ("023456789456789123789123456", "row 1"),
    ],
)
def test_invalid_bands_are_named(band, problem):
    with pytest.raises(InvalidBandError, match=problem):
        band_index(band)
    index, _ = band_index(band, check=False)
    assert index[0] == -int(problem[-1])  # -1, -2, -3: the row at fault


@pytest.mark.parametrize("fn", [K.band_lookup, K.band_lookup.py_func])
def test_lookup_kernel_and_python_paths(T, fn):
    """Same answers from the compiled kernel and its Python source (so coverage sees it)."""
    from sudoku_symmetry.engine.bands.tables import _FACT

    bands = random_bands(20, np.random.default_rng(3))
    index = np.empty(20, np.int16)
    transforms = np.zeros((20, 29), np.uint8)
    fn(bands, T.row2_rank_to_id, _FACT, T.table, T.maps_rows, T.maps_cols, index, transforms)
    assert np.array_equal(_apply_band_transforms(bands, transforms), T.minlex[index])


def test_build_from_nothing_matches_cache(T):
    fresh = build_tables()
    assert np.array_equal(fresh.minlex, T.minlex)
    assert np.array_equal(fresh.table, T.table)
    assert np.array_equal(fresh.gangster_class, T.gangster_class)
