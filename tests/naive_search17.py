"""Slow, obviously correct references for the 17-clue search entry (pure Python).

* :func:`naive_valid_count`: valid k-clue sub-puzzles of a band by brute force: every band with
  the same gangster from itertools over the column orders, every k-subset of the 27 cells.
* :func:`naive_representative`: variant A's representative of a grid: over every chute of
  index X (rows and columns), every way onto X (band_index's transformation, then each
  automorphism of X), both orders of the two other parallel chutes with rank(band 2) <=
  rank(band 3), the representation with the smallest (rank(band 2), rank(band 3)), then the
  smallest rows 4-9 (rows sorted by first cell).
* :func:`naive_exchanged`: a variant-B line with bands 2 and 3 exchanged, smallest under the
  automorphisms of X: the A line it must be.
"""
from __future__ import annotations

from itertools import combinations, permutations

from sudoku_symmetry.engine.bands import band_index_one, band_tables


def same_gangster_bands(band: list[int]) -> list[list[int]]:
    """Every band whose column j holds band's column-j digits in some order, rows without
    repeats (column by column, dropping an order as soon as a row repeats a digit)."""
    cols = [[band[r * 9 + j] for r in range(3)] for j in range(9)]
    partial = [[]]  # lists of column orders so far
    for j in range(9):
        partial = [p + [o] for p in partial for o in permutations(cols[j])
                   if all(o[r] not in [q[r] for q in p] for r in range(3))]
    return [[p[j][r] for r in range(3) for j in range(9)] for p in partial]


def naive_valid_count(band: list[int], k: int) -> int:
    """Every k-subset of cells (a bitmask) against every other band with the same gangster."""
    others = [b for b in same_gangster_bands(band) if b != list(band)]
    diffs = [sum(1 << q for q in range(27) if b[q] != band[q]) for b in others]
    count = 0
    for cells in combinations(range(27), k):
        s = sum(1 << q for q in cells)
        if all(d & s for d in diffs):
            count += 1
    return count


def _chutes(grid: list[int]) -> list[list[int]]:
    bands = [grid[27 * b: 27 * b + 27] for b in range(3)]
    stacks = [[grid[r * 9 + 3 * s + i] for i in range(3) for r in range(9)] for s in range(3)]
    return bands + stacks


def _image(band: list[int], cols, digits) -> list[int]:
    rows = [[digits[band[r * 9 + cols[j]]] for j in range(9)] for r in range(3)]
    rows.sort(key=lambda row: row[0])
    return [v for row in rows for v in row]


def naive_representative(grid: list[int], x: int, rank_of) -> list[int]:
    """Rows 1-9 of variant A's representative of ``grid`` for band 1 = minlex band ``x``."""
    T = band_tables()
    chutes = _chutes(list(grid))
    idx = [band_index_one(c)[0] for c in chutes]
    best = None
    for c in range(6):
        if idx[c] != x:
            continue
        _, u = band_index_one(chutes[c])
        for a in T.automorphisms(x):
            cols = [u.cols[a.cols[j]] for j in range(9)]
            digits = [0] + [a.digits[u.digits[d]] for d in range(1, 10)]
            base = 3 if c >= 3 else 0
            others = [p for p in range(base, base + 3) if p != c]
            for p, q in (others, others[::-1]):
                if rank_of[idx[p]] > rank_of[idx[q]]:
                    continue
                cand = [rank_of[idx[p]], rank_of[idx[q]]] + _image(chutes[p], cols, digits) + \
                    _image(chutes[q], cols, digits)
                if best is None or cand < best:
                    best = cand
    return [int(v) for v in T.minlex[x]] + best[2:]


def naive_exchanged(grid: list[int], x: int) -> list[int]:
    """The grid with bands 2 and 3 exchanged, in its smallest form under the automorphisms of
    band 1 = minlex band ``x`` (rows 4-9 compared; each band's rows sorted by first cell): a
    variant-B line read in A's frame, to compare with A's lines."""
    T = band_tables()
    b2, b3 = list(grid[27:54]), list(grid[54:81])
    _, u = band_index_one(list(grid[:27]))
    best = None
    for a in T.automorphisms(x):
        cols = [u.cols[a.cols[j]] for j in range(9)]
        digits = [0] + [a.digits[u.digits[d]] for d in range(1, 10)]
        cand = _image(b3, cols, digits) + _image(b2, cols, digits)
        best = cand if best is None or cand < best else best
    return [int(v) for v in T.minlex[x]] + best


