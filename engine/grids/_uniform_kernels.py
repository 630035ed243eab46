"""Kernels of the exactly uniform grid sampler (the mathematics is in ``uniform``'s docstring).

A trial proposes a *sorted completion* Y of a minlex band: band 1 one of the 416 minlex bands,
row 4 one of its row-4 prefixes (``prefixes``), rows 5-6 and band 3 sorted by first cell. It is
built part by part, each part uniform given the parts before, with a rejection wherever the
number of choices varies, so every Y comes out with the same probability:

* (prefix, split) uniform among the 834,148 x 56 pairs: a *split* sends each row-4 digit to one of
  the two other boxes in row 5 (three per box: 56 ways); box s of rows 5-6 then holds the triple
  X_s in row 5 and the other three digits it lacks in row 6;
* each such triple is put in its box's 3 columns in one of the orders its columns allow. A digit
  is barred from exactly one of the 3 columns (the one band 1 holds it in), so a triple has 0
  valid orders (all three barred from one column) or exactly 2 (``ORDERS2``): a split is either
  impossible (rejected) or has 2^6 = 64 band 2s, one random bit each;
* band 3 is any of the u sorted fills of the column sets rows 1-6 leave (column 1 in increasing
  order, the others any order with distinct rows); u depends only on which digits share a
  column in each stack (the *cube*: 9 points in 3 x 3 x 3), looked up in a table of all 22,620
  cubes, and the band 2 is kept with probability u / U (U = 288, the largest u), then one of its
  u fills drawn (``_fill``).

The grid's chutes then give A = the sum of their bands' automorphism counts (6 when none has
one), and Y is kept with probability 6 / A; a uniformly random element of the group is applied.
"""
import numpy as np

from .._bits import LOWBIT, PERM3, POPCOUNT
from .._jit import kernel
from ..core.chutes import chute_keys
from ..core.layout import apply_into
from ..core.rng import below, next_u64
from ._leaves import COMPAT

ALL9 = 0x3FE


