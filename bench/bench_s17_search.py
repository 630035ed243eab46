"""Benchmark of the 17-clue search (``engine.search17.search_slice``) per band-1 rank slice.

    python bench/bench_s17_search.py C:2:18136:18141 A:11:225684:225690 B:3:106578:106584 --repeat 3

Each argument is PASS:RANK:FIRST_BAND2:STOP. Per slice, after a warm-up call (band 1's valid sets
and the kernels compiled, not counted), the median CPU seconds of ``--repeat`` runs (a fresh
searcher each time: the searcher keeps per-band-1 buffers), pairs, bands 3, 17s found, bands 3
per CPU second; then ``jobs.s17_cost.estimate`` over the slices measured: the CPU time of the whole
search (416 bands 1 per pass, the entry's band-3 counts) on one core and its wall time on N
cores. The machine is shared: say so with the numbers (``uptime`` is printed).
"""
from __future__ import annotations

import argparse
import os
import statistics

from sudoku_symmetry.catalog.search17 import load_shipped_entry
from sudoku_symmetry.engine.search17 import counted_variant, search_slice
from sudoku_symmetry.engine.search17 import search as S
from sudoku_symmetry.jobs.s17_cost import estimate

YEAR = 365.25 * 86400


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slices", nargs="+", metavar="PASS:RANK:FIRST:STOP")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cores", type=int, nargs="*", default=[1, 64, 256])
    args = ap.parse_args()
    print("# uptime:", os.popen("uptime").read().strip())
    samples: dict[str, dict[int, tuple[float, int]]] = {}
    for spec in args.slices:
        p, r, a, b = spec.split(":")
        r, a, b = int(r), int(a), int(b)
        search_slice(p, r, a, a)  # warm-up
        cpu = []
        for _ in range(args.repeat):
            S._searcher.cache_clear()
            search_slice(p, r, a, a)
            s = search_slice(p, r, a, b)
            cpu.append(s.seconds)
        med = statistics.median(cpu)
        print(f"{p} rank {r} bands2 {a}:{b}: pairs {s.pairs} bands3 {s.bands3} found {len(s.puzzles)} "
              f"cpu median {med:.2f} s (runs {', '.join(f'{c:.2f}' for c in cpu)}) "
              f"{s.bands3 / med if med else 0:,.1f} bands3/s")
        old = samples.setdefault(p, {}).get(r, (0.0, 0))
        samples[p][r] = (old[0] + med, old[1] + s.bands3)
    entry = load_shipped_entry()
    total = 0.0
    for p, smp in sorted(samples.items()):
        counts = {k: n3 for k, (_i, _n2, n3) in entry[counted_variant(p)].items()}
        cpu = sum(estimate(smp, counts).values())
        total += cpu
        print(f"# estimate pass {p} from ranks {sorted(smp)}: {cpu:,.0f} CPU-s = {cpu / YEAR:,.1f} CPU-years")
    for n in args.cores:
        print(f"# passes measured, on {n} cores: {total / n / YEAR:,.2f} years ({total / n / 86400:,.0f} days)")


if __name__ == "__main__":
    main()
