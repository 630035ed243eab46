"""Speed of the native raters (Sudoku Explainer's ``serate``, skfr) and of the project's rater on
the same puzzles: CPU seconds of each whole process (JVM start and JIT included, as a user pays
them), puzzles per CPU-second per group, the tools alternated over several rounds, medians.

    python bench/bench_rate.py --serate-cp SE.jar --skfr SKFR [--project] [--rounds 3] \\
        [--sample tests/data/rate_sample.tsv --group top1465 ... | FILE ...]

Puzzles: the groups of the rating sample (``group<TAB>line<TAB>puzzle``, as ``bench/rate_sample.py``
writes it), or plain files of puzzles (one group per file, named after it). The tools are built
outside the project (docs/benchmarks.md names their sources and builds); their paths are given by flags. Each round
runs every tool once on every group, the order of the tools rotated from round to round, each run
a separate process whose CPU time (user + system, all its threads) the kernel reports at exit.
Each tool's ratings are checked against serate's where both ran (``differ`` counts puzzles whose
ER/EP/ED are not all equal). ``--project`` adds the project's ``bin/rate`` (one process per group,
its import and kernel loading included); ``--project-cmd`` names another command taking FILE;
``--project-api`` calls ``ss.rate`` on the group's puzzles in a process of its own.
"""
from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERATE_FORMAT = "%g %r/%p/%d"


def read_groups(sample: Path | None, files: list[Path], only: list[str] | None) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    if sample:
        for line in sample.read_text().splitlines():
            if line and not line.startswith("#"):
                group, _, puzzle = line.split("\t")
                groups[group].append(puzzle)
    for f in files:
        for line in f.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                groups[f.stem].append(line.split()[0][:81])
    return {g: ps for g, ps in groups.items() if not only or g in only}


