"""Kernels for the minlex form of solution grids: band first, then the band's automorphisms.

Band 1 of the minlex grid is the minlex band of the grid's smallest-index chute (lexicographic
order of minlex bands is index order). So: look up the index of all 6 chutes (3 bands, 3 stacks
read as bands of the transpose); for every chute of minimal index and every position map that
takes it onto that minlex band (the table's map followed by each band automorphism), the
columns and the digit relabeling of the whole grid are fixed. The 6 other rows then have
distinct first cells (column 1 of a grid), so the best completion is forced: sort each band's
rows by their first cell and put first the band whose smallest first cell is smaller. Compare the
54 cells with the best so far (early exit); ties are exactly the grid's automorphisms.
"""
import numpy as np

from .._jit import kernel
from ..core.bandkey import gather
from ..core.chutes import chute_keys, lower_rows, oriented_copy
from ..core.layout import SIZE, copy_transform, write_transform

MAX_CANDIDATES = 6 * 108  # chutes x automorphisms of the minlex band


@kernel
def canon_grid_into(grid, keys, entries, aut_offsets, aut_maps, maps_rows, maps_cols, scratch,
                    form, transform, ties, record):
    """Minlex form of one grid into ``form`` (81) and ``transform`` (SIZE), given its chute keys
    and their table entries (band index | map << 16); returns the number of automorphisms, or
    0 when the grid is not a valid complete grid. With ``record`` the transformation of every
    tie goes to ``ties`` (MAX_CANDIDATES, SIZE).

    ``scratch``: int64 work array of 200 (no allocation per grid)."""
    # scratch layout: [0:37] used by chute_keys, [50:131] G (the grid or its transpose),
    # [140:149] row map, [150:159] column map, [160:170] digits, [170:176] order of the 6 lower
    # rows, [180:186] their first cells
    best_index = 1 << 30
    for c in range(6):
        if keys[c] < 0:
            return 0
        if (entries[c] & 0xFFFF) < best_index:
            best_index = entries[c] & 0xFFFF
    n_best = 0
    G = scratch[50:131]
    rmap = scratch[140:149]
    cmap = scratch[150:159]
    dmap = scratch[160:170]
    low = scratch[170:176]
    first = scratch[180:186]
    for c in range(6):
        if (entries[c] & 0xFFFF) != best_index:
            continue
        transposed = c >= 3
        b0 = c % 3
        oriented_copy(grid, transposed, G)
        m0 = entries[c] >> 16
        for a in range(aut_offsets[best_index], aut_offsets[best_index + 1]):
            ma = aut_maps[a]
            # position map: first m0 (onto the minlex band), then the automorphism ma
            for i in range(3):
                rmap[i] = 3 * b0 + maps_rows[m0, maps_rows[ma, i]]
            for j in range(9):
                cmap[j] = maps_cols[m0, maps_cols[ma, j]]
            for j in range(9):
                dmap[G[rmap[0] * 9 + cmap[j]]] = j + 1
            # the 6 lower rows: the two other bands, rows sorted by first cell
            swap = lower_rows(G, dmap, cmap[0], 1 if b0 == 0 else 0, 1 if b0 == 2 else 2, low, first)
            for k in range(6):
                rmap[3 + k] = low[(k + 3) % 6] if swap else low[k]
            # compare rows 4-9 with the best so far (rows 1-3 equal the minlex band for all)
            cmp = 0
            if n_best > 0:
                for i in range(3, 9):
                    row = rmap[i] * 9
                    for j in range(9):
                        v = dmap[G[row + cmap[j]]]
                        if v != form[i * 9 + j]:
                            cmp = -1 if v < form[i * 9 + j] else 1
                            break
                    if cmp != 0:
                        break
            if n_best == 0 or cmp < 0:
                for i in range(9):
                    row = rmap[i] * 9
                    for j in range(9):
                        form[i * 9 + j] = dmap[G[row + cmap[j]]]
                write_transform(transform, transposed, rmap, cmap, dmap)
                n_best = 1
                if record:
                    copy_transform(transform, ties[0])
            elif cmp == 0:
                if record:
                    write_transform(ties[n_best], transposed, rmap, cmap, dmap)
                n_best += 1
    return n_best


@kernel
def canon_grids(grids, row2_rank_to_id, fact, table, aut_offsets, aut_maps, maps_rows, maps_cols,
                forms, transforms, aut_counts):
    """Batch form: one call for the whole (N, 81) batch; aut_counts 0 marks an invalid grid.
    Blocks of grids go through three passes (keys, table gather, completion) so the table's
    cache misses overlap, as in ``band_lookup``."""
    scratch = np.zeros(200, np.int64)
    ties = np.zeros((1, SIZE), np.uint8)
    block = 4096
    keys = np.empty(block * 6, np.int64)
    entries = np.empty(block * 6, np.uint32)
    n = grids.shape[0]
    for start in range(0, n, block):
        stop = min(n, start + block)
        for g in range(start, stop):
            chute_keys(grids[g], scratch, row2_rank_to_id, fact, keys[6 * (g - start) : 6 * (g - start) + 6])
        gather(table, keys[: 6 * (stop - start)], entries[: 6 * (stop - start)])
        for g in range(start, stop):
            o = 6 * (g - start)
            aut_counts[g] = canon_grid_into(grids[g], keys[o : o + 6], entries[o : o + 6], aut_offsets,
                                            aut_maps, maps_rows, maps_cols, scratch, forms[g],
                                            transforms[g], ties, False)
