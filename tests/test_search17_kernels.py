"""The 17-clue search's kernels against slow, obviously correct references: the pair's UAs are
unavoidable (the solver finds a second solution without them) and the minimal ones minimal, the
2-digit ones complete against a brute force; a socket's UAs change band 3 on the socket only;
fixing sets carried through the band tables equal the band's own; valid sets, the XY join (with
the solver's validity checks) and the band-3 enumeration against itertools."""
from __future__ import annotations

import random
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sudoku_symmetry.engine.search17 import band1, bands2, entry_slice
from sudoku_symmetry.engine.search17 import _band3, _hitting, _sockets, _valid, _xy
from sudoku_symmetry.engine.search17 import _pair_uas as PU
from sudoku_symmetry.engine.search17 import _order_kernels as OK
from sudoku_symmetry.engine.search17 import counters
from sudoku_symmetry.engine.search17.pair import fix_tables, workspace
from sudoku_symmetry.engine.search17.passes import pass_splits
from sudoku_symmetry.jobs.s17_cost import estimate
from sudoku_symmetry.engine.solve import REFILL_SCRATCH, SOLVER_DEPTH, SOLVER_WORDS, count_solutions, minimal_ua

FULL27 = (1 << 27) - 1


@pytest.fixture(scope="module")
def grid():
    """A grid of the entry: band-1 rank 4, its first band 2 with bands 3, that band 3."""
    s = entry_slice("A", 4, 0, 64, emit=True)
    i = int(s.owner[0])
    g = np.concatenate([band1(4).band, bands2(4)[i], s.bands3[0]]).astype(np.int64)
    other = s.bands3[s.owner == i][-1].astype(np.int64)
    return g, other


def _mask_cells(lo, hi):
    return [q for q in range(54) if (int(lo) >> q) & 1] + [54 + q for q in range(27) if (int(hi) >> q) & 1]


def _solutions_without(g, cells):
    p = g.astype(np.uint8).copy()
    p[cells] = 0
    return int(count_solutions(p, 2).counts[0])


def _pair_uas(g54, kmax, size=20):
    lo = np.zeros(1 << 14, np.uint64)
    hi = np.zeros(1 << 14, np.int64)
    n = 0
    for k in range(2, kmax + 1):
        n = PU.refill_diffs(g54, 6, 0, k, 0, size, lo, hi, n, 0)
    return lo[:n], hi[:n]


def test_pair_uas_are_unavoidable_with_every_band3_and_minimal(grid):
    g, other = grid
    lo, hi = _pair_uas(g[:54], 4)
    assert len(lo) > 20 and not hi.any()
    sets = sorted(set(int(u) for u in lo), key=lambda u: bin(u).count("1"))
    minimal = [u for u in sets if not any(v != u and (v & u) == v for v in sets)]
    assert len(lo) - 5 <= len(minimal) <= len(lo)  # the superset cut leaves few sets that are not minimal
    g2 = np.concatenate([g[:54], other])
    for u in minimal:
        cells = _mask_cells(u, 0)
        for full in (g, g2):  # any band 3 of the pair completes the refilled rows
            assert _solutions_without(full, cells) == 2
        for c in cells:  # minimal: giving back any one of its cells leaves no other solution there
            assert _solutions_without(g, [q for q in cells if q != c]) == 1


def test_two_digit_pair_uas_complete_against_brute_force(grid):
    g, _ = grid
    g54 = g[:54]
    lo, _ = _pair_uas(g54, 2)
    found = {int(u) for u in lo}
    expect = set()
    for a, b in combinations(range(1, 10), 2):
        cells = [q for q in range(54) if g54[q] in (a, b)]
        for bits in product((0, 1), repeat=len(cells)):
            new = g54.copy()
            for q, t in zip(cells, bits):
                new[q] = (a, b)[t]
            rows = [new[r * 9:(r + 1) * 9] for r in range(6)]
            if any(len(set(r)) != 9 for r in rows):
                continue
            if any(len({new[r * 9 + c] for r in range(3 * bd, 3 * bd + 3) for c in range(3 * s, 3 * s + 3)}) != 9
                   for bd in range(2) for s in range(3)):
                continue
            if any(sorted(new[c::9]) != sorted(g54[c::9]) for c in range(9)):
                continue
            d = sum(1 << q for q in range(54) if new[q] != g54[q])
            if d:
                expect.add(d)
    minimal = {d for d in expect if not any(e != d and (e & d) == e for e in expect)}
    assert found == minimal


