"""Kernels of the bands' valid clue sets: a set of cells of one band fixes the band (given the
grid around it) only if it meets every difference set of the band against the other bands with
its gangster, its *fixing sets* (the UAs inside one band, ``order.fixing_sets``)."""
import numpy as np

from .._bits import trailing_zeros
from .._jit import kernel
from ..core.bandkey import band_key
from ._hitting import (FULL27, LAST, LEVELS, NO_CAP, completions, emit_last, hit_next, hit_start, set_bitmaps,
                       unmet_root)


@kernel
def band_fixing_sets(band, BT, relabel, out):
    """The minimal fixing sets of a band (27 digits, any of the 2.6 M forms), in its own cells:
    its minlex band's (``BT.fix``, ``BT.fix_offsets`` by index) carried through the table's map.
    Returns how many (at most ``len(out)``)."""
    key = band_key(band, relabel, BT.row2_rank_to_id, BT.fact)
    e = np.int64(BT.table[key])
    idx = e & 0xFFFF
    m = e >> 16
    a = BT.fix_offsets[idx]
    n = min(BT.fix_offsets[idx + 1] - a, out.shape[0])
    for t in range(n):
        s = BT.fix[a + t]
        o = np.int64(0)
        while s:
            c = trailing_zeros(s)
            s &= s - 1
            o |= np.int64(1) << (BT.maps_rows[m, c // 9] * 9 + BT.maps_cols[m, c % 9])
        out[t] = o
    return n


@kernel
def valid_sets(fix, nfix, k, out):
    """Every k-subset of the 27 cells of a band meeting each of ``fix[:nfix]`` (27-bit masks),
    into ``out`` (the hitting-set search, ``_hitting``, branching on the sets in their order);
    returns how many (-1 if ``out`` is too small)."""
    W = max(1, (nfix + 63) >> 6)
    notin = np.empty((27, W), np.uint64)
    unmet = np.empty((LEVELS, W), np.uint64)
    chosen = np.empty(LEVELS, np.int64)
    dead = np.empty(LEVELS, np.int64)
    rest = np.empty(LEVELS, np.int64)
    nclue = np.empty(LEVELS, np.int64)
    pos = np.empty(27, np.int64)
    ctl = np.zeros(3, np.int64)
    base = np.zeros(3, np.int64)
    zero = np.int64(0)  # typed values, not literals: one compiled helper for every caller
    cap = np.int64(NO_CAP)
    set_bitmaps(fix, nfix, notin, zero, W)
    for w in range(W):
        unmet[0, w] = 0
    unmet_root(unmet, zero, nfix)
    hit_start(ctl, chosen, dead, rest, nclue, np.int64(0))
    n = np.int64(0)
    while True:
        ev = hit_next(ctl, fix, notin, unmet, W, chosen, dead, rest, nclue, k, base, cap, np.int64(2), np.bool_(True))
        if ev < 0:
            return n
        lvl = ctl[0]
        if ev == LAST:
            n = emit_last(zero, zero, chosen[lvl], ctl[2], out, n)
        else:
            n = completions(zero, zero, chosen[lvl], FULL27 & ~chosen[lvl] & ~dead[lvl], k - nclue[lvl], base, cap, pos,
                            out, n)
        if n < 0:
            return -1
