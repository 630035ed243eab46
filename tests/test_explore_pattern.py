"""Every puzzle on a clue pattern, checked against the complete 17-clue list (the patterns of
random list puzzles and of the patterns carrying the most 17s, some clues given as fixed so each
case takes a second or so), against the naive reference (every digit on every free cell) and
against gridchecker's ``--pattern --enumerate`` (expected values in tests/data)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from conftest import read_data_lines
from naive_explore import naive_on_pattern
from sudoku_symmetry.engine.canon import canon_puzzles, grid_automorphisms
from sudoku_symmetry.engine.explore import (PatternSearch, format_pattern, parse_pattern, pattern_automorphisms,
                                            puzzles_on_pattern)
from sudoku_symmetry.engine.group.transform import apply_batch, invert_batch
from sudoku_symmetry.engine.patterns import canonical_forms
from sudoku_symmetry.engine.solve import check
from sudoku_symmetry.engine.text import as_batch, format_lines, parse

DATA = Path(__file__).parent / "data"
SYMMETRIC_GRID = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
FREE = 5  # cells of a list puzzle's pattern left free in the list cases: a fraction of a second each


@pytest.fixture(scope="module")
def the_list():
    batch = as_batch(read_data_lines("17clue_49158.txt"))
    pats = canonical_forms((batch > 0).astype(np.uint8))
    keys = np.array([row.tobytes() for row in np.packbits(pats.cells, axis=1)])
    return batch, keys


def _relabel_consistent(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a renaming of digits maps ``a`` onto ``b`` (both 1-9 arrays of one length)."""
    fwd: dict[int, int] = {}
    back: dict[int, int] = {}
    for x, y in zip(a.tolist(), b.tolist()):
        if fwd.setdefault(x, y) != y or back.setdefault(y, x) != x:
            return False
    return True


def list_puzzles_holding(the_list, pattern: np.ndarray, fixed: np.ndarray) -> set[str]:
    """The list's puzzles (canonical forms) with a copy on ``pattern`` that holds the digits of
    ``fixed`` there, up to renaming: every copy is a list puzzle's copy onto the canonical
    pattern, then onto ``pattern``, then one of the pattern's automorphisms."""
    batch, keys = the_list
    mine = canonical_forms(pattern.astype(np.uint8))
    key = np.packbits(mine.cells[None, :], axis=1)[0].tobytes()
    members = batch[keys == key]
    onto_canon = apply_batch(canonical_forms((members > 0).astype(np.uint8)).maps, members)
    back = invert_batch(mine.maps[None, :])
    on_pattern = apply_batch(np.repeat(back, len(members), axis=0), onto_canon)
    src = pattern_automorphisms(pattern).src
    cells = np.flatnonzero(fixed)
    out = set()
    for puzzle, copy in zip(members, on_pattern):
        assert np.array_equal(copy > 0, pattern)
        if any(_relabel_consistent(copy[g][cells], fixed[cells]) for g in src):
            out.add(format_lines(canon_puzzles(puzzle[None, :]).forms)[0])
    return out


