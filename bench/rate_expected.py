"""Make the expected ratings of the rating sample with a native rater built outside the project
(Sudoku Explainer's ``serate``, or skfr), resumably, then write the committed expected-values file.

    # rate what is not rated yet; each rating is appended to RAW as it comes (kill and rerun at will)
    python bench/rate_expected.py run --serate-cp SE.jar --raw RAW [--sample tests/data/rate_sample.tsv]
    python bench/rate_expected.py run --skfr PATH --raw RAW
    # write the expected-values file from RAW: the sample's rows that are rated, with a header
    python bench/rate_expected.py write --raw RAW --origin "..." --out tests/data/se_ratings_1213.tsv
    # pick the puzzles whose solution path is kept: per group the first K rows of the sample that
    # serate rated within --max-seconds (its %e), printed as group, line, puzzle
    python bench/rate_expected.py pick --raw RAW --take GROUP=K ... [--max-seconds 60]

``serate`` rates every pending puzzle in ONE JVM (``--input=-``, ``--format='%g\t%r/%p/%d\t%e'``);
its output is flushed after each puzzle, so a killed run keeps all it finished. skfr rates the
pending puzzles of a file in one process. A puzzle that occurs in several groups is rated once.
``--group`` (repeated) limits the run to those groups and rates them in that order; ``--max-cpu S``
gives up a puzzle serate has spent S CPU seconds on and goes on with the next (``--retry-skipped``
later).
RAW lines: ``puzzle<TAB>ER/EP/ED<TAB>elapsed`` (skfr: ``puzzle<TAB>ER/EP/ED<TAB>-``; a puzzle skfr
refuses to rate gets the rating it printed and ``refused``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "rate_sample.tsv"
SERATE_FORMAT = "%g\t%r/%p/%d\t%e"


def read_sample(path: Path, groups: list[str] | None = None) -> list[tuple[str, int, str]]:
    rows = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            group, number, puzzle = line.split("\t")
            if not groups or group in groups:
                rows.append((group, int(number), puzzle))
    return rows


def read_raw(path: Path, retry_skipped: bool = False) -> dict[str, tuple[str, str]]:
    """puzzle -> (ER/EP/ED, elapsed or note) of every complete line of RAW (the last one of a
    puzzle wins; with ``retry_skipped`` the puzzles given up are left out, to be rated again)."""
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) == 3 and len(parts[0]) >= 81:
                done[parts[0]] = (parts[1], parts[2])
    if retry_skipped:
        done = {p: v for p, v in done.items() if not v[1].startswith("skipped")}
    return done


def pending(sample, done, groups: list[str] | None = None) -> list[str]:
    """The puzzles not done, each once, in sample order, or group by group in the order of ``groups``."""
    rank = {g: i for i, g in enumerate(groups or [])}
    seen, out = set(done), []
    for _, _, puzzle in sorted(sample, key=lambda row: rank.get(row[0], 0)):
        if puzzle not in seen:
            seen.add(puzzle)
            out.append(puzzle)
    return out


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) of a running process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_serate(classpath: str, java: str, puzzles: list[str], raw: Path, jvm_opts: list[str],
               max_cpu: float | None = None) -> None:
    """Rate ``puzzles`` in one JVM, appending each result to ``raw`` as it comes. With ``max_cpu``:
    a puzzle that takes more CPU seconds than that is given up (a ``skipped`` line, retried with
    ``--retry-skipped``) and a new JVM goes on with the rest."""
    cmd = [java, *jvm_opts, "-cp", classpath, "diuf.sudoku.test.serate", f"--format={SERATE_FORMAT}", "--input=-"]
    print(" ".join(cmd), file=sys.stderr)
    todo = list(puzzles)
    while todo:
        with tempfile.TemporaryDirectory() as scratch, open(raw, "a") as out:
            # cwd: a scratch folder, since some SE lines write a settings file into the current folder
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=scratch)
            proc.stdin.write("".join(p + "\n" for p in todo))
            proc.stdin.close()
            state = {"mark": 0.0, "killed": None}

            def watch():
                while proc.poll() is None:
                    time.sleep(2)
                    try:
                        used = _cpu_seconds(proc.pid) - state["mark"]
                    except (OSError, IndexError):
                        return
                    if max_cpu and used > max_cpu:
                        state["killed"] = used
                        proc.kill()
                        return

            if max_cpu:
                threading.Thread(target=watch, daemon=True).start()
            for line in proc.stdout:
                out.write(line if line.endswith("\n") else line + "\n")
                out.flush()
                todo.pop(0)
                try:
                    state["mark"] = _cpu_seconds(proc.pid)
                except (OSError, IndexError):
                    pass
            proc.wait()
            if state["killed"] is not None and todo:
                out.write(f"{todo.pop(0)}\t-\tskipped after {state['killed']:.0f} CPU-s\n")
                out.flush()
                continue
        if proc.returncode:
            raise SystemExit(f"serate exited {proc.returncode}")
        break


def run_skfr(path: str, puzzles: list[str], raw: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "puz.txt").write_text("".join(p + "\n" for p in puzzles))
        subprocess.run([path, "-ipuz"], cwd=scratch, check=True, stdout=subprocess.DEVNULL)
        got = {}
        for name, note in (("puz_rat.txt", "-"), ("puz_N_rat.txt", "refused")):
            f = Path(scratch) / name
            for line in (f.read_text().splitlines() if f.exists() else []):
                puzzle, _, rating = line.partition(" ED=")
                got[puzzle.strip()] = (rating.split()[0], note)
    with open(raw, "a") as out:
        for p in puzzles:
            key = "".join(c if c in "123456789" else "." for c in p[:81])
            if key in got:
                out.write(f"{p}\t{got[key][0]}\t{got[key][1]}\n")
            else:
                out.write(f"{p}\t-\tnot rated\n")


def write(sample, done, origin: list[str], out: Path) -> tuple[int, int]:
    lines = [f"# {o}" for o in origin]
    lines.append("# group\tline\tpuzzle\ter\tep\ted")
    n = 0
    for group, number, puzzle in sample:
        if puzzle in done and "/" in done[puzzle][0]:
            er, ep, ed = done[puzzle][0].split("/")
            lines.append(f"{group}\t{number}\t{puzzle}\t{er}\t{ep}\t{ed}")
            n += 1
    out.write_text("\n".join(lines) + "\n")
    return n, len(sample)


def seconds(elapsed: str) -> float:
    """serate's %e (``0.12s``, ``1m05s``, ``2h03m``, ``1d02h``) in seconds."""
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    total, number = 0.0, ""
    for c in elapsed:
        if c in units:
            total += float(number) * units[c]
            number = ""
        else:
            number += c
    return total


