"""The ED-grid counts shipped with the package, as a rank index that loads in milliseconds.

The package data (``catalog/data/ed_grid_counts.npz`` and ``ed_grid_fine.npz``, each with a
JSON manifest holding its sha256) counts every one of the 5,472,730,538 ED grids: per band 1,
per row-4 prefix, and a checkpoint every 384 grids inside each prefix. Decoding them takes
seconds and about a gigabyte, so it happens once: :func:`rank_index` stores the flat arrays of
:meth:`RankIndex.to_arrays <sudoku_symmetry.engine.grids.RankIndex.to_arrays>` in the cache
folder (``engine.grids.index``: ``rank-<key>``, the key a hash of both manifests and of the module
that lays the arrays out), and every later process maps them read-only (``bin/rank 1``: no catalog, no SQL, a few MB
of them resident).

    >>> index = rank_index()
    >>> int(index.grids_at([1])[0][:9].sum())          # rank 1 starts 123456789
    45
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine.grids import RankIndex

def data_dir() -> Path:
    """The package data folder (``catalog/data``), found without importing SQLAlchemy."""
    from .catalog.shipped import DATA_DIR

    return DATA_DIR


def _key() -> bytes:
    """What names the package data's version: both manifests (each holds its data's sha256)."""
    key = b""
    for name in ("ed_grid_counts.json", "ed_grid_fine.json"):
        path = data_dir() / name
        key += b"\0" + (path.read_bytes() if path.exists() else b"missing")
    return key


def _counts() -> tuple:
    """Decode the package data (checked against the manifests' sha256): (totals, prefix counts,
    fine counts) as :class:`~sudoku_symmetry.engine.grids.RankIndex` takes them."""
    from .catalog.fine import load_fine_package  # SQLAlchemy: only here, once per cache folder
    from .catalog.shipped import ed_grid_counts, ed_grid_prefix_counts

    c = ed_grid_counts()  # checked against its manifest
    totals = {} if c is None else dict(zip(c["band1"].tolist(), c["grids"].tolist()))
    return totals, ed_grid_prefix_counts().get, load_fine_package().get


def index_dir() -> Path:
    """The cache folder the index is stored in (``rank-<key>``)."""
    from .engine.grids.index import stored_dir

    return stored_dir(_key())


def is_built() -> bool:
    """True when :func:`rank_index` will only map the stored arrays (a file test)."""
    return index_dir().is_dir()


@lru_cache(maxsize=None)
def rank_index() -> "RankIndex":
    """The :class:`~sudoku_symmetry.engine.grids.RankIndex` of the shipped counts (all 416 bands
    1), from the cache folder; the first call after an install or a change of the data builds it
    (about 10 s, once per cache folder, safe when processes race)."""
    from .engine.grids.index import rank_index as stored_index

    return stored_index(_counts, key=_key())