def _case(the_list, index: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    puzzle = the_list[0][index]
    rng = np.random.default_rng(seed)
    cells = np.flatnonzero(puzzle)
    free = rng.choice(cells, FREE, replace=False)
    fixed = puzzle.copy()
    fixed[free] = 0
    return puzzle > 0, fixed


def _forms(puzzles: np.ndarray) -> set[str]:
    return set(format_lines(canon_puzzles(puzzles).forms)) if len(puzzles) else set()


def _cases(n_random: int = 20, seed: int = 48):
    rng = np.random.default_rng(seed)
    return [int(i) for i in rng.choice(49158, n_random, replace=False)]


@pytest.fixture(scope="module")
def gridchecker():
    """gridchecker's puzzles (canonical forms) per (pattern, fixed): tests/data, with origin."""
    cases = json.loads((DATA / "explore_gridchecker.json").read_text())["cases"]
    return {(c["pattern"], c["fixed"]): c for c in cases}


@pytest.mark.parametrize("index", _cases())
def test_a_random_list_pattern_gives_exactly_the_list_puzzles(the_list, gridchecker, index):
    pattern, fixed = _case(the_list, index, index)
    found = puzzles_on_pattern(pattern, fixed=fixed)
    assert found.complete
    forms = _forms(found.puzzles)
    assert format_lines(canon_puzzles(the_list[0][index][None, :]).forms)[0] in forms
    assert forms == list_puzzles_holding(the_list, pattern, fixed)
    assert (found.puzzles > 0).sum(axis=1).tolist() == [17] * len(found)
    assert ((found.puzzles == fixed) | (fixed == 0)).all()
    # gridchecker --pattern --enumerate on the same case found the same classes
    assert sorted(forms) == gridchecker[format_pattern(pattern), format_lines(fixed[None, :])[0]]["canonical"]


def test_the_patterns_with_most_17s_give_exactly_the_list_puzzles(the_list):
    batch, keys = the_list
    for key, count in Counter(keys.tolist()).most_common(3):
        assert count >= 30
        index = int(np.flatnonzero(keys == key)[0])
        pattern, fixed = _case(the_list, index, 1)
        found = puzzles_on_pattern(pattern, fixed=fixed)
        assert _forms(found.puzzles) == list_puzzles_holding(the_list, pattern, fixed)


def _orbit_union(search: PatternSearch, puzzles: np.ndarray) -> set[str]:
    """Every image of the found puzzles under the automorphisms the search used, written as the
    search writes puzzles: renamed so the fixed cells hold the fixed digits, the other digits to
    those left, in reading order."""
    fixed = search.fixed
    cells = np.flatnonzero(fixed)
    taken = sorted(set(fixed[cells].tolist()))
    spare = [d for d in range(1, 10) if d not in taken]
    out = set()
    for q in puzzles:
        for g in search.subgroup:
            img = q[g]
            names = {int(img[c]): int(fixed[c]) for c in cells}
            for c in np.flatnonzero(img):
                v = int(img[c])
                if v not in names:
                    names[v] = spare[len(names) - len(taken)]
            out.add("".join(str(names[int(v)]) if v else "." for v in img))
    return out


def _cell_map(t) -> np.ndarray:
    """The source cell of each cell under a transformation's position part."""
    i, j = np.divmod(np.arange(81), 9)
    rows, cols = np.array(t.rows)[i], np.array(t.cols)[j]
    return cols * 9 + rows if t.transpose else rows * 9 + cols


def _symmetric_case(grid: np.ndarray, g: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A pattern that the involution ``g`` keeps, on which ``grid`` (``g`` one of its
    automorphisms) is a unique puzzle, orbits removed while it stays unique; its digits fixed
    but on two orbits."""
    rng = np.random.default_rng(seed)
    pattern = np.zeros(81, bool)
    while check(np.where(pattern, grid, 0)[None, :])[0][0] != 1:  # orbits of cells until unique
        c = int(rng.integers(81))
        pattern[[c, g[c]]] = True
    for c in rng.permutation(np.flatnonzero(pattern)):  # then orbits out while it stays unique
        trial = pattern.copy()
        trial[[c, g[c]]] = False
        if pattern[c] and check(np.where(trial, grid, 0)[None, :])[0][0] == 1:
            pattern = trial
    orbits = sorted({tuple(sorted((int(c), int(g[c])))) for c in np.flatnonzero(pattern) if g[c] != c})
    fixed = np.where(pattern, grid, 0).astype(np.uint8)
    fixed[list(orbits[0] + orbits[-1])] = 0
    return pattern, fixed


def test_the_search_equals_the_naive_reference_on_symmetric_patterns():
    # puzzles with an automorphism: the most symmetric grid on patterns that one of the grid's
    # automorphisms keeps; the classes' images under the automorphisms the search keeps must be
    # exactly the naive list, each class once
    grid = parse(SYMMETRIC_GRID)
    auts = grid_automorphisms(SYMMETRIC_GRID)
    assert len(auts) == 648
    maps = [_cell_map(t) for t in auts]
    g = next(m for m in maps if (m != np.arange(81)).sum() > 40 and np.array_equal(m[m], np.arange(81)))
    merged = 0
    for seed in range(3):
        pattern, fixed = _symmetric_case(grid, g, seed)
        search = PatternSearch(pattern, fixed)
        assert search.automorphisms > 1
        found = puzzles_on_pattern(pattern, fixed=fixed)
        naive = naive_on_pattern(fixed, pattern)
        mine = format_lines(found.puzzles)
        assert len(set(mine)) == len(mine) == found.classes
        assert _orbit_union(search, found.puzzles) == naive
        assert found.on_pattern == len(naive)
        merged += found.on_pattern - found.classes
    assert merged > 0  # some classes hold two puzzles of the pattern


@pytest.mark.parametrize("index", [7, 4242])
def test_the_search_equals_the_naive_reference(the_list, index):
    puzzle = the_list[0][index]
    rng = np.random.default_rng(index)
    fixed = puzzle.copy()
    fixed[rng.choice(np.flatnonzero(puzzle), 4, replace=False)] = 0
    found = puzzles_on_pattern(puzzle > 0, fixed=fixed)
    naive = naive_on_pattern(fixed, puzzle > 0)
    assert set(format_lines(found.puzzles)) == naive
    assert found.on_pattern == found.classes == len(naive)


def test_minimal_keeps_exactly_the_minimal_puzzles(the_list):
    # an 18-cell pattern: a list 17 and one more cell, so most of its puzzles are not minimal
    puzzle = the_list[0][11]
    pattern = puzzle > 0
    pattern[int(np.flatnonzero(puzzle == 0)[40])] = True
    fixed = puzzle.copy()
    fixed[np.flatnonzero(puzzle)[:4]] = 0
    every = puzzles_on_pattern(pattern, fixed=fixed)
    minimal = puzzles_on_pattern(pattern, fixed=fixed, minimal=True)
    assert len(every) > len(minimal)
    counts, is_min = check(every.puzzles)
    assert (counts == 1).all()
    assert set(format_lines(minimal.puzzles)) == set(format_lines(every.puzzles[is_min]))


def test_a_resumed_search_finds_the_rest_exactly(the_list):
    pattern, fixed = _case(the_list, 123, 5)
    whole = puzzles_on_pattern(pattern, fixed=fixed)
    first = PatternSearch(pattern, fixed)
    got = []
    runs = first.run(budget=2000)
    got += format_lines(next(runs)[0])
    got += format_lines(next(runs)[0])
    cursor = json.loads(json.dumps(first.cursor()))
    assert 0 < first.progress() < 1
    second = PatternSearch(format_pattern(pattern), format_lines(fixed[None, :])[0])
    second.resume(cursor)
    for puzzles, _ in second.run(budget=2000):
        got += format_lines(puzzles)
    assert got == format_lines(whole.puzzles)
    assert second.classes == whole.classes and second.done


def test_automorphisms_match_the_canonical_forms_count(the_list):
    batch, _ = the_list
    rot = np.arange(81).reshape(9, 9)[::-1, ::-1].reshape(81)  # 180-degree rotation
    diag = np.arange(81).reshape(9, 9).T.reshape(81)
    patterns = [batch[i] > 0 for i in (0, 1, 2)]
    patterns.append((batch[3] > 0) | (batch[3] > 0)[rot])
    p = (batch[4] > 0) | (batch[4] > 0)[rot]
    patterns.append(p | p[diag])
    for pattern in patterns:
        group = pattern_automorphisms(pattern)
        assert group.count == canonical_forms(pattern.astype(np.uint8)).automorphisms
        assert len({tuple(s) for s in group.src}) == group.count
        for src in group.src:
            assert np.array_equal(pattern[src], pattern)
        maps = np.array([[int(t)] + [int(c) - 1 for c in r] + [int(c) - 1 for c in c9] + list(range(10))
                         for t, r, c9, _ in (m.split(":") for m in group.maps)], np.uint8)
        moved = apply_batch(maps, np.repeat(pattern[None, :].astype(np.uint8), len(maps), axis=0))
        assert (moved == pattern).all()
    assert pattern_automorphisms(patterns[-1]).count >= 4


def test_a_pattern_reads_as_81_characters_or_a_block():
    line = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
    block = "\n".join(" ".join("x" if ch != "." else "." for ch in line[9 * i:9 * i + 9]) for i in range(9))
    assert np.array_equal(parse_pattern(line), parse_pattern(block))
    assert format_pattern(parse_pattern(line)).count("x") == 17
    with pytest.raises(ValueError, match="81"):
        parse_pattern("x" * 80)
    with pytest.raises(ValueError, match="not a cell of the pattern"):
        puzzles_on_pattern(line, fixed="1" + "." * 80)


def test_gridchecker_gives_the_same_puzzles_on_wider_patterns(gridchecker):
    # patterns of 20 cells (a list 17's and 3 more), 14 digits fixed: 20-clue puzzles, minimal or
    # not. gridchecker cuts a branch once its logic (singles, locked candidates) solves the givens
    # placed so far, so it prints every minimal puzzle and some of the others: between the two
    wider = [c for c in gridchecker.values() if c["kind"] == "wider"]
    assert len(wider) >= 3 and sum(len(c["canonical"]) for c in wider) > 0
    for case in wider:
        every = _forms(puzzles_on_pattern(case["pattern"], fixed=case["fixed"]).puzzles)
        minimal = _forms(puzzles_on_pattern(case["pattern"], fixed=case["fixed"], minimal=True).puzzles)
        assert minimal <= set(case["canonical"]) <= every, case["pattern"]
