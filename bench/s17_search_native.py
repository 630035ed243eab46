"""The 17-clue search side by side with GPenet's Sk_S17VB on the same band-1 slices, alternating.

    python bench/s17_search_native.py --native PATH/sk17 A:411 A:410 B:411 A:64:0-3 [--rounds 3] [--empty next]
    python bench/s17_search_native.py --native PATH/sk17 --sample bench/data/s17_native_sample.jsonl \\
        [--ranks 0-415/16] [--passes A,B,C] [--known 4] [--jobs 1]
    python bench/s17_search_native.py --report bench/data/s17_native_sample.jsonl

Each argument is PASS:RANK, a whole band 1 of one pass, or PASS:RANK:FIRST-LAST, his slices FIRST
to LAST of that band 1 (64 of his bands 2 each, those with a band 3). For a slice, his generator
writes the band 1's entry with each grid's slice (``sk17 -c80 -v0-K -v1-K -v2-1 -v4-0``, ``-v4-1``
for his pass 2b: his own 2b entry, like the project's variant B, ``-v4-2`` for his pass 1;
stopped once past LAST: not timed), each of those grids' band 2 is found among the project's
bands 2 of the same band 1 (the same rows 1-6, so the same bands 3: checked, grid for grid; for C
his pass 1's grids, band 3 of the lowest rank, are a part of the project's, band 3 free: the
project searches more grids there), and the project searches exactly those bands 2 (``--project``
below, in a fresh process, as ``search_slice`` over each); the native tool ``sk17 -c0 -v0-RANK
-v2-FIRST -v3-LAST``. A whole band 1: the project as a user runs it, ``bin/s17-search --variant
PASS --band1-rank RANK``, the native tool ``sk17 -c0 -v0-RANK -v2-0 -v3-100000`` (``-b0-01`` its
pass 2a, ``-b0-001`` 2b, nothing its pass 1), in a temporary folder. The native tool is built
outside the project tree from its public sources (``g++ -std=gnu++14 -O3 -march=native -o sk17
*.cpp``). Runs alternate (project, native, native, project, ...), CPU seconds of each whole process
(user + system, ``os.wait4``); the table gives the medians and the ratio native / project (above
1: the project is faster).

**Empty slices.** His generator writes no grid in some slices (at rank 300 his pass 2a starts at
slice 16): such a slice is reported as empty, never as a difference of the entries; ``--empty
next`` (the default) takes his next non-empty slice instead, ``--empty skip`` leaves it out.

**Finds.** The native tool's 17s (its ``*_file1.txt``) are read and compared with the project's
as canonical forms: the table prints both counts and those found by both. The passes are cut a
little differently (his 2a/2b by the bands' ranks, the project's A/B by the clue counts of bands
and stacks; C and his 1 likewise: ``docs/s17-search.md``), so a 17 may be in one side's pass and
not the other's; the tests check the project's finds against the complete list.

**The sample** (``--sample FILE``): per pass and band-1 rank of ``--ranks`` (every 16th by
default), his first non-empty slice and the one after it, plus ``--known`` slices per pass that
hold a 17 of his location files (spread over the order), one alternating round each; a row per
slice is appended to FILE as it ends (a rerun skips the rows there: resumable); ``--jobs N`` runs N
slices at once (each time is still the CPU seconds of its own processes). ``--report FILE``
prints per pass the table (rank, slice, grids, both CPU times, the ratio, the finds) and the
median and the worst ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from s17_search_sample import parse_ranks  # the same rank lists as the sampler (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
NATIVE_PASS = {"A": ["-b0-01"], "B": ["-b0-001"], "C": []}
NATIVE_MODE = {"A": 0, "B": 1, "C": 2}  # his generator's -v4- (entry of pass 2a, 2b, 1)
LOCATION_FILE = {"A": "k1_p2a.txt", "B": "k2_p2b.txt", "C": "k3_p1.txt"}
ENGINE_LOCK = threading.Lock()
"""Held around this process's own engine calls (band 1's tables, canonical forms) when slices run
side by side (``--jobs``): one thread at a time builds and reads them."""


def cpu_of(argv: list[str], cwd: str) -> tuple[float, str]:
    with tempfile.TemporaryFile("w+b") as out:
        p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, _status, usage = os.wait4(p.pid, 0)
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read().decode("utf-8", "replace")  # his output is Latin-1


def native_grids(path: str, pass_: str, rank: int, first: int | None, last: int | None, tmp: str) -> dict[int, list]:
    """His generator's grids of band-1 ``rank`` by slice, slices ``first..last`` (``first`` None:
    the first slice that has a grid, and ``last`` slices after it, ``last`` then an offset),
    read while the file grows, stopped past them."""
    out = Path(tmp) / "native_file1.txt"
    p = subprocess.Popen([path, "-c80", f"-v0-{rank}", f"-v1-{rank}", "-v2-1", f"-v4-{NATIVE_MODE[pass_]}",
                          "-onative"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = first

    def lines() -> list[bytes]:
        with open(out, "rb") as f:
            return [ln for ln in f.read().split(b"\n") if ln.count(b";") >= 4 and ln[:81].isdigit()]

    try:
        while p.poll() is None:
            time.sleep(0.2)
            if not out.exists():
                continue
            with open(out, "rb") as f:  # past the last slice when a line of a later slice is complete
                f.seek(max(0, out.stat().st_size - 4096))
                tail = [ln for ln in f.read().split(b"\n")[1:-1] if ln.count(b";") >= 4]
            if not tail:
                continue
            if start is None:
                start = int(lines()[0].split(b";")[4])
            if int(tail[-1].split(b";")[4]) > start + (last if first is None else last - first):
                break
    finally:
        p.kill()
        p.wait()
    got: dict[int, list] = {}
    if not out.exists():
        return got
    for line in lines():
        s = int(line.split(b";")[4])
        if start is None:
            start = s
        if start <= s <= start + (last if first is None else last - first):
            got.setdefault(s, []).append(line[:81])
    return got


def project_bands2(pass_: str, rank: int, lines: list[bytes]) -> tuple[list[int], int, str]:
    """The project's bands 2 holding his grids ``lines`` of band-1 ``rank``, the project's grids
    under them and a note. A and B: the same grids, checked (B: his 2b keeps the grids whose three
    bands have band 1's index, which the project's B leaves to pass A: counted, not searched). C:
    his grids among the project's."""
    import numpy as np

    from sudoku_symmetry.engine.bands import band_index
    from sudoku_symmetry.engine.search17 import band1, bands2, entry_slice
    g = np.array([np.frombuffer(ln, np.uint8) - 48 for ln in lines], np.uint8)
    assert (g[:, :27] == band1(rank).band.reshape(27)).all(), "band 1 differs"
    index = {bytes(b.astype(np.uint8).reshape(27)): i for i, b in enumerate(bands2(rank))}
    x = int(band1(rank).index)
    all_x = (band_index(g.reshape(-1, 27))[0].reshape(-1, 3) == x).all(axis=1)
    note = ""
    if pass_ == "B":
        g = g[~all_x]
        note = f"his {int(all_x.sum())} grids with three bands of band 1's index are pass A's here"
    ids = sorted({index[bytes(b[27:54])] for b in g})  # a KeyError: a band 2 the project lacks
    theirs = {bytes(b[27:]) for b in g}
    ours_ = set()
    for i in ids:
        e = entry_slice(pass_, rank, i, i + 1, emit=True)
        ours_ |= {bytes(bands2(rank)[i].astype(np.uint8).reshape(27)) + bytes(b3.astype(np.uint8)) for b3 in e.bands3}
    if pass_ == "C":  # his pass 1: band 3 ranked lowest; the project's C: band 3 free
        assert theirs <= ours_, f"{len(theirs - ours_)} of his grids not in the project's bands 2"
        note = f"his {len(theirs)} grids among the project's {len(ours_)} (band 3 free)"
    else:
        assert ours_ == theirs, f"not the same grids: {len(ours_)} project, {len(theirs)} native"
    return ids, len(ours_), note


