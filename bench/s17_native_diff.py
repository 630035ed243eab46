"""Variant A's entry of one band 1 against the native generator's, grid for grid and class by class.

    python bench/s17_native_diff.py NATIVE_FILE [--rank 0] [--copies 5]

NATIVE_FILE is the entry file that GPenet's Sk_S17VB writes with its enumeration command for the
same band-1 rank (phase p2a), one grid per line, 81 digits first:

    sk17 -c80 -v0-K -v1-K -v2-1 -v4-0 -onative      # writes native_file1.txt (rank 0: 1.7 GB)

(built outside the project from github.com/GPenet/Sk_S17VB, e.g. ``g++ -std=gnu++14 -O3
-march=native -o sk17 main.cpp sk_s17.cpp sk_t.cpp sk_bitfields.cpp go_17sol_tables.cpp Zhn.cpp
Zh1b2b.cpp``; ``-v2-1`` appends each grid's band ranks and native slice). Prints:

* grids: the native's lines, its distinct essentially different grids (minlex forms) and the
  copies (lines whose class an earlier line already had); the project's grids (each class once);
* bands 2: the native's count keeps only the bands 2 that get at least one band 3 (the distinct
  rows 4-6 of its lines); the project's count is every band 2 the middle loop keeps, with or
  without bands 3 (``entry_counts``), and how many of those have bands 3;
* whether the native's distinct classes are exactly the project's, and how many classes the two
  sides represent by different grids (for a copied class: by none of its native copies);
* with ``--copies N``: N copied classes with the band ranks and rows 4-9 of each copy (what
  ``docs/s17-search.md`` reads to name the rule that lets copies through).

For example, rank 0: 16,962,075 grids on both sides, no copy; rank 300: 147,687 native lines =
146,040 classes + 1,647 copies, the classes exactly the project's 146,040.
"""
import argparse
import sys

import numpy as np

from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.search17 import band1, bands2, entry_slice

CHUNK = 1 << 20


def native_grids(path: str) -> tuple[np.ndarray, list[bytes]]:
    rows, tails = [], []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            if len(line) < 81 or not line[:81].isdigit():
                sys.exit(f"{path}: line {n} does not start with 81 digits")
            rows.append(line[:81])
            tails.append(line[81:].strip())
    return np.frombuffer(b"".join(rows), np.uint8).reshape(-1, 81) - 48, tails


def our_grids(rank: int) -> tuple[np.ndarray, int]:
    s = entry_slice("A", rank, emit=True)
    b2s = bands2(rank)
    x = band1(rank).band.astype(np.uint8)
    grids = np.concatenate([np.tile(x, (len(s.bands3), 1)), b2s[s.owner], s.bands3], axis=1)
    return grids, len(b2s)


def forms(grids: np.ndarray) -> np.ndarray:
    out = [canon_grids(grids[i:i + CHUNK]).forms for i in range(0, len(grids), CHUNK)]
    out = np.concatenate(out) if out else np.zeros((0, 81), np.uint8)
    return np.ascontiguousarray(out).view(np.dtype((np.void, 81))).ravel()


def distinct_rows(a: np.ndarray) -> int:
    return len(np.unique(np.ascontiguousarray(a).view(np.dtype((np.void, a.shape[1]))))) if len(a) else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("native_file")
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--copies", type=int, default=0, help="print this many copied classes")
    args = ap.parse_args()
    gn, tails = native_grids(args.native_file)
    go, kept2 = our_grids(args.rank)
    fn, fo = forms(gn), forms(go)
    classes, first, inverse = np.unique(fn, return_index=True, return_inverse=True)
    copies = len(fn) - len(classes)
    print(f"grids: native {len(gn):,} lines = {len(classes):,} classes + {copies:,} copies; "
          f"project {len(go):,} ({len(np.unique(fo)):,} classes)")
    print(f"bands 2: native (with bands 3) {distinct_rows(gn[:, 27:54]):,}; project kept {kept2:,}, "
          f"with bands 3 {distinct_rows(go[:, 27:54]):,}")
    same = len(classes) == len(fo) and bool((np.sort(fo) == classes).all())
    print(f"same essentially different grids: {same}")
    if same:
        # per class: is the project's grid one of the native's lines of that class?
        native_set = set(map(bytes, gn))
        differ = sum(1 for g in go if bytes(g) not in native_set)
        print(f"classes represented by different grids: {differ:,}")
    if args.copies and copies:
        counts = np.bincount(inverse)
        shown = 0
        for c in np.flatnonzero(counts > 1):
            lines = np.flatnonzero(inverse == c)
            print(f"class {c}:")
            for i in lines:
                print("  ", "".join(map(str, gn[i, 27:54])), "".join(map(str, gn[i, 54:])), tails[i].decode())
            ours = np.flatnonzero(fo == classes[c])
            for i in ours:
                print("   project:", "".join(map(str, go[i, 27:54])), "".join(map(str, go[i, 54:])))
            shown += 1
            if shown >= args.copies:
                break


if __name__ == "__main__":
    main()
