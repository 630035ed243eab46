"""Clue patterns and configurations: enumeration, Burnside counts, the orbit filter (per core).

    NUMBA_NUM_THREADS=1 python bench/bench_patterns.py [--cells 10] [--digits 6] [--repeats 3]

Prints, for each n, the ED patterns (then configurations) of n cells enumerated in count-only
mode with the CPU seconds it took (median of --repeats runs; one run when a run takes over 30
seconds) and the Burnside count they must equal; the time of all 82 Burnside pattern counts;
the box-first canonical form of the 49,158 17-clue puzzles (randomly transformed), as
patterns and as configurations; and the orbit filter on 10^7 elements (7-bead bracelets
with 10 colours: rotation and reversal of 7-digit strings, checked against the closed formula).
Targets (issue 10): patterns up to 10 cells in under a minute per core (2,499,689 classes at
n = 10); configurations up to 6 clues in minutes; Burnside 0..81 in seconds; the orbit filter
on 10^7 elements in seconds.
"""
import argparse
import statistics
import time
from math import gcd

import numpy as np

from _common import read_lines
from sudoku_symmetry.engine.group import apply_batch
from sudoku_symmetry.engine.group.transform import random_transforms
from sudoku_symmetry.engine.patterns import burnside, canonical_forms, enumeration, orbits


def cpu(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
        if times[-1] > 30:
            break
    return out, statistics.median(times)


def bracelets(beads, colours):
    phi = lambda d: sum(1 for i in range(1, d + 1) if gcd(i, d) == 1)
    neck = sum(phi(d) * colours ** (beads // d) for d in range(1, beads + 1) if beads % d == 0) // beads
    if beads % 2:
        return (neck + colours ** ((beads + 1) // 2)) // 2
    return (neck + (colours + 1) * colours ** (beads // 2) // 2) // 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", type=int, default=10, help="patterns up to this many cells")
    ap.add_argument("--digits", type=int, default=6, help="configurations up to this many clues")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    enumeration.count(3)
    enumeration.count(3, digits=True)  # compile / load the kernels

    print(f"{'job':34s} {'classes':>12s} {'Burnside':>12s} {'CPU s':>9s} {'classes/s':>11s}")
    total = 0.0
    for n in range(args.cells + 1):
        got, s = cpu(lambda: enumeration.count(n), args.repeats)
        total += s
        want = burnside.pattern_count(n)
        print(f"{'patterns, n = %d' % n:34s} {got:>12,d} {want:>12,d} {s:>9.2f} {got / max(s, 1e-9):>11,.0f}"
              + ("" if got == want else "  MISMATCH"))
    print(f"{'patterns, all n <= %d' % args.cells:34s} {'':>12s} {'':>12s} {total:>9.2f}")
    total = 0.0
    for n in range(args.digits + 1):
        got, s = cpu(lambda: enumeration.count(n, digits=True), args.repeats)
        total += s
        print(f"{'configurations, n = %d' % n:34s} {got:>12,d} {'-':>12s} {s:>9.2f} {got / max(s, 1e-9):>11,.0f}")
    print(f"{'configurations, all n <= %d' % args.digits:34s} {'':>12s} {'':>12s} {total:>9.2f}")

    def all_burnside():
        burnside.cell_cycle_types.cache_clear()
        burnside.pattern_counts.cache_clear()
        return burnside.pattern_counts()

    counts, s = cpu(all_burnside, args.repeats)
    print(f"{'Burnside, patterns n = 0..81':34s} {len(counts):>12,d} {'':>12s} {s:>9.3f}")

    lines = read_lines("17clue_49158.txt")
    puzzles = np.array([[0 if ch in ".0" else int(ch) for ch in ln] for ln in lines], np.uint8)
    moved = apply_batch(random_transforms(len(puzzles), np.random.default_rng(1)), puzzles)
    for digits in (False, True):
        batch = moved if digits else (moved > 0).astype(np.uint8)
        canonical_forms(batch[:10], digits=digits)
        res, s = cpu(lambda: canonical_forms(batch, digits=digits), args.repeats)
        name = "canonical form, 17-clue " + ("configurations" if digits else "patterns")
        print(f"{name:34s} {len(batch):>12,d} {'':>12s} {s:>9.2f} {len(batch) / s:>11,.0f} per s")

    beads, colours = 7, 10
    x = np.arange(colours**beads, dtype=np.int64)
    top = colours ** (beads - 1)
    rot = ((x % top) * colours + x // top).astype(np.int32)
    rev = np.zeros_like(x)
    y = x.copy()
    for _ in range(beads):
        rev = rev * colours + y % colours
        y //= colours
    rev = rev.astype(np.int32)
    gens = np.stack([rot, rev])
    orbits.orbit_representatives(gens[:, :1000] % 1000, check=False)  # compile
    res, s = cpu(lambda: orbits.orbit_representatives(gens, check=False), args.repeats)
    want = bracelets(beads, colours)
    print(f"{'orbit filter, 10^7 elements':34s} {len(res.representatives):>12,d} {want:>12,d} {s:>9.2f} "
          f"{len(x) / s:>11,.0f} elements/s" + ("" if len(res.representatives) == want else "  MISMATCH"))


if __name__ == "__main__":
    main()
