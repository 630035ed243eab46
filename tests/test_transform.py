"""The group: compose, invert, apply, string form, human steps (property tests)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sudoku_symmetry.engine.text import format_sudoku, parse
from sudoku_symmetry.engine.group._kernels import apply_into as _apply_into
from sudoku_symmetry.engine.group.transform import Transform, apply_batch, compose, compose_all, random_transforms
from sudoku_symmetry.engine.validity import conflicts, is_valid

from conftest import RANK1_GRID

seeds = st.integers(0, 2**32 - 1)


def _naive_apply(t: Transform, cells: np.ndarray) -> np.ndarray:
    g = cells.reshape(9, 9)
    src = g.T if t.transpose else g
    return np.array([[t.digits[src[t.rows[i], t.cols[j]]] for j in range(9)] for i in range(9)], np.uint8).ravel()


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_compose_is_apply_then_apply(seed):
    rng = np.random.default_rng(seed)
    a, b = Transform.random(rng), Transform.random(rng)
    x = rng.integers(0, 10, 81).astype(np.uint8)
    assert np.array_equal(compose(a, b).apply(x), b.apply(a.apply(x)))
    assert np.array_equal(a.apply(x), _naive_apply(a, x))


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_inverse_and_identity(seed):
    rng = np.random.default_rng(seed)
    a = Transform.random(rng)
    x = rng.integers(0, 10, 81).astype(np.uint8)
    assert np.array_equal(a.inverse().apply(a.apply(x)), x)
    assert compose(a, a.inverse()).is_identity and compose(a.inverse(), a).is_identity
    assert compose(a, Transform.identity()) == a == compose(Transform.identity(), a)


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_string_form_round_trips(seed):
    a = Transform.random(np.random.default_rng(seed))
    assert Transform.parse(str(a)) == a
    assert Transform.from_array(a.as_array()) == a


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_random_elements_preserve_validity(seed):
    rng = np.random.default_rng(seed)
    grid = parse(RANK1_GRID)
    moved = Transform.random(rng).apply(grid)
    assert is_valid(moved)[0] and not conflicts(moved)
    assert sorted(moved.tolist()) == sorted(grid.tolist())


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_steps_compose_back(seed):
    a = Transform.random(np.random.default_rng(seed))
    steps = a.steps()
    assert compose_all(s.transform for s in steps) == a
    assert all(str(s) for s in steps)


def test_rotation_is_in_the_group_and_has_order_4():
    r = Transform.rotation(1)
    x = np.arange(81, dtype=np.uint8) % 10
    g = x.reshape(9, 9)
    assert np.array_equal(r.apply(x).reshape(9, 9), np.rot90(g, -1))  # clockwise
    assert Transform.rotation(4).is_identity and not Transform.rotation(2).is_identity
    assert [str(s) for s in r.steps()] == ["rotate 90 degrees clockwise 1 time"]
    assert Transform.identity().steps() == []


def test_steps_read_like_a_person_would_write_them():
    t = Transform(False, [3, 4, 5, 0, 1, 2, 6, 7, 8], range(9), range(10))
    assert [str(s) for s in t.steps()] == ["reorder bands to 2,1,3"]
    t = Transform(False, range(9), [0, 2, 1, 3, 4, 5, 6, 7, 8], [0, 2, 1, 3, 4, 5, 6, 7, 8, 9])
    assert [str(s) for s in t.steps()] == ["reorder columns 1-3 to 1,3,2", "relabel digits 1>2 2>1"]


@pytest.mark.parametrize(
    "bad",
    [
        "0:123456789:123456789:12345678",
        "2:123456789:123456789:123456789",
        "0:124356789:123456789:123456789",  # row 4 moved into band 1
        "0:123456789:123456789:113456789",
    ],
)
def test_bad_strings_and_maps_are_rejected(bad):
    with pytest.raises(ValueError):
        Transform.parse(bad)


@pytest.mark.parametrize("fn", [_apply_into, _apply_into.py_func])
def test_apply_kernel_both_paths(fn):
    rng = np.random.default_rng(5)
    t = Transform.random(rng)
    x = rng.integers(0, 10, 81).astype(np.uint8)
    out = np.empty(81, np.uint8)
    fn(t.as_array(), x, out)
    assert np.array_equal(out, _naive_apply(t, x))


def test_batch_apply():
    rng = np.random.default_rng(9)
    ts = random_transforms(50, rng)
    xs = rng.integers(0, 10, (50, 81)).astype(np.uint8)
    out = apply_batch(ts, xs)
    for k in range(50):
        assert np.array_equal(out[k], Transform.from_array(ts[k]).apply(xs[k]))


def test_conflicts_name_the_cells():
    s = list("." * 81)
    s[0] = s[8] = "5"  # row 1
    s[80] = s[70] = "3"  # box 9 (r8c8 and r9c9)
    found = conflicts("".join(s))
    assert [str(c) for c in found] == [
        "digit 5 repeated in row 1 at r1c1, r1c9",
        "digit 3 repeated in box 9 at r8c8, r9c9",
    ]
    assert not is_valid("".join(s))[0]
    assert format_sudoku(parse("".join(s))) == "".join(s)


def test_vectorized_string_forms():
    from sudoku_symmetry.engine.group.transform import format_transforms

    ts = random_transforms(50, np.random.default_rng(1))
    assert format_transforms(ts) == [str(Transform.from_array(t)) for t in ts]


# -- the group kernels (engine/group/_kernels.py), both compiled and as plain Python -------------
from sudoku_symmetry.engine.group import _kernels as GK  # noqa: E402
from sudoku_symmetry.engine.group import compose_batch, invert_batch  # noqa: E402


@pytest.mark.parametrize("compiled", [True, False])
def test_compose_and_invert_kernels_match_the_python_group(compiled):
    compose_k = GK.compose_into if compiled else GK.compose_into.py_func
    invert_k = GK.invert_into if compiled else GK.invert_into.py_func
    rng = np.random.default_rng(11)
    for _ in range(40):
        a, b = Transform.random(rng), Transform.random(rng)
        out = np.empty(GK.SIZE, np.uint8)
        compose_k(a.as_array(), b.as_array(), out)
        assert Transform.from_array(out) == compose(a, b)
        invert_k(a.as_array(), out)
        assert Transform.from_array(out) == a.inverse()


def test_layout_offsets_are_the_array_form():
    t = Transform.parse("1:213456789:123456798:912345678")
    a = t.as_array()
    assert len(a) == GK.SIZE == 29
    assert a[GK.TRANSPOSE] == 1
    assert list(a[GK.ROWS : GK.ROWS + 9]) == [1, 0, 2, 3, 4, 5, 6, 7, 8]
    assert list(a[GK.COLS : GK.COLS + 9]) == [0, 1, 2, 3, 4, 5, 6, 8, 7]
    assert list(a[GK.DIGITS : GK.DIGITS + 10]) == [0, 9, 1, 2, 3, 4, 5, 6, 7, 8]
    out = np.zeros(GK.SIZE, np.uint8)
    GK.write_transform(out, True, a[GK.ROWS :], a[GK.COLS :], a[GK.DIGITS :])
    assert np.array_equal(out, a)
    GK.set_identity(out)
    assert Transform.from_array(out).is_identity


@settings(max_examples=50, deadline=None)
@given(seeds)
def test_batch_compose_and_invert(seed):
    rng = np.random.default_rng(seed)
    a, b = random_transforms(20, rng), random_transforms(20, rng)
    ab = compose_batch(a, b)
    inv = invert_batch(a)
    x = rng.integers(0, 10, (20, 81)).astype(np.uint8)
    assert np.array_equal(apply_batch(ab, x), apply_batch(b, apply_batch(a, x)))
    assert np.array_equal(apply_batch(inv, apply_batch(a, x)), x)
