"""engine/patterns: RGS, the orbit filter, Burnside, the box-first canonical form, enumeration.

Checked against published counts (1, 1, 5, 21, 109 patterns), Burnside's independent count for
every n the enumeration reaches cheaply, naive orbits (tests/naive_patterns.py) for n <= 3,
orbit-stabilizer sums, and random group elements (hypothesis)."""
from __future__ import annotations

from itertools import permutations
from math import comb, factorial

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import naive_patterns as naive
from sudoku_symmetry.engine.group import apply_batch
from sudoku_symmetry.engine.group.transform import Transform, random_transforms
from sudoku_symmetry.engine.patterns import _orbit_kernels, _rgs_kernels, burnside, enumeration, orbits, rgs
from sudoku_symmetry.engine.patterns.canonical import (canonical_forms, format_cells, has_conflict,
                                                       parse_line)

G = 2 * 6**8
FULL = G * factorial(9)
BOX_FIRST = np.array(naive.BOX_FIRST)


# -- restricted growth sequences -------------------------------------------------------------
def test_rgs_counts_are_stirling_sums():
    assert [rgs.stirling2(10, k) for k in range(11)] == [0, 1, 511, 9330, 34105, 42525, 22827, 5880, 750,
                                                         45, 1]
    bell = [1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147, 115975]
    for n in range(11):
        assert rgs.count(n, n) == bell[n]
        assert len(rgs.enumerate_rgs(n)) == rgs.count(n) == sum(rgs.stirling2(n, k) for k in range(10))
    assert rgs.count(10) == bell[10] - 1  # the one partition into 10 blocks needs a 10th value


def _naive_rgs(n, k):
    out = []

    def rec(s, m):
        if len(s) == n:
            out.append(tuple(s))
            return
        for v in range(1, min(m + 1, k) + 1):
            rec(s + [v], max(m, v))

    rec([], 0)
    return out


@pytest.mark.parametrize("n,k", [(1, 9), (5, 3), (7, 9), (9, 9), (11, 4)])
def test_enumerate_rank_unrank_round_trip(n, k):
    e = rgs.enumerate_rgs(n, k)
    assert [tuple(r) for r in e.tolist()] == _naive_rgs(n, k)  # lexicographic order
    r = rgs.rank(e, k)
    assert (r == np.arange(len(e))).all()
    assert (rgs.unrank(r, n, k) == e).all()
    assert rgs.rank(np.array([2] + [1] * (n - 1)), k) == -1


@pytest.mark.parametrize("fn", [_rgs_kernels.relabel_into, _rgs_kernels.relabel_into.py_func])
def test_relabel_in_order_of_first_appearance(fn):
    rng = np.random.default_rng(5)
    batch = rng.integers(0, 10, (50, 20)).astype(np.uint8)
    order = rng.permutation(20).astype(np.int64)
    out = np.zeros_like(batch)
    fn(batch, order, out)
    for row, got in zip(batch, out):
        label = {}
        want = np.zeros(20, np.uint8)
        for c in order:
            if row[c]:
                want[c] = label.setdefault(int(row[c]), len(label) + 1)
        assert (got == want).all()
    assert (rgs.relabel(batch, order) == out).all()


