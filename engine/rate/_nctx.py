"""The scratch that nested chain rules share (see ``_nested``), empty for the levels that nest none."""
import numpy as np

from .._jit import kernel
from ._graph import NPID, new_pool
from ._hintlist import HMAX, MAXREC, new_hintlist, new_records
from ._multi import MAXSEEN
from ._unary import MAXOFF, new_unary_scratch

POOL = 19
"""Graphs a nested multiple-chains rule keeps at once: a cell's 9 candidates, a region's 8 other
places, one candidate assumed false."""


@kernel
def new_nctx(on):
    """Records, two hint lists, the unary walk's scratch, marks, the graph pool, the chains seen;
    all empty when ``on`` is False."""
    recs = new_records(MAXREC if on else 0)
    hlu = new_hintlist(HMAX if on else 0)
    hlm = new_hintlist(HMAX if on else 0)
    usc = new_unary_scratch(MAXOFF if on else 0)
    mark = np.zeros(NPID if on else 0, dtype=np.int8)
    pool = new_pool(POOL if on else 0)
    seen = np.zeros(MAXSEEN if on else 0, dtype=np.uint64)
    return recs, hlu, hlm, usc, mark, pool, seen
