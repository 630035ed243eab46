"""The puzzles inside a grid (issue 24), per core: UA collection, the 16-clue search (complete,
finds nothing), the 17-clue search of grids of list puzzles, and the native checker beside it.

    NUMBA_NUM_THREADS=1 python bench/bench_unavoidable.py [--grids 50] [--clues 16] [--seed 1]
    NUMBA_NUM_THREADS=1 python bench/bench_unavoidable.py --clues 17 --list-grids 5 [--native PATH]

``--clues 16`` (default): random grids (``engine.grids.random``), per grid the seconds of the UA
collection (every minimal UA of up to 12 cells) and of the hitting-set search, the search's nodes
and solver checks; then the distribution (median, 90th percentile, max) and the share of the time
spent in UA collection, the search's own work and the uniqueness checks. The checks' share is
measured by replaying the clue sets the search handed to the solver (``record``) through the same
check kernel alone. Targets (issue 24): at most 1 s a grid (median of at least 50), aiming at
0.2 s; McGuire et al.'s 2012 checker: about 4.7 s a grid.

``--clues 17 --list-grids K``: the solution grids of K puzzles of the 17-clue list (drawn with
``--seed``, plus the grid with the most 17s), the CPU seconds of the full 17-clue search of each
(``puzzles_in_grid``, ``--method``: auto = the band-wise search for 17) and whether it found
exactly the list's 17s of that grid. ``--native PATH``: GPenet's Sk_S17VB built outside the tree
(``g++ -O3 -march=native``), run as its process 79 (``-c79 -v4-MODE``) on every line of its three
location files (``k1_p2a.txt``, ``k2_p2b.txt``, ``k3_p1.txt``, mode 0, 1, 2) whose puzzle is one
of that grid's list puzzles: what it takes the native tool to re-find the known 17s of the grid
(its README: "less than 10 seconds per grid", meaning per line), each grid's lines then the
project's search, in turn. Each line names its band-1 + band-2 pair, band 3 and slice, so process
79 searches one pair of one pass per line; the project's search is given the grid only and finds
every 17 of it, known or not. The ratio (native / ours, per grid) is given with that caveat.

``--agree N --list-grids K`` (N = 16 or 18): the two methods against each other on the grids of K
list puzzles (``--seed``): the band-wise search's whole list of N-clue puzzles of the grid,
filtered to those holding 8 clues of the grid's list 17, must be exactly what the hitting-set
search finds with those 8 clues given (independent searches sharing only the solver); for 18,
the 17 plus any one clue must be among them; every puzzle unique. Prints the counts and seconds
(an 18-clue band-wise search takes 3-9 CPU-minutes a grid).

``--batch K``: the batch run as a user starts it, ``bin/find-puzzles --store --clues N`` on a file
of K random grids (``--seed``), serially and with ``--workers 2`` (a LocalCluster of 2 worker
processes, one grid a task), alternating, each with a fresh catalog: wall seconds and grids per
hour, medians of ``--repeat`` runs (wall time: nothing else should be running).

``--low-arrangements --list-grids K``: the band-wise 17 search's twelve low arrangements (each
band or stack as band 1, the two others in either order) on the grids of K list puzzles
(``--seed``, plus the grid with the most 17s), each timed alone; per grid the three a search
runs as they came before (bands, the lower band as band 2), as ``low_arrangements`` picks them,
and the best three of one orientation.

CPU time (``time.process_time``; the machine is shared, wall time counts others' slices).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

import numpy as np

from _common import DATA
from sudoku_symmetry.engine.canon import canon_grids, canon_puzzles
from sudoku_symmetry.engine.grids.random import random_grids
from sudoku_symmetry.engine.solve import SOLVER_DEPTH, SOLVER_WORDS, solve
from sudoku_symmetry.engine.text import format_sudoku, parse_lines
from sudoku_symmetry.engine.unavoidable import collect, hitting
from sudoku_symmetry.engine.unavoidable import puzzles_in_grid
from sudoku_symmetry.engine.unavoidable.puzzles import AUTO_BANDS, METHODS, SEARCH_UA_SIZE, search_masks
from sudoku_symmetry.engine.unavoidable.sets import minimal_uas
from sudoku_symmetry.engine._jit import kernel

RECORD = 1 << 20  # clue sets handed to the solver, replayed to time the checks alone


@kernel
def replay_checks(grid, record, n):
    """The uniqueness checks of the first n recorded clue sets, as the search makes them."""
    S = np.zeros((SOLVER_DEPTH, SOLVER_WORDS), np.uint32)
    ctl = np.zeros(2, np.int64)
    sols = np.zeros((2, 81), np.uint8)
    puzzle = np.zeros(81, np.uint8)
    unique = 0
    for k in range(n):
        u, _, _ = collect.second_solution(grid, record[k, 0], record[k, 1], puzzle, S, ctl, sols)
        unique += u
    return unique


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def one_grid(grid, clues):
    """(ua seconds, search seconds, checks seconds, nodes, checks, found) of one grid."""
    t0 = time.process_time()
    uas, _ = minimal_uas(grid, SEARCH_UA_SIZE)
    t1 = time.process_time()
    record = np.zeros((RECORD, 2), np.uint64)
    masks, complete, stats = search_masks(grid, clues, uas, record=record)
    t2 = time.process_time()
    assert complete
    n = min(int(stats[hitting.STAT_CHECKS]), RECORD)
    t3 = time.process_time()
    replay_checks(grid, record, n)
    t4 = time.process_time()
    return t1 - t0, t2 - t1, t4 - t3, int(stats[hitting.STAT_NODES]), int(stats[hitting.STAT_CHECKS]), len(masks)


def bench_random_bands(args, grids) -> None:
    """The band-wise search (``grid_search``) of random grids: per grid CPU seconds, the low and
    high arrangements' shares, the XY candidates and the solver checks."""
    from sudoku_symmetry.engine.search17.grid import grid_search

    grid_search(grids[0], args.clues)  # compile
    rows = []
    print(f"{'grid':>4s} {'s':>7s} {'low s':>7s} {'high s':>7s} {'candidates':>11s} {'checks':>8s} {'found':>6s}")
    for k, g in enumerate(grids):
        r = grid_search(g, args.clues)
        low = sum(a["seconds"] for a in r.per_arrangement if a["arrangement"].kind == "low")
        high = sum(a["seconds"] for a in r.per_arrangement if a["arrangement"].kind == "high")
        ua = sum(a["ua_seconds"] for a in r.per_arrangement)
        rows.append((r.seconds, low, high, r.stats["candidates"], r.stats["checks"] + r.stats["xy_checks"], len(r.puzzles), ua))
        print(f"{k:4d} {r.seconds:7.3f} {low:7.3f} {high:7.3f} {rows[-1][3]:11,d} {rows[-1][4]:8,d} {len(r.puzzles):6d}",
              flush=True)
    total = [r[0] for r in rows]
    print(f"\n{args.clues}-clue search (bands) of {len(rows)} random grids (seed {args.seed}), CPU seconds per grid:")
    print(f"  median {statistics.median(total):.3f}  90th percentile {pct(total, 0.9):.3f}  max {max(total):.3f}  "
          f"mean {statistics.mean(total):.3f}")
    print(f"  share: low arrangements {100 * sum(r[1] for r in rows) / sum(total):.1f} %, high "
          f"{100 * sum(r[2] for r in rows) / sum(total):.1f} %, the rest (choosing the arrangements) "
          f"{100 * (1 - sum(r[1] + r[2] for r in rows) / sum(total)):.1f} %; of all, the pairs' UA collection "
          f"{100 * sum(r[6] for r in rows) / sum(total):.1f} % (the rest: the XY and band-3 steps with the "
          f"uniqueness checks inside them, median {statistics.median(r[4] for r in rows):,.0f} checks a grid)")
    print(f"  found {sum(r[5] for r in rows)} puzzles; grids per hour on one core: {3600 / statistics.mean(total):,.0f} (mean)")


