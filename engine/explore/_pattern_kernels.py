"""Kernels of the pattern search: the automorphisms of a clue pattern, and the depth-first search
over digit assignments of the pattern's cells (see ``pattern.py`` for the method).

Assignments are held as labels 0-8 per position of the search order (``order[j]`` is the cell
at position ``j``). Labels appear in restricted-growth order (a new label is the smallest unused
one), so each relabelling class is met once; an automorphism ``g`` of the pattern is given by
``srcpos[g, j]``, the position whose label ``g`` moves to position ``j``, and an assignment is
kept only when no automorphism gives a smaller label sequence (after relabelling in order of
first appearance).
"""
import numpy as np

from .._bits import PERM3, trailing_zeros
from .._jit import kernel
from ..solve import node_candidates, node_copy, node_count, node_empty, node_open, node_place, node_propagate

MORE = 1
"""``search_into`` stopped on its node budget: call again to go on."""
FULL = 2
"""``search_into`` stopped with its output buffer full: drain it and call again."""
DONE = 0
"""``search_into`` finished the search."""

N_STATS = 6
STAT_NODES = 0  # assignments of one cell tried below the root (placements and leaf candidates)
STAT_DEAD = 1  # placements the solver's logic refuted
STAT_CHECKS = 2  # finished assignments counted by the solver
STAT_UNIQUE = 3  # of those, with exactly one solution (before minimality and output)
STAT_SYMMETRIC = 4  # assignments dropped because an automorphism gives a smaller one
STAT_MINIMAL_CHECKS = 5  # minimality checks (``minimal`` only)


def _chute_maps():
    """The 1,296 maps of 9 lines that keep chutes together: ``maps[k, i]`` = the line that
    becomes line ``i`` (chute order first, then the order inside each chute)."""
    out = np.zeros((1296, 9), np.int64)
    k = 0
    for band in range(6):
        for a in range(6):
            for b in range(6):
                for c in range(6):
                    inner = (a, b, c)
                    for i in range(3):
                        src = PERM3[band, i]
                        for r in range(3):
                            out[k, 3 * i + r] = 3 * src + PERM3[inner[i], r]
                    k += 1
    return out


CHUTE_MAPS = _chute_maps()


def mask_maps():
    """``table[k, m]``: the 9-bit row mask ``m`` with its columns moved by chute map ``k`` (bit
    ``j`` of the result is bit ``CHUTE_MAPS[k, j]`` of ``m``), built at first use."""
    global _MASK_MAPS
    if _MASK_MAPS is None:
        bits = (np.arange(512)[:, None] >> np.arange(9)) & 1  # (512, 9)
        moved = bits[:, CHUTE_MAPS]  # (512, 1296, 9)
        _MASK_MAPS = np.ascontiguousarray((moved << np.arange(9)).sum(axis=2).T, dtype=np.int64)
    return _MASK_MAPS


_MASK_MAPS = None


@kernel
def automorphisms_into(cells, chute_maps, moved, out_src, out_maps):
    """The position maps (transpose, row map, column map) that map the pattern ``cells`` (81,
    non-zero = clue) onto itself (``chute_maps``, ``moved``: :data:`CHUTE_MAPS` and
    :func:`mask_maps`, passed in: tables this large are not cached as constants). Writes up to
    ``len(out_src)`` of them: ``out_src[a, q]`` the source cell of cell ``q`` (so ``image[q] =
    x[out_src[a, q]]``), ``out_maps[a]`` the (transpose, rows[9], cols[9]) triple as 19 numbers.
    Returns how many there are in all."""
    rows = np.zeros((2, 9), np.int64)
    want = np.zeros(9, np.int64)
    for i in range(9):
        for j in range(9):
            if cells[9 * i + j]:
                rows[0, i] |= 1 << j
                rows[1, j] |= 1 << i  # the transpose's row j
    for i in range(9):
        want[i] = rows[0, i]
    n = 0
    for t in range(2):
        for r in range(1296):
            for c in range(1296):
                ok = True
                for i in range(9):
                    if moved[c, rows[t, chute_maps[r, i]]] != want[i]:
                        ok = False
                        break
                if not ok:
                    continue
                if n < out_src.shape[0]:
                    for i in range(9):
                        ri = chute_maps[r, i]
                        for j in range(9):
                            cj = chute_maps[c, j]
                            out_src[n, 9 * i + j] = 9 * cj + ri if t else 9 * ri + cj
                    out_maps[n, 0] = t
                    for i in range(9):
                        out_maps[n, 1 + i] = chute_maps[r, i]
                        out_maps[n, 10 + i] = chute_maps[c, i]
                n += 1
    return n


