"""The 17-clue search against the outside world.

* The shared list of 49,158 17-clue puzzles is complete (one per class), so the finds of a slice
  must be exactly the list's puzzles whose grid's entry representation has its band 2 in that
  slice and whose clue counts belong to the pass (``naive_locations``, a brute force over every
  representation), compared as canonical forms; every find is in the list.
* GPenet's location files (``tests/data/s17_native_finds.txt``, lines of k1_p2a.txt, k2_p2b.txt
  and k3_p1.txt for a few band-1 ranks, origin in its header) are in the list, and each of their
  puzzles that falls in a slice searched here is found.
"""
from __future__ import annotations

import threading

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.engine.bands import band_index
from sudoku_symmetry.engine.canon import canon_puzzles
from sudoku_symmetry.engine.search17 import band_order, bands2, entry_slice, search_slice
from sudoku_symmetry.engine.solve import solve
from sudoku_symmetry.engine.text import parse_lines

from conftest import data_path
from naive_search17 import naive_locations

NATIVE = Path(__file__).resolve().parent / "data" / "s17_native_finds.txt"
# (pass, band-1 rank, first band 2, past the last): slices that hold a puzzle of GPenet's files
# and take seconds (a pair at low ranks costs 3-15 s here; see docs/s17-search.md)
SLICES = [("A", 11, 225686, 225687), ("A", 12, 601076, 601077), ("B", 3, 35343, 35344), ("B", 12, 1342076, 1342077),
          ("C", 2, 18137, 18138),
          ("C", 3, 33001, 33002)]
COUNTS = {"A": {(5, 6, 6), (6, 5, 6)}, "B": {(6, 5, 6)}}  # clue counts per band (B: variant B's frame)


def _forms(puzzles) -> set[str]:
    p = np.asarray(puzzles, np.uint8).reshape(-1, 81)
    return {bytes(f + 48).decode().replace("0", ".") for f in canon_puzzles(p, want_automorphisms=False).forms} \
        if len(p) else set()


@lru_cache(maxsize=1)
def shared_list():
    """The list's puzzles, their solutions and the band index of their 6 chutes."""
    text = data_path("17clue_49158.txt").read_text()
    puzzles = parse_lines(text.splitlines()).sudokus
    grids, ok = solve(puzzles)
    assert ok.all()
    g = grids.reshape(-1, 9, 9)
    chutes = np.concatenate([g[:, 3 * b:3 * b + 3, :].reshape(-1, 1, 27) for b in range(3)] +
                            [g[:, :, 3 * s:3 * s + 3].transpose(0, 2, 1).reshape(-1, 1, 27) for s in range(3)], axis=1)
    idx = band_index(chutes.reshape(-1, 27))[0].reshape(-1, 6)
    return puzzles, grids, idx


def list_slice(pass_: str, rank: int, start: int, stop: int) -> set[str]:
    """Canonical forms of the list's puzzles that the search meets in this slice."""
    puzzles, grids, idx = shared_list()
    rank_of = band_order().rank
    r = rank_of[idx]
    if pass_ in ("A", "B"):
        sel = np.flatnonzero(r.min(axis=1) == rank)
    else:  # a chute of 7+ whose two parallel chutes have rank `rank` at least once
        cells = (puzzles.reshape(-1, 9, 9) > 0)
        clues = np.concatenate([cells.reshape(-1, 3, 27).sum(2), cells.reshape(-1, 9, 3, 3).sum(axis=(1, 3))], 1)
        par = [(1, 2), (0, 2), (0, 1), (4, 5), (3, 5), (3, 4)]
        hit = np.zeros(len(puzzles), bool)
        for c, (p, q) in enumerate(par):
            hit |= (clues[:, c] >= 7) & (np.minimum(r[:, p], r[:, q]) == rank)
        sel = np.flatnonzero(hit)
    b2s = bands2(rank)
    view = np.ascontiguousarray(b2s).view(np.dtype((np.void, 27))).ravel()
    out = []
    for i in sel:
        for p, k, b2 in naive_locations(puzzles[i].tolist(), grids[i].tolist(), rank_of.tolist()):
            if p != pass_ or k != rank:
                continue
            pos = int(np.searchsorted(view, np.array(b2, np.uint8).view(np.dtype((np.void, 27)))[0]))
            assert (b2s[pos] == np.array(b2)).all()  # the representation's band 2 is the entry's
            if start <= pos < stop:
                out.append(puzzles[i])
    return _forms(out)


