"""The 17-clue search side by side with GPenet's Sk_S17VB on the same band-1 slices, alternating.

    python bench/s17_search_native.py --native PATH/sk17 A:411 A:410 B:411 A:64:0-3 [--rounds 3]

Each argument is PASS:RANK, a whole band 1 of one pass, or PASS:RANK:FIRST-LAST, his slices FIRST
to LAST of that band 1 (64 of his bands 2 each, those with a band 3). For a slice, his generator
writes the band 1's entry with each grid's slice (``sk17 -c80 -v0-K -v1-K -v2-1 -v4-0``, ``-v4-1``
for his pass 2b: his own 2b entry, like the project's variant B, ``-v4-2`` for his pass 1;
stopped once past LAST: not timed), each of those grids' band 2 is found among the
project's bands 2 of the same band 1 (the same rows 1-6, so the same bands 3: checked, grid for
grid; for C his pass 1's grids, band 3 of the lowest rank, are a part of the project's, band 3
free: the project searches more grids there), and the project searches exactly those bands 2 (``--project`` below, in a fresh process,
as ``search_slice`` over each); the native tool ``sk17 -c0 -v0-RANK -v2-FIRST -v3-LAST``. The project runs as a user would,
``bin/s17-search --variant PASS --band1-rank RANK`` in a fresh process; the native tool (built
outside the project tree from its public sources: ``g++ -std=gnu++14 -O3 -march=native -o sk17
*.cpp``) as ``sk17 -c0 -v0-RANK -v2-0 -v3-100000 [-b0-01 | -b0-001]`` (every slice of that band
1; ``-b0-01`` its pass 2a, ``-b0-001`` 2b, nothing its pass 1) in a temporary folder. Runs
alternate (project, native, native, project, ...), CPU seconds of each whole process (user +
system, ``os.wait4``); the table gives the medians and the ratio native / project (above 1: the
project is faster).

Same input: a band-1 slice holds the same essentially different grids in both (the project's
``docs/s17-search.md``, checked at ranks 0-400; his generator writes a few classes twice). The
passes are cut a little differently (his 2a/2b by the bands' ranks, the project's A/B by the
clue counts of bands and stacks; C and his 1 likewise), so the work is alike, not identical: the
ratio is indicative of the search's speed, the finds are compared by the tests, not here.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIVE_PASS = {"A": ["-b0-01"], "B": ["-b0-001"], "C": []}
NATIVE_MODE = {"A": 0, "B": 1, "C": 2}  # his generator's -v4- (entry of pass 2a, 2b, 1)


def cpu_of(argv: list[str], cwd: str) -> tuple[float, str]:
    with tempfile.TemporaryFile("w+b") as out:
        p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, _status, usage = os.wait4(p.pid, 0)
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read().decode("utf-8", "replace")  # his output is Latin-1


def slice_bands2(path: str, pass_: str, rank: int, first: int, last: int, tmp: str) -> list[int]:
    """The project's bands 2 holding the grids of his slices ``first..last`` of band-1 ``rank``
    (his entry of pass 2a for A, 2b for B, written in ``tmp``, read while it grows, stopped past
    ``last``; pass 1 for C). A: the same grids, checked. C: his among the project's. B: the project's grids of those bands 2 are his; his
    2b keeps a pair whose band 2 has band 1's index in both orders (no exchange of bands 1 and 2,
    ``op.p2b``) and its grids whose three bands have that index, which the project's B leaves to
    pass A: those are counted and printed, not searched."""
    import time

    import numpy as np

    from sudoku_symmetry.engine.bands import band_index
    from sudoku_symmetry.engine.search17 import band1, bands2, entry_slice
    out = Path(tmp) / "native_file1.txt"
    p = subprocess.Popen([path, "-c80", f"-v0-{rank}", f"-v1-{rank}", "-v2-1", f"-v4-{NATIVE_MODE[pass_]}",
                          "-onative"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while p.poll() is None:
            time.sleep(0.5)
            with open(out, "rb") as f:  # past LAST when a line of a later slice is complete
                f.seek(max(0, out.stat().st_size - 4096))
                tail = [ln for ln in f.read().split(b"\n")[1:-1] if ln.count(b";") >= 4]
            if tail and int(tail[-1].split(b";")[4]) > last:
                break
    finally:
        p.kill()
        p.wait()
    grids = []
    with open(out, "rb") as f:
        for line in f:
            fields = line.split(b";")
            if len(fields) >= 5 and line[:81].isdigit() and first <= int(fields[4]) <= last:
                grids.append(np.frombuffer(line[:81], np.uint8) - 48)
    g = np.array(grids, np.uint8)
    assert len(g) and (g[:, :27] == band1(rank).band.reshape(27)).all(), "band 1 differs"
    index = {bytes(b.astype(np.uint8).reshape(27)): i for i, b in enumerate(bands2(rank))}
    x = int(band1(rank).index)
    all_x = (band_index(g.reshape(-1, 27))[0].reshape(-1, 3) == x).all(axis=1)
    if pass_ == "B":
        g = g[~all_x]
    ids = sorted({index[bytes(b[27:54])] for b in g})  # a KeyError: a band 2 the project lacks
    theirs = {bytes(b[27:]) for b in g}
    ours_ = set()
    for i in ids:
        e = entry_slice(pass_, rank, i, i + 1, emit=True)
        ours_ |= {bytes(b2.astype(np.uint8).reshape(27)) + bytes(b3.astype(np.uint8)) for b2, b3 in
                  zip(bands2(rank)[np.full(len(e.bands3), i)], e.bands3)}
    if pass_ == "C":  # his pass 1: band 3 ranked lowest; the project's C: band 3 free
        assert theirs <= ours_, f"{len(theirs - ours_)} of his grids not in the project's bands 2"
        print(f"# {pass_}:{rank}:{first}-{last}: his {len(theirs)} grids, the project's {len(ours_)} under the "
              f"same {len(ids)} bands 2 (band 3 free)", flush=True)
    else:
        assert ours_ == theirs, f"not the same grids: {len(ours_)} project, {len(theirs)} native"
    if pass_ == "B":
        print(f"# {pass_}:{rank}:{first}-{last}: {len(g)} grids, {len(ids)} bands 2; his {int(all_x.sum())} "
              "grids with three bands of band 1's index not searched here (pass A's)", flush=True)
    return ids


def project_bands2(pass_: str, rank: int, ids: list[int]) -> None:
    """The project's side of a slice (run in its own process): the 17s of bands 2 ``ids``."""
    from sudoku_symmetry.engine.search17 import search_slice
    found = sum(len(search_slice(pass_, rank, i, i + 1).puzzles) for i in ids)
    print(f"found {found}")