@kernel
def _compare(lab, srcpos, g, length, seen):
    """Compare the labels of the image under automorphism ``g``, relabelled in order of first
    appearance, with ``lab`` on positions ``0..length-1``: -1 smaller, 0 equal, 1 larger.
    ``seen`` is scratch (10,)."""
    for x in range(10):
        seen[x] = -1
    nxt = 0
    for j in range(length):
        x = lab[srcpos[g, j]]
        y = seen[x]
        if y < 0:
            y = nxt
            seen[x] = y
            nxt += 1
        if y != lab[j]:
            return -1 if y < lab[j] else 1
    return 0


@kernel
def _symmetry_step(p, lab, srcpos, jneed, act, nact, seen):
    """After the label at position ``p`` is chosen: the automorphisms still tied with the
    assignment (``act[p + 1]``) from those tied before (``act[p]``); False when one of them
    gives a smaller sequence (the assignment is not the canonical member of its class)."""
    m = 0
    for a in range(nact[p]):
        g = act[p, a]
        now = jneed[g, p + 1]
        if now > jneed[g, p]:
            r = _compare(lab, srcpos, g, now, seen)
            if r < 0:
                return False
            if r > 0:
                continue
        act[p + 1, m] = g
        m += 1
    nact[p + 1] = m
    return True


@kernel
def _leaf_minimal(order, n, lab, puzzle, S, X, ctl, sols):
    """Whether the unique puzzle of the labels ``lab`` is minimal: each clue removed in turn
    leaves two solutions or more."""
    for q in range(81):
        puzzle[q] = 0
    for j in range(n):
        puzzle[order[j]] = lab[j] + 1
    for skip in range(n):
        node_empty(S, 0)
        ok = True
        for j in range(n):
            if j != skip and not node_place(S, 0, lab[j], order[j]):
                ok = False
                break
        if not ok:
            continue
        S[0, 30] = (1 << 27) - 1
        if node_count(S, 0, X, ctl, 2, sols) < 2:
            return False
    return True