def _split_positions() -> np.ndarray:
    """``SPLITS[k, s]``: the 3 positions of row 4 whose digits go to box s of row 5 in split k.
    A row-4 digit sits in box h = position // 3 and goes to one of the two other boxes; a split
    sends three to each box (56 of the 2^9 choices)."""
    out = []
    for choice in range(512):
        target = [[b for b in range(3) if b != q // 3][(choice >> q) & 1] for q in range(9)]
        if all(target.count(s) == 3 for s in range(3)):
            out.append([[q for q in range(9) if target[q] == s] for s in range(3)])
    return np.array(out, np.int64)


def _two_orders() -> np.ndarray:
    """``ORDERS2[c0 * 9 + c1 * 3 + c2]``: the two orders (PERM3 ranks, cell k gets digit
    x[PERM3[o, k]]) of a triple x0 < x1 < x2 whose digits are barred from columns c0, c1, c2 of
    their box, or (-1, -1) when all three are barred from one column (then none exists)."""
    out = np.full((27, 2), -1, np.int64)
    for code in range(27):
        barred = (code // 9, code // 3 % 3, code % 3)
        ok = [o for o in range(6) if all(barred[PERM3[o, k]] != k for k in range(3))]
        assert len(ok) in (0, 2)
        if ok:
            out[code] = ok
    return out


SPLITS = _split_positions()
ORDERS2 = _two_orders()
N_SPLITS = 56
CUBE_MUL = np.array([1, 3, 9], np.int64)


@kernel(inline="always")
def _part(grid, off, triple, barred, bit):
    """Put ``triple`` (a 3-digit mask) in cells ``off .. off + 2`` in its valid order number
    ``bit`` (0 or 1); False when it has none."""
    x0 = LOWBIT[triple]
    triple &= triple - 1
    x1 = LOWBIT[triple]
    triple &= triple - 1
    x2 = LOWBIT[triple]
    o = ORDERS2[barred[x0] * 9 + barred[x1] * 3 + barred[x2], bit]
    if o < 0:
        return False
    for k in range(3):
        p = PERM3[o, k]
        grid[off + k] = x0 if p == 0 else (x1 if p == 1 else x2)
    return True


CUBE_HASH_BITS = 16
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)


def cube_slot(key: int) -> int:
    """The first slot of a cube key in the open-addressing table (``cube_u``'s)."""
    return ((int(key) * 0x9E3779B97F4A7C15) & (2**64 - 1)) >> (64 - CUBE_HASH_BITS)


@kernel(inline="always")
def cube_key(cols3, coord):
    """The cube of band 3's column sets ``cols3`` (9 masks): digit d sits at point
    (c1, c2, c3), its column in each stack; key = sum of 4^(c1 + 3 c2 + 9 c3) (2 bits a point:
    at most 3 digits share one). ``coord``: scratch of 10."""
    for d in range(10):
        coord[d] = 0
    for j in range(9):
        m = cols3[j]
        step = (j % 3) * CUBE_MUL[j // 3]
        while m:
            coord[LOWBIT[m]] += step
            m &= m - 1
    key = np.uint64(0)
    for d in range(1, 10):
        key += np.uint64(1) << np.uint64(2 * coord[d])
    return key


CUBE_KEY_BITS = 54
_KEY_MASK = np.uint64((1 << CUBE_KEY_BITS) - 1)


@kernel(inline="always")
def cube_u(cube_table, key):
    """Sorted band-3 fills of a cube, from the open-addressing table (linear probing): an entry
    is key | fills << 54 (keys are below 2^54 and never 0); -1 when the key is missing."""
    mask = cube_table.shape[0] - 1
    h = np.int64((key * _HASH_MUL) >> np.uint64(64 - CUBE_HASH_BITS))
    while (cube_table[h] & _KEY_MASK) != key:
        if cube_table[h] == 0:
            return -1
        h = (h + 1) & mask
    return np.int64(cube_table[h] >> np.uint64(CUBE_KEY_BITS))


@kernel
def column_tables(cols3, col3d, cm):
    """Band 3's column digits ``col3d[j]`` (increasing) from their masks, and ``cm[c, c2]`` for
    columns c of stacks 1-2 and c2 of a later stack: bit 3i + i' when digit i of c is digit i'
    of c2 (the pair's 3x3 equal-digit matrix, ``COMPAT``'s index)."""
    for j in range(9):
        m = cols3[j]
        for q in range(3):
            col3d[j, q] = LOWBIT[m]
            m &= m - 1
    for c in range(6):
        for c2 in range(3 * (c // 3) + 3, 9):
            cs = cols3[c2]
            m = 0
            for i in range(3):
                x = col3d[c, i]
                m |= ((cs >> x) & 1) << (3 * i + POPCOUNT[cs & ((1 << x) - 1)])
            cm[c, c2] = m


@kernel
def fill(cm, j):
    """The sorted fills of band 3 (column 1 in increasing order, every row distinct), counted
    (``j`` < 0: returns their number) or the ``j``-th one's column orders as a code (8 base-6
    digits, columns 2-9; -1 when there are fewer). Stack 1 takes any orders of columns 2-3; each
    column of stacks 2-3 keeps the orders compatible with every column before it (``COMPAT``);
    stack 3 is then forced (each digit has one row left), so the loops run over stacks 1-2."""
    n = 0
    for c1 in range(36):
        o1 = c1 // 6
        o2 = c1 % 6
        m3 = COMPAT[cm[0, 3], 0] & COMPAT[cm[1, 3], o1] & COMPAT[cm[2, 3], o2]
        m4 = COMPAT[cm[0, 4], 0] & COMPAT[cm[1, 4], o1] & COMPAT[cm[2, 4], o2]
        m5 = COMPAT[cm[0, 5], 0] & COMPAT[cm[1, 5], o1] & COMPAT[cm[2, 5], o2]
        m6 = COMPAT[cm[0, 6], 0] & COMPAT[cm[1, 6], o1] & COMPAT[cm[2, 6], o2]
        m7 = COMPAT[cm[0, 7], 0] & COMPAT[cm[1, 7], o1] & COMPAT[cm[2, 7], o2]
        m8 = COMPAT[cm[0, 8], 0] & COMPAT[cm[1, 8], o1] & COMPAT[cm[2, 8], o2]
        if m3 == 0 or m4 == 0 or m5 == 0 or m6 == 0 or m7 == 0 or m8 == 0:
            continue
        w3 = m3
        while w3:
            o3 = LOWBIT[w3]
            w3 &= w3 - 1
            y6 = m6 & COMPAT[cm[3, 6], o3]
            y7 = m7 & COMPAT[cm[3, 7], o3]
            y8 = m8 & COMPAT[cm[3, 8], o3]
            if y6 == 0 or y7 == 0 or y8 == 0:
                continue
            w4 = m4
            while w4:
                o4 = LOWBIT[w4]
                w4 &= w4 - 1
                z6 = y6 & COMPAT[cm[4, 6], o4]
                z7 = y7 & COMPAT[cm[4, 7], o4]
                z8 = y8 & COMPAT[cm[4, 8], o4]
                if z6 == 0 or z7 == 0 or z8 == 0:
                    continue
                w5 = m5
                while w5:
                    o5 = LOWBIT[w5]
                    w5 &= w5 - 1
                    x6 = z6 & COMPAT[cm[5, 6], o5]
                    x7 = z7 & COMPAT[cm[5, 7], o5]
                    x8 = z8 & COMPAT[cm[5, 8], o5]
                    if x6 == 0 or x7 == 0 or x8 == 0:
                        continue
                    if n == j:
                        return ((((((c1 * 6 + o3) * 6 + o4) * 6 + o5) * 6 + LOWBIT[x6]) * 6 + LOWBIT[x7]) * 6
                                + LOWBIT[x8])
                    n += 1
    return n if j < 0 else -1


@kernel
def cube_fills(cubes, out):
    """``out[i]``: the sorted fills of a band 3 whose cube is ``cubes[i]`` (27 point counts,
    point c1 + 3 c2 + 9 c3): digits 1.. placed on the points in order, then :func:`fill`."""
    cols3 = np.zeros(9, np.int64)
    col3d = np.zeros((9, 3), np.int64)
    cm = np.zeros((9, 9), np.int64)
    for i in range(cubes.shape[0]):
        for j in range(9):
            cols3[j] = 0
        d = 1
        for pt in range(27):
            for _ in range(cubes[i, pt]):
                cols3[pt % 3] |= 1 << d
                cols3[3 + (pt // 3) % 3] |= 1 << d
                cols3[6 + pt // 9] |= 1 << d
                d += 1
        column_tables(cols3, col3d, cm)
        out[i] = fill(cm, -1)


@kernel(inline="always")
def _random_transform(state, t, perm):
    """A uniformly random element of the group into ``t`` (the layout of ``core.layout``):
    transpose or not, each of rows and columns a band order then an order inside each band,
    the digits a Fisher-Yates permutation; every element is one choice of these."""
    t[0] = below(state, 2)
    for half in range(2):
        outer = below(state, 6)
        for k in range(3):
            inner = below(state, 6)
            for m in range(3):
                t[1 + 9 * half + 3 * k + m] = 3 * PERM3[outer, k] + PERM3[inner, m]
    for d in range(9):
        perm[d] = d + 1
    for d in range(8, 0, -1):
        e = below(state, d + 1)
        x = perm[d]
        perm[d] = perm[e]
        perm[e] = x
    t[19] = 0
    for d in range(9):
        t[20 + d] = perm[d]


@kernel
def sample_grids(state, out, bands, colfree, barred, band_aut, prefixes, cube_table, U, aut_bits,
                 row2_rank_to_id, fact, table, stats):
    """``out.shape[0]`` uniformly random grids into ``out`` from the stream ``state``. ``stats``
    (4,) counts trials, band 2s built, band 2s kept, grids kept before the 6 / A test. Returns 0,
    or -1 when a cube is missing from the table (never, for a complete table).

    ``prefixes``: one word per (band 1, row 4) prefix, band | row 4's digits in 4 bits each
    << 9 (one memory read a trial); ``aut_bits``: bit ``key`` set when that band key's band has
    automorphisms (326 KB, stays in cache; the 10 MB ``table`` is read only for those)."""
    grid = np.zeros(81, np.uint8)
    cols3 = np.zeros(9, np.int64)
    col3d = np.zeros((9, 3), np.int64)
    cm = np.zeros((9, 9), np.int64)
    scratch = np.zeros(200, np.int64)
    keys = np.zeros(6, np.int64)
    t = np.zeros(29, np.uint8)
    perm = np.zeros(9, np.int64)
    coord = np.zeros(10, np.int64)
    row4 = np.zeros(9, np.int64)
    pairs = prefixes.shape[0] * N_SPLITS
    i = 0
    while i < out.shape[0]:
        stats[0] += 1
        r = below(state, pairs)
        p = r // N_SPLITS
        k = r - p * N_SPLITS
        word = prefixes[p]
        b = np.int64(word & np.uint64(0x1FF))
        for j in range(9):
            row4[j] = np.int64((word >> np.uint64(9 + 4 * j)) & np.uint64(15))
        bits = next_u64(state)
        ok = True
        for s in range(3):
            x = 0
            for q in range(3):
                x |= 1 << row4[SPLITS[k, s, q]]
            rest = ALL9 & ~((1 << row4[3 * s]) | (1 << row4[3 * s + 1])
                            | (1 << row4[3 * s + 2])) & ~x
            if not _part(grid, 36 + 3 * s, x, barred[b, s], np.int64(bits >> np.uint64(2 * s)) & 1) or \
                    not _part(grid, 45 + 3 * s, rest, barred[b, s], np.int64(bits >> np.uint64(2 * s + 1)) & 1):
                ok = False
                break
        if not ok:
            continue
        stats[1] += 1
        for j in range(9):
            cols3[j] = colfree[b, j] & ~((1 << row4[j]) | (1 << grid[36 + j]) | (1 << grid[45 + j]))
        u = cube_u(cube_table, cube_key(cols3, coord))
        if u < 0:
            return -1
        j3 = below(state, U)
        if j3 >= u:
            continue
        stats[2] += 1
        for q in range(27):
            grid[q] = bands[b, q]
        for j in range(9):
            grid[27 + j] = row4[j]
        if grid[36] > grid[45]:  # rows 5-6 sorted by first cell
            for j in range(9):
                x = grid[36 + j]
                grid[36 + j] = grid[45 + j]
                grid[45 + j] = x
        column_tables(cols3, col3d, cm)
        code = fill(cm, j3)
        for j in range(8, 0, -1):
            o = code % 6
            code //= 6
            for row in range(3):
                grid[54 + 9 * row + j] = col3d[j, PERM3[o, row]]
        for row in range(3):
            grid[54 + 9 * row] = col3d[0, row]
        chute_keys(grid, scratch, row2_rank_to_id, fact, keys)
        a = band_aut[b]
        for ch in range(1, 6):
            key = keys[ch]
            a += band_aut[table[key] & 0xFFFF] if (aut_bits[key >> 3] >> (key & 7)) & 1 else 1
        stats[3] += 1
        if a > 6 and below(state, a) >= 6:
            continue
        _random_transform(state, t, perm)
        apply_into(t, grid, out[i])
        i += 1
    return 0