def bench_random(args) -> None:
    grids = random_grids(args.grids, seed=args.seed)
    if args.method == "bands" or (args.method == "auto" and args.clues in AUTO_BANDS):
        return bench_random_bands(args, grids)
    one_grid(grids[0], 12)  # compile
    replay_checks(grids[0], np.zeros((1, 2), np.uint64), 0)
    rows = []
    print(f"{'grid':>4s} {'UA s':>7s} {'search s':>9s} {'checks s':>9s} {'nodes':>11s} {'checks':>9s} {'found':>6s}")
    for k, g in enumerate(grids):
        r = one_grid(g, args.clues)
        rows.append(r)
        print(f"{k:4d} {r[0]:7.3f} {r[1]:9.3f} {r[2]:9.3f} {r[3]:11,d} {r[4]:9,d} {r[5]:6d}", flush=True)
    total = [r[0] + r[1] for r in rows]
    ua = sum(r[0] for r in rows)
    search = sum(r[1] for r in rows)
    checks = sum(r[2] for r in rows)
    print(f"\n{args.clues}-clue search of {len(rows)} random grids (seed {args.seed}), CPU seconds per grid:")
    print(f"  median {statistics.median(total):.3f}  90th percentile {pct(total, 0.9):.3f}  max {max(total):.3f}  "
          f"mean {statistics.mean(total):.3f}")
    print(f"  share: UA collection {100 * ua / (ua + search):.1f} %, uniqueness checks {100 * checks / (ua + search):.1f} %, "
          f"the rest of the search {100 * (search - checks) / (ua + search):.1f} %")
    print(f"  found {sum(r[5] for r in rows)} puzzles; medians: {statistics.median(r[3] for r in rows):,.0f} nodes, "
          f"{statistics.median(r[4] for r in rows):,.0f} checks")
    print(f"  grids per hour on one core: {3600 / statistics.mean(total):,.0f} (mean)")