def native_lines() -> list[tuple[str, str, list[int]]]:
    rows = []
    for line in NATIVE.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, rest = line.split(" ", 1)
        puzzle, *nums = rest.split(";")
        rows.append((name, puzzle, [int(x) for x in nums]))
    return rows


def test_native_extract_is_in_the_shared_list():
    rows = native_lines()
    assert len(rows) > 30 and {r[0] for r in rows} == {"k1_p2a.txt", "k2_p2b.txt", "k3_p1.txt"}
    listed = _forms(shared_list()[0])
    assert len(listed) == 49_158
    assert _forms(parse_lines([r[1] for r in rows]).sudokus) <= listed


@pytest.mark.parametrize("pass_,rank,start,stop", SLICES)
def test_slice_finds_are_the_lists(pass_, rank, start, stop):
    s = search_slice(pass_, rank, start, stop)
    found = _forms(s.puzzles)
    assert found == list_slice(pass_, rank, start, stop)
    assert found and found <= _forms(shared_list()[0])
    bands = (s.puzzles.reshape(-1, 3, 27) > 0).sum(axis=2)
    stacks = (s.puzzles.reshape(-1, 9, 3, 3) > 0).sum(axis=(1, 3))
    for b, st in zip(bands.tolist(), stacks.tolist()):
        if pass_ == "C":
            assert b[2] >= 7
        else:  # B in variant B's frame: A's 6-6-5 read as 6-5-6
            assert tuple(b) in COUNTS[pass_] and max(st) <= 6
    # GPenet's lines of this band-1 rank whose grid falls in the slice are among the finds
    native = [p for name, p, nums in native_lines() if nums[0] == rank]
    mine = _forms(parse_lines(native).sudokus) & list_slice(pass_, rank, start, stop)
    assert mine and mine <= found


def test_native_ranks_are_the_projects_band_order():
    """His band ranks are s17_rank: fewest valid 6-clue sub-puzzles first, ties by minlex index."""
    rows = native_lines()
    grids, ok = solve(parse_lines([r[1] for r in rows]).sudokus)
    assert ok.all()
    idx = band_index(grids.reshape(-1, 27))[0].reshape(-1, 3)
    assert (band_order().rank[idx] == np.array([r[2][:3] for r in rows])).all()


def test_a_slice_finds_the_same_from_any_start():
    """Regression: the band-3 step took the bits past the end of a band 3's UA list in the last
    word of the per-cell bitmaps (a previous band 3's UAs, not this grid's) as UAs to hit, so what
    a searcher found depended on the pairs it had searched before: one started at band 2 18134
    of pass C, band-1 rank 2 missed the 17 at 18137 that one started at 18133 found."""
    from sudoku_symmetry.engine.search17 import search as S
    S._searcher.cache_clear()
    want = list_slice("C", 2, 18134, 18141)
    assert want and _forms(search_slice("C", 2, 18134, 18141).puzzles) == want
    assert _forms(search_slice("C", 2, 18133, 18141).puzzles) == want


