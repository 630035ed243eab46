"""Variant A's entry of one band 1 against the native generator's, grid for grid.

    python bench/s17_native_diff.py NATIVE_FILE [--rank 0]

NATIVE_FILE is the entry file that GPenet's Sk_S17VB writes with its enumeration command for the
same band-1 rank (phase p2a), one grid per line, 81 digits first:

    sk17 -c80 -v0-0 -v1-0 -v2-1 -v4-0 -onative      # writes native_file1.txt (rank 0: 1.7 GB)

(built outside the project from github.com/GPenet/Sk_S17VB, e.g.
``g++ -O3 -march=native -o sk17 main.cpp sk_s17.cpp sk_t.cpp sk_bitfields.cpp go_17sol_tables.cpp
Zhn.cpp Zh1b2b.cpp``). Prints the two grid counts, the bands 2 that have bands 3 on each side,
whether both sides hold the same essentially different grids (minlex forms), and how many of
those classes the two sides represent by different grids. Measured 2026-11-24 on rank 0: both
16,962,075 grids and 912,650 bands 2, the same classes, 0 represented differently (before the
rank-pair rule of ``engine.search17._kernels``: 8,611, under 21 extra bands 2).
"""
import argparse
import sys

import numpy as np

from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.search17 import band1, bands2, entry_slice

CHUNK = 1 << 20


def native_grids(path: str) -> np.ndarray:
    rows = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            if len(line) < 81 or not line[:81].isdigit():
                sys.exit(f"{path}: line {n} does not start with 81 digits")
            rows.append(line[:81])
    return np.frombuffer(b"".join(rows), np.uint8).reshape(-1, 81) - 48


def our_grids(rank: int) -> np.ndarray:
    s = entry_slice("A", rank, emit=True)
    b2s = bands2(rank)
    x = band1(rank).band.astype(np.uint8)
    return np.concatenate([np.tile(x, (len(s.bands3), 1)), b2s[s.start + s.owner], s.bands3], axis=1)


def forms(grids: np.ndarray) -> np.ndarray:
    out = [canon_grids(grids[i:i + CHUNK]).forms for i in range(0, len(grids), CHUNK)]
    return np.ascontiguousarray(np.concatenate(out)).view(np.dtype((np.void, 81))).ravel()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("native_file")
    ap.add_argument("--rank", type=int, default=0)
    args = ap.parse_args()
    gn = native_grids(args.native_file)
    go = our_grids(args.rank)
    print(f"grids: native {len(gn):,}, project {len(go):,}")
    b2n = len(np.unique(np.ascontiguousarray(gn[:, 27:54]).view(np.dtype((np.void, 27)))))
    b2o = len(np.unique(np.ascontiguousarray(go[:, 27:54]).view(np.dtype((np.void, 27)))))
    print(f"bands 2 with bands 3: native {b2n:,}, project {b2o:,}")
    fn, fo = forms(gn), forms(go)
    on, oo = np.argsort(fn, kind="stable"), np.argsort(fo, kind="stable")
    same = len(fn) == len(fo) and bool((fn[on] == fo[oo]).all())
    print(f"same essentially different grids: {same}")
    if same:
        diff = int((gn[on] != go[oo]).any(axis=1).sum())
        print(f"classes represented by different grids: {diff:,}")


if __name__ == "__main__":
    main()
