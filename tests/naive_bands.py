"""Slow, obviously correct band reference: try all 7,776 row and column orders."""
from itertools import permutations, product


def _relabel_by_first_row(cells):
    # row 1 of a band holds all nine digits, so this is the restricted growth relabeling
    mapping = {v: str(j + 1) for j, v in enumerate(cells[:9])}
    return "".join(mapping[v] for v in cells)


def band_images(band: str):
    """Every (row order, column order, relabelled image) of a 27-character band."""
    rows = [band[9 * i : 9 * i + 9] for i in range(3)]
    for rp in permutations(range(3)):
        for sp in permutations(range(3)):
            for inner in product(list(permutations(range(3))), repeat=3):
                cols = [3 * sp[s] + inner[s][k] for s in range(3) for k in range(3)]
                img = "".join(rows[r][c] for r in rp for c in cols)
                yield rp, cols, _relabel_by_first_row(img)


def minlex_band(band: str) -> str:
    return min(img for _, _, img in band_images(band))


def automorphism_count(band: str) -> int:
    m = minlex_band(band)
    return sum(1 for _, _, img in band_images(m) if img == m)