def list_grids(count, seed):
    """(grid, list puzzles of that grid, the list's line numbers) for ``count`` random list puzzles
    and the grid with the most 17s."""
    lines = [ln for ln in (DATA / "17clue_49158.txt").read_text().splitlines() if ln.strip()]
    puzzles = parse_lines(lines).sudokus
    sols, ok = solve(puzzles)
    forms = canon_grids(sols).forms
    groups = defaultdict(list)
    for k in range(len(puzzles)):
        groups[forms[k].tobytes()].append(k)
    rng = random.Random(seed)
    picks = [max(groups.values(), key=len)[0]] + rng.sample(range(len(puzzles)), count)
    out = []
    for k in picks:
        out.append((sols[k], puzzles[k], groups[forms[k].tobytes()]))
    return out, puzzles, sols


NATIVE_FILES = (("k1_p2a.txt", 0), ("k2_p2b.txt", 1), ("k3_p1.txt", 2))
"""GPenet's location files and the -v4 mode process 79 reads each with (p2a, p2b, p1)."""


def native_lines(forms, picks, where):
    """Per picked grid (a list puzzle's index), the lines of the three location files (in directory
    ``where``) whose puzzle is one of that grid's list puzzles, as (mode, line)."""
    want = defaultdict(list)  # canonical form of a list puzzle -> picked grids holding it
    for k, members in picks:
        for m in members:
            want[forms[m].tobytes()].append(k)
    got = defaultdict(list)
    for name, mode in NATIVE_FILES:
        with open(os.path.join(where, name)) as fh:
            lines = [ln.strip() for ln in fh if len(ln.split(";")[0].strip()) == 81]
        cf = canon_puzzles(parse_lines([ln.split(";")[0].strip() for ln in lines]).sudokus).forms
        for line, f in zip(lines, cf):
            for k in want.get(f.tobytes(), ()):
                got[k].append((mode, line))
    return got


