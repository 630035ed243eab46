"""Kernels of the 17-clue search entry: bands 2 under a band 1, bands 3 under a pair.

Words: X is band 1 (a minlex band, index ``X``, rank K in the search order of ``order.py``);
a *representation* of a grid is a grid of its class with rows 1-3 = X exactly and the rows of
bands 2 and 3 each sorted by their first cell. Every transformation that keeps rows 1-3 = X
acts on the lower bands through a column map c and a digit map d only (the rows are re-sorted),
so an element is held as a pair of rows ``cols[k, 0:9]``, ``dig[k, 0:10]``.

Middle loop (``bands2``): every band 2 under X (rows sorted by first cell, digits in increasing
order: the bands 2 come out in lexicographic order), kept iff rank(band 2) >= K and no
representation of the pair (X, band 2) has a smaller band 2: no automorphism a of X maps it to a
smaller sorted band (those mapping it to itself form the pair's stabilizer), and, when band 2
has index X, no map v = a o u (u takes band 2 onto X) turns X into a smaller band 2 (the
exchange of bands 1 and 2; the v giving band 2 back join the stabilizer). Rows 1-2 of band 2 fix
its key up to row 3's box orders (``row2_id``): where no key of that block reaches rank K
(``rid_max``), row 3 is not filled (3x faster at the high ranks, where few keys reach K).

Inner loop (``bands3``): every band 3 completing the pair (column j holds the 3 digits bands 1-2
left it; column 1 sorted; stack fills judged first, as in ``grids._kernels``) and the variant's
rule. The entry's representative of a grid is its representation with the smallest rows 4-9
among those obeying the rule, so each class comes out once:

* A: every chute (bands and stacks) has rank >= K and rank(band 2) <= rank(band 3); among the
  representations obeying that, the representative has the smallest rank pair (band 2, band 3)
  first, then the smallest rows 4-9. The rank pair decides only between the two orientations
  (a stack of index X makes the transpose a representation too; within one orientation every
  representation has the same ranks): it is the native generator's choice (GPenet Sk_S17VB's
  "diagonal" check), so that the bands 2 and 3 the search meets are of low rank, and with it the
  entry of band-1 rank 0 is the native's grid for grid (``bench/s17_native_diff.py``). When no other chute has index X and index(band 2) != index(band 3),
  every other representation with the same band 2 comes from the stabilizer, so band 3 is kept
  iff it is <= its images under the stabilizer. Otherwise (a tie: rare) ``_is_representative``
  walks every representation: each chute of index X, each map onto X, both orders of the two
  parallel chutes.
* C: band 3 free (any rank); kept iff <= its images under the stabilizer of the pair. When
  that stabilizer is trivial (most pairs) every band 3 is kept, and a count-only call takes
  their number from the gangster table (``gangsters.py``) instead of enumerating them.
* B: A's rule with rank(band 2) >= rank(band 3) >= K, which keeps A's grids with bands 2 and
  3 exchanged; band 2 of band 1's index is left out (every band would have it: pass A's). Where
  A needs no walk, B's band 3 is kept iff <= its images under the stabilizer; otherwise
  ``_exchanged_is_representative`` puts the exchanged grid in its smallest form under the
  automorphisms of X and asks ``_is_representative``, so B's line is A's representative
  exchanged, not some other representation of the class (pass B must search A's frame).
"""
import numpy as np

from .._bits import LOWBIT, PERM3, POPCOUNT
from .._jit import kernel
from ..core.bandkey import band_key, rank3, row2_id
from ..core.chutes import ALL9, chute_keys, image_band_cmp, stack_verdicts
from .gangsters import gangster_count

