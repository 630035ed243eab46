"""The one place where jit and overload options are set, so caching and bounds checking
switch for every kernel at once (numba-stats ``_util.py`` pattern).

Set ``SUDOKU_NO_CACHE=1`` to compile without the on-disk cache (e.g. to rule out a stale one);
``NUMBA_CACHE_DIR`` chooses where the cache lives (``_cache.py`` keys it on a hash of every file
under ``engine/``); ``NUMBA_BOUNDSCHECK=1`` turns out-of-bounds reads into IndexError.
"""
import os
from functools import partial

import numba
from numba.core import event

from . import _cache

_CACHE = os.environ.get("SUDOKU_NO_CACHE", "") in ("", "0")

JIT_OPTIONS = {"cache": _CACHE, "nogil": True}
"""Options of every ``@kernel``."""

OVERLOAD_OPTIONS = {"cache": _CACHE}
"""``jit_options`` of every ``numba.extending.overload`` (the bit intrinsics in ``_bits``)."""

kernel = partial(numba.njit, **JIT_OPTIONS)
"""``@kernel`` = ``numba.njit(cache=True, nogil=True)``."""

class _CompileNotice(event.Listener):
    """Tells ``_cache.first_compile`` when a compilation starts (cache hits start none)."""

    def on_start(self, ev):
        _cache.first_compile()

    def on_end(self, ev):
        pass


event.register("numba:compile", _CompileNotice())