def bench_list(args) -> None:
    picked, puzzles, sols = list_grids(args.list_grids, args.seed)
    forms = canon_puzzles(puzzles).forms
    puzzles_in_grid(picked[0][0], 17, method=args.method)  # compile
    native = {}
    if args.native:
        native = native_lines(forms, [(members[0], members) for _, _, members in picked],
                              args.native_files or os.path.dirname(os.path.abspath(args.native)))
    print(f"{'grid (first list puzzle)':82s} {'17s':>4s} {'found':>5s} {'same':>5s} {'ours s':>7s} "
          f"{'lines':>5s} {'native s':>8s} {'a line':>7s}")
    ours_t, nat_t, line_t, ratios = [], [], [], []
    for grid, puzzle, members in picked:
        times = [run_native(args.native, mode, line) for mode, line in native.get(members[0], ())]
        t0 = time.process_time()
        found = puzzles_in_grid(grid, 17, method=args.method)
        t = time.process_time() - t0
        ours_t.append(t)
        if times:
            nat_t.append(sum(times))
            line_t += times
            ratios.append(sum(times) / t)
        # the oracle: the classes found are exactly the list's puzzles of this grid
        got = canon_puzzles(found.puzzles).forms if len(found) else np.zeros((0, 81), np.uint8)
        same = {f.tobytes() for f in got} == {forms[m].tobytes() for m in members}
        print(f"{format_sudoku(puzzles[members[0]]):82s} {len(members):4d} {len(found):5d} {str(same):>5s} {t:7.2f} "
              f"{len(times):5d} {sum(times):8.2f} {(statistics.median(times) if times else 0):7.2f}", flush=True)
    print(f"\n17-clue search ({args.method}) of {len(ours_t)} grids of list puzzles: median {statistics.median(ours_t):.2f} s, "
          f"max {max(ours_t):.2f} s a grid (CPU)")
    if ratios:
        print(f"native process 79 re-finding every known 17 of the grid (every line of its three files naming "
              f"one): median {statistics.median(nat_t):.2f} s a grid, {statistics.median(line_t):.2f} s a line; "
              f"ratio native / ours, median of {len(ratios)} grids: {statistics.median(ratios):.2f}x")


def run_native(path, mode, line):
    """CPU seconds (children's user + system) of one process-79 run (``-v4-MODE``) on one line of
    a location file (its exit status is a count, not an error)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.txt")
        with open(src, "w") as fh:
            fh.write(line + "\n")
        before = os.times()
        subprocess.run([path, "-c79", f"-v4-{mode}", f"-i{src}", f"-o{os.path.join(tmp, 'out')}"], cwd=tmp,
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def bench_agree(args) -> None:
    """The band-wise and the hitting-set searches agree on N-clue puzzles of list grids."""
    from sudoku_symmetry.engine.solve import count_solutions
    from sudoku_symmetry.engine.unavoidable.sets import arrays_to_masks, masks_to_arrays
    picked, puzzles, sols = list_grids(args.list_grids, args.seed)
    for grid, puzzle, members in picked[1:]:  # not the grid with the most 17s: the drawn ones
        t0 = time.process_time()
        bands = puzzles_in_grid(grid, args.agree, method="bands")
        tb = time.process_time() - t0
        got = {p.tobytes() for p in bands.puzzles}
        cells = np.flatnonzero(puzzle)[:8]
        givens = np.zeros(81, np.uint8)
        givens[cells] = grid[cells]
        lo, hi = (int(x) for x in arrays_to_masks(givens[None, :])[0])
        t0 = time.process_time()
        masks, complete, _ = search_masks(grid, args.agree, minimal_uas(grid, SEARCH_UA_SIZE)[0], given=(lo, hi))
        th = time.process_time() - t0
        hit = {p.tobytes() for p in masks_to_arrays(masks, grid)} if len(masks) else set()
        sub = {p for p in got if np.frombuffer(p, np.uint8)[cells].all()}
        unique = bool((count_solutions(bands.puzzles, 2).counts == 1).all()) if len(got) else True
        plus = True
        if args.agree == 18:
            for c in np.flatnonzero(puzzle == 0):
                q = puzzle.copy()
                q[c] = grid[c]
                plus &= q.tobytes() in got
        same = complete and sub == hit and unique and plus
        print(f"{format_sudoku(puzzle)}: {args.agree} clues: bands {len(got)} ({tb:.1f} s), holding 8 clues of the 17: "
              f"{len(sub)}; hitting sets with them given {len(hit)} ({th:.2f} s); agree {same}", flush=True)


def bench_batch(args) -> None:
    """Grids per hour of the stored batch run on 1 and 2 workers."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "grids.txt")
        with open(path, "w") as fh:
            fh.write("\n".join(format_sudoku(g) for g in random_grids(args.batch, seed=args.seed)) + "\n")
        walls = {1: [], 2: []}
        for r in range(args.repeat):
            for workers in ((1, 2) if r % 2 == 0 else (2, 1)):
                db = os.path.join(tmp, f"c{r}-{workers}.sqlite")
                argv = [os.path.join(root, "bin", "find-puzzles"), "--store", "--clues", str(args.clues), "--db", db, path]
                if workers == 2:
                    argv += ["--workers", "2", "--chunk", "1"]
                t0 = time.perf_counter()
                subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                walls[workers].append(time.perf_counter() - t0)
                print(f"run {r}: {workers} worker(s) {walls[workers][-1]:.1f} s wall", flush=True)
    for workers, w in walls.items():
        med = statistics.median(w)
        print(f"{args.clues}-clue batch of {args.batch} random grids (seed {args.seed}), {workers} worker(s): "
              f"median {med:.1f} s wall, {3600 * args.batch / med:,.0f} grids per hour")


