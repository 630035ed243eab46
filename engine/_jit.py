"""The one place where jit and overload options are set, so caching and bounds checking
switch for every kernel at once (numba-stats ``_util.py`` pattern).

Set ``SUDOKU_NO_CACHE=1`` to compile without the on-disk cache (e.g. to rule out a stale one);
``NUMBA_CACHE_DIR`` chooses where the cache lives (``_cache.py`` keys it on a hash of every file
under ``engine/`` and Numba's version); ``NUMBA_BOUNDSCHECK=1`` turns out-of-bounds reads into
IndexError. The engine's kernels are filed in that folder by :class:`EngineLocator`, the same
way wherever the package is installed.
"""
import hashlib
import os
from functools import lru_cache, partial
from pathlib import Path

import numba
from numba.core import caching, config, event

from . import _cache


@lru_cache(maxsize=None)
def _content_stamp(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


class EngineLocator(caching._CacheLocator):
    """Files the compiled code of a kernel of this engine under ``$NUMBA_CACHE_DIR/<its folder
    inside engine/>`` and stamps it with a hash of its source file's contents, so the cache does
    not depend on the install path (Numba's own locators use the absolute path and, before
    Numba 0.61, the file's time). Kernels outside the engine (the user's own) are left to
    Numba's locators."""

    def __init__(self, py_func, py_file: str, relative: str):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(config.CACHE_DIR, relative)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        st = os.stat(self._py_file)
        return _content_stamp(self._py_file, st.st_mtime_ns, st.st_size)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR:
            return None
        try:
            relative = Path(py_file).resolve().parent.relative_to(_cache.ENGINE_DIR)
        except ValueError:  # not one of ours
            return None
        self = cls(py_func, py_file, "engine" if not relative.parts else "-".join(relative.parts))
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


_LOCATORS = (getattr(caching, "CacheImpl", None) or caching._CacheImpl)._locator_classes  # the name before 0.65
if EngineLocator not in _LOCATORS:
    _LOCATORS.insert(0, EngineLocator)

_CACHE = os.environ.get("SUDOKU_NO_CACHE", "") in ("", "0")

JIT_OPTIONS = {"cache": _CACHE, "nogil": True}
"""Options of every ``@kernel``."""

OVERLOAD_OPTIONS = {"cache": _CACHE}
"""``jit_options`` of every ``numba.extending.overload`` (the bit intrinsics in ``_bits``)."""

kernel = partial(numba.njit, **JIT_OPTIONS)
"""``@kernel`` = ``numba.njit(cache=True, nogil=True)``."""

parallel_kernel = partial(numba.njit, parallel=True, **JIT_OPTIONS)
"""For batch drivers that split work over threads with ``numba.prange``."""


class _CompileNotice(event.Listener):
    """Tells ``_cache`` when a compilation starts and ends (cache hits start none)."""

    def on_start(self, ev):
        _cache.compile_started()

    def on_end(self, ev):
        _cache.compile_ended()


event.register("numba:compile", _CompileNotice())
