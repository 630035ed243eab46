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
from functools import lru_cache
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



def _stable(dispatcher):
    """Give a kernel an identity that is the same in every process (its module, name and line).
    Numba keys the cached code of a function made by a factory (a closure) on its cells pickled,
    and a kernel pickles with its identity, by default a random one: such functions (the rating's
    chain runs and producers) would miss the cache and compile again in every process."""
    f = dispatcher.py_func
    dispatcher._set_uuid(f"sudoku-engine:{f.__module__}.{f.__qualname__}:{f.__code__.co_firstlineno}")
    return dispatcher


def kernel(*args, **options):
    """``@kernel`` = ``numba.njit(cache=True, nogil=True)`` (also ``@kernel(inline="always")``,
    ``kernel(func)``), with a stable identity."""
    made = numba.njit(*args, **{**JIT_OPTIONS, **options})
    if isinstance(made, numba.core.dispatcher.Dispatcher):
        return _stable(made)
    return lambda func: _stable(made(func))

class _CompileNotice(event.Listener):
    """Tells ``_cache`` when a compilation starts and ends (cache hits start none)."""

    def on_start(self, ev):
        _cache.compile_started()

    def on_end(self, ev):
        _cache.compile_ended()


event.register("numba:compile", _CompileNotice())