@kernel
def search_into(order, n, nfix, srcpos, jneed, minimal, S, lab, rem, first, maxlab, act, nact, state,
                X, ctl, scratch, out_lab, out_stab, budget, stats):
    """The depth-first search over label assignments of the pattern's cells, resumable.

    ``order`` (n,): cells in search order, the ``nfix`` fixed ones first with their labels in
    ``lab[:nfix]``; ``srcpos`` (A, n), ``jneed`` (A, n + 1): the automorphisms (of the
    pattern and the fixed labels) other than the identity, and for each the length of the label
    prefix of its image known once ``k`` positions are assigned; ``minimal``: only minimal
    puzzles. State, kept by the caller between calls: ``S`` (n + 2, SOLVER_WORDS) nodes (node
    ``k`` has positions ``< nfix + k`` placed), ``lab`` (n,), ``rem`` (n + 1,) labels left to try
    per position and ``first`` (n + 1,) those it started with (for progress), ``maxlab`` (n + 1,) largest label before each position, ``act`` (n + 1, A)
    and ``nact`` (n + 1,) automorphisms tied before each position, ``state`` (3,): the position
    being branched, 1 once started, and the puzzles this call wrote. Scratch: ``X`` (SOLVER_DEPTH, SOLVER_WORDS), ``ctl`` (2,),
    ``scratch`` int64 (100,). Found puzzles: their labels in ``out_lab`` (cap, n), the number of
    automorphisms fixing each in ``out_stab``. Stops after about ``budget`` nodes (returns MORE),
    with ``out_lab`` full (FULL) or at the end (DONE); ``state[2]`` then holds the number of
    puzzles written by this call in ``out_lab`` (from row 0)."""
    seen = scratch[0:10]
    puzzle = np.zeros(81, np.uint8)
    sols = np.zeros((0, 81), np.uint8)
    written = 0
    spent = 0
    top = n - 1
    if state[1] == 0:
        state[1] = 1
        node_empty(S, 0)
        mx = -1
        for j in range(nfix):
            if not node_place(S, 0, lab[j], order[j]):
                state[0] = -1
                state[2] = 0
                return DONE
            if lab[j] > mx:
                mx = lab[j]
        S[0, 30] = (1 << 27) - 1
        if not node_propagate(S, 0) or nfix >= n:
            state[0] = -1
            state[2] = 0
            return DONE
        maxlab[nfix] = mx
        na = act.shape[1]
        for a in range(na):
            act[nfix, a] = a
        nact[nfix] = na
        c = order[nfix]
        if minimal and not node_open(S, 0, c):
            rem[nfix] = 0
        else:
            rem[nfix] = node_candidates(S, 0, c) & ((1 << (mx + 2)) - 1)
        first[nfix] = rem[nfix]
        state[0] = nfix
    p = state[0]
    while p >= nfix:
        if rem[p] == 0:
            p -= 1
            continue
        if spent >= budget:
            state[0] = p
            state[2] = written
            return MORE
        if written >= out_lab.shape[0]:
            state[0] = p
            state[2] = written
            return FULL
        d = trailing_zeros(rem[p])
        rem[p] &= rem[p] - 1
        lab[p] = d
        spent += 1
        stats[STAT_NODES] += 1
        mx = maxlab[p] if maxlab[p] > d else d
        # a unique puzzle uses 8 digits at least: the labels so far and one per cell left
        if mx + 1 + top - p < 8:
            continue
        if not _symmetry_step(p, lab, srcpos, jneed, act, nact, seen):
            stats[STAT_SYMMETRIC] += 1
            continue
        k = p - nfix  # this position's node
        c = order[p]
        if p == top:
            node_copy(S, k, k + 1)
            if not node_place(S, k + 1, d, c):
                stats[STAT_DEAD] += 1
                continue
            stats[STAT_CHECKS] += 1
            if node_count(S, k + 1, X, ctl, 2, sols) != 1:
                continue
            stats[STAT_UNIQUE] += 1
            if minimal:
                stats[STAT_MINIMAL_CHECKS] += 1
                if not _leaf_minimal(order, n, lab, puzzle, S[k + 1:k + 2], X, ctl, sols):
                    continue
            for j in range(n):
                out_lab[written, j] = lab[j]
            out_stab[written] = 1 + nact[p + 1]
            written += 1
            continue
        node_copy(S, k, k + 1)
        if not node_place(S, k + 1, d, c) or not node_propagate(S, k + 1):
            stats[STAT_DEAD] += 1
            continue
        p += 1
        maxlab[p] = mx
        c = order[p]
        if minimal and not node_open(S, k + 1, c):
            rem[p] = 0  # the clue there would follow from the others
        else:
            rem[p] = node_candidates(S, k + 1, c) & ((1 << (mx + 2)) - 1)
        first[p] = rem[p]
    state[0] = p
    state[2] = written
    return DONE


@kernel
def replay_into(order, nfix, upto, srcpos, jneed, S, lab, maxlab, act, nact, scratch):
    """Rebuild the nodes, label maxima and tied automorphisms of positions ``nfix..upto`` from
    the labels ``lab`` (a saved cursor); False if the labels are not a path of the search."""
    seen = scratch[0:10]
    node_empty(S, 0)
    mx = -1
    for j in range(nfix):
        if not node_place(S, 0, lab[j], order[j]):
            return False
        if lab[j] > mx:
            mx = lab[j]
    S[0, 30] = (1 << 27) - 1
    if not node_propagate(S, 0):
        return False
    maxlab[nfix] = mx
    na = act.shape[1]
    for a in range(na):
        act[nfix, a] = a
    nact[nfix] = na
    for p in range(nfix, upto):
        d = lab[p]
        if d > maxlab[p] + 1:
            return False
        if not _symmetry_step(p, lab, srcpos, jneed, act, nact, seen):
            return False
        k = p - nfix
        node_copy(S, k, k + 1)
        if not node_place(S, k + 1, d, order[p]) or not node_propagate(S, k + 1):
            return False
        maxlab[p + 1] = maxlab[p] if maxlab[p] > d else d
    return True