def timed(cmd: list[str], cwd: Path, stdout: Path) -> float:
    """Run ``cmd``; CPU seconds (user + system) of the process and all its threads and children."""
    with open(stdout, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def _key(puzzle: str) -> str:
    return "".join(c if c in "123456789" else "." for c in puzzle[:81])


def _ratings(text: str) -> dict[str, str]:
    """puzzle -> 'ER/EP/ED' from lines holding an 81-character puzzle and a rating."""
    out = {}
    for line in text.splitlines():
        parts = line.replace("ED=", " ").replace(",", " ").replace("\t", " ").split()
        puzzle = next((p for p in parts if len(p) >= 81), None)
        rating = next((p for p in parts if p.count("/") == 2), None)
        if puzzle and rating:
            out[_key(puzzle)] = rating
    return out


class Tool:
    name = ""

    def run(self, puzzles_file: Path, scratch: Path) -> tuple[float, dict[str, str]]:
        raise NotImplementedError


class Serate(Tool):
    def __init__(self, classpath: str, java: str, jvm_opts: list[str], name: str = "serate"):
        self.cmd = [java, *jvm_opts, "-cp", classpath, "diuf.sudoku.test.serate", f"--format={SERATE_FORMAT}"]
        self.name = name

    def run(self, puzzles_file, scratch):
        out = scratch / f"{self.name}.out"
        secs = timed([*self.cmd, f"--input={puzzles_file}"], scratch, out)
        return secs, _ratings(out.read_text())


class Skfr(Tool):
    name = "skfr"

    def __init__(self, path: str):
        self.path = str(Path(path).resolve())

    def run(self, puzzles_file, scratch):
        # skfr reads NAME.txt given as -iNAME and writes NAME_rat.txt (rated) and NAME_N_rat.txt (refused)
        stem = puzzles_file.with_suffix("")
        secs = timed([self.path, f"-i{stem}"], scratch, scratch / "skfr.out")
        got = {}
        for suffix in ("_rat.txt", "_N_rat.txt"):
            f = Path(f"{stem}{suffix}")
            if f.exists():
                got.update(_ratings(f.read_text()))
                f.unlink()
        return secs, got


# the project's Python API in a process of its own: ss.rate(list of puzzles) -> ratings with er, ep, ed
API_SCRIPT = """
import sys
import sudoku_symmetry as ss
ss.rate("..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4")  # loads the kernels, chains to dynamic (+) included
import time
puzzles = [line.split()[0][:81] for line in open(sys.argv[1]) if line.strip()]
t0 = time.process_time()
ratings = ss.rate(puzzles) if puzzles else []
print("# rating CPU-s", time.process_time() - t0)
for p, r in zip(puzzles, ratings):
    print(p, f"{r.er:.1f}/{r.ep:.1f}/{r.ed:.1f}")
"""


class Project(Tool):
    name = "project"

    def __init__(self, cmd: list[str]):
        self.cmd = cmd

    def run(self, puzzles_file, scratch):
        out = scratch / "project.out"
        secs = timed([*self.cmd, str(puzzles_file)], scratch, out)
        text = out.read_text()
        # --project-api: the CPU time of the rating call itself (no import, no kernel loading)
        self.inside = next((float(ln.split()[-1]) for ln in text.splitlines() if ln.startswith("# rating CPU-s")), None)
        return secs, _ratings(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="files of puzzles, one group each")
    ap.add_argument("--sample", type=Path, help="a rating-sample file (group, line, puzzle)")
    ap.add_argument("--group", action="append", help="only these groups (repeat)")
    ap.add_argument("--limit", type=int, help="at most this many puzzles per group, evenly spaced in it")
    ap.add_argument("--serate-cp", help="class path of a Sudoku Explainer build (serate)")
    ap.add_argument("--serate2-cp", help="a second SE build to time beside the first (e.g. another line)")
    ap.add_argument("--java", default="java")
    ap.add_argument("--jvm-opt", action="append", help="JVM option (default -Xrs -Xmx500m)")
    ap.add_argument("--skfr", help="path of the skfr executable")
    ap.add_argument("--project", action="store_true", help="also run the project's bin/rate")
    ap.add_argument("--project-cmd", help="the project's rating command, FILE appended (default: bin/rate)")
    ap.add_argument("--project-api", action="store_true",
                    help="run the project's rater through its Python API (ss.rate on the file's puzzles) instead of bin/rate")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--startup", action="store_true",
                    help="also time each tool on an empty file (its start-up cost: a JVM's, an import's)")
    args = ap.parse_args(argv)

    groups = read_groups(args.sample, args.files, args.group)
    if not groups:
        ap.error("no puzzles: give --sample or files")
    if args.startup:
        groups = {"empty_input": [], **groups}
    tools: list[Tool] = []
    jvm = args.jvm_opt or ["-Xrs", "-Xmx500m"]
    if args.serate_cp:
        tools.append(Serate(args.serate_cp, args.java, jvm))
    if args.serate2_cp:
        tools.append(Serate(args.serate2_cp, args.java, jvm, "serate2"))
    if args.skfr:
        tools.append(Skfr(args.skfr))
    if args.project_api:
        tools.append(Project([sys.executable, "-c", API_SCRIPT]))
    elif args.project or args.project_cmd:
        tools.append(Project(shlex.split(args.project_cmd) if args.project_cmd
                             else [sys.executable, str(ROOT / "bin" / "rate")]))
    if not tools:
        ap.error("no tool: give --serate-cp, --skfr, --project or --project-api")

    secs: dict[tuple[str, str], list[float]] = defaultdict(list)
    inside: dict[tuple[str, str], list[float]] = defaultdict(list)  # the project's rating call alone
    rated: dict[tuple[str, str], dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        files = {}
        for g, puzzles in groups.items():
            if args.limit and len(puzzles) > args.limit:  # spread over the group (a file may be sorted)
                puzzles = [puzzles[i * len(puzzles) // args.limit] for i in range(args.limit)]
            groups[g] = puzzles
            files[g] = scratch / f"{g}.txt"
            files[g].write_text("".join(p + "\n" for p in puzzles))
        for r in range(args.rounds):
            order = tools[r % len(tools):] + tools[: r % len(tools)]
            for g in groups:
                for tool in order:
                    s, got = tool.run(files[g], scratch)
                    secs[tool.name, g].append(s)
                    if getattr(tool, "inside", None) is not None:
                        inside[tool.name, g].append(tool.inside)
                    rated[tool.name, g] = got
                    print(f"round {r + 1} {g:28s} {tool.name:8s} {s:9.2f} CPU-s", file=sys.stderr)

    print(f"\nCPU seconds of each whole process, median of {args.rounds} alternating rounds "
          f"(min-max); puzzles per CPU-second")
    print(f"{'group':28s} {'tool':8s} {'puzzles':>7s} {'CPU-s':>9s} {'range':>17s} {'puzzles/CPU-s':>14s} "
          f"{'rated':>6s} {'differ':>6s}")
    for g, puzzles in groups.items():
        ref = rated.get(("serate", g))
        for tool in tools:
            t = secs[tool.name, g]
            med = statistics.median(t)
            got = rated[tool.name, g]
            n_rated = sum(1 for p in puzzles if _key(p) in got)
            differ = "-" if ref is None or tool.name == "serate" else str(
                sum(1 for p in puzzles if _key(p) in got and _key(p) in ref and got[_key(p)] != ref[_key(p)]))
            print(f"{g:28s} {tool.name:8s} {len(puzzles):7d} {med:9.2f} {min(t):8.2f}-{max(t):<8.2f} "
                  f"{len(puzzles) / med if med else 0.0:14.1f} {n_rated:6d} {differ:>6s}")
        if len(tools) > 1:
            last = secs[tools[-1].name, g]
            for tool in tools[:-1]:
                ratios = [a / b if b else float("inf") for a, b in zip(secs[tool.name, g], last)]
                print(f"{'':28s} {tools[-1].name} is {statistics.median(ratios):,.1f}x as fast as {tool.name} "
                      f"(median of the rounds' ratios, {min(ratios):,.1f}-{max(ratios):,.1f})")
    if "empty_input" not in groups:
        return 0
    # the same less each tool's start-up (its median on the empty file): the cost of the puzzles
    print("\nless start-up (each native tool's median CPU-s on the empty file; with --project-api the "
          "project's rating call alone, timed inside its process): CPU-s of the puzzles, puzzles per "
          "CPU-second, ratios of the rounds' net times")
    start = {tool.name: statistics.median(secs[tool.name, "empty_input"]) for tool in tools}
    for g, puzzles in groups.items():
        if g == "empty_input":
            continue
        net = {tool.name: [max(v, 1e-4) for v in inside[tool.name, g]] if inside[tool.name, g] else
               [max(x - start[tool.name], 1e-3) for x in secs[tool.name, g]] for tool in tools}
        for tool in tools:
            med = statistics.median(net[tool.name])
            print(f"{g:28s} {tool.name:8s} {len(puzzles):7d} {med:9.3f} {len(puzzles) / med:14.1f}")
        last = net[tools[-1].name]
        for tool in tools[:-1]:
            ratios = [a / b for a, b in zip(net[tool.name], last)]
            print(f"{'':28s} {tools[-1].name} is {statistics.median(ratios):,.1f}x as fast as {tool.name} "
                  f"(net; rounds {min(ratios):,.1f}-{max(ratios):,.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