def ours(pass_: str, rank: int, ids: list[int] | None = None) -> tuple[float, int]:
    if ids is not None:
        argv = [sys.executable, __file__, "--project", pass_, str(rank), ",".join(map(str, ids))]
        cpu, text = cpu_of(argv, str(ROOT))
        found = [ln for ln in text.splitlines() if ln.startswith("found")]
        return cpu, int(found[-1].split()[1]) if found else -1
    cpu, text = cpu_of([str(ROOT / "bin" / "s17-search"), "--variant", pass_, "--band1-rank", str(rank)], str(ROOT))
    found = [ln for ln in text.splitlines() if ln.startswith("found")]
    return cpu, int(found[-1].split()[1]) if found else -1


def native(path: str, pass_: str, rank: int, slices: tuple[int, int] = (0, 100000)) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        cpu, _ = cpu_of([path, "-c0", f"-v0-{rank}", f"-v2-{slices[0]}", f"-v3-{slices[1]}", *NATIVE_PASS[pass_],
                         "-oout"], tmp)
    return cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    if sys.argv[1:2] == ["--project"]:
        project_bands2(sys.argv[2], int(sys.argv[3]), [int(i) for i in sys.argv[4].split(",")])
        return
    ap.add_argument("specs", nargs="+", metavar="PASS:RANK[:FIRST-LAST]")
    ap.add_argument("--native", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print("# uptime:", os.popen("uptime").read().strip())
    print(f"{'pass:rank':10s} {'project s':>10s} {'native s':>9s} {'native/project':>15s}  runs (project | native)")
    for spec in args.specs:
        p, r, *sl = spec.split(":")
        r = int(r)
        ids, slices = None, (0, 100000)
        if sl:
            slices = tuple(int(v) for v in sl[0].split("-"))
            with tempfile.TemporaryDirectory() as tmp:
                ids = slice_bands2(args.native, p, r, *slices, tmp)
            same = "his grids among the project's" if p == "C" else "same grids"
            print(f"# {spec}: his slices {slices[0]}-{slices[1]} are the project's {len(ids)} bands 2 "
                  f"{ids[0]}..{ids[-1]} ({same})", flush=True)
        mine, theirs, found = [], [], None
        for k in range(args.rounds):
            order = (0, 1) if k % 2 == 0 else (1, 0)
            for side in order:
                if side == 0:
                    c, found = ours(p, r, ids)
                    mine.append(c)
                else:
                    c = native(args.native, p, r, slices)
                    theirs.append(c)
                print(f"# {spec} round {k + 1}: {('project', 'native')[side]} {c:.1f} CPU-s", file=sys.stderr,
                      flush=True)  # a long run's partial results survive a kill
        a, b = statistics.median(mine), statistics.median(theirs)
        print(f"{spec:10s} {a:10.2f} {b:9.2f} {b / a:15.3f}  {', '.join(f'{x:.1f}' for x in mine)} | "
              f"{', '.join(f'{x:.1f}' for x in theirs)}  (project found {found})", flush=True)


if __name__ == "__main__":
    main()
