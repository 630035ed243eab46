"""Exactly uniform random solution grids: each of the 6,670,903,752,021,072,936,960 equally likely.

    >>> from sudoku_symmetry.engine.grids.uniform import uniform_grids
    >>> g = uniform_grids(3, seed=7)
    >>> g.shape, bool((uniform_grids(5, seed=7)[:3] == g).all())   # a prefix of a longer draw
    ((3, 81), True)

**Why every grid is equally likely.** Let S be the set of *sorted completions*: grids whose rows
1-3 are one of the 416 minlex bands, whose rows 4-6 and rows 7-9 are each in increasing order of
their first cell, and with r4c1 < r7c1. Count, for a grid X, the transformations g of the group
G (|G| = 2 x 6^8 x 9!) with gX in S: the top band of gX comes from one of X's 6 chutes c (its 3
bands, and its 3 stacks read as bands of the transpose); the ways to bring c onto its minlex band
are the a(c) automorphisms of that band (the band's own symmetries, relabelling included); and
then exactly one of the 72 orders of the other 6 rows is sorted. So A(X) = a(c1) + ... + a(c6)
elements g put X in S, and since gX = g'X exactly when g^-1 g' is an automorphism of X, the orbit
of X meets S in A(X) / |Aut(X)| grids. The sampler draws Y uniformly from S, keeps it with
probability 6 / A(Y) (A is the same for every grid of an orbit; A >= 6), and returns g(Y) for a
uniformly random g. The chance of returning X is then

    (A / |Aut X|) x (1 / |S|) x (6 / A) x (|Aut X| / |G|) = 6 / (|S| |G|),

the same for every grid. Drawing Y uniformly from S is a chain of uniform choices and
rejections (``_uniform_kernels``): a (band 1, row 4) pair and one of the 56 ways to split row 4's
digits over the boxes of row 5, uniformly, rejected when the split admits no band 2 (otherwise
it admits exactly 64, one random bit each); the band 2 kept with probability u / 288, u the
number of sorted fills of band 3 that rows 1-6 leave (read from a table of all 22,620 possible
"cubes" of band 3's column sets; 288 is its largest entry); one of the u fills. Each Y in S is
then proposed with probability 1 / (834,148 x 56 x 64 x 288): uniform. Every probability is an
exact ratio of integers drawn with :func:`~sudoku_symmetry.engine.core.rng.below`, so the only
departure from uniformity is the generator's own (xoshiro256**).

No catalog is needed: the catalog's counts are the check instead (``tests/test_uniform.py``:
the minlex band 1 of draws against the shipped per-band counts weighted by 1 / |Aut|, and the
share of grids with an automorphism). Uniform *essentially different* grids (each class equally
likely, not each grid) are the catalog's: uniform ranks, ``ss.grid``.

**The randomised fill is not uniform.** :func:`.random.random_grids` (backtracking with shuffled
digits, then a random element of the group) is far from it. On 200,000 draws each, the minlex
band 1 of the fill's grids is 0.088 in total variation from the uniform law (the uniform
sampler's own draws: 0.012, the sampling noise), chi-square 9,896 on 291 degrees of freedom
(the uniform sampler: 255); the five most likely bands 1 come out 1.38-1.44 times too often,
and grids with an automorphism 1.9 times too often (``bench/bench_uniform.py --compare-fill``).

Speed: about 100,000 grids per CPU-second (``bench/bench_uniform.py``); a trial costs a few
hundred nanoseconds and a grid takes about 11 trials.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from .._cache import stored_tables
from ..bands import N_BANDS, band_tables
from ..core.rng import STATE_WORDS, seed_stream
from . import _uniform_kernels as K
from .enumeration import _tables, prefixes

CHUNK = 1024
"""Grids per random stream: grid i of a seed comes from stream i // CHUNK, so any range of the
draw can be made alone (a shard of a long run) and a shorter draw is a prefix of a longer one."""
GRID_DOMAIN = 0
"""Stream domain of the grids; other users of a seed (the puzzle generator) take other domains."""
DOMAINS = 4
MAX_SEED = (1 << 63) - 1


def stream_id(chunk: int, domain: int) -> int:
    """The stream number of chunk ``chunk`` in domain ``domain`` (0-3)."""
    return chunk * DOMAINS + domain


def check_seed(seed) -> int:
    """``seed`` as an int from 0 to 2^63 - 1, or ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}")
    return int(seed)