def test_socket_uas_change_band3_on_the_socket_only(grid):
    g, _ = grid
    lo = np.zeros(4096, np.uint64)
    hi = np.zeros(4096, np.int64)
    sock = (1 << 0) | (1 << 1)  # band-3 row 1, columns 1-2
    req = (1 << (g[54] - 1)) | (1 << (g[55] - 1))
    n = PU.refill_diffs(g, 9, req, 4, FULL27 & ~sock, 20, lo, hi, 0, 0)
    for u, v in zip(lo[:n], hi[:n]):
        assert int(v) == sock and int(u) != 0
        assert _solutions_without(g, _mask_cells(u, v)) == 2



@pytest.mark.parametrize("order", [(1, 2, 0), (2, 0, 1), (1, 0, 2)])
def test_socket_uas_depend_on_stack_type_and_digits_not_on_the_row(grid, order):
    """The premise of the pair's socket log: band 3 with its rows permuted completes the same
    bands 1+2 (same column sets), and each socket, moved to another row, has the same UAs in
    rows 1-6 (so ``socket_key`` leaves the row out)."""
    g, _ = grid
    h = g.copy()
    h[54:] = g[54:].reshape(3, 9)[list(order)].ravel()
    assert _solutions_without(h, []) == 1
    lo = np.zeros(4096, np.uint64)
    hi = np.zeros(4096, np.int64)
    for k in range(_sockets.N_SOCKETS):
        cells = [q for q in range(27) if (int(_sockets.SOCKET_MASK[k]) >> q) & 1]
        r, rest = divmod(cells[0], 9)
        k2 = (order.index(r) * 3 + (k >> 2) % 3) * 4 + (k & 3)  # the same socket in h
        assert _sockets.socket_key(g[54:], k) == _sockets.socket_key(h[54:], k2)
        sets = []
        for grd, kk in ((g, k), (h, k2)):
            req = sum(1 << (int(grd[54 + q]) - 1) for q in range(27) if (int(_sockets.SOCKET_MASK[kk]) >> q) & 1)
            n = PU.refill_diffs(grd, 9, req, 4, FULL27 & ~int(_sockets.SOCKET_MASK[kk]), 20, lo, hi, 0, 0)
            assert all(int(v) == int(_sockets.SOCKET_MASK[kk]) for v in hi[:n])
            sets.append(sorted(int(u) for u in lo[:n]))
        assert sets[0] == sets[1]
        if sets[0] and k % 7 == 0:  # a few against the solver: each is unavoidable in h too
            u = sets[1][0]
            assert _solutions_without(h, _mask_cells(u, int(_sockets.SOCKET_MASK[k2]))) == 2

def test_solver_uas_hold_for_every_band3(grid):
    g, other = grid
    lo = np.zeros(1 << 13, np.uint64)
    S = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
    sols = np.zeros((256, 81), np.uint8)
    n = PU.solver_diffs(g.astype(np.uint8), 3, 256, lo, 0, S, np.zeros(2, np.int64), sols, np.zeros(81, np.uint8))
    assert n > 50
    g2 = np.concatenate([g[:54], other])
    for u in lo[:n:7]:
        assert _solutions_without(g2, _mask_cells(u, 0)) == 2