# -- orbit filter ---------------------------------------------------------------------------
def _bracelets(length):
    """Bracelets of 2 colours (OEIS A000029) by the closed formula."""
    from math import gcd

    phi = lambda d: sum(1 for i in range(1, d + 1) if gcd(i, d) == 1)
    neck = sum(phi(d) * 2 ** (length // d) for d in range(1, length + 1) if length % d == 0) // length
    if length % 2:
        return (neck + 2 ** ((length + 1) // 2)) // 2
    return (neck + 3 * 2 ** (length // 2 - 1)) // 2


def _rot_rev(length):
    x = np.arange(1 << length)
    rot = ((x << 1) | (x >> (length - 1))) & ((1 << length) - 1)
    rev = np.zeros_like(x)
    for b in range(length):
        rev |= ((x >> b) & 1) << (length - 1 - b)
    return rot, rev


@pytest.mark.parametrize("length", [1, 2, 5, 8, 12])
def test_orbit_filter_counts_bracelets(length):
    rot, rev = _rot_rev(length)
    o = orbits.orbit_representatives([rot, rev])
    assert len(o.representatives) == _bracelets(length)
    assert o.sizes.sum() == 1 << length


@pytest.mark.parametrize("fn", [_orbit_kernels.orbits_into, _orbit_kernels.orbits_into.py_func])
def test_representatives_are_the_extreme_members(fn):
    rot, rev = _rot_rev(6)
    gens = np.stack([rot, rev])
    key = np.random.default_rng(2).integers(0, 20, 64)
    for maximize in (True, False):
        reps, sizes = np.zeros(64, np.int64), np.zeros(64, np.int64)
        n = fn(gens, key, maximize, reps, sizes)
        for r, s in zip(reps[:n], sizes[:n]):
            orbit = {int(r)}
            frontier = [int(r)]
            while frontier:
                x = frontier.pop()
                for g in gens:
                    if int(g[x]) not in orbit:
                        orbit.add(int(g[x]))
                        frontier.append(int(g[x]))
            assert len(orbit) == s
            best = (max if maximize else min)(key[list(orbit)])
            assert key[r] == best and r == min(x for x in orbit if key[x] == best)


def test_orbit_filter_rejects_non_permutations():
    with pytest.raises(ValueError):
        orbits.orbit_representatives(np.array([[0, 0, 1]]))


# -- Burnside --------------------------------------------------------------------------------
def test_burnside_pattern_counts():
    c = burnside.pattern_counts()
    assert c[:5] == (1, 1, 5, 21, 109)  # published
    assert all(c[n] == c[81 - n] for n in range(82))  # complement
    assert sum(m for _, m in burnside.cell_cycle_types()) == G
    # the whole power set: orbits of all 2^81 patterns = average of 2^(number of cycles)
    assert sum(c) == sum(m * 2 ** len(t) for t, m in burnside.cell_cycle_types()) // G


def test_burnside_classes_match_brute_force_on_sampled_elements():
    """The cycle type the class formula gives equals the one of the actual cell map."""
    types = dict(burnside.cell_cycle_types())
    rng = np.random.default_rng(1)
    for tr in random_transforms(200, rng):
        t = Transform.from_array(tr)
        src = np.arange(81).reshape(9, 9)
        if t.transpose:
            src = src.T
        img = src[np.ix_(t.rows, t.cols)].ravel()
        perm = [0] * 81
        for dst, s in enumerate(img):
            perm[s] = dst
        assert burnside.cycle_type(perm) in types


# -- enumeration against Burnside and naive orbits -------------------------------------------
@pytest.mark.parametrize("n", range(0, 9))
def test_enumeration_matches_burnside(n):
    assert enumeration.count(n) == burnside.pattern_count(n)


@pytest.mark.parametrize("n", range(0, 7))
def test_enumerated_classes_partition_all_patterns(n):
    b = enumeration.enumerate_all(n)
    assert sum(G // int(a) for a in b.automorphisms) == comb(81, n)  # orbit-stabilizer
    assert len({r.tobytes() for r in b.cells}) == len(b.cells)
    again = canonical_forms(b.cells)
    assert (again.cells == b.cells).all() and (again.automorphisms == b.automorphisms).all()


@pytest.mark.parametrize("n", range(0, 4))
def test_patterns_match_naive_orbits(n):
    want = naive.naive_classes(n)
    b = enumeration.enumerate_all(n)
    got = dict(zip(format_cells(b.cells, False), (G // int(a) for a in b.automorphisms)))
    assert got == want


@pytest.mark.parametrize("n", range(0, 3))
def test_configurations_match_naive_orbits(n):
    want = naive.naive_classes(n, digits=True)
    b = enumeration.enumerate_all(n, digits=True)
    got = format_cells(b.cells, True)
    assert sorted(got) == sorted(want)


@pytest.mark.parametrize("n", range(0, 5))
def test_configurations_partition_all_labeled_configurations(n):
    """Orbit-stabilizer: the classes' sizes |G| 9! / |Aut| add up to every labeled configuration."""
    b = enumeration.enumerate_all(n, digits=True)
    labeled = naive.labeled_configurations(n) if n <= 2 else naive.labeled_configurations_jit(n)
    assert sum(FULL // int(a) for a in b.automorphisms) == labeled
    if n == 3:
        assert labeled == naive.labeled_configurations(3)


@pytest.mark.parametrize("n", [4, 5])
def test_enumerated_configurations_are_canonical_and_distinct(n):
    b = enumeration.enumerate_all(n, digits=True)
    assert len(b.cells) == {4: 471, 5: 6146}[n]  # n = 4 also by the orbit-stabilizer sum above
    assert len({r.tobytes() for r in b.cells}) == len(b.cells)
    assert not any(has_conflict(r) for r in b.cells)
    again = canonical_forms(b.cells, digits=True)
    assert (again.cells == b.cells).all() and (again.automorphisms == b.automorphisms).all()
    # the digits read 1, 2, 3, ... in box-first order
    for r in b.cells[:200]:
        seq = [int(r[c]) for c in BOX_FIRST if r[c]]
        assert seq == [int(x) for x in rgs.relabel(np.array(seq, np.uint8))]


# -- canonical form: invariance under the group ------------------------------------------------
def _random_configuration(rng, n):
    cells = np.zeros(81, np.uint8)
    for c in rng.permutation(81):
        if n == 0:
            break
        for d in rng.permutation(9) + 1:
            cells[c] = d
            if not has_conflict(cells):
                n -= 1
                break
            cells[c] = 0
    return cells


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 30), digits=st.booleans())
def test_random_group_elements_never_change_the_canonical_form(seed, n, digits):
    rng = np.random.default_rng(seed)
    x = _random_configuration(rng, n)
    if not digits:
        x = (x > 0).astype(np.uint8)
    moved = apply_batch(random_transforms(4, rng), np.repeat(x[None], 4, axis=0))
    if not digits:
        moved = (moved > 0).astype(np.uint8)
    res = canonical_forms(np.vstack([x[None], moved]), digits=digits)
    assert (res.cells == res.cells[0]).all()
    assert (res.automorphisms == res.automorphisms[0]).all()
    # the element returned maps each row onto its canonical form
    mapped = apply_batch(res.maps, np.vstack([x[None], moved]))
    if not digits:
        mapped = (mapped > 0).astype(np.uint8)
    assert (mapped == res.cells).all()


def test_canonical_form_is_the_largest_key_in_a_sampled_orbit():
    rng = np.random.default_rng(9)
    x = (_random_configuration(rng, 12) > 0).astype(np.uint8)
    canon = canonical_forms(x).cells
    key = naive.box_first_key({c: 1 for c in np.nonzero(canon)[0]})
    for y in apply_batch(random_transforms(300, rng), np.repeat(x[None], 300, axis=0)):
        assert naive.box_first_key({c: 1 for c in np.nonzero(y)[0]}) <= key


def test_known_automorphism_counts():
    one = np.zeros(81, np.uint8)
    one[40] = 1
    assert canonical_forms(one).automorphisms == G // 81
    assert canonical_forms(one * 7, digits=True).automorphisms == G // 81 * factorial(8)
    assert canonical_forms(np.ones(81, np.uint8)).automorphisms == G


def test_parse_line():
    cells, digits = parse_line("x" + "." * 79 + "x")
    assert not digits and cells.sum() == 2
    cells, digits = parse_line("5" + "0" * 80)
    assert digits and cells[0] == 5
    for bad, why in [("x" * 80, "expected 81 characters"), ("x5" + "." * 79, "mixes"),
                     ("?" + "." * 80, "character 1")]:
        with pytest.raises(ValueError, match=why):
            parse_line(bad)


def _automorphism_maps(cells):
    """The pattern's automorphisms as position maps over its clues (box-first order), with the
    number of group elements each stands for, from the chain's record mode."""
    from sudoku_symmetry.engine.patterns import _kernels as K
    from sudoku_symmetry.engine.patterns import _units as U

    masks = np.zeros(9, np.int64)
    K.box_masks(cells, masks)
    counts = np.array([bin(int(m)).count("1") for m in masks], np.int64)
    stab = np.zeros(72, np.int64)
    ns = K.box_optimum(counts, stab, np.zeros(9, np.int64))
    keys = np.zeros((2, 9), np.int64)
    K.index_line_keys(masks, keys)
    recs = np.zeros((U.MAX_RECORDS, 19), np.int64)
    weights = np.zeros(U.MAX_RECORDS, np.int64)
    n_rec = K.check_search(masks, np.ones(9, np.int64), stab[:ns], keys, True, recs, weights)
    clues = [c for c in naive.BOX_FIRST if cells[c]]
    pos = {c: k for k, c in enumerate(clues)}
    maps = []
    for rec in recs[:n_rec]:
        t, rows, cols = rec[0], rec[1:10], rec[10:19]
        maps.append([pos[int(rows[c // 9] * 9 + cols[c % 9]) if not t else int(cols[c % 9] * 9 + rows[c // 9])]
                     for c in clues])
    return clues, maps, weights[:n_rec]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_configuration_counts_by_burnside_on_each_pattern(n):
    """Configurations of a pattern P up to Aut(P) x relabeling, by Burnside: the average over
    Aut(P) of the proper colourings (as set partitions) whose blocks it permutes. Summed over
    the ED patterns (themselves checked against the Burnside pattern count), it must equal the
    configurations the digit stage enumerates with its own pruning."""
    total = 0
    for cells in enumeration.enumerate_all(n).cells:
        clues, maps, weights = _automorphism_maps(cells)
        assert sum(weights) * len(clues) > 0
        colourings = naive._colorings(clues)
        fixed = 0
        for m, w in zip(maps, weights):
            for col in colourings:
                # m permutes the blocks of col: equal colours stay equal under m, both ways
                pairs = {(col[k], col[m[k]]) for k in range(len(clues))}
                if len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs}):
                    fixed += int(w)
        aut = int(sum(weights))
        assert fixed % aut == 0
        total += fixed // aut
    assert total == enumeration.count(n, digits=True)