def bench_low(args) -> None:
    from sudoku_symmetry.engine.search17 import grid as G

    picked, _, _ = list_grids(args.list_grids, args.seed)
    sums = np.zeros(3)
    print("grid  as before  as chosen  best of one orientation  (CPU s, low arrangements only)")
    for i, (grid, _, _) in enumerate(picked):
        g = np.asarray(grid, np.int64).reshape(81)
        t = {}
        for arr in G.ARRANGEMENTS:
            if arr.kind == "low":
                se = G.arrangement_searcher(g, 17, arr)
                view = g[arr.cells()]
                t0 = time.process_time()
                se.pair(view[27:54], view[54:][None, :])
                t[arr.transposed, arr.order] = time.process_time() - t0
        before = sum(t[False, (b, *[o for o in range(3) if o != b])] for b in range(3))
        chosen = sum(t[a.transposed, a.order] for a, _, _ in G.low_arrangements(g, 17))
        best = min(sum(min(v for (tt, o), v in t.items() if tt == ori and o[0] == b) for b in range(3))
                   for ori in (False, True))
        sums += (before, chosen, best)
        print(f"{i:4d} {before:10.2f} {chosen:10.2f} {best:10.2f}", flush=True)
    print(f"all  {sums[0]:10.2f} {sums[1]:10.2f} {sums[2]:10.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grids", type=int, default=50)
    ap.add_argument("--clues", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list-grids", type=int, default=0, help="with --clues 17: grids of this many list puzzles")
    ap.add_argument("--native", default=None, help="Sk_S17VB binary (built outside the tree)")
    ap.add_argument("--native-files", default=None,
                    help="directory of its k1_p2a.txt, k2_p2b.txt, k3_p1.txt (default: the binary's directory)")
    ap.add_argument("--method", default="auto", choices=METHODS, help="the search method (random grids: auto = bands for 16-18)")
    ap.add_argument("--agree", type=int, default=0, choices=(0, 16, 18),
                    help="with --list-grids: the two methods against each other at this clue count")
    ap.add_argument("--low-arrangements", action="store_true",
                    help="with --list-grids: the 17 search's low arrangements, as before, as chosen, the best")
    ap.add_argument("--batch", type=int, default=0, help="the stored batch run on this many grids, 1 and 2 workers")
    ap.add_argument("--repeat", type=int, default=3, help="with --batch: runs of each")
    args = ap.parse_args()
    if args.batch:
        bench_batch(args)
    elif args.list_grids and args.low_arrangements:
        bench_low(args)
    elif args.list_grids and args.agree:
        bench_agree(args)
    elif args.list_grids:
        bench_list(args)
    else:
        bench_random(args)


if __name__ == "__main__":
    sys.exit(main())
