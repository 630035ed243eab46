"""Bands: the 416 minlex bands, their automorphisms and gangster classes, and the band index.

Everything here is computed from first principles at first use (an orbit walk over the
2,612,736 normalized bands, see ``_band_kernels``) and cached on disk as ``.npy`` files in
``tables_dir()``; nothing of it is pasted into source.

    >>> from sudoku_symmetry.engine.bands import band_index_one, band_tables
    >>> index, t = band_index_one("123456789456789123789123456")
    >>> index, band_tables().automorphism_count[0]
    (0, 108)
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import factorial
from pathlib import Path

import numpy as np

from .._bits import FACT as _FACT
from .._bits import PERM3 as _PERM3
from .._cache import BUILDING, cache_root, prune, source_hash
from ..core.layout import SIZE
from ..group.transform import Transform
from ..text import as_batch, format_sudoku
from . import _kernels as K

N_BANDS = 416
N_GANGSTER_CLASSES = 44



class InvalidBandError(ValueError):
    """A band that breaks a row or box rule (or is not 27 cells of 1-9)."""


def tables_dir() -> Path:
    """Where the computed tables are cached: $SUDOKU_TABLES_DIR, else ``cache_root()``."""
    env = os.environ.get("SUDOKU_TABLES_DIR")
    return Path(env) if env else cache_root()


def _source_tag() -> str:
    """Cached tables are keyed on every engine source (a hand-written list of the files that build
    them missed ``core/bandkey.py`` and ``core/layout.py``, which they import: an edit there would
    have served stale tables), so an edit never serves stale ones; a rebuild takes a few seconds."""
    return source_hash(None)


# -- the group of position maps of a band ------------------------------------------------
def position_maps() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows (7776, 3), cols (7776, 9), inverse ids (7776,)) of the band's position maps.

    Map id = row order (6) x stack order (6) x column order in each output stack (6^3),
    each in lexicographic order; ``out[i][j] = in[rows[m, i]][cols[m, j]]``.
    """
    rows = np.empty((K.N_MAPS, 3), np.uint8)
    cols = np.empty((K.N_MAPS, 9), np.uint8)
    m = 0
    for rp in _PERM3:
        for sp in _PERM3:
            for c0 in _PERM3:
                for c1 in _PERM3:
                    for c2 in _PERM3:
                        rows[m] = rp
                        cols[m] = [3 * sp[s] + inner[k] for s, inner in enumerate((c0, c1, c2)) for k in range(3)]
                        m += 1
    lookup = {(tuple(rows[m]), tuple(cols[m])): m for m in range(K.N_MAPS)}
    inv = np.empty(K.N_MAPS, np.uint16)
    for m in range(K.N_MAPS):
        ri = tuple(int(x) for x in np.argsort(rows[m]))
        ci = tuple(int(x) for x in np.argsort(cols[m]))
        inv[m] = lookup[(ri, ci)]
    return rows, cols, inv


def _second_rows() -> np.ndarray:
    """The 12,096 second rows that complete a band under row 1 = 123456789, in lexicographic order."""
    perms = np.array(list(permutations(range(1, 10))), dtype=np.uint8)  # lexicographic
    box_of = np.repeat(np.arange(3), 3)
    # each mini-row avoids its own box's first-row digits, and what each box leaves for
    # row 3 must be three disjoint triples
    rows = perms[np.all(box_of[perms - 1] != box_of[None, :], axis=1)]
    keep = []
    for r in rows:
        left = [set(range(3 * b + 1, 3 * b + 4)) | set(r[3 * b : 3 * b + 3]) for b in range(3)]
        rest = [set(range(1, 10)) - s for s in left]
        if len(rest[0] | rest[1] | rest[2]) == 9:
            keep.append(r)
    return np.array(keep, dtype=np.uint8)


def _perm_rank(p) -> int:
    rank = 0
    for i, v in enumerate(p):
        rank += sum(1 for w in p[i + 1 :] if w < v) * factorial(len(p) - 1 - i)
    return rank


