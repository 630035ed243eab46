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


def stack_preserving_column_orders():
    """The 1,296 column orders that keep the stacks: order the stacks, then the columns in each.
    ``order[j]`` is the input column shown at output column ``j``."""
    for sp in permutations(range(3)):
        for inner in product(list(permutations(range(3))), repeat=3):
            yield tuple(3 * sp[s] + inner[s][k] for s in range(3) for k in range(3))


def gangster(band: str) -> list[frozenset]:
    """The gangster of a band: the set of digits in each of its 9 columns."""
    return [frozenset(band[c] + band[9 + c] + band[18 + c]) for c in range(9)]


def gangster_form(band: str) -> tuple:
    """Canonical form of a band's gangster under stack-preserving column orders and digit
    relabeling, by brute force over the 1,296 column orders.

    With the column order fixed, a relabeling only renames the digits, so what is left once
    the names are forgotten is, for each digit, the set of columns holding it: two gangsters
    with the same column order are relabelings of each other exactly when these 9 sets agree
    as a multiset. The form is the smallest sorted list of them over all column orders."""
    sets = gangster(band)
    # the 3 input columns holding each digit (one per stack: a box holds every digit once)
    holds = [tuple(c for c in range(9) if d in sets[c]) for d in sorted(set().union(*sets))]
    best = None
    for pos in _INVERSE_ORDERS:  # pos[c]: the output column of input column c
        where = tuple(sorted(tuple(sorted((pos[a], pos[b], pos[c]))) for a, b, c in holds))
        if best is None or where < best:
            best = where
    return best


_INVERSE_ORDERS = [tuple(order.index(c) for c in range(9)) for order in stack_preserving_column_orders()]


def gangster_witness(band_a: str, band_b: str):
    """A (column order, digit map) taking band_a's gangster onto band_b's, or None: a direct
    check of equivalence that needs no canonical form."""
    sa, sb = gangster(band_a), gangster(band_b)
    for order in stack_preserving_column_orders():
        mapping: dict = {}
        ok = True
        for j in range(9):
            # output column j of the moved band_a is column order[j]; it must map onto sb[j]
            src, dst = sa[order[j]], sb[j]
            for d in src:
                if d in mapping:
                    continue
                # d must go to a digit of dst; digits in the same columns are interchangeable,
                # so send d to a free digit of dst whose column incidence matches d's
                col_d = frozenset(k for k in range(9) if d in sa[order[k]])
                choices = [e for e in dst if e not in mapping.values()
                           and frozenset(k for k in range(9) if e in sb[k]) == col_d]
                if not choices:
                    ok = False
                    break
                mapping[d] = choices[0]
            if not ok:
                break
        if ok and all(frozenset(mapping[d] for d in sa[order[j]]) == sb[j] for j in range(9)):
            return order, mapping
    return None
