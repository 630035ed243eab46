"""Where the engine keeps what it computes once: band tables (.npy) and compiled kernels.

``cache_root()`` is $SUDOKU_CACHE_DIR, else $XDG_CACHE_HOME/sudoku-symmetry, else
~/.cache/sudoku-symmetry. Numba's cache goes in ``numba-<hash of engine/*.py>`` below it
(unless NUMBA_CACHE_DIR is set): Numba does not notice an edit in another module that a
kernel calls, so a new hash of the sources means a fresh cache, and a fresh clone of the same
sources (CI) reuses the old one.
"""
import hashlib
import os
import sys
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent


def cache_root() -> Path:
    env = os.environ.get("SUDOKU_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sudoku-symmetry"


def source_hash(names=None) -> str:
    """Short hash of engine source files (all ``*.py`` when ``names`` is None)."""
    h = hashlib.sha256()
    paths = sorted(ENGINE_DIR.glob("*.py")) if names is None else [ENGINE_DIR / n for n in names]
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def configure_numba_cache() -> None:
    """Point Numba's cache at a folder keyed on the engine's sources, unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = str(cache_root() / f"numba-{source_hash()}")
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:  # imported before us: its config was already read
        sys.modules["numba"].config.CACHE_DIR = folder