def naive_gangster_bands3(colset3) -> int:
    """Bands 3 whose column j holds the digits of mask ``colset3[j]`` (bits 1-9), column 1 in
    increasing order: cell by cell, row by row, with the row, column and box rules."""
    cols = [[x for x in range(1, 10) if m >> x & 1] for m in colset3]
    band = [[0] * 9 for _ in range(3)]

    def fill(p: int) -> int:
        if p == 27:
            return 1
        r, c = divmod(p, 9)
        if c == 0:  # column 1 sorted
            return fill_with(p, [sorted(cols[0])[r]])
        return fill_with(p, cols[c])

    def fill_with(p: int, options) -> int:
        r, c = divmod(p, 9)
        n = 0
        for x in options:
            if x in band[r][:c] or any(band[rr][c] == x for rr in range(r)):
                continue
            box = [band[rr][cc] for rr in range(3) for cc in range(3 * (c // 3), 3 * (c // 3) + 3)]
            if x in box:
                continue
            band[r][c] = x
            n += fill(p + 1)
            band[r][c] = 0
        return n

    return fill(0)


def naive_locations(puzzle: list[int], grid: list[int], rank_of) -> set[tuple[str, int, tuple]]:
    """Where the 17-clue search meets ``puzzle`` (its solution ``grid``): the set of (pass,
    band-1 rank, band 2 of the representation, rows 4-6 as a tuple), by brute force over every
    representation of the grid in the entry.

    Pass A/B: the representation is variant A's (``naive_representative``'s rule, every chute,
    map and order achieving its minimum, so a grid with automorphisms gives every chute
    assignment); the clue counts per chute do not change under the group, so the pass is read
    from the counts of the chutes that become bands 1, 2, 3 (and the perpendicular ones, stacks):
    A for 5-6-6 / 6-5-6, B for 6-6-5, each with no chute above 6; B's band 2 is the smallest image
    of A's band 3 under the automorphisms of X (variant B's pair), and a grid whose three bands
    have index X has its 6-6-5 in A.
    Pass C: for every chute c with 7+ clues, the representations with c as band 3 (variant C: band
    1 the smallest-rank chute of the two parallel to c, band 2 the other one, the smallest band 2
    then band 3 over every way onto band 1)."""
    T = band_tables()
    chutes = _chutes(list(grid))
    idx = [band_index_one(c)[0] for c in chutes]
    cells = [[r * 9 + j for r in range(3 * b, 3 * b + 3) for j in range(9)] for b in range(3)] + \
            [[r * 9 + 3 * s + i for i in range(3) for r in range(9)] for s in range(3)]
    clues = [sum(1 for q in cs if puzzle[q]) for cs in cells]
    out = set()

    def reps(band1_chutes, pairs_of):
        """(key, band 2 image, assignment) over band-1 chute c in ``band1_chutes``, each way onto
        X, each (band 2 chute, band 3 chute) in pairs_of(c); key = what is minimized."""
        res = []
        for c in band1_chutes:
            x = idx[c]
            _, u = band_index_one(chutes[c])
            for a in T.automorphisms(x):
                cols = [u.cols[a.cols[j]] for j in range(9)]
                digits = [0] + [a.digits[u.digits[d]] for d in range(1, 10)]
                for p, q, key0 in pairs_of(c):
                    img2 = _image(chutes[p], cols, digits)
                    img3 = _image(chutes[q], cols, digits)
                    res.append((key0 + img2 + img3, tuple(img2), (c, p, q), tuple(img3)))
        return res

    # pass A / B: band 1 = a chute of the lowest rank
    k = min(rank_of[i] for i in idx)
    x1 = [c for c in range(6) if rank_of[idx[c]] == k]

    def pairs_a(c):
        base = 3 if c >= 3 else 0
        o = [p for p in range(base, base + 3) if p != c]
        return [(p, q, [rank_of[idx[p]], rank_of[idx[q]]]) for p, q in (o, o[::-1])
                if rank_of[idx[p]] <= rank_of[idx[q]]]

    r = reps(x1, pairs_a)
    best = min(t[0] for t in r)
    for key, b2, (c, p, q), _ in r:
        if key != best:
            continue
        stacks = [3, 4, 5] if c < 3 else [0, 1, 2]
        if max(clues[s] for s in stacks) > 6 or max(clues[c], clues[p], clues[q]) > 6:
            continue
        dist = (clues[c], clues[p], clues[q])
        all_x = idx[p] == idx[q] == idx[c]
        if dist in ((5, 6, 6), (6, 5, 6)) or (dist == (6, 6, 5) and all_x):
            out.add(("A", k, b2))
        elif dist == (6, 6, 5):
            # variant B: this frame with bands 2 and 3 exchanged, band 2 the smallest image of
            # A's band 3 under the automorphisms of X (every map of chute c onto X is in r)
            out.add(("B", k, min(t[3] for t in r if t[2] == (c, p, q))))
    # pass C: each chute of 7+ as band 3
    for c3 in range(6):
        if clues[c3] < 7:
            continue
        base = 3 if c3 >= 3 else 0
        p, q = [t for t in range(base, base + 3) if t != c3]
        kc = min(rank_of[idx[p]], rank_of[idx[q]])
        b1s = [t for t in (p, q) if rank_of[idx[t]] == kc]
        r = reps(b1s, lambda c: [((q if c == p else p), c3, [])])
        best = min(t[0] for t in r)
        out.update(("C", kc, b2) for key, b2, _, _ in r if key == best)
    return out