def project_finds(pass_: str, rank: int, ids: list[int]) -> None:
    """The project's side of a slice (run in its own process): the 17s of bands 2 ``ids``."""
    from sudoku_symmetry.engine.search17 import search_slice
    n = 0
    for i in ids:
        for p in search_slice(pass_, rank, i, i + 1).puzzles:
            print("17", bytes(p + 48).decode())
            n += 1
    print(f"found {n}")


def forms(puzzles: list[str]) -> set[str]:
    """Canonical forms of puzzle lines (``.`` or ``0`` empty)."""
    if not puzzles:
        return set()
    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.text import parse_lines
    got = canon_puzzles(parse_lines(puzzles).sudokus, want_automorphisms=False).forms
    return {bytes(f + 48).decode() for f in got}


def ours(pass_: str, rank: int, ids: list[int] | None = None) -> tuple[float, list[str]]:
    if ids is not None:
        argv = [sys.executable, __file__, "--project", pass_, str(rank), ",".join(map(str, ids))]
        cpu, text = cpu_of(argv, str(ROOT))
        return cpu, [ln.split()[1] for ln in text.splitlines() if ln.startswith("17 ")]
    cpu, text = cpu_of([str(ROOT / "bin" / "s17-search"), "--variant", pass_, "--band1-rank", str(rank)], str(ROOT))
    return cpu, [ln for ln in text.splitlines() if len(ln) == 81]


