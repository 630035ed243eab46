"""The 17-clue search side by side with GPenet's Sk_S17VB on the same whole bands 1, alternating.

    python bench/s17_search_native.py --native PATH/sk17 A:411 A:410 B:411 [--rounds 3]

Each argument is PASS:RANK, a whole band 1 of one pass. The project runs as a user would,
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
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIVE_PASS = {"A": ["-b0-01"], "B": ["-b0-001"], "C": []}


def cpu_of(argv: list[str], cwd: str) -> tuple[float, str]:
    with tempfile.TemporaryFile("w+b") as out:
        p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, _status, usage = os.wait4(p.pid, 0)
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read().decode("utf-8", "replace")  # his output is Latin-1


def ours(pass_: str, rank: int) -> tuple[float, int]:
    cpu, text = cpu_of([str(ROOT / "bin" / "s17-search"), "--variant", pass_, "--band1-rank", str(rank)], str(ROOT))
    found = [ln for ln in text.splitlines() if ln.startswith("found")]
    return cpu, int(found[-1].split()[1]) if found else -1


def native(path: str, pass_: str, rank: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        cpu, _ = cpu_of([path, "-c0", f"-v0-{rank}", "-v2-0", "-v3-100000", *NATIVE_PASS[pass_], "-oout"], tmp)
    return cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("specs", nargs="+", metavar="PASS:RANK")
    ap.add_argument("--native", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print("# uptime:", os.popen("uptime").read().strip())
    print(f"{'pass:rank':10s} {'project s':>10s} {'native s':>9s} {'native/project':>15s}  runs (project | native)")
    for spec in args.specs:
        p, r = spec.split(":")
        r = int(r)
        mine, theirs, found = [], [], None
        for k in range(args.rounds):
            order = (0, 1) if k % 2 == 0 else (1, 0)
            for side in order:
                if side == 0:
                    c, found = ours(p, r)
                    mine.append(c)
                else:
                    theirs.append(native(args.native, p, r))
        a, b = statistics.median(mine), statistics.median(theirs)
        print(f"{spec:10s} {a:10.2f} {b:9.2f} {b / a:15.3f}  {', '.join(f'{x:.1f}' for x in mine)} | "
              f"{', '.join(f'{x:.1f}' for x in theirs)}  (project found {found})", flush=True)


if __name__ == "__main__":
    main()