@pytest.mark.parametrize("digits", [(1, 2, 3), (4, 5), (2, 6, 7, 9), (1, 3, 5, 7, 8)])
def test_minimal_ua_shrinks_to_a_minimal_unavoidable_set(grid, digits):
    """The cells of a few digits are a UA (refill them with those digits exchanged); what
    ``minimal_ua`` leaves has a second solution, and without any one of its cells none (the
    general solver is the oracle)."""
    g, _ = grid
    diff = np.zeros(81, np.bool_)
    diff[[c for c in range(81) if g[c] in digits]] = True  # all cells of these digits: a UA
    n = minimal_ua(g.astype(np.uint8), diff, np.zeros(81, np.int64), np.zeros(81, np.int64),
                   np.zeros(REFILL_SCRATCH, np.int64))
    cells = list(np.flatnonzero(diff))
    assert n == len(cells) >= 4 and _solutions_without(g, cells) == 2
    for c in cells:
        assert _solutions_without(g, [q for q in cells if q != c]) == 1


def _direct_fixing(band):
    buf = np.zeros(OK.MAX_SAME_GANGSTER, np.int64)
    n = OK.same_gangster_diffs(band.astype(np.int64), buf)
    diffs = set(buf[:n].tolist())
    return {d for d in diffs if not any(e != d and (e & d) == e for e in diffs)}


def test_fixing_sets_through_the_tables_equal_the_bands_own(grid):
    g, other = grid
    BT = fix_tables()
    out = np.zeros(256, np.int64)
    for band in (g[:27], g[27:54], g[54:], other):
        n = _valid.band_fixing_sets(band.astype(np.uint8), BT, np.zeros(10, np.uint8), out)
        assert set(out[:n].tolist()) == _direct_fixing(band)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_valid_sets_against_itertools(grid, k):
    g, _ = grid
    fix = np.array(sorted(_direct_fixing(g[27:54])), np.int64)
    out = np.zeros(1 << 17, np.int64)
    n = _valid.valid_sets(fix, len(fix), k, out)
    expect = {sum(1 << q for q in c) for c in combinations(range(27), k)}
    expect = {s for s in expect if all(s & f for f in fix.tolist())}
    assert n == len(expect) and set(out[:n].tolist()) == expect


def _band3_sets(sets, fix, z, base, cap, dead0):
    """The band-3 step's hitting-set search (``_band3._band3_sets``) on a candidate's sets and
    band 3's fixing sets."""
    fa = np.array(fix, np.int64)
    fnot = np.zeros((27, _band3.HIT_WORDS), np.uint64)
    _hitting.set_bitmaps(fa, len(fa), fnot, 0, (len(fa) + 63) >> 6)
    sets = np.array(sets + [0], np.int64)
    hw = (len(sets) >> 6) + 1 + _band3.HIT_WORDS
    L = _hitting.LEVELS
    H = (np.zeros((27, hw), np.uint64), np.zeros((L, hw), np.uint64), np.zeros(hw * 64, np.int64),
         np.zeros(L, np.int64), np.zeros(L, np.int64), np.zeros(L, np.int64), np.zeros(L, np.int64),
         np.zeros(27, np.int64), np.zeros(3, np.int64))
    out = np.zeros(1 << 18, np.int64)
    n = _band3._band3_sets(sets, len(sets) - 1, fa, len(fa), fnot, z, base, cap, dead0, out, H)
    return out[:n]


def _itertools_sets(sets, z, base, cap, dead0):
    expect = set()
    for c in combinations(range(27), z):
        s = sum(1 << q for q in c)
        if all(s & t for t in sets) and all(bin(s & int(_hitting.STACK27[st])).count("1") + base[st] <= cap
                                            for st in range(3)) and not s & dead0:
            expect.add(s)
    return expect


@pytest.mark.parametrize("seed", range(4))
def test_band3_sets_against_itertools(seed):
    rng = random.Random(seed)
    sets = sorted({sum(1 << c for c in rng.sample(range(27), rng.randint(2, 6))) for _ in range(8)},
                  key=lambda s: bin(s).count("1"))
    base = np.array([rng.randint(0, 5) for _ in range(3)], np.int64)
    cap, z = 6, 4
    dead0 = rng.choice([0, sum(1 << c for c in rng.sample(range(27), 5))])
    got = _band3_sets(sets, [], z, base, cap, dead0)
    assert len(got) == len(set(got.tolist())) and set(got.tolist()) == _itertools_sets(sets, z, base, cap, dead0)


