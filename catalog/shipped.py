"""The package data, located once: what ships with the code in ``catalog/data/``, each file
beside its JSON manifest (sha256, what it covers, the command that makes it again).

* ``ed_grid_counts.npz``: the ED-grid counts per band 1 and row-4 prefix (``bin/enumerate
  --export``), what ``bin/populate`` loads and the rank index reads; :func:`ed_grid_counts`.
* ``ed_grid_fine.npz``: their fine counts (``catalog/fine.py``).
* ``s17_entry_counts.json``: the 17-clue search entry's counts per band 1 (``catalog/search17.py``).
* ``s17_search_bands.json``: the 17-clue search's measured bands 1 per pass (complete or not:
  finds, CPU seconds, bands 3), what ``bin/s17-search --table`` and its estimate read.
* ``s17_search_rates.json``: the 17-clue search's CPU seconds per band 3, per pass and sampled
  rank (``bench/s17_search_sample.py --rates``), what ``bin/s17-search --shard-seconds`` sizes
  shards by.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from .errors import CatalogError

DATA_DIR = Path(__file__).parent / "data"
ED_GRID_COUNTS = DATA_DIR / "ed_grid_counts.npz"
ED_GRID_FINE = DATA_DIR / "ed_grid_fine.npz"
S17_ENTRY_COUNTS = DATA_DIR / "s17_entry_counts.json"
S17_SEARCH_BANDS = DATA_DIR / "s17_search_bands.json"
S17_SEARCH_RATES = DATA_DIR / "s17_search_rates.json"


def manifest(path: Path) -> dict:
    """The JSON manifest beside a package data file."""
    return json.loads(path.with_suffix(".json").read_text())


def checked(path: Path) -> bytes:
    """The bytes of a package data file, checked against the sha256 in its manifest."""
    raw = path.read_bytes()
    digest, want = hashlib.sha256(raw).hexdigest(), manifest(path)["sha256"]
    if digest != want:
        raise CatalogError(f"{path}: sha256 {digest} does not match its manifest ({want})")
    return raw


def ed_grid_counts(path: Path = ED_GRID_COUNTS, *, check: bool = True) -> dict[str, np.ndarray] | None:
    """The shipped ED-grid counts as arrays (``catalog.grids.export_counts``'s), None when absent;
    ``check``: against the manifest's sha256 first."""
    if not path.exists():
        return None
    if check:
        checked(path)
    with np.load(path) as arrays:
        return {k: arrays[k] for k in arrays.files}


@lru_cache(maxsize=1)
def ed_grid_prefix_counts() -> dict[int, np.ndarray]:
    """band 1 -> the shipped grids under each of its row-4 prefixes ({} when absent)."""
    a = ed_grid_counts(check=False)
    if a is None:
        return {}
    start = np.concatenate([[0], np.cumsum(a["prefixes"])])
    return {int(b): a["prefix_grids"][start[k]:start[k + 1]] for k, b in enumerate(a["band1"].tolist())}
