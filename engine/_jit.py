"""The one decorator every kernel uses, so caching and bounds checking switch in one place.

Set ``SUDOKU_NO_CACHE=1`` to compile without the on-disk cache (e.g. to rule out a stale one);
``NUMBA_CACHE_DIR`` chooses where the cache lives (CI keys it on a hash of ``engine/``).
"""
import os
from functools import partial

import numba

_CACHE = os.environ.get("SUDOKU_NO_CACHE", "") in ("", "0")

kernel = partial(numba.njit, cache=_CACHE, nogil=True)
"""``@kernel`` = ``numba.njit(cache=True, nogil=True)``."""

parallel_kernel = partial(numba.njit, cache=_CACHE, nogil=True, parallel=True)
"""For batch drivers that split work over threads with ``numba.prange``."""