@dataclass(frozen=True)
class BandTables:
    """The computed band tables. Arrays are read-only; see the module docstring."""

    minlex: np.ndarray  # (416, 27) uint8
    automorphism_count: np.ndarray  # (416,) int64
    aut_offsets: np.ndarray  # (417,) int64; automorphisms of band i are aut_maps[off[i]:off[i+1]]
    aut_maps: np.ndarray  # position-map ids
    gangster_class: np.ndarray  # (416,) int64, 0-43, numbered by their first band
    table: np.ndarray  # (2,612,736,) uint32: key -> band index | position map onto it << 16
    row2_rank_to_id: np.ndarray  # (362,880,) int16: permutation rank of row 2 -> row-2 id, -1 if none
    maps_rows: np.ndarray
    maps_cols: np.ndarray
    build_seconds: float  # 0.0 when loaded from the cache

    @property
    def table_index(self) -> np.ndarray:
        """Band index of each key (unpacked from ``table``)."""
        return (self.table & 0xFFFF).astype(np.int16)

    @property
    def table_map(self) -> np.ndarray:
        """Position map onto the minlex band, for each key (unpacked from ``table``)."""
        return (self.table >> 16).astype(np.uint16)

    @property
    def class_size(self) -> np.ndarray:
        """Normalized bands (row 1 = 123456789) in each class: 7,776 / |Aut|."""
        return K.N_MAPS // self.automorphism_count

    def minlex_string(self, index: int) -> str:
        return format_sudoku(self.minlex[index])

    def automorphisms(self, index: int) -> list[Transform]:
        """The automorphisms of minlex band ``index`` as band transformations (rows 4-9 fixed)."""
        band = self.minlex[index]
        out = []
        for m in self.aut_maps[self.aut_offsets[index] : self.aut_offsets[index + 1]]:
            out.append(_band_transform(band, self.maps_rows[m], self.maps_cols[m]))
        return out


def _band_transform(band: np.ndarray, rows3, cols9) -> Transform:
    """The band transformation with these positions and the relabeling that makes row 1 123456789."""
    digits = [0] * 10
    for j in range(9):
        digits[int(band[int(rows3[0]) * 9 + int(cols9[j])])] = j + 1
    return Transform(False, list(rows3) + list(range(3, 9)), cols9, digits)


def _gangster_classes(minlex: np.ndarray, maps_cols: np.ndarray) -> np.ndarray:
    """Class of each band's gangster (the digit set of each column) under column maps and
    relabeling. With the column order fixed, relabeling only permutes the digits, so the sorted
    list of each digit's 9-bit column mask is canonical; minimize that over the 1,296 column maps."""
    cols = np.unique(maps_cols, axis=0)  # 1,296 distinct column maps (row order is irrelevant)
    forms = []
    for band in minlex:
        # mask[d] for each column map: bit j set if digit d is in output column j
        digit_col = np.zeros((10, 9), dtype=np.int64)
        for cell in range(27):
            digit_col[band[cell], cell % 9] = 1
        # column j of the mapped band is column cols[m, j] of the band
        mapped = digit_col[1:, :][:, cols]  # (9 digits, 1296 maps, 9 cols)
        masks = (mapped << np.arange(9)[::-1]).sum(axis=2)  # (9, 1296)
        canon = np.sort(masks, axis=0).T  # (1296, 9)
        best = canon[np.lexsort(canon.T[::-1])[0]]
        forms.append(tuple(best))
    numbering: dict[tuple, int] = {}
    out = np.empty(len(minlex), np.int64)
    for i, f in enumerate(forms):
        out[i] = numbering.setdefault(f, len(numbering))
    return out


def build_tables() -> BandTables:
    """Compute every band table from nothing (a few seconds, most of it compilation)."""
    t0 = time.perf_counter()
    maps_rows, maps_cols, maps_inv = position_maps()
    row2 = _second_rows()
    rank_to_id = np.full(factorial(9), -1, np.int16)
    for i, r in enumerate(row2):
        rank_to_id[_perm_rank(tuple(int(x) - 1 for x in r))] = i
    table_index = np.full(K.N_KEYS, -1, np.int16)
    table_map = np.zeros(K.N_KEYS, np.uint16)
    minlex = np.zeros((N_BANDS + 1, 27), np.uint8)  # +1: room to detect a wrong count
    aut_offsets = np.zeros(N_BANDS + 2, np.int64)
    aut_maps = np.zeros(N_BANDS * K.N_MAPS, np.uint16)
    n = K.build_table(rank_to_id, row2, maps_rows, maps_cols, maps_inv, _PERM3, _FACT,
                      table_index, table_map, minlex, aut_offsets, aut_maps)
    if n != N_BANDS or (table_index < 0).any():
        raise RuntimeError(f"band table build found {n} classes, expected {N_BANDS}")
    minlex = minlex[:N_BANDS]
    aut_offsets = aut_offsets[: N_BANDS + 1]
    aut_maps = aut_maps[: aut_offsets[-1]].copy()
    counts = np.diff(aut_offsets)
    gangster = _gangster_classes(minlex, maps_cols)
    table = table_index.astype(np.uint32) | (table_map.astype(np.uint32) << 16)
    return BandTables(minlex, counts, aut_offsets, aut_maps, gangster, table,
                      rank_to_id, maps_rows, maps_cols, time.perf_counter() - t0)


_SAVED = ("minlex", "automorphism_count", "aut_offsets", "aut_maps", "gangster_class",
          "table", "row2_rank_to_id", "maps_rows", "maps_cols")


