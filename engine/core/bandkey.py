"""The band key: a normalized band's number, which every family that meets bands computes.

Relabeling a band (27 cells, rows 1-3) so row 1 reads 123456789 leaves one of 2,612,736
*normalized* bands, numbered by a *key*::

    key = row2_id * 216 + code(box 1 of row 3) * 36 + code(box 2) * 6 + code(box 3)

``row2_id`` numbers the 12,096 possible second rows in lexicographic order (via the permutation
rank of row 2); ``code`` is the lexicographic rank (0-5) of the order of the three digits that
row 3 must hold in that box (``rank3``). Key order is the lexicographic order of the 27-digit
strings. The band tables (``bands``) map a key to its band index and a map onto the minlex
band; ``canon``, ``grids`` and ``search17`` compute keys of chutes and look them up.
"""
from .._bits import FACT, POPCOUNT
from .._jit import kernel


@kernel
def rank3(a, b, c):
    """Lexicographic rank of the order of three distinct values (012 -> 0 ... 210 -> 5)."""
    return ((a > b) + (a > c)) * 2 + (b > c)


@kernel
def band_key(b, relabel, row2_rank_to_id, fact):
    """Key of one band (27 cells) after relabeling its row 1 to 123456789, or -1 / -2 / -3
    when row 1 / 2 / 3 is the first invalid row. Cells must be 0-9 (the API checks).
    ``relabel`` is a scratch array of 10 (passed in: no allocation per band)."""
    # row 1 must hold 1-9 once each
    seen = 0
    for j in range(9):
        relabel[b[j]] = j + 1
        seen |= 1 << b[j]
    relabel[0] = 0  # an empty cell must stay invalid whatever row 1 held
    if seen != 0x3FE:
        return -1
    # row 2: permutation rank via "how many unused values are smaller" on a bitmask
    rank = 0
    unused = 0x3FE
    for i in range(9):
        v = relabel[b[9 + i]]
        if v == 0 or not (unused >> v) & 1:
            return -2
        rank += POPCOUNT[unused & ((1 << v) - 1)] * fact[8 - i]
        unused &= ~(1 << v)
    rid = row2_rank_to_id[rank]
    if rid < 0:
        return -2
    # row 3: each box holds the 3 digits its rows 1-2 lack, in some order
    key = rid * 216
    for box in range(3):
        used = 0
        for k in range(3):
            used |= 1 << (3 * box + k + 1)
            used |= 1 << relabel[b[9 + 3 * box + k]]
        x = relabel[b[18 + 3 * box]]
        y = relabel[b[19 + 3 * box]]
        z = relabel[b[20 + 3 * box]]
        if (x == 0 or y == 0 or z == 0 or x == y or x == z or y == z
                or (used >> x) & 1 or (used >> y) & 1 or (used >> z) & 1):
            return -3
        key += rank3(x, y, z) * (36 if box == 0 else (6 if box == 1 else 1))
    return key


@kernel(inline="always")
def row2_id(b, relabel, row2_rank_to_id):
    """The row-2 id of the key of band ``b`` (rows 1-2 valid, ``relabel`` already taking its row
    1 to 123456789): row 2 relabeled, ranked as a permutation, through ``row2_rank_to_id``. It
    fixes the key up to its last 216 (row 3's box orders), so a family that fills a band row by
    row can bound the band's rank before filling row 3."""
    rank = 0
    unused = 0x3FE
    for i in range(9):
        v = relabel[b[9 + i]]
        rank += POPCOUNT[unused & ((1 << v) - 1)] * FACT[8 - i]
        unused &= ~(1 << v)
    return row2_rank_to_id[rank]


@kernel
def gather(table, keys, entries):
    """entries[k] = table[keys[k]] (0 for a negative key). A loop that does nothing else keeps
    many cache misses in flight: measured 1.6x faster than looking up inside the main loop."""
    for k in range(keys.shape[0]):
        entries[k] = table[keys[k]] if keys[k] >= 0 else 0
