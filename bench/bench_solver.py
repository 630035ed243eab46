"""Throughput of the fast solver, count-to-2 (uniqueness check), single thread, per core.

    NUMBA_NUM_THREADS=1 .venv/bin/python bench/bench_solver.py [--repeat 5] [--max-lines N]
    NUMBA_NUM_THREADS=1 .venv/bin/python bench/bench_solver.py --native /work/native/harness/tdoku_count [--pairs 6]

Prints, per file: puzzles per CPU-second (median over the runs, CPU time of this process, one
thread), guesses per puzzle and the fraction settled by logic alone. One kernel call per run covers
the whole file (compile time excluded: a warm-up call first).

``--native PATH``: a harness around a native solver, built outside the project tree, called as
``PATH FILE LIMIT REPEAT``; it reads the first 81 characters of each line and prints per run one
line ``puzzles cpu_seconds guesses count_sum`` (CPU time of its own solve loop, file reading
excluded). Native and project runs then alternate on the same file (``--pairs`` of them, 6 at
least; each timed run follows an untimed one on the same file, on both sides), and the table gives both medians, both guesses per puzzle and the median of the per-pair
project / native ratios. The two count sums must agree (count to 2: the sum of min(count, 2)),
else the row says MISMATCH.

``--full-counts`` also counts every solution of the count files exactly (minutes).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from _common import DATA
from sudoku_symmetry.engine.solve import solver
from sudoku_symmetry.engine.text import parse_lines

FILES = [
    "17clue_49158.txt",
    "top1465.txt",
    "forum_hardest_1905_11plus.txt",
    "forum_hardest_1106.txt",
    "sudoku3m_sample7034.txt",
    "serg_benchmark_multisol_with_counts.txt",
]
MAIN_FILES = FILES[:3]  # the three lists; --native runs only these unless --all-files


def load(name, max_lines):
    with open(DATA / name) as fh:
        lines = fh.read().splitlines()[:max_lines]
    return parse_lines(lines, allow_suffix=True, errors="raise", source=name)


def project_run(batch, warm: bool = False):
    """(puzzles per CPU-second, guesses per puzzle, logic-only fraction, count sum) of one run;
    ``warm``: after an untimed run on the same batch (see ``native_run``)."""
    if warm:
        solver.count_solutions(batch, 2)
    t0 = time.process_time()
    res = solver.count_solutions(batch, 2)
    dt = time.process_time() - t0
    return len(batch) / dt, res.guesses.mean(), res.logic_only.mean(), int(res.counts.sum())


def native_run(tool, path, n):
    """(puzzles per CPU-second, guesses per puzzle, count sum) of one native run on ``path``."""
    # two runs, the second timed: a timed run that starts from idle is slower on this VM (a
    # 12 ms top1465 run of ours went at 84-90 k/s instead of 118-120 k/s after a 20 ms sleep, in
    # one process of three), so both sides get a warm-up run on the same file
    out = subprocess.run([tool, str(path), "2", "2"], check=True, capture_output=True, text=True).stdout
    puzzles, seconds, guesses, counts = out.splitlines()[-1].split()
    if int(puzzles) != n:
        raise SystemExit(f"{tool} read {puzzles} puzzles from {path}, the project {n}")
    return int(puzzles) / float(seconds), int(guesses) / int(puzzles), int(counts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--max-lines", type=int, default=None)
    ap.add_argument("--native", metavar="PATH", help="native count-to-2 harness (see the module docstring)")
    ap.add_argument("--pairs", type=int, default=6, help="alternating native/project pairs (at least 6)")
    ap.add_argument("--all-files", action="store_true", help="with --native: every file, not just the three lists")
    ap.add_argument("--full-counts", action="store_true")
    args = ap.parse_args()
    if args.native and args.max_lines:
        ap.error("--native reads whole files: drop --max-lines")
    solver.count_solutions(parse_lines(["." * 81]).sudokus, 2)  # compile / load the cache
    if args.native:
        pairs = max(6, args.pairs)
        print(f"alternating {pairs} pairs per file, puzzles per CPU-second, one thread; native: {args.native}")
        print(f"{'file':40s} {'puzzles':>8s} {'native/s':>10s} {'guesses':>8s} {'project/s':>10s} {'guesses':>8s}"
              f" {'project/native':>14s} {'pair ratios':>13s}")
        for name in FILES if args.all_files else MAIN_FILES:
            if not (DATA / name).exists():
                print(f"{name:40s} (missing)")
                continue
            batch = load(name, None).sudokus
            nat, proj, ratios = [], [], []
            for _ in range(pairs):
                nat.append(native_run(args.native, DATA / name, len(batch)))
                proj.append(project_run(batch, warm=True))
                ratios.append(proj[-1][0] / nat[-1][0])
            same = all(n[2] == p[3] for n, p in zip(nat, proj))
            print(f"{name:40s} {len(batch):8d} {statistics.median(r[0] for r in nat):10,.0f} {nat[0][1]:8.2f}"
                  f" {statistics.median(r[0] for r in proj):10,.0f} {proj[0][1]:8.2f}"
                  f" {statistics.median(ratios):14.3f} {min(ratios):6.3f}-{max(ratios):<6.3f}"
                  f"{'' if same else '  MISMATCH of count sums'}")
    else:
        print(f"{'file':42s} {'puzzles':>8s} {'puzzles/s':>11s} {'spread':>15s} {'guesses':>8s} {'logic-only':>10s}")
        for name in FILES:
            if not (DATA / name).exists():
                print(f"{name:42s} (missing)")
                continue
            batch = load(name, args.max_lines).sudokus
            runs = [project_run(batch) for _ in range(args.repeat)]
            rates = [r[0] for r in runs]
            print(f"{name:42s} {len(batch):8d} {statistics.median(rates):11,.0f} "
                  f"{min(rates):7,.0f}-{max(rates):<7,.0f} {runs[0][1]:8.2f} {runs[0][2]:10.3f}")
    if args.full_counts:
        print("\nexact counts (limit 1,000,000) against the files:")
        for name in ("tdoku_test_puzzles_with_counts.txt", "serg_benchmark_multisol_with_counts.txt",
                     "derived_16clue_multisol_1000.txt", "derived_18clue_nosol_1000.txt"):
            parsed = load(name, None)
            want = np.array([10**6 if s.split(":")[0].startswith(">=") else int(s.split(":")[0])
                             for s in parsed.suffixes])
            t0 = time.process_time()
            got = solver.count_solutions(parsed.sudokus, 10**6).counts
            dt = time.process_time() - t0
            print(f"{name:42s} {len(want):6d} puzzles, {int(got.sum()):12,d} solutions, "
                  f"{'all equal' if (got == want).all() else f'{int((got != want).sum())} DIFFER'}, {dt:.1f} s")
        t0 = time.process_time()
        counts, minimal = solver.check(load("17clue_49158.txt", None).sudokus)
        print(f"17clue_49158.txt: unique {int((counts == 1).sum())}, minimal {int(minimal.sum())} "
              f"of {len(counts)}, {time.process_time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
