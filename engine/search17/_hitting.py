"""The one hitting-set search of the 17-clue search: every set of k cells of a band (27 cells,
a 27-bit mask) that meets each of a list of sets, with a stack cap and bounds. The valid clue
sets of a band (``_valid``) and the band-3 step (``_band3``) walk it (:func:`hit_next`); the XY
step (``_xy``) runs its own loop on the same bitmaps, bound, last-clue shortcut and completions.

**Enumeration, each set once.** A node is the clues chosen so far and the *dead* cells its
subtree may not use. Branch on the first set not yet met (the sets come smallest first, so it is
a small one): child i adds its i-th live cell and makes the cells before it dead, so every set
the node can complete comes out of exactly one child. Where every set is met the node is a
*leaf*: its completions are the chosen cells plus any ``need`` live cells (``completions``,
Gosper's walk over k-subsets).

**Bitmaps.** Set j is bit j of a row of words: ``notin[c]`` holds the sets cell c is not in,
``unmet[l]`` the sets not met at level l, so a child's row is its parent's AND one row of
``notin`` (one word per 64 sets) and the first unmet set is the first set bit.

**Bounds.** n pairwise disjoint unmet sets need n more clues (greedy, in the order of the sets,
on their live cells: ``disjoint_bound``); with one clue left, the clues that complete the node
are the live cells of the branching set that meet every unmet set (``meeting_all``), found at
once instead of child by child. A stack cap (at most ``cap`` clues in a stack, ``base[s]`` of
them already placed elsewhere) ends a node that breaks it.

**Events.** :func:`hit_next` walks to the next node where the caller has work and returns: a
*leaf* (every set met: the caller writes the completions), or a *last clue* (the completing
cells, ``ctl[2]``). The walk's position lives in ``ctl`` and the per-level arrays, so the
caller's loop is the search. (The XY step checks its leaves and, when a check teaches a new set,
adds it with :func:`add_set` and branches on it at once, in its own loop.)
"""
import numpy as np

from .._bits import popcount, trailing_zeros
from .._jit import kernel

ONE = np.uint64(1)
FULL27 = (1 << 27) - 1
STACK27 = np.array([sum(1 << (r * 9 + 3 * s + j) for r in range(3) for j in range(3)) for s in range(3)], np.int64)
"""Cells of stack s inside one band (27-bit masks)."""
NO_CAP = 99
LEVELS = 33
"""Rows of the per-level arrays: the root and a level per clue placed (at most 27) and spare."""
DONE, LEAF, LAST = -1, 0, 1
"""What :func:`hit_next` returns: the walk is over; a leaf; a last clue."""
POP, NEW = -1, -2
"""``ctl[1]`` between two calls: leave node ``ctl[0]``; node ``ctl[0]`` is new."""


@kernel
def set_bitmaps(sets, n, notin, w0, nw):
    """Bit j of word ``w0 + j // 64`` of ``notin[c]``: cell c is not in ``sets[j]`` (j < n);
    words ``w0 .. w0 + nw - 1`` of every cell reset first (``nw`` at least n / 64)."""
    for c in range(27):
        for w in range(nw):
            notin[c, w0 + w] = ~np.uint64(0)
    for j in range(n):
        bj = ONE << np.uint64(j & 63)
        v = sets[j]
        while v:
            c = trailing_zeros(v)
            v &= v - 1
            notin[c, w0 + (j >> 6)] &= ~bj


@kernel
def unmet_root(unmet, w0, n):
    """Sets 0..n-1 of words ``w0..`` unmet at the root (the words themselves cleared by the
    caller)."""
    for j in range(n):
        unmet[0, w0 + (j >> 6)] |= ONE << np.uint64(j & 63)


@kernel
def add_set(s, j, notin, unmet, lvl):
    """Set ``s`` as set j (a slot past the others): unmet at levels 0..``lvl`` (the node and
    every node above it, whose clues are a part of its own)."""
    bj = ONE << np.uint64(j & 63)
    v = s
    while v:
        c = trailing_zeros(v)
        v &= v - 1
        notin[c, j >> 6] &= ~bj
    for l2 in range(lvl + 1):
        unmet[l2, j >> 6] |= bj


@kernel
def hit_start(ctl, chosen, dead, rest, nclue, dead0):
    """The walk at its root: no clue, the cells ``dead0`` never used."""
    ctl[0] = 0
    ctl[1] = NEW
    chosen[0] = 0
    dead[0] = dead0
    nclue[0] = 0
    rest[0] = -1


@kernel
def disjoint_bound(unmet, lvl, W, sets, dead, need):
    """Clues still needed by the sets whose bits are set in ``unmet[lvl, :W]``: n pairwise
    disjoint ones need n (greedy, smallest first, on their cells not ``dead``; 99 when one has
    none left); the count stops once above ``need``. (The row by its index, not a slice: a
    slice's reference counting cost more than the scan.)"""
    used = np.int64(0)
    lb = 0
    for w in range(W):
        v = unmet[lvl, w]
        while v:
            t = trailing_zeros(v)
            v &= v - ONE
            av = sets[w * 64 + t] & ~dead
            if av == 0:
                return 99
            if (av & used) == 0:
                used |= av
                lb += 1
                if lb > need:
                    return lb
    return lb