def _all_cubes() -> np.ndarray:
    """Every 3 x 3 x 3 array of counts with each of its 9 planes summing to 3, as (22620, 27)
    rows (point c1 + 3 c2 + 9 c3): the possible cubes of a band's column sets (9 digits, each in
    one column per stack, 3 digits per column)."""
    mats = np.array([m for m in itertools.product(range(4), repeat=9) if sum(m) == 3], np.int64).reshape(-1, 3, 3)
    rows, cols = mats.sum(axis=2), mats.sum(axis=1)  # per slice c3: sums over c1 (per c2), over c2 (per c1)
    by_margin: dict[bytes, list[int]] = {}
    for k in range(len(mats)):
        by_margin.setdefault(rows[k].tobytes() + cols[k].tobytes(), []).append(k)
    out = []
    for a in range(len(mats)):
        for b in range(len(mats)):
            r, c = 3 - rows[a] - rows[b], 3 - cols[a] - cols[b]
            if (r < 0).any() or (c < 0).any():
                continue
            for k in by_margin.get(r.tobytes() + c.tobytes(), ()):
                out.append(np.stack([mats[a], mats[b], mats[k]]).reshape(27))
    return np.array(out, np.int64)


def _build() -> dict:
    T = band_tables()
    bands = T.minlex.astype(np.uint8)
    colfree = np.zeros((N_BANDS, 9), np.int64)
    barred = np.zeros((N_BANDS, 3, 10), np.int64)
    for b in range(N_BANDS):
        for j in range(9):
            col = {int(bands[b, 9 * r + j]) for r in range(3)}
            colfree[b, j] = K.ALL9 & ~sum(1 << d for d in col)
            for d in col:
                barred[b, j // 3, d] = j % 3
    rows4 = [prefixes(b) for b in range(N_BANDS)]
    cubes = _all_cubes()
    u = np.zeros(len(cubes), np.int64)
    K.cube_fills(cubes, u)
    keys = (cubes.astype(np.uint64) << (2 * np.arange(27, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
    cube_table = np.zeros(1 << K.CUBE_HASH_BITS, np.uint64)
    for key, fills in zip(keys.tolist(), u.tolist()):
        h = K.cube_slot(key)
        while cube_table[h]:
            h = (h + 1) % len(cube_table)
        cube_table[h] = key | fills << K.CUBE_KEY_BITS
    band_aut = np.diff(T.aut_offsets).astype(np.int64)
    words = np.concatenate([(x.astype(np.uint64) << (9 + 4 * np.arange(9, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
                            | np.uint64(b) for b, x in enumerate(rows4)])
    return {"bands": bands, "colfree": colfree, "barred": barred, "band_aut": band_aut, "prefixes": words,
            "cube_table": cube_table, "cube_u": u,
            "aut_bits": np.packbits(band_aut[T.table & 0xFFFF] > 1, bitorder="little")}


@lru_cache(maxsize=None)
def sampler_tables() -> dict:
    """The sampler's tables, computed once per version of the engine's sources (about 2 s) and
    kept in the cache folder: the 416 bands, their free digits per column and the column each
    digit sits in per stack, their automorphism counts, the 834,148 (band 1, row 4) prefixes,
    and the 22,620 cubes with their numbers of sorted band-3 fills (an open-addressing table) (``U`` the
    largest: 288)."""
    t = stored_tables("grids-uniform", None, _build)
    t["U"] = int(t["cube_u"].max())
    return t


def _args():
    t = sampler_tables()
    B = _tables()
    return (t["bands"], t["colfree"], t["barred"], t["band_aut"], t["prefixes"], t["cube_table"], t["U"],
            t["aut_bits"], B.row2_rank_to_id, B.fact, B.table)


def sample_chunk(seed: int, chunk: int, out: np.ndarray, stats: np.ndarray | None = None) -> None:
    """Grids ``chunk * CHUNK ...`` of ``seed``, as many as ``out`` holds (at most CHUNK), into ``out``."""
    state = np.zeros(STATE_WORDS, np.uint64)
    seed_stream(state, seed, stream_id(chunk, GRID_DOMAIN))
    st = np.zeros(4, np.int64) if stats is None else stats
    if K.sample_grids(state, out, *_args(), st) < 0:
        raise RuntimeError("internal error: a cube of band 3 is missing from the table")


def uniform_grids(n: int, seed: int = 0, *, first: int = 0, stats: np.ndarray | None = None) -> np.ndarray:
    """Grids ``first .. first + n - 1`` of the uniform draw of ``seed``, shape (n, 81) uint8: each
    an independent, exactly uniform choice among all solution grids (module docstring), the
    same for a seed whatever ``n`` and ``first`` (a range of a long draw can be made alone).
    ``stats`` (4,) int64, when given, adds the trials, band 2s built, band 2s kept and grids
    before the last test."""
    seed = check_seed(seed)
    n, first = int(n), int(first)
    if n < 0 or first < 0:
        raise ValueError("n and first must be 0 or more")
    out = np.zeros((n, 81), np.uint8)
    done = 0
    while done < n:
        g = first + done
        chunk, skip = divmod(g, CHUNK)
        take = min(n - done, CHUNK - skip)
        if skip:
            buf = np.zeros((skip + take, 81), np.uint8)
            sample_chunk(seed, chunk, buf, stats)
            out[done:done + take] = buf[skip:]
        else:
            sample_chunk(seed, chunk, out[done:done + take], stats)
        done += take
    return out