def native(path: str, pass_: str, rank: int, slices: tuple[int, int] = (0, 100000)) -> tuple[float, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        cpu, _ = cpu_of([path, "-c0", f"-v0-{rank}", f"-v2-{slices[0]}", f"-v3-{slices[1]}", *NATIVE_PASS[pass_],
                         "-oout"], tmp)
        out = Path(tmp) / "out_file1.txt"
        found = [ln[:81] for ln in out.read_text("latin-1").splitlines() if len(ln) >= 81] if out.exists() else []
    return cpu, found


def side_by_side(path: str, spec: str, p: str, r: int, ids, slices, rounds: int, log=sys.stderr) -> dict:
    """Alternating runs of one slice (or band 1): medians, ratio, finds compared."""
    mine, theirs, f_mine, f_theirs = [], [], [], []
    for k in range(rounds):
        for side in ((0, 1) if k % 2 == 0 else (1, 0)):
            if side == 0:
                c, f_mine = ours(p, r, ids)
                mine.append(c)
            else:
                c, f_theirs = native(path, p, r, slices)
                theirs.append(c)
            print(f"# {spec} round {k + 1}: {('project', 'native')[side]} {c:.1f} CPU-s", file=log, flush=True)
    a, b = statistics.median(mine), statistics.median(theirs)
    with ENGINE_LOCK:
        fm, ft = forms(f_mine), forms(f_theirs)
    return {"project_cpu": a, "native_cpu": b, "ratio": b / a if a else None, "project_runs": mine,
            "native_runs": theirs, "project_found": len(fm), "native_found": len(ft), "both_found": len(fm & ft)}


def known_slices(path: str, pass_: str, count: int) -> list[tuple[int, int]]:
    """(rank, his slice) of ``count`` lines of his location file of the pass, spread over the
    ranks that hold one (the files sit beside his sources)."""
    where = Path(path).resolve().parent / "sk17-src" / LOCATION_FILE[pass_]
    if not where.exists():
        where = Path(path).resolve().parent / LOCATION_FILE[pass_]
    rows = sorted({(int(f[1]), int(f[4])) for f in (ln.split(";") for ln in where.read_text().splitlines())
                   if len(f) >= 5})
    ranks = sorted({r for r, _ in rows})
    pick = [ranks[int(i * (len(ranks) - 1) / max(1, count - 1))] for i in range(count)] if count else []
    return [next((r, s) for r, s in rows if r == k) for k in dict.fromkeys(pick)]


def sample(args) -> None:
    out = Path(args.sample)
    done = set()
    if out.exists():
        done = {(d["pass"], d["rank"], d["slice"]) for d in map(json.loads, out.read_text().splitlines()) if d}
    todo = []
    for p in args.passes.split(","):
        for r in parse_ranks(args.ranks):
            todo += [(p, r, None, 0, "order"), (p, r, None, 1, "order")]
        todo += [(p, r, s, 0, "known 17") for r, s in known_slices(args.native, p, args.known)]
    lock = threading.Lock()

    def write(row: dict) -> None:
        with lock:
            with out.open("a") as fh:
                fh.write(json.dumps(row) + "\n")
            done.add((row["pass"], row["rank"], row["slice"]))

    def one(p: str, r: int, first: int | None, offset: int, why: str) -> None:
        if first is None and any(k[:2] == (p, r) and k[2] == f"first+{offset}" for k in done):
            return  # known empty
        with tempfile.TemporaryDirectory() as tmp:
            # his first non-empty slice and the next non-empty one (a few slices read past it)
            got = native_grids(args.native, p, r, first, 8, tmp) if first is None else \
                native_grids(args.native, p, r, first, first, tmp)
        if len(got) <= offset:
            key = f"first+{offset}" if first is None else first
            if (p, r, key) not in done:
                write({"pass": p, "rank": r, "slice": key, "why": why, "empty": True})
                print(f"{p}:{r}: his generator writes no grid there ({why}, {key})", flush=True)
            return
        s = sorted(got)[offset]
        if (p, r, s) in done:
            return
        with ENGINE_LOCK:
            ids, grids, note = project_bands2(p, r, got[s])
        res = side_by_side(args.native, f"{p}:{r}:{s}-{s}", p, r, ids, (s, s), args.rounds)
        write({"pass": p, "rank": r, "slice": s, "why": why, "empty": False, "his_grids": len(got[s]),
               "grids": grids, "bands2": len(ids), "note": note, **res})
        print(f"{p}:{r}:{s} ({why}) {grids} grids, project {res['project_cpu']:.2f} s, native {res['native_cpu']:.2f} s, "
              f"ratio {res['ratio']:.2f}; 17s {res['project_found']} / {res['native_found']} "
              f"({res['both_found']} both)", flush=True)

    if args.jobs <= 1:
        for item in todo:
            one(*item)
        return
    with ThreadPoolExecutor(args.jobs) as ex:  # each job's time is its processes' CPU seconds
        for f in [ex.submit(one, *item) for item in todo]:
            f.result()


def report(path: str) -> None:
    rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    for p in sorted({r["pass"] for r in rows}):
        mine = sorted((r for r in rows if r["pass"] == p and not r["empty"]), key=lambda r: (r["rank"], r["slice"]))
        empty = [r for r in rows if r["pass"] == p and r["empty"]]
        print(f"\npass {p}: {len(mine)} slices ({len(empty)} band-1 ranks where his generator writes none)\n")
        print("| rank | his slice | why | grids | project CPU s | Sk_S17VB CPU s | native / project | 17s project / native (both) |")
        print("|---:|---:|---|---:|---:|---:|---:|---|")
        for r in mine:
            print(f"| {r['rank']} | {r['slice']} | {r['why']} | {r['grids']:,} | {r['project_cpu']:.2f} | "
                  f"{r['native_cpu']:.2f} | {r['ratio']:.2f} | {r['project_found']} / {r['native_found']} "
                  f"({r['both_found']}) |")
        ratios = [r["ratio"] for r in mine if r["ratio"]]
        if ratios:
            worst = min(mine, key=lambda r: r["ratio"] or 1e9)
            print(f"\npass {p}: median ratio {statistics.median(ratios):.2f}, worst {worst['ratio']:.2f} "
                  f"(rank {worst['rank']}, slice {worst['slice']}), {sum(x >= 1 for x in ratios)} of {len(ratios)} "
                  "at or above 1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    if sys.argv[1:2] == ["--project"]:
        project_finds(sys.argv[2], int(sys.argv[3]), [int(i) for i in sys.argv[4].split(",")])
        return
    ap.add_argument("specs", nargs="*", metavar="PASS:RANK[:FIRST-LAST]")
    ap.add_argument("--native", help="the Sk_S17VB binary (built outside the tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--empty", choices=("next", "skip"), default="next",
                    help="a slice where his generator writes no grid: take his next non-empty one, or skip it")
    ap.add_argument("--sample", metavar="FILE", help="the sample across the order, rows appended to FILE (resumable)")
    ap.add_argument("--ranks", default="0-415/16")
    ap.add_argument("--passes", default="A,B,C")
    ap.add_argument("--known", type=int, default=4, help="with --sample: slices per pass holding a known 17")
    ap.add_argument("--jobs", type=int, default=1,
                    help="with --sample: slices run side by side at once (on a machine with the cores for them)")
    ap.add_argument("--report", metavar="FILE", help="the tables of a sample file")
    args = ap.parse_args()
    if args.report:
        return report(args.report)
    if not args.native:
        ap.error("--native PATH is needed")
    if args.sample:
        args.rounds = 1 if args.rounds == 3 else args.rounds
        return sample(args)
    print("# uptime:", os.popen("uptime").read().strip())
    print(f"{'pass:rank':12s} {'project s':>10s} {'native s':>9s} {'native/project':>15s} {'17s ours/his (both)':>20s}"
          "  runs (project | native)")
    for spec in args.specs:
        p, r, *sl = spec.split(":")
        r = int(r)
        ids, slices = None, (0, 100000)
        if sl:
            a, b = (int(v) for v in sl[0].split("-"))
            with tempfile.TemporaryDirectory() as tmp:
                got = native_grids(args.native, p, r, a, b, tmp)
            for s in range(a, b + 1):
                if s not in got:
                    print(f"# {spec}: his slice {s} of band-1 rank {r} holds no grid (his generator writes none there)",
                          flush=True)
            if not got and args.empty == "next":
                with tempfile.TemporaryDirectory() as tmp:
                    got = native_grids(args.native, p, r, None, b - a, tmp)
                if got:
                    print(f"# {spec}: his first non-empty slices are {min(got)}-{max(got)}: searched instead", flush=True)
            if not got:
                print(f"# {spec}: skipped (no grid)", flush=True)
                continue
            lines = [ln for s in sorted(got) for ln in got[s]]
            ids, grids, note = project_bands2(p, r, lines)
            slices = (min(got), max(got))
            print(f"# {spec}: his slices {slices[0]}-{slices[1]} are the project's {len(ids)} bands 2 "
                  f"{ids[0]}..{ids[-1]}, {grids:,} grids{'; ' + note if note else ''}", flush=True)
        res = side_by_side(args.native, spec, p, r, ids, slices, args.rounds)
        print(f"{spec:12s} {res['project_cpu']:10.2f} {res['native_cpu']:9.2f} {res['ratio']:15.3f} "
              f"{str(res['project_found']) + ' / ' + str(res['native_found']) + ' (' + str(res['both_found']) + ')':>20s}  "
              f"{', '.join(f'{x:.1f}' for x in res['project_runs'])} | {', '.join(f'{x:.1f}' for x in res['native_runs'])}",
              flush=True)


if __name__ == "__main__":
    main()