@kernel
def meeting_all(cells, unmet, lvl, notin, W):
    """The cells of ``cells`` that meet every set whose bit is set in ``unmet[lvl, :W]``: where
    one clue is left, the clues that complete the node."""
    out = np.int64(0)
    v = cells
    while v:
        c = trailing_zeros(v)
        v &= v - 1
        hit = True
        for w in range(W):
            if unmet[lvl, w] & notin[c, w]:
                hit = False
                break
        if hit:
            out |= np.int64(1) << c
    return out


@kernel(inline="always")
def over_cap(s, base, cap):
    """Does clue set ``s`` put more than ``cap`` clues in a stack, with ``base[st]`` there
    already?"""
    for st in range(3):
        if popcount(s & STACK27[st]) + base[st] > cap:
            return True
    return False


@kernel(inline="always")
def next_combination(comb):
    """Gosper's next integer with as many set bits as ``comb`` (k-subsets in increasing order)."""
    lo = comb & -comb
    r = comb + lo
    return (((r ^ comb) >> 2) // lo) | r


@kernel(inline="always")
def spread(comb, pos):
    """The cells ``pos[i]`` of the set bits i of ``comb``."""
    x = np.int64(0)
    while comb:
        x |= np.int64(1) << pos[trailing_zeros(comb)]
        comb &= comb - 1
    return x


@kernel
def completions(prefix, shift, s, free, need, base, cap, pos, out, n):
    """Append ``prefix | (t << shift)`` to ``out`` from ``n`` for every t = ``s`` plus ``need``
    cells of ``free`` with at most ``cap - base[st]`` clues in each stack st (``cap`` NO_CAP:
    none); returns the new count, -1 when ``out`` is full."""
    nf = 0
    while free:
        pos[nf] = trailing_zeros(free)
        free &= free - 1
        nf += 1
    if nf < need:
        return n
    comb = (np.int64(1) << need) - 1
    top = np.int64(1) << nf
    while comb < top:
        t = s | spread(comb, pos)
        if cap >= NO_CAP or not over_cap(t, base, cap):
            if n >= out.shape[0]:
                return -1
            out[n] = prefix | (t << shift)
            n += 1
        if need == 0:
            break
        comb = next_combination(comb)
    return n


@kernel
def emit_last(prefix, shift, s, cells, out, n):
    """Append ``prefix | ((s | cell) << shift)`` for each cell of ``cells`` (a last-clue event);
    returns the new count, -1 when ``out`` is full."""
    while cells:
        c = trailing_zeros(cells)
        cells &= cells - 1
        if n >= out.shape[0]:
            return -1
        out[n] = prefix | ((s | (np.int64(1) << c)) << shift)
        n += 1
    return n


@kernel(inline="always")  # inlined: the walk is its caller's loop
def hit_next(ctl, sets, notin, unmet, W, chosen, dead, rest, nclue, z, base, cap, bound_from, last_clue):
    """Walk to the next event (module docstring): ``z`` clues in all, sets ``sets`` (bit j of
    ``unmet``/``notin`` rows of ``W`` words), stack cap ``cap`` over ``base``; the bound where
    ``bound_from`` clues or more are left, the last-clue shortcut when ``last_clue``. Returns
    LEAF or LAST with the node's level in ``ctl[0]`` (and the completing cells in ``ctl[2]``),
    or DONE."""
    lvl = ctl[0]
    f = ctl[1]
    if f == POP:
        lvl -= 1
    while lvl >= 0:
        if rest[lvl] == -1:
            need = z - nclue[lvl]
            if f < 0:  # a new node
                if cap < NO_CAP and over_cap(chosen[lvl], base, cap):
                    lvl -= 1
                    continue
                for w in range(W):
                    if unmet[lvl, w]:
                        f = w * 64 + trailing_zeros(unmet[lvl, w])
                        break
                if f < 0:
                    ctl[0] = lvl
                    ctl[1] = POP
                    return LEAF
            if need <= 0:
                lvl -= 1
                f = -1
                continue
            if need == 1 and last_clue:
                v = meeting_all(sets[f] & ~dead[lvl], unmet, lvl, notin, W)
                f = -1
                if cap < NO_CAP:
                    s = chosen[lvl]
                    u = v
                    while u:
                        c = trailing_zeros(u)
                        u &= u - 1
                        st = (c % 9) // 3
                        if popcount(s & STACK27[st]) + 1 + base[st] > cap:
                            v &= ~(np.int64(1) << c)
                if v:
                    ctl[0] = lvl
                    ctl[1] = POP
                    ctl[2] = v
                    return LAST
                lvl -= 1
                continue
            if need >= bound_from and disjoint_bound(unmet, lvl, W, sets, dead[lvl], need) > need:
                lvl -= 1
                f = -1
                continue
            rest[lvl] = sets[f] & ~dead[lvl]
            f = -1
        if rest[lvl] == 0:
            lvl -= 1
            continue
        c = trailing_zeros(rest[lvl])
        bit = np.int64(1) << c
        rest[lvl] &= ~bit
        chosen[lvl + 1] = chosen[lvl] | bit
        dead[lvl + 1] = dead[lvl]
        dead[lvl] |= bit  # later branches at this level exclude c
        nclue[lvl + 1] = nclue[lvl] + 1
        for w in range(W):
            unmet[lvl + 1, w] = unmet[lvl, w] & notin[c, w]
        rest[lvl + 1] = -1
        lvl += 1
    ctl[0] = -1
    return DONE
