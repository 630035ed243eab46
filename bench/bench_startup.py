"""Start-up of the commands: whole processes, as a user runs them, medians of alternated runs.

    python bench/bench_startup.py [CHECKOUT ...] [--repeats 7] [--only band,canon,...]
                                  [--cold] [--cold-repeats 1] [--state DIR]

Each CHECKOUT (default: this one) is a clone with its own ``.venv`` (the README's set-up); its
commands run as ``CHECKOUT/bin/COMMAND`` in fresh processes. Given two checkouts (e.g. a copy
of the starting state and this one), every measurement alternates between them (ABAB..., the
order swapped every round), so a noisy shared machine weighs on both alike; the table gives
each one's medians and the ratio of the wall-time medians (B/A).

* **warm** (always): one line of input per command after a warm-up run, so the kernel cache,
  the band tables and the catalog are in place: median wall time, CPU time (user + system:
  less sensitive to other processes on a shared machine) and peak memory (``ru_maxrss`` of the
  process, from ``os.wait4``) over ``--repeats`` runs. ``populate`` is a
  no-op run (the catalog is already filled), ``rank 1`` reads the shipped counts, ``import`` is
  ``python -c "import sudoku_symmetry"``, ``numba floor`` a process that imports NumPy and Numba
  and runs one trivial cached kernel (``_numba_floor.py``): what no command can go below.
* **cold** (``--cold``): the same commands, each with an empty cache folder (nothing compiled,
  no band tables, no rank index): what a first run costs; ``populate`` then fills a fresh
  catalog too. Slow (minutes per command before the compile-time work), so one run each unless
  ``--cold-repeats`` says more.

Every checkout gets its own state folder (``--state``, default under the system's temporary
directory, kept between runs so a second invocation starts warm): ``cache/`` for
``SUDOKU_CACHE_DIR`` and ``catalog.sqlite`` for ``SUDOKU_CATALOG``; ``NUMBA_CACHE_DIR`` is unset.
Targets (issue 26): one-line ``solve``, ``canon``, ``band`` at most 0.5 s; ``rank 1`` at most
0.5 s and 200 MB; ``populate`` with nothing to do at most 2 s. A benchmark, not a test: it
asserts nothing about time.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
GRID_B = "123456789457893612986217354274538196531964827698721435342685971715349268869172543"
BAND = "123456789456789123789123456"


@dataclass(frozen=True)
class Command:
    name: str
    argv: tuple[str, ...]  # after bin/ (argv[0] is the command), or ("python", ...) for the venv's python
    stdin: str = ""
    target_s: float | None = None
    target_mb: float | None = None


FLOOR = str(ROOT / "bench" / "_numba_floor.py")  # this checkout's copy, run by every checkout's Python

COMMANDS = [
    Command("import", ("python", "-c", "import sudoku_symmetry")),
    Command("numba floor", ("python", FLOOR)),
    Command("band", ("band",), BAND + "\n", 0.5),
    Command("canon", ("canon",), PUZZLE + "\n", 0.5),
    Command("solve", ("solve",), PUZZLE + "\n", 0.5),
    Command("equiv", ("equiv", GRID, GRID_B)),
    Command("patterns", ("patterns",), PUZZLE + "\n"),
    Command("setlogic", ("setlogic", PUZZLE)),
    Command("rank 1", ("rank", "1"), "", 0.5, 200),
    Command("rank grid", ("rank", GRID_B)),
    Command("s17-entry", ("s17-entry", "--table")),
    Command("populate", ("populate",), "", 2.0),
]


def state_dir(base: Path, checkout: Path) -> Path:
    tag = hashlib.sha256(str(checkout).encode()).hexdigest()[:8]
    return base / f"{checkout.name}-{tag}"


def environment(state: Path, cache: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SUDOKU_TABLES_DIR")}
    env["SUDOKU_CACHE_DIR"] = str(cache or state / "cache")
    env["SUDOKU_CATALOG"] = str(state / "catalog.sqlite")
    return env


def run_once(checkout: Path, cmd: Command, env: dict) -> tuple[float, float, float]:
    """One fresh process: (wall seconds, peak resident memory in MB, CPU seconds: user + system).
    Exit 0 or 1 (equiv: not a copy) is success; anything else stops the benchmark with the
    command's standard error."""
    if cmd.argv[0] == "python":
        argv = [str(checkout / ".venv" / "bin" / "python"), *cmd.argv[1:]]
        if cmd.name == "numba floor":  # its one kernel in a folder of its own
            env = dict(env, NUMBA_CACHE_DIR=str(Path(env["SUDOKU_CACHE_DIR"]) / "numba-floor"))
    else:
        argv = [str(checkout / "bin" / cmd.argv[0]), *cmd.argv[1:]]
    with tempfile.TemporaryFile("w+") as fin, tempfile.TemporaryFile("w+") as fout, \
            tempfile.TemporaryFile("w+") as ferr:
        fin.write(cmd.stdin)
        fin.seek(0)
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=ferr, env=env, cwd=checkout)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            ferr.seek(0)
            raise RuntimeError(f"{checkout}: {' '.join(cmd.argv)} exited {proc.returncode}:\n{ferr.read()[-2000:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # ru_maxrss: kilobytes on Linux


def measure(checkouts, commands, repeats: int, fresh_cache) -> dict:
    """{(checkout, name): [(wall, MB), ...]}, alternating checkouts, order swapped each round."""
    out = {(c, cmd.name): [] for c in checkouts for cmd in commands}
    for r in range(repeats):
        for cmd in commands:
            order = checkouts if r % 2 == 0 else checkouts[::-1]
            for c in order:
                out[c, cmd.name].append(run_once(c, cmd, fresh_cache(c, cmd)))
    return out


def table(title: str, checkouts, commands, results) -> None:
    print(f"\n{title}")
    head = f"{'command':12s}" + "".join(f" {c.name[:16]:>16s} s {'cpu s':>6s} {'MB':>6s}" for c in checkouts)
    if len(checkouts) == 2:
        head += f" {'B/A':>6s}"
    print(head + f" {'target':>12s}")
    for cmd in commands:
        line = f"{cmd.name:12s}"
        meds = []
        for c in checkouts:
            rows = results[c, cmd.name]
            w = statistics.median(x[0] for x in rows)
            m = statistics.median(x[1] for x in rows)
            cpu = statistics.median(x[2] for x in rows)
            meds.append(w)
            line += f" {w:>18.3f} {cpu:>6.3f} {m:>6.0f}"
        if len(checkouts) == 2:
            line += f" {meds[1] / meds[0]:>6.2f}"
        tgt = (f"<= {cmd.target_s} s" if cmd.target_s else "") + (f", {cmd.target_mb} MB" if cmd.target_mb else "")
        print(line + f" {tgt:>12s}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkouts", nargs="*", type=Path, help="clones with a .venv (default: this one)")
    ap.add_argument("--repeats", type=int, default=7, help="warm runs per command and checkout (median)")
    ap.add_argument("--only", help="comma-separated command names (default: all: "
                    + ", ".join(c.name for c in COMMANDS) + ")")
    ap.add_argument("--cold", action="store_true", help="also time each command with an empty cache")
    ap.add_argument("--cold-repeats", type=int, default=1)
    ap.add_argument("--no-warm", action="store_true", help="only the cold runs")
    ap.add_argument("--state", type=Path, default=Path(tempfile.gettempdir()) / "sudoku-bench-startup",
                    help="per-checkout cache folder and catalog (kept between runs)")
    args = ap.parse_args(argv)
    checkouts = [c.resolve() for c in (args.checkouts or [ROOT])]
    for c in checkouts:
        if not (c / ".venv" / "bin" / "python").exists():
            ap.error(f"{c} has no .venv (run the README's set-up command there)")
    names = args.only.split(",") if args.only else [c.name for c in COMMANDS]
    unknown = set(names) - {c.name for c in COMMANDS}
    if unknown:
        ap.error(f"unknown command(s): {', '.join(sorted(unknown))}")
    commands = [c for c in COMMANDS if c.name in names]
    load = os.getloadavg()
    print(f"{len(checkouts)} checkout(s): " + ", ".join(map(str, checkouts)) +
          f"; load average {load[0]:.2f} on {os.cpu_count()} cores")

    if not args.no_warm:
        for c in checkouts:  # warm-up: fill the catalog, compile, build tables (not timed)
            env = environment(state_dir(args.state, c))
            Path(env["SUDOKU_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
            for cmd in [Command("populate", ("populate",))] + commands:
                run_once(c, cmd, env)
        res = measure(checkouts, commands, args.repeats, lambda c, cmd: environment(state_dir(args.state, c)))
        table(f"warm: one fresh process each, median wall seconds and peak MB of {args.repeats} runs",
              checkouts, commands, res)

    if args.cold:
        scratch = Path(tempfile.mkdtemp(prefix="sudoku-bench-cold-"))

        def fresh(c, cmd):
            state = state_dir(args.state, c)
            if cmd.name == "populate":  # a first populate: a new catalog too
                state = Path(tempfile.mkdtemp(dir=scratch))
            cache = Path(tempfile.mkdtemp(dir=scratch))
            return environment(state, cache)

        try:
            if args.no_warm:  # the catalog the cold runs of rank read
                for c in checkouts:
                    run_once(c, Command("populate", ("populate",)), environment(state_dir(args.state, c)))
            res = measure(checkouts, commands, args.cold_repeats, fresh)
            table(f"cold: empty cache folder, wall seconds and peak MB (median of {args.cold_repeats})",
                  checkouts, commands, res)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