def pick(sample, done, take: dict[str, int], max_seconds: float) -> list[tuple[str, int, str]]:
    out, count = [], dict.fromkeys(take, 0)
    for group, number, puzzle in sample:
        if group in take and count[group] < take[group] and puzzle in done and "/" in done[puzzle][0]:
            if seconds(done[puzzle][1]) <= max_seconds:
                out.append((group, number, puzzle))
                count[group] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--serate-cp", help="class path of a Sudoku Explainer build with diuf.sudoku.test.serate")
    r.add_argument("--java", default="java")
    r.add_argument("--jvm-opt", action="append", default=None, help="JVM option (default -Xrs -Xmx500m)")
    r.add_argument("--skfr", help="path of an skfr executable")
    r.add_argument("--max-cpu", type=float, help="give up a puzzle after this many CPU seconds of serate (a 'skipped' line)")
    r.add_argument("--retry-skipped", action="store_true", help="rate again the puzzles given up before")
    w = sub.add_parser("write")
    w.add_argument("--origin", action="append", required=True, help="a header line (repeat)")
    w.add_argument("--out", type=Path, required=True)
    k = sub.add_parser("pick")
    k.add_argument("--take", action="append", required=True, help="GROUP=K (repeat)")
    k.add_argument("--max-seconds", type=float, default=60.0)
    for p in (r, w, k):
        p.add_argument("--raw", type=Path, required=True)
        p.add_argument("--sample", type=Path, default=SAMPLE)
        p.add_argument("--group", action="append", help="only these groups (repeat)")
    args = ap.parse_args(argv)
    sample = read_sample(args.sample, args.group)
    done = read_raw(args.raw, getattr(args, "retry_skipped", False))
    if args.cmd == "write":
        n, total = write(sample, done, args.origin, args.out)
        print(f"{args.out}: {n} of {total} sample rows rated", file=sys.stderr)
        return 0
    if args.cmd == "pick":
        take = {g: int(n) for g, n in (t.split("=") for t in args.take)}
        for group, number, puzzle in pick(sample, done, take, args.max_seconds):
            print(f"{group}\t{number}\t{puzzle}")
        return 0
    todo = pending(sample, done, args.group)
    print(f"{len(todo)} puzzles to rate ({len(done)} done)", file=sys.stderr)
    if not todo:
        return 0
    if args.serate_cp:
        run_serate(args.serate_cp, args.java, todo, args.raw, args.jvm_opt or ["-Xrs", "-Xmx500m"], args.max_cpu)
    elif args.skfr:
        run_skfr(args.skfr, todo, args.raw)
    else:
        ap.error("give --serate-cp or --skfr")
    return 0


if __name__ == "__main__":
    sys.exit(main())