VARIANT_A, VARIANT_B, VARIANT_C = 0, 1, 2
STAB_CAP = 512  # elements of a pair's stabilizer (<= 2 x 108 automorphisms of X)
# stats: candidates for band 2, bands 2 kept, bands 3 met (after the stack filter), kept,
# decided by the representation walk, bands 2 counted from their gangster (C, count only),
# rows 1-2 of band 2 whose row 3 was not filled (no band with those rows reaches band 1's rank)
STAT_B2_MET, STAT_B2_KEPT, STAT_B3_MET, STAT_B3_KEPT, STAT_WALK, STAT_GANGSTER, STAT_B2_PRUNED = 0, 1, 2, 3, 4, 5, 6
N_STATS = 7


@kernel(inline="always")
def stabilizer(b2, key, band1, index1, cols, dig, ge_bits, table, maps_rows, maps_cols, st_cols, st_dig, du, info):
    """Whether band 2 ``b2`` (its band ``key``) under band 1 (``band1``, index ``index1``, its
    automorphisms ``cols``/``dig``, its rank bits ``ge_bits``: ``S``'s) is kept by the middle
    loop; if it is, its non-trivial stabilizer goes to ``st_cols``/``st_dig`` and the count is
    returned, else -1. ``info[0]`` gets index(band 2). The arrays come loaded by the caller,
    once: read from the namedtuples here, inside the callers' loops, each was a reference
    counted per band 2 (``NRT_incref``/``NRT_decref``, found by gdb in a profile where building
    bands 2 was most of the time)."""
    # rank first, from band 1's bit table (in cache); the 10 MB table only for the survivors
    if not (ge_bits[key >> 3] >> (key & 7)) & 1:
        return -1
    entry = np.int64(table[key])
    idx2 = entry & 0xFFFF
    info[0] = idx2
    n = 0
    for k in range(1, cols.shape[0]):  # automorphism 0 is the identity
        cmp = image_band_cmp(b2, cols, dig, k, cols[k, 0], b2, 0)
        if cmp < 0:
            return -1
        if cmp == 0:
            for j in range(9):
                st_cols[n, j] = cols[k, j]
            for x in range(10):
                st_dig[n, x] = dig[k, x]
            n += 1
    if idx2 == index1:
        # u: the table's map of band 2 onto X (out[i][j] = du[b2[ru[i]][cu[j]]]), then each a
        m = entry >> 16
        r0 = maps_rows[m, 0]
        for j in range(9):
            du[b2[r0 * 9 + maps_cols[m, j]]] = j + 1
        for k in range(cols.shape[0]):
            for j in range(9):
                st_cols[n, j] = maps_cols[m, cols[k, j]]
            st_dig[n, 0] = 0
            for x in range(1, 10):
                st_dig[n, x] = dig[k, du[x]]
            cmp = image_band_cmp(band1, st_cols, st_dig, n, st_cols[n, 0], b2, 0)
            if cmp < 0:
                return -1
            if cmp == 0:
                n += 1
    return n


