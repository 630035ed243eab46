"""The rank index of a set of counts, the one place that builds it: from counts given as plain
numbers (a catalog's), or stored once in the cache folder as flat arrays that every later
process maps read-only (the package data's, whose decoding takes seconds and a gigabyte).

    >>> from sudoku_symmetry.engine.grids.index import rank_index
    >>> index = rank_index(lambda: (totals, prefix_counts, fine))        # doctest: +SKIP
    >>> index = rank_index(decode_package, key=manifests)               # doctest: +SKIP

Importing this module loads no kernel: :func:`stored_dir` and :func:`is_stored` are file tests.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .._cache import cache_root, source_hash, stored_arrays

if TYPE_CHECKING:
    from .rank import RankIndex

PREFIX = "rank-"


def stored_dir(key: bytes) -> Path:
    """The cache folder of the index of the counts named by ``key`` (a few bytes that change with
    them, e.g. their manifests): ``rank-<hash of key and of rank.py, which lays the arrays out>``."""
    h = hashlib.sha256(source_hash(["grids/rank.py"]).encode())
    h.update(key)
    return cache_root() / f"{PREFIX}{h.hexdigest()[:16]}"


def is_stored(key: bytes) -> bool:
    """True when :func:`rank_index` with ``key`` will only map the stored arrays."""
    return stored_dir(key).is_dir()


def rank_index(counts: Callable[[], tuple], key: bytes | None = None) -> "RankIndex":
    """The :class:`~.rank.RankIndex` of ``counts()`` = (totals, prefix_counts, fine) (see
    :mod:`.rank`). With ``key``: from the arrays stored under it in the cache folder, built from
    ``counts()`` by the first call (safe when processes race) and mapped by every later one."""
    from .rank import RankIndex

    if key is None:
        return RankIndex(*counts())
    arrays = stored_arrays(stored_dir(key).name, lambda: RankIndex(*counts()).to_arrays(), prefix=PREFIX)
    return RankIndex.from_arrays(arrays)