@pytest.mark.parametrize("pass_,rank,start,stop", [("A", 11, 225686, 225687), ("C", 2, 18137, 18138)])
def test_a_pair_searched_in_parts_finds_the_same(monkeypatch, pass_, rank, start, stop):
    """A pair's candidates are expanded and searched in parts of at most MAX_CANDIDATES (whole
    band-1 sets each), so its memory is bounded: with parts of 512 candidates the slice
    is searched in more loads than with the default bound, and its finds are still the list's.
    (One band-1 set's candidates are never split: a load of a single set's may pass the bound.
    The candidate counts may differ a little: the UAs the XY step learns, and so which of its
    unchecked candidates come out, depend on the order in which the parts were tried.)"""
    from sudoku_symmetry.engine.search17 import search as S

    monkeypatch.setattr(S, "XY_CHECK_ALL", 10 ** 9)  # unchecked candidates: enough of them for parts

    def loads(bound: int) -> tuple[set, list[int]]:
        monkeypatch.setattr(S, "MAX_CANDIDATES", bound)
        S._searcher.cache_clear()
        se = S._searcher(pass_, rank, threading.get_ident())  # the one search_slice uses in this thread
        se.cand = np.zeros(min(bound, len(se.cand)), np.uint64)
        calls: list[int] = []
        search = se._search
        monkeypatch.setattr(se, "_search", lambda *a: calls.append(len(a[2])) or search(*a))
        try:
            return _forms(search_slice(pass_, rank, start, stop).puzzles), calls
        finally:
            S._searcher.cache_clear()

    whole, whole_calls = loads(S.MAX_CANDIDATES)
    parts, part_calls = loads(512)
    assert whole and parts == whole == list_slice(pass_, rank, start, stop)
    assert len(part_calls) > len(whole_calls)


def test_pass_c_finds_the_same_with_bands_exchanged(monkeypatch):
    """From band-1 rank EXCHANGE_FROM on, pass C searches the splits with more clues in band 1
    than in band 2 on the pair (band 2, band 1): both ways find the list's puzzles of a slice
    (C 407: one of GPenet's k3_p1 lines), written the same way."""
    from sudoku_symmetry.engine.search17 import search as S
    got = []
    for first in (0, 1000):
        monkeypatch.setattr(S, "EXCHANGE_FROM", first)
        S._searcher.cache_clear()
        try:
            s = search_slice("C", 407, 1311, 1312)
        finally:
            S._searcher.cache_clear()
        got.append({p.tobytes() for p in s.puzzles})
    assert got[0] == got[1] and got[0]
    assert _forms(np.array([np.frombuffer(p, np.uint8) for p in got[0]])) == list_slice("C", 407, 1311, 1312)


def test_pass_a_searches_6_6_5_where_every_band_has_band_1s_index(monkeypatch):
    """Variant B leaves out the grids whose three bands have band 1's index, so pass A searches
    their 6-6-5 as well, each grid as the pair (band 1, band 3) with band 2 as its one band 3, as
    6-5-6 (band-1 rank 400: 2 of its 5 grids; no 17 there: the list is complete). The pair searches are recorded, not run (a pair at rank 400 costs a
    minute here); the splits themselves are searched by the slice tests."""
    from sudoku_symmetry.engine.search17 import search as S
    calls = []
    monkeypatch.setattr(S.PairSearcher, "pair",
                        lambda self, b2, b3s, splits=None, **kw: calls.append((b2.tobytes(), b3s.copy(), splits)) or [])
    S._searcher.cache_clear()
    try:
        s = search_slice("A", 400)
    finally:
        S._searcher.cache_clear()
    x = int(band_order().by_rank[400])
    a = entry_slice("A", 400, emit=True)
    idx = band_index(np.concatenate([bands2(400)[a.owner], a.bands3]).reshape(-1, 27))[0].reshape(2, -1)
    all_x = (idx == x).all(axis=0)
    assert all_x.sum() == 2 and s.bands3 == 5 and len(s.puzzles) == 0
    # each such grid as the pair (band 1, its band 3) with its band 2 as the one band 3
    extra = {(b2, b3s.tobytes()) for b2, b3s, sp in calls if sp == S.ALL_X_SPLITS}
    want = {(b3.tobytes(), bands2(400)[o].tobytes()) for b3, o in zip(a.bands3[all_x], a.owner[all_x])}
    assert extra == want and len(want) == 2
    assert sum(len(b3s) for _, b3s, sp in calls if sp is None) == 5
