"""Kernels for bands: the orbit walk that builds the lookup table, and the lookup itself.

A band is 27 cells (rows 1-3). Its group here is the 7,776 position maps (3! row orders x 3!
stack orders x 3!^3 column orders inside stacks) times digit relabeling. Relabeling so row 1
reads 123456789 leaves one of 2,612,736 *normalized* bands, numbered by a *key*:

    key = row2_id * 216 + code(box 1 of row 3) * 36 + code(box 2) * 6 + code(box 3)

``row2_id`` numbers the 12,096 possible second rows in lexicographic order (via the
permutation rank of row 2); ``code`` is the lexicographic rank (0-5) of the order of the three
digits that row 3 must hold in that box (the key itself: ``core/bandkey.py``, shared with the
families that read chutes). Key order is the lexicographic order of the 27-digit
strings, so the first key met in an orbit is its minlex band.

Position map ``m`` (0..7775): ``out[i][j] = in[MAP_ROWS[m, i]][MAP_COLS[m, j]]``.

The lookup table packs, per key, the band index (low 16 bits) and the map onto the minlex band
(high 16 bits) in one uint32, so a lookup costs one cache miss, not two.
"""
import numpy as np

from .._jit import kernel
from ..core.bandkey import band_key, gather, rank3
from ..core.layout import COLS, DIGITS, ROWS, TRANSPOSE

N_KEYS = 12096 * 216  # 2,612,736 normalized bands
N_MAPS = 7776


@kernel
def build_table(row2_rank_to_id, row2_list, maps_rows, maps_cols, maps_inv, perm3, fact,
                table_index, table_map, minlex, aut_offsets, aut_maps):
    """Walk each of the 416 orbits once; fill the key -> (index, map) table.

    ``table_index`` must come in filled with -1. For each image key the stored map is the
    inverse of the map that produced it, so it maps that band back onto the orbit's minlex
    band. Automorphisms of each minlex band are the maps whose image is the band itself.
    Returns the number of orbits.
    """
    band = np.zeros(27, np.uint8)
    img = np.zeros(27, np.uint8)
    relabel = np.zeros(10, np.uint8)
    n_orbits = 0
    n_aut = 0
    for key in range(N_KEYS):
        if table_index[key] >= 0:
            continue
        # decode key -> normalized band (the orbit's minlex band, since keys ascend)
        r2 = key // 216
        for j in range(9):
            band[j] = j + 1
            band[9 + j] = row2_list[r2, j]
        codes = key % 216
        for b in range(3):
            code = (codes // (36 if b == 0 else (6 if b == 1 else 1))) % 6
            used = 0
            for k in range(3):
                used |= 1 << band[3 * b + k]
                used |= 1 << band[9 + 3 * b + k]
            rest = np.zeros(3, np.uint8)
            n = 0
            for v in range(1, 10):
                if not (used >> v) & 1:
                    rest[n] = v
                    n += 1
            for k in range(3):
                band[18 + 3 * b + k] = rest[perm3[code, k]]
        for k in range(27):
            minlex[n_orbits, k] = band[k]
        aut_offsets[n_orbits] = n_aut
        for m in range(N_MAPS):
            for i in range(3):
                src = maps_rows[m, i] * 9
                for j in range(9):
                    img[i * 9 + j] = band[src + maps_cols[m, j]]
            for j in range(9):
                relabel[img[j]] = j + 1
            # permutation rank of row 2 (relabelled), then row-3 codes
            rank = 0
            for i in range(9):
                v = relabel[img[9 + i]]
                smaller = 0
                for i2 in range(i + 1, 9):
                    if relabel[img[9 + i2]] < v:
                        smaller += 1
                rank += smaller * fact[8 - i]
            k2 = row2_rank_to_id[rank] * 216
            k2 += rank3(relabel[img[18]], relabel[img[19]], relabel[img[20]]) * 36
            k2 += rank3(relabel[img[21]], relabel[img[22]], relabel[img[23]]) * 6
            k2 += rank3(relabel[img[24]], relabel[img[25]], relabel[img[26]])
            if k2 == key:
                aut_maps[n_aut] = m
                n_aut += 1
            if table_index[k2] < 0:
                table_index[k2] = n_orbits
                table_map[k2] = maps_inv[m]
        n_orbits += 1
    aut_offsets[n_orbits] = n_aut
    return n_orbits


@kernel
def band_keys(bands, row2_rank_to_id, fact, keys):
    """``band_key`` of each band."""
    relabel = np.zeros(10, np.uint8)
    for n in range(bands.shape[0]):
        keys[n] = band_key(bands[n], relabel, row2_rank_to_id, fact)


@kernel
def write_band_transform(band, m, maps_rows, maps_cols, t):
    """Array form of: position map ``m``, then the relabeling that makes row 1 read 123456789."""
    t[TRANSPOSE] = 0
    for i in range(3):
        t[ROWS + i] = maps_rows[m, i]
    for i in range(3, 9):
        t[ROWS + i] = i
    for j in range(9):
        t[COLS + j] = maps_cols[m, j]
    r0 = maps_rows[m, 0]
    t[DIGITS] = 0
    for j in range(9):
        t[DIGITS + band[r0 * 9 + maps_cols[m, j]]] = j + 1


@kernel
def band_entries(bands, row2_rank_to_id, fact, table, keys, entries):
    """Key and table entry (index | map << 16) of each band, in two passes (see ``gather``)."""
    band_keys(bands, row2_rank_to_id, fact, keys)
    gather(table, keys, entries)


@kernel
def band_lookup(bands, row2_rank_to_id, fact, table, maps_rows, maps_cols, out_index, out_transform):
    """Index (0-415) and a transformation onto the minlex band, for each band; index -1/-2/-3
    when row 1/2/3 is invalid. Transformations are in the group's array form."""
    n = bands.shape[0]
    keys = np.empty(n, np.int64)
    entries = np.empty(n, np.uint32)
    band_entries(bands, row2_rank_to_id, fact, table, keys, entries)
    for k in range(n):
        key = keys[k]
        if key < 0:
            out_index[k] = key
            continue
        entry = entries[k]
        out_index[k] = entry & 0xFFFF
        write_band_transform(bands[k], entry >> 16, maps_rows, maps_cols, out_transform[k])


@kernel
def band_compare(bands, threshold, row2_rank_to_id, fact, table, maps_rows, maps_cols, out_cmp,
                 out_transform):
    """-1 / 0 / +1 as each band's index is below, equal to or above ``threshold`` (2 marks an
    invalid band); the transformation is written only when equal. Cheaper than band_lookup
    because most bands in an enumeration are not equal and need no transformation."""
    n = bands.shape[0]
    keys = np.empty(n, np.int64)
    entries = np.empty(n, np.uint32)
    band_entries(bands, row2_rank_to_id, fact, table, keys, entries)
    for k in range(n):
        if keys[k] < 0:
            out_cmp[k] = 2
            continue
        entry = entries[k]
        idx = entry & 0xFFFF
        if idx < threshold:
            out_cmp[k] = -1
        elif idx > threshold:
            out_cmp[k] = 1
        else:
            out_cmp[k] = 0
            write_band_transform(bands[k], entry >> 16, maps_rows, maps_cols, out_transform[k])