@lru_cache(maxsize=None)
def band_tables() -> BandTables:
    """The band tables: loaded from the disk cache, or built (and saved) on first use."""
    folder = tables_dir() / f"bands-{_source_tag()}"
    tables = _load(folder)
    if tables is None:
        with BUILDING:  # threads: one builds them, the others load what it saved
            tables = _load(folder) or _build_and_save(folder)
    for name in _SAVED:
        getattr(tables, name).setflags(write=False)
    return tables


def _load(folder: Path) -> BandTables | None:
    try:
        # memory-mapped: a process reads only the pages it looks up (the key table is 10 MB)
        arrays = {name: np.load(folder / f"{name}.npy", mmap_mode="r") for name in _SAVED}
        return BandTables(**arrays, build_seconds=0.0)
    except (OSError, ValueError):
        return None


def _build_and_save(folder: Path) -> BandTables:
    tables = build_tables()
    try:
        tmp = folder.with_name(folder.name + f".tmp{os.getpid()}-{threading.get_ident()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for name in _SAVED:
            np.save(tmp / f"{name}.npy", getattr(tables, name))
        if folder.exists():  # another process finished first
            for f in tmp.iterdir():
                f.unlink()
            tmp.rmdir()
        else:
            os.replace(tmp, folder)
        prune(folder.parent, "bands-", folder.name)
    except OSError:
        pass  # a read-only cache only costs a rebuild next time
    return tables


# -- the public lookups ------------------------------------------------------------------
# what a negative index from band_index(check=False) means: the first invalid row
ROW_PROBLEM = {-1: "row 1 must hold the digits 1-9 once each",
                -2: "row 2 repeats a digit or repeats a digit of its box in row 1",
                -3: "row 3 repeats a digit of its row or of its box"}


def band_index(bands, *, check: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Index (0-415) of each band and a transformation onto its minlex band.

    ``bands``: (N, 27) uint8 (or strings). Returns ``(index (N,) int16, transforms (N, SIZE) uint8)``;
    ``Transform.from_array(transforms[k]).apply_band(bands[k])`` is minlex band ``index[k]``.
    With ``check`` an invalid band raises :class:`InvalidBandError` naming it; without,
    its index is negative (-1, -2, -3: the first invalid row).
    """
    batch = as_batch(bands, 27)
    T = band_tables()
    index = np.empty(len(batch), np.int16)
    transforms = np.zeros((len(batch), SIZE), np.uint8)
    K.band_lookup(batch, T.row2_rank_to_id, _FACT, T.table, T.maps_rows, T.maps_cols, index, transforms)
    if check and len(batch) and index.min() < 0:
        k = int(np.argmax(index < 0))
        raise InvalidBandError(f"band {k + 1} ({format_sudoku(batch[k])}): {ROW_PROBLEM[int(index[k])]}")
    return index, transforms


def band_index_one(band) -> tuple[int, Transform]:
    """Index and transformation of one band (27 digits)."""
    index, transforms = band_index(band)
    return int(index[0]), Transform.from_array(transforms[0])


def band_compare(bands, threshold: int) -> tuple[np.ndarray, np.ndarray]:
    """Is each band's index below (-1), equal to (0) or above (+1) ``threshold``?

    The transformation onto the minlex band is written only where equal (zeros elsewhere);
    an invalid band gives 2. Cheaper than :func:`band_index` for enumeration pruning.
    """
    batch = as_batch(bands, 27)
    T = band_tables()
    cmp = np.empty(len(batch), np.int8)
    transforms = np.zeros((len(batch), SIZE), np.uint8)
    K.band_compare(batch, int(threshold), T.row2_rank_to_id, _FACT, T.table, T.maps_rows, T.maps_cols,
                   cmp, transforms)
    return cmp, transforms


def random_bands(n: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """``n`` uniformly random valid bands (uniform over the 9! x 2,612,736 bands)."""
    rng = rng if rng is not None else np.random.default_rng()
    T = band_tables()
    # a random normalized band: pick a class with probability ~ class size, then a random image
    weights = T.class_size / T.class_size.sum()
    idx = rng.choice(N_BANDS, size=n, p=weights)
    m = rng.integers(0, K.N_MAPS, size=n)
    r = T.maps_rows[m]  # (n, 3)
    c = T.maps_cols[m]  # (n, 9)
    src = T.minlex[idx].reshape(n, 3, 9)
    moved = src[np.arange(n)[:, None, None], r[:, :, None], c[:, None, :]].reshape(n, 27)
    relabel = np.zeros((n, 10), np.uint8)
    relabel[:, 1:] = np.argsort(rng.random((n, 9)), axis=1) + 1
    return relabel[np.arange(n)[:, None], moved]
