"""Random samples of the 17-clue search, for an honest estimate of the whole search.

    python bench/s17_search_sample.py --out bench/data/s17_search_rate_samples.jsonl \\
        [--passes A,B,C] [--ranks 0-415/16] [--per-rank 1] [--seed 1] [--workers N] [--budget SECONDS]
    python bench/s17_search_sample.py --estimate FILE[:SCALE] [FILE[:SCALE] ...] [--cores 1 64 256] [--rates OUT]
    python bench/s17_search_sample.py --again FILE[:SCALE] [...] --out NEW   # the same pairs, today's code

A sample is one band 1 + band 2 pair of one pass, drawn at random with probability proportional
to its bands 3 (the pair's count in the entry: every band 2 of the band 1 is counted first), and
searched whole (``engine.search17.search_slice`` over that one band 2). Its CPU seconds divided by
its bands 3 is then an unbiased estimate of the band 1's CPU seconds per band 3 (importance
sampling: E[cpu / n3] = sum cpu / sum n3 when a pair is drawn with probability n3 / sum n3), which
is what ``search17.estimate`` interpolates across ranks (log scale) and multiplies by each band
1's bands 3. The slices ``bench_s17_search.py`` times were chosen by hand, several for holding a
17; these are not.

Samples run in worker processes forked after one warm-up search (the kernels compiled once),
one thread each, and are appended to ``--out`` as JSON lines as they finish (a rerun skips the
samples already there, so a killed run resumes); ``--budget`` stops the run (the samples then
running are listed in ``OUT.started`` and named by ``--estimate``: cut samples are the costly
ones, so a cut makes the estimate low). ``--estimate`` reads the file and prints, per pass, the ranks sampled, the
CPU seconds per band 3, and the whole search on 1, 64 and 256 cores; ``--rates OUT`` also writes the
CPU seconds per band 3 of each pass and sampled rank as package data
(``catalog/data/s17_search_rates.json``, what ``bin/s17-search --shard-seconds`` sizes shards by).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import statistics
import time
from functools import lru_cache
from pathlib import Path

YEAR = 365.25 * 86400


def parse_ranks(spec: str) -> list[int]:
    """'0-415/16' (every 16th), '3,40,77' or a mix."""
    out = []
    for part in spec.split(","):
        step = 1
        if "/" in part:
            part, s = part.split("/")
            step = int(s)
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1, step))
        else:
            out.append(int(part))
    return out


@lru_cache(maxsize=2)
def _counts(variant: str, rank: int):
    """Bands 3 per band 2 of a band 1 (of the pass's own entry) and the CPU seconds it took."""
    from sudoku_symmetry.engine.search17.entry import entry_slice

    t0 = time.process_time()
    return entry_slice(variant, rank).counts, time.process_time() - t0


def draw(pass_: str, rank: int, k: int, seed: int) -> dict:
    """Sample k of (pass, rank): a pair drawn proportionally to its bands 3, searched whole."""
    import numpy as np

    from sudoku_symmetry.engine.search17 import entry_variant, search_slice

    counts, t_count = _counts(entry_variant(pass_), rank)
    total = int(counts.sum())
    row = {"pass": pass_, "rank": rank, "k": k, "seed": seed, "bands2": len(counts),
           "bands2_with_band3": int(np.count_nonzero(counts)), "bands3_total": total, "count_cpu": t_count}
    if total == 0:
        return dict(row, band2=None, bands3=0, cpu=0.0, found=0)
    rng = random.Random(f"{seed}:{pass_}:{rank}:{k}")
    u = rng.randrange(total)
    b2 = int(np.searchsorted(np.cumsum(counts), u, side="right"))
    s = search_slice(pass_, rank, b2, b2 + 1)
    return dict(row, band2=b2, bands3=s.bands3, cpu=s.seconds, found=len(s.puzzles), pairs=s.pairs)


def _work(task):
    with open(_STARTED, "a") as fh:  # a sample cut by the budget is listed, never silently dropped
        fh.write(json.dumps({"pass": task[0], "rank": task[1], "k": task[2], "seed": task[3],
                             "started": time.time()}) + "\n")
    return draw(*task)


_STARTED = ""


def run(args) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done.add((r["pass"], r["rank"], r["k"], r["seed"]))
    tasks = [(p, r, k, args.seed) for k in range(args.per_rank) for r in parse_ranks(args.ranks)
             for p in args.passes.split(",") if (p, r, k, args.seed) not in done]
    tasks.sort(key=lambda t: -t[1])  # high ranks first: their pairs cost the most (a short tail)
    print(f"# {len(tasks)} samples to run ({len(done)} already in {out}), {args.workers} workers", flush=True)
    from sudoku_symmetry.engine.search17 import search_slice
    search_slice("C", 415, 0, 0)  # compile before forking: the workers inherit the kernels
    global _STARTED
    _STARTED = str(out) + ".started"
    deadline = time.monotonic() + args.budget
    ctx = mp.get_context("fork")
    with ctx.Pool(args.workers, maxtasksperchild=None) as pool, out.open("a") as fh:
        it = pool.imap_unordered(_work, tasks)
        n = 0
        while n < len(tasks):
            left = deadline - time.monotonic()
            if left <= 0:
                print("# budget spent: the samples still running are dropped", flush=True)
                pool.terminate()
                break
            try:
                r = it.next(timeout=left)
            except mp.TimeoutError:
                continue
            n += 1
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            print(f"{r['pass']} rank {r['rank']:3d} band2 {r['band2']} bands3 {r['bands3']:4d} "
                  f"cpu {r['cpu']:8.2f} s found {r['found']}", flush=True)


def again(args) -> None:
    """Search the pairs recorded in ``args.again`` (FILE or FILE:SCALE, as ``--estimate`` takes
    them) once more with today's code, one at a time on this machine, cheapest first, appending
    rows to ``--out`` (the same fields, ``cpu`` measured now, ``cpu_before`` the file's times
    SCALE); pairs already in ``--out`` are skipped, so a killed run resumes. The same pairs: the
    speed-up per sample, and an estimate from the same draws."""
    from sudoku_symmetry.engine.search17 import search_slice

    out = Path(args.out)
    have = set()
    if out.exists():
        have = {(r["pass"], r["rank"], r["band2"]) for r in map(json.loads, out.read_text().splitlines()) if r}
    todo = []
    for spec in args.again:
        path, _, scale = spec.partition(":")
        for r in map(json.loads, filter(str.strip, Path(path).read_text().splitlines())):
            if r.get("band2") is not None and (r["pass"], r["rank"], r["band2"]) not in have:
                todo.append(dict(r, cpu_before=r["cpu"] * float(scale or 1)))
    todo.sort(key=lambda r: r["cpu_before"])
    print(f"# {len(todo)} pairs to search again ({len(have)} already in {out})", flush=True)
    search_slice("C", 415, 0, 0)  # the kernels loaded before the first timing
    with out.open("a") as fh:
        for r in todo:
            s = search_slice(r["pass"], r["rank"], r["band2"], r["band2"] + 1)
            row = dict(r, bands3=s.bands3, cpu=s.seconds, found=len(s.puzzles), pairs=s.pairs)
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            print(f"{r['pass']} rank {r['rank']:3d} band2 {r['band2']} bands3 {s.bands3:4d} cpu {s.seconds:8.2f} s "
                  f"(before {r['cpu_before']:8.2f} s: {r['cpu_before'] / max(s.seconds, 1e-9):.1f}x)", flush=True)


def estimate_from(specs: list[str], cores: list[int], rates_path: str | None = None) -> None:
    """``specs``: FILE or FILE:SCALE (CPU seconds multiplied by SCALE: samples measured on another
    machine, brought to this one's per-core speed by a sample run on both)."""
    from sudoku_symmetry.engine.search17 import counted_variant
    from sudoku_symmetry.jobs.s17_cost import estimate

    rows, cut = [], []
    for spec in specs:
        path, _, scale = spec.partition(":")
        mine = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        for r in mine:
            r["cpu"] *= float(scale or 1)
        rows += mine
        started = Path(path + ".started")
        if started.exists():
            done = {(r["pass"], r["rank"], r["k"], r["seed"]) for r in mine}
            cut += [c for c in (json.loads(x) for x in started.read_text().splitlines() if x.strip())
                    if (c["pass"], c["rank"], c["k"], c["seed"]) not in done]
    seen = {(r["pass"], r["rank"], r["k"], r["seed"]) for r in rows}
    cut = {(c["pass"], c["rank"]) for c in cut if (c["pass"], c["rank"], c["k"], c["seed"]) not in seen}
    from sudoku_symmetry.catalog.search17 import load_shipped_entry

    entry = load_shipped_entry()  # variant -> {band-1 rank: (band 1, bands 2, bands 3)}
    total = 0.0
    rates = []
    for p in sorted({r["pass"] for r in rows}):
        mine = [r for r in rows if r["pass"] == p and r["bands3"] > 0]
        per_rank: dict[int, list[float]] = {}
        for r in mine:
            per_rank.setdefault(r["rank"], []).append(r["cpu"] / r["bands3"])
        # estimate() takes (cpu, bands 3) per rank: the mean of the ratios, as (mean, 1)
        samples = {rk: (statistics.fmean(v), 1) for rk, v in per_rank.items()}
        rates += [[p, rk, samples[rk][0], len(per_rank[rk])] for rk in sorted(per_rank)]
        counts = {rk: n3 for rk, (_i, _n2, n3) in entry[counted_variant(p)].items()}
        per_band1 = estimate(samples, counts)
        cpu = sum(per_band1.values())
        total += cpu
        worst = max(per_band1.items(), key=lambda kv: kv[1])
        ratios = [r["cpu"] / r["bands3"] for r in mine]
        print(f"pass {p}: {len(mine)} samples at ranks {min(per_rank)}-{max(per_rank)} ({len(per_rank)} ranks), "
              f"{sum(r['found'] for r in mine)} 17s met; CPU s per band 3: median {statistics.median(ratios):.3g}, "
              f"min {min(ratios):.3g}, max {max(ratios):.3g}; whole pass {cpu:,.0f} CPU-s = {cpu / YEAR:,.0f} "
              f"CPU-years; largest band 1: rank {worst[0]}, {worst[1] / 86400:,.0f} CPU-days")
    if cut:
        print(f"NOT COUNTED: {len(cut)} samples started and cut by a budget (the costliest are the likeliest to be "
              f"cut, so the figures are low where they lie): " + ", ".join(f"{p}:{r}" for p, r in sorted(cut)))
    for n in cores:
        print(f"three passes on {n} cores: {total / n / YEAR:,.1f} years ({total / n / 86400:,.0f} days)")
    if rates_path:
        data = {"about": "CPU seconds per band 3 of the 17-clue search, per pass and sampled band-1 rank: the mean "
                         "of cpu / bands3 over the rank's random samples (pairs drawn by their bands 3)",
                "command": f"python bench/s17_search_sample.py --estimate {' '.join(specs)} --rates {rates_path}",
                "not_counted": [f"{p}:{r}" for p, r in sorted(cut)],
                "columns": ["pass", "rank", "cpu_per_band3", "samples"], "rates": rates}
        Path(rates_path).write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
        print(f"wrote {len(rates)} rates to {rates_path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="JSON lines file the samples are appended to")
    ap.add_argument("--passes", default="A,B,C")
    ap.add_argument("--ranks", default="0-415/16")
    ap.add_argument("--per-rank", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--budget", type=float, default=3600.0, help="seconds before no new sample starts")
    ap.add_argument("--estimate", metavar="FILE[:SCALE]", nargs="+",
                    help="print the estimate from samples files (CPU seconds times SCALE)")
    ap.add_argument("--cores", type=int, nargs="*", default=[1, 64, 256])
    ap.add_argument("--rates", metavar="OUT", help="with --estimate: write the CPU per band 3 as package data")
    ap.add_argument("--again", metavar="FILE[:SCALE]", nargs="+",
                    help="with --out: search the pairs of these samples files again, with today's code")
    args = ap.parse_args()
    if args.estimate:
        estimate_from(args.estimate, args.cores, args.rates)
    elif args.again and args.out:
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
        again(args)
    elif args.out:
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
        run(args)
    else:
        ap.error("give --out FILE (run samples) or --estimate FILE")


if __name__ == "__main__":
    main()