@kernel
def bands2(S, T, W, out):
    """Every band 2 the middle loop keeps under band 1 ``S``, in lexicographic order, into
    ``out`` (cap, 27); returns how many, or -1 if ``out`` is too small."""
    band1 = S.band
    b2 = W.b2
    colm = np.zeros(9, np.int64)
    rowm = np.zeros(3, np.int64)
    boxm = np.zeros(3, np.int64)
    rem = np.zeros(27, np.int64)
    placed = np.zeros(27, np.int64)
    stats = W.stats
    relabel = np.zeros(10, np.int64)
    rid = 0
    rid_max = T.stack_a.rid_max  # per row-2 id the highest rank its 216 keys reach
    rank = S.rank
    index1, acols, adig, ge_bits = S.index, S.aut_cols, S.aut_dig, S.ge_bits  # stabilizer's, loaded once
    table, maps_rows, maps_cols = T.table, T.maps_rows, T.maps_cols
    row2_rank_to_id = T.row2_rank_to_id  # read once: a namedtuple read in the loop costs a reference count
    st_cols, st_dig, du, info = W.st_cols, W.st_dig, W.du, W.info
    for j in range(9):
        colm[j] = (np.int64(1) << band1[j]) | (np.int64(1) << band1[9 + j]) | (np.int64(1) << band1[18 + j])
    n = 0
    cell = 0
    rem[0] = ALL9 & ~colm[0]
    while True:
        if rem[cell] == 0:
            cell -= 1
            if cell < 0:
                break
            bit = np.int64(1) << placed[cell]
            rowm[cell // 9] &= ~bit
            colm[cell % 9] &= ~bit
            boxm[(cell % 9) // 3] &= ~bit
            continue
        d = LOWBIT[rem[cell]]
        rem[cell] &= rem[cell] - 1
        if (cell == 9 or cell == 18) and d < placed[cell - 9]:
            continue  # rows sorted by first cell
        placed[cell] = d
        b2[cell] = d
        if cell == 8:
            for j in range(9):
                relabel[b2[j]] = j + 1
        elif cell == 17:
            rid = row2_id(b2, relabel, row2_rank_to_id)
            if rid_max[rid] < rank:
                stats[STAT_B2_PRUNED] += 1
                continue  # no band with these rows 1-2 reaches band 1's rank: row 3 not filled
        if cell < 26:
            bit = np.int64(1) << d
            rowm[cell // 9] |= bit
            colm[cell % 9] |= bit
            boxm[(cell % 9) // 3] |= bit
            cell += 1
            rem[cell] = ALL9 & ~(rowm[cell // 9] | colm[cell % 9] | boxm[(cell % 9) // 3])
            continue
        stats[STAT_B2_MET] += 1
        # the key from the row-2 id and row 3's box orders (band_key's, rows 1-2 known valid)
        key = rid * 216
        for box in range(3):
            key += rank3(relabel[b2[18 + 3 * box]], relabel[b2[19 + 3 * box]],
                         relabel[b2[20 + 3 * box]]) * (36 if box == 0 else (6 if box == 1 else 1))
        if stabilizer(b2, key, band1, index1, acols, adig, ge_bits, table, maps_rows, maps_cols, st_cols, st_dig, du,
                      info) < 0:
            continue
        stats[STAT_B2_KEPT] += 1
        if n >= out.shape[0]:
            return -1
        for q in range(27):
            out[n, q] = b2[q]
        n += 1
    return n


@kernel
def _is_representative(grid, S, T, W):
    """Variant A's full test: no representation of ``grid`` obeying rank(band 2) <= rank(band 3)
    has a smaller (rank(band 2), rank(band 3)), or the same ranks and smaller rows 4-9. Walks
    each chute of index X (bands, then stacks as bands of the transpose), each map onto X (the
    table's map, then each automorphism of X), both orders of the two parallel chutes."""
    keys = W.keys
    scratch = W.scratch
    chute_keys(grid, scratch, T.row2_rank_to_id, T.fact, keys)
    idx = W.chidx
    for c in range(6):
        idx[c] = T.table[keys[c]] & 0xFFFF
    ch = W.chutes  # (6, 27): the chutes as bands
    for c in range(6):
        for i in range(3):
            for j in range(9):
                if c < 3:
                    ch[c, i * 9 + j] = grid[(3 * c + i) * 9 + j]
                else:
                    ch[c, i * 9 + j] = grid[j * 9 + 3 * (c - 3) + i]
    cols = S.aut_cols
    dig = S.aut_dig
    vc = W.vc
    vd = W.vd
    du = W.du
    r2 = T.rank[idx[1]]
    r3 = T.rank[idx[2]]
    for c in range(6):
        if idx[c] != S.index:
            continue
        m = T.table[keys[c]] >> 16
        r0 = T.maps_rows[m, 0]
        for j in range(9):
            du[ch[c, r0 * 9 + T.maps_cols[m, j]]] = j + 1
        base = 3 if c >= 3 else 0
        for k in range(cols.shape[0]):
            for j in range(9):
                vc[0, j] = T.maps_cols[m, cols[k, j]]
            vd[0, 0] = 0
            for x in range(1, 10):
                vd[0, x] = dig[k, du[x]]
            for t in range(2):
                # the two other chutes of this orientation, in both orders
                p = base + (c - base + 1 + t) % 3
                q = base + (c - base + 2 - t) % 3
                rp = T.rank[idx[p]]
                rq = T.rank[idx[q]]
                if rp > rq:
                    continue
                # the smaller rank pair (band 2, band 3) wins before any digit is compared
                if rp != r2 or rq != r3:
                    if rp < r2 or (rp == r2 and rq < r3):
                        return False
                    continue
                cmp = image_band_cmp(ch[p], vc, vd, 0, vc[0, 0], grid, 27)
                if cmp == 0:
                    cmp = image_band_cmp(ch[q], vc, vd, 0, vc[0, 0], grid, 54)
                if cmp < 0:
                    return False
    return True


@kernel
def _image_band(src, cols, dig, k, out, o):
    """Write the band a(src) (automorphism k of X; its rows sorted by first cell) to
    ``out[o:o + 27]``."""
    c0 = cols[k, 0]
    for i in range(3):
        # row r's place: how many rows have a smaller image first cell
        r = 0
        for t in range(3):
            if dig[k, src[t * 9 + c0]] < dig[k, src[i * 9 + c0]]:
                r += 1
        for j in range(9):
            out[o + r * 9 + j] = dig[k, src[i * 9 + cols[k, j]]]


@kernel
def _exchanged_is_representative(b2, b3, S, T, W):
    """Variant B's tie test: whether the grid (X, b3, b2), bands 2 and 3 exchanged, is variant
    A's representative up to an automorphism of X (its smallest image under them is). B's line
    for a class is then A's representative exchanged, in a form whose band 2 is the middle
    loop's, so pass B searches the very frame in which A searched the class's other clue counts."""
    rep = W.rep
    cols = S.aut_cols
    dig = S.aut_dig
    for q in range(27):
        rep[q] = S.band[q]
        rep[27 + q] = b3[q]
        rep[54 + q] = b2[q]
    for k in range(1, cols.shape[0]):
        cmp = image_band_cmp(b3, cols, dig, k, cols[k, 0], rep, 27)
        if cmp == 0:
            cmp = image_band_cmp(b2, cols, dig, k, cols[k, 0], rep, 54)
        if cmp < 0:
            _image_band(b3, cols, dig, k, rep, 27)
            _image_band(b2, cols, dig, k, rep, 54)
    return _is_representative(rep, S, T, W)


@kernel
def bands3(S, T, W, variant, b2s, start, stop, emit, counts, out_b2, out_b3):
    """Bands 3 of the bands 2 ``b2s[start:stop]``: ``counts[i - start]`` per band 2; with
    ``emit`` each kept band 3 goes to ``out_b3`` (cap, 27) with its band 2's position in
    ``out_b2``. Returns the number emitted (or kept), or -1 if ``out_b3`` is too small.

    Long on purpose: its steps as inlined helpers (band 3's columns, the stacks' fills, stack 3's
    code, band 3 written out) made the inner loop 1.5x slower, a reference count per array and
    call for every band 3 met (``bench/bench_s17.py``)."""
    grid = W.grid
    b2 = W.b2
    b3 = W.b3
    col3d = W.col3d
    colset3 = W.colset3
    verdict = W.verdict
    s1code = W.s1code
    s1mask = W.s1mask
    grp_n = W.grp_n
    grp_o5 = W.grp_o5
    colbit = W.colbit
    relabel = W.relabel
    stats = W.stats
    st_cols = W.st_cols
    st_dig = W.st_dig
    rank = T.rank
    table = T.table
    row2_rank_to_id = T.row2_rank_to_id
    fact = T.fact
    X = S.index
    K = S.rank
    band1, acols, adig, ge_bits = S.band, S.aut_cols, S.aut_dig, S.ge_bits  # stabilizer's, loaded once
    maps_rows, maps_cols, du, info = T.maps_rows, T.maps_cols, W.du, W.info
    # stacks compare by rank in the search order (variants A and B) or are never below band 1 (C)
    if variant != VARIANT_C:
        TS = T.stack_a
        V = S.verdict_a
    else:
        TS = T.stack_c
        V = S.verdict_c
    for q in range(27):
        grid[q] = S.band[q]
    n_out = 0
    for i in range(start, stop):
        for q in range(27):
            b2[q] = b2s[i, q]
            grid[27 + q] = b2s[i, q]
        n_st = stabilizer(b2, band_key(b2, relabel, row2_rank_to_id, fact), band1, X, acols, adig, ge_bits, table,
                          maps_rows, maps_cols, st_cols, st_dig, du, info)
        idx2 = info[0]
        rank2 = rank[idx2]
        count = 0
        if variant == VARIANT_B and idx2 == X:
            # every band of index X (band 3 <= band 2 in rank): pass A searches these grids'
            # 6-6-5 itself, B's frame (X, band 3 of A, band 2 of A) may not be a pair of the list
            counts[i - start] = 0
            continue
        # column j of band 3 holds what bands 1-2 left it, in some order (column 1 sorted)
        for j in range(9):
            m = ALL9
            for r in range(6):
                m &= ~(np.int64(1) << grid[r * 9 + j])
            colset3[j] = m
            for r in range(3):
                col3d[j, r] = LOWBIT[m]
                m &= m - 1
        if variant == VARIANT_C and not emit and n_st == 0:
            # every band 3 is kept: their number is the gangster's (gangsters.py)
            count = gangster_count(colset3, T.gang)
            if count >= 0:
                stats[STAT_B3_MET] += count
                stats[STAT_B3_KEPT] += count
                stats[STAT_GANGSTER] += 1
                counts[i - start] = count
                n_out += count
                continue
        stack_verdicts(TS, V, 0, grid, col3d, relabel, verdict, 1, 63, 63)
        n1 = 0
        for code in range(36):
            if verdict[0, code] < 0:
                continue
            s1code[n1] = code
            for r in range(3):
                s1mask[n1, r] = (np.int64(1) << col3d[0, r]) | (np.int64(1) << col3d[1, PERM3[code // 6, r]]) | \
                                (np.int64(1) << col3d[2, PERM3[code % 6, r]])
            n1 += 1
        stack_verdicts(TS, V, 1, grid, col3d, relabel, verdict, 63, 63, 63)
        for g in range(36):
            grp_n[g] = 0
        for code in range(216):
            if verdict[1, code] >= 0:
                g = code // 6
                grp_o5[g, grp_n[g]] = code % 6
                grp_n[g] += 1
        for c in range(3):
            for o in range(6):
                for r in range(3):
                    colbit[c, o, r] = np.int64(1) << col3d[3 + c, PERM3[o, r]]
        stack_verdicts(TS, V, 2, grid, col3d, relabel, verdict, 63, 63, 63)
        for a in range(n1):
            c1 = s1code[a]
            for o3 in range(6):
                if (s1mask[a, 0] & colbit[0, o3, 0]) | (s1mask[a, 1] & colbit[0, o3, 1]) | \
                        (s1mask[a, 2] & colbit[0, o3, 2]):
                    continue
                for o4 in range(6):
                    g = o3 * 6 + o4
                    if grp_n[g] == 0:
                        continue
                    if (s1mask[a, 0] & colbit[1, o4, 0]) | (s1mask[a, 1] & colbit[1, o4, 1]) | \
                            (s1mask[a, 2] & colbit[1, o4, 2]) | (colbit[0, o3, 0] & colbit[1, o4, 0]) | \
                            (colbit[0, o3, 1] & colbit[1, o4, 1]) | (colbit[0, o3, 2] & colbit[1, o4, 2]):
                        continue
                    for t5 in range(grp_n[g]):
                        o5 = grp_o5[g, t5]
                        q0 = s1mask[a, 0] | colbit[0, o3, 0] | colbit[1, o4, 0] | colbit[2, o5, 0]
                        q1 = s1mask[a, 1] | colbit[0, o3, 1] | colbit[1, o4, 1] | colbit[2, o5, 1]
                        q2 = s1mask[a, 2] | colbit[0, o3, 2] | colbit[1, o4, 2] | colbit[2, o5, 2]
                        if POPCOUNT[q0] != 6 or POPCOUNT[q1] != 6 or POPCOUNT[q2] != 6:
                            continue
                        # stack 3 is forced: row r takes the digits rows r of stacks 1-2 lack
                        code3 = 0
                        ok = True
                        for c in range(6, 9):
                            cs = colset3[c]
                            x0 = cs & ~q0
                            x1 = cs & ~q1
                            x2 = cs & ~q2
                            if x0 == 0 or x1 == 0 or x2 == 0 or (x0 & (x0 - 1)) or (x1 & (x1 - 1)) or (x2 & (x2 - 1)):
                                ok = False
                                break
                            code3 = code3 * 6 + rank3(POPCOUNT[cs & (x0 - 1)], POPCOUNT[cs & (x1 - 1)], POPCOUNT[cs & (x2 - 1)])
                        if not ok:
                            continue
                        v3 = verdict[2, code3]
                        if v3 < 0:
                            continue
                        c2 = g * 6 + o5
                        for r in range(3):
                            b3[r * 9 + 0] = col3d[0, r]
                            b3[r * 9 + 1] = col3d[1, PERM3[c1 // 6, r]]
                            b3[r * 9 + 2] = col3d[2, PERM3[c1 % 6, r]]
                            b3[r * 9 + 3] = col3d[3, PERM3[o3, r]]
                            b3[r * 9 + 4] = col3d[4, PERM3[o4, r]]
                            b3[r * 9 + 5] = col3d[5, PERM3[o5, r]]
                            b3[r * 9 + 6] = col3d[6, PERM3[code3 // 36, r]]
                            b3[r * 9 + 7] = col3d[7, PERM3[(code3 // 6) % 6, r]]
                            b3[r * 9 + 8] = col3d[8, PERM3[code3 % 6, r]]
                        stats[STAT_B3_MET] += 1
                        keep = True
                        if variant != VARIANT_C:
                            key = band_key(b3, relabel, row2_rank_to_id, fact)
                            idx3 = table[key] & 0xFFFF
                            r3 = rank[idx3]
                            if (variant == VARIANT_A and r3 < rank2) or (variant == VARIANT_B and (r3 > rank2 or r3 < K)):
                                continue  # A: band 2 of the lower rank; B: of the higher, band 3 still >= K
                            tie = verdict[0, c1] == 0 or verdict[1, c2] == 0 or v3 == 0 or idx3 == X \
                                or idx2 == X or idx3 == idx2
                            if not tie:
                                n_check = n_st
                            elif variant == VARIANT_A:
                                stats[STAT_WALK] += 1
                                for q in range(27):
                                    grid[54 + q] = b3[q]
                                keep = _is_representative(grid, S, T, W)
                                n_check = 0
                            else:
                                # B: the exchanged grid must be A's representative, and band 3
                                # the smallest under the stabilizer of the pair (band 2 is not
                                # of index X here: automorphisms of X only)
                                stats[STAT_WALK] += 1
                                keep = _exchanged_is_representative(b2, b3, S, T, W)
                                n_check = n_st
                        else:
                            n_check = n_st
                        for k in range(n_check):
                            if image_band_cmp(b3, st_cols, st_dig, k, st_cols[k, 0], b3, 0) < 0:
                                keep = False
                                break
                        if not keep:
                            continue
                        stats[STAT_B3_KEPT] += 1
                        if emit:
                            if n_out >= out_b3.shape[0]:
                                return -1
                            for q in range(27):
                                out_b3[n_out, q] = b3[q]
                            out_b2[n_out] = i
                        n_out += 1
                        count += 1
        counts[i - start] = count
    return n_out