@pytest.mark.parametrize("seed", range(6))
def test_band3_sets_with_the_fixing_sets_against_itertools(seed):
    """A candidate's sets and band 3's fixing sets (two parts of the bitmaps, more than 64 sets
    each at times): each band-3 set once, exactly itertools' and in increasing order of the
    search's branching (no duplicates)."""
    rng = random.Random(100 + seed)
    mine = sorted({sum(1 << c for c in rng.sample(range(27), rng.randint(2, 5)))
                   for _ in range(rng.randint(0, 70))}, key=lambda s: bin(s).count("1"))
    fix = sorted({sum(1 << c for c in rng.sample(range(27), rng.randint(3, 9))) for _ in range(rng.randint(1, 90))},
                 key=lambda s: bin(s).count("1"))
    base = np.array([rng.randint(0, 3) for _ in range(3)], np.int64)
    cap, z = 6, rng.choice([4, 5])
    dead0 = rng.choice([0, sum(1 << c for c in rng.sample(range(27), 4))])
    got = _band3_sets(mine, fix, z, base, cap, dead0)
    assert len(got) == len(set(got.tolist()))
    assert set(got.tolist()) == _itertools_sets(mine + fix, z, base, cap, dead0)


def _minirow_cells(mr):
    return sum(1 << int(c) for c in _sockets.MINIROW[mr])


def test_band3_room_keeps_every_band3_set():
    """``_band3_room`` (the cells a candidate's band-3 clues can use, from what its missed
    sockets need) against every z-subset of band 3: -1 only where no subset meets the missed
    sockets, the other sets and the fixing sets under the stack caps; otherwise every such subset
    lies inside the cells it gives. Over many random cases both answers come up."""
    rng = random.Random(7)
    cap = 6
    subsets = {z: np.array([sum(1 << q for q in c) for c in combinations(range(27), z)], np.int64) for z in (4, 5)}
    stack = [np.bitwise_count(subsets[z][:, None] & _hitting.STACK27[None, :]) for z in (4, 5)]
    seen = {"none": 0, "cut": 0, "some": 0}
    for _ in range(60):
        z = rng.choice([4, 5])
        T, cnt = subsets[z], stack[z - 4]
        base = np.array([rng.randint(2, 5) for _ in range(3)], np.int64)
        socks = rng.sample(range(36), rng.randint(1, 4))
        needs, crit, allow = [0, 0, 0], 0, 0
        for mr in range(9):
            got = [k % 4 for k in socks if k // 4 == mr]
            if not got:
                continue
            cells = _minirow_cells(mr)
            crit |= cells
            common = cells
            for typ in got:
                common &= int(_sockets.SOCKET_MASK[mr * 4 + typ])
            need = 1 if common else 2
            allow |= common if common else cells
            needs[mr % 3] += need
        if sum(needs) > z or any(needs[st] + base[st] > cap for st in range(3)):
            continue
        srooms = np.array([cap - base[st] - needs[st] for st in range(3)], np.int64)
        other = [sum(1 << c for c in rng.sample(range(27), rng.randint(2, 6))) for _ in range(rng.randint(0, 12))]
        fix = [sum(1 << c for c in rng.sample(range(27), rng.randint(3, 8))) for _ in range(rng.randint(1, 10))]
        ok = (cnt + base[None, :] <= cap).all(axis=1)
        for t in [int(_sockets.SOCKET_MASK[k]) for k in socks] + other + fix:
            ok &= (T & t) != 0
        good = T[ok]
        msock = sum(1 << k for k in socks)
        got = _band3._band3_room(np.array(other + [0], np.int64), len(other), np.array(fix, np.int64), len(fix), msock,
                            z - sum(needs), srooms, np.zeros(10, np.int64), np.zeros(10, np.int64))
        if got < 0:
            assert len(good) == 0
            seen["none"] += 1
        else:
            assert all((int(g) & ~got) == 0 for g in good)
            seen["some" if len(good) else "cut"] += 1
    assert seen["none"] and seen["some"]


def test_pass_splits():
    assert pass_splits("A", 5, 5) == [(5, 6, 6), (6, 5, 6)]
    assert pass_splits("a", 6, 5) == [(6, 5, 6)]
    assert pass_splits("B", 6, 5) == [(6, 5, 6)] and pass_splits("B", 6, 6) == []
    c = pass_splits("C", 4, 3)
    assert all(z >= 7 and x + y + z == 17 and x >= 4 and y >= 3 for x, y, z in c)
    assert (5, 5, 7) in c and (4, 3, 10) in c and (7, 3, 7) in c
    with pytest.raises(ValueError):
        pass_splits("D", 5, 5)


def test_workspace_holds_a_whole_pair():
    P = workspace(4)
    assert P.alive.shape == (4,) and P.notcell.shape == (54, _band3.MAX_B3_UAS // 64)
    assert P.sid_of_key.shape == (_sockets.PAIR_SOCKET_KEYS,)
    assert P.msk.shape == (4, _sockets.SOCKET_WORDS) and P.lgnot.shape == (54, _sockets.LOG_UAS // 64)


@pytest.mark.parametrize("check_from", [0, _xy.XY_CHECK_FROM])
def test_xy_expand_between_the_valid_pairs_and_the_join(grid, check_from):
    """Per band-1 set, the band-2 sets meeting what it leaves, checked by the solver: with every
    node checked (0), exactly the pairs of valid sets whose union meets every pair UA and leaves
    rows 1-6 unique with band 3 given (the X x Y product, filtered, then solved one by one); with
    the search's setting, a superset of those inside that join (nodes with fewer clues to place
    are written out unchecked). Either way every pair left out of the join has a second filling."""
    g, other = grid
    lo, _ = _pair_uas(g[:54], 3)
    p1 = (lo & np.uint64(FULL27)).astype(np.int64)
    p2 = (lo >> np.uint64(27)).astype(np.int64)
    keep = p1 != 0
    p1, p2 = p1[keep], p2[keep]
    fix1 = np.array(sorted(_direct_fixing(g[:27])), np.int64)
    fix2 = np.array(sorted(_direct_fixing(g[27:54])), np.int64)
    out = np.zeros(1 << 16, np.int64)
    X = out[:_valid.valid_sets(fix1, len(fix1), 6, out)].copy()[:40]
    Y = out[:_valid.valid_sets(fix2, len(fix2), 5, out)].copy()
    room = np.zeros(256, np.int64)
    nua = np.array([len(p1), 0], np.int64)
    cand = np.zeros(1 << 18, np.int64)
    stats = np.zeros(counters.N_STATS, np.int64)
    # the other band 3 of the pair in the grid: the checks do not depend on which
    g81 = np.concatenate([g[:54], other]).astype(np.uint8)
    n = _xy.xy_expand(X, len(X), np.zeros(1, np.int64), np.concatenate([p1, room]), np.concatenate([p2, room]), nua, fix2, len(fix2), 5,
                    len(p1), check_from, g81, np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32), np.zeros(2, np.int64),
                    np.zeros((2, 81), np.uint8), np.zeros(81, np.uint8), cand, np.zeros(_xy.XY_WORDS * 64, np.int64), stats)
    join = sorted({int(x) | (int(y) << 27) for x in X.tolist() for y in Y.tolist()
                   if all((x & a) or (y & b) for a, b in zip(p1.tolist(), p2.tolist()))})
    puzzles = np.zeros((len(join), 81), np.uint8)
    puzzles[:, 54:] = g81[54:]
    for i, c in enumerate(join):
        cells = [q for q in range(54) if (c >> q) & 1]
        puzzles[i, cells] = g81[cells]
    counts = count_solutions(puzzles, 2).counts
    valid = {c for c, k in zip(join, counts.tolist()) if k == 1}
    got = set(cand[:n].tolist())
    assert n == len(got) and valid and len(valid) < len(join)
    assert stats[counters.STAT_XY_CHECKS] > 0 and nua[1] == stats[counters.STAT_XY_LEARNED] > 0
    if check_from == 0:
        assert got == valid
    else:
        assert valid <= got <= set(join)


def test_estimate_interpolates_cost_per_band3():
    one = estimate({10: (20.0, 10)}, {0: 5, 10: 10, 400: 1})
    assert one == {0: 10.0, 10: 20.0, 400: 2.0}  # 2 s per band 3 everywhere
    two = estimate({0: (1.0, 1), 100: (100.0, 1), 50: (0.0, 0)}, {50: 2, 200: 1})
    assert abs(two[50] - 2 * 10.0) < 1e-9 and abs(two[200] - 100.0) < 1e-9  # geometric midpoint, flat after
    assert estimate({}, {0: 1}) == {}


def test_a_few_measured_ranks_at_one_end_are_no_whole_search_figure():
    """Measured bands 1 of pass B at ranks 400-415 only (the dearest per band 3): the estimate
    from them alone is not given (they do not cover the order); the whole search is the sampled
    rates', with those bands 1 at their own measured cost. Measured ranks every 32 from 0 cover
    the order, and then the estimate from them alone is given."""
    from sudoku_symmetry.jobs.s17_cost import covers, estimate_search

    entry = {"A": {r: (r, 10, 100 + r) for r in range(416)}, "C": {r: (r, 10, 300) for r in range(416)}}
    rates = {"A": {0: 0.01, 200: 0.1, 400: 1.0}, "B": {0: 0.01, 200: 0.1, 400: 1.0}, "C": {0: 0.001, 400: 0.01}}
    high = {("B", r): {"cpu_seconds": 500.0, "bands3": 100 + r} for r in range(400, 416)}
    est = estimate_search(high, entry, rates)
    b = est["B"]
    assert not covers(b["ranks"]) and b["alone"] is None
    sampled = estimate({r: (v, 1) for r, v in rates["B"].items()}, {r: 100 + r for r in range(416)})
    assert b["combined"][410] == 500.0 and b["combined"][10] == pytest.approx(sampled[10])
    assert sum(b["combined"].values()) < 2 * sum(sampled.values())
    assert est["A"]["alone"] is None and est["A"]["combined"] == pytest.approx(
        estimate({r: (v, 1) for r, v in rates["A"].items()}, {r: 100 + r for r in range(416)}))
    spread = {("A", r): {"cpu_seconds": 1.0 + r, "bands3": 10} for r in range(0, 416, 32)}
    a = estimate_search(spread, entry, rates)["A"]
    assert covers(a["ranks"]) and a["alone"] is not None and len(a["alone"]) == 416
    assert not covers([0, 100, 415]) and covers(range(0, 416, 64)) and not covers(range(0, 300, 64))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0, 10, allow_nan=False), max_size=40), st.floats(0.1, 20), st.integers(0, 1000))
def test_cost_ranges_tile_the_bands2_within_the_budget(costs, budget, start):
    """The ranges tile start .. start + n in order; each costs at most the budget or is one band 2;
    and no range could take its next band 2 within the budget (the cut is greedy)."""
    from sudoku_symmetry.jobs.s17_cost import cost_ranges

    got = cost_ranges(np.array(costs, float), budget, start)
    assert [a for a, _ in got] == ([start] + [b for _, b in got[:-1]] if costs else [])
    assert (got[-1][1] if got else start) == start + len(costs)
    for k, (a, b) in enumerate(got):
        cost = sum(costs[a - start:b - start])
        assert b > a and (cost <= budget + 1e-6 or b - a == 1)
        if k + 1 < len(got):
            assert cost + costs[b - start] > budget - 1e-6
    with pytest.raises(ValueError):
        cost_ranges(np.ones(3), 0.0)
