"""Old main against this tree, alternating, in parallel processes: see run.sh.

    python drive.py WORK OUTFILE

WORK holds old/ and new/ (each a folder with sudoku_symmetry/ on PYTHONPATH). Phase 1: cold
compiles of the search's kernels, COMPILE_ROUNDS per side in parallel (the first of each side
fills the cache the timings use). Phase 2: ROUNDS rounds of every job on both sides, old and new
submitted in turn (the first side alternating per round), JOBS_PARALLEL processes at a time.
CPU time per process (user + system, from wait4), medians."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

WORK, OUTFILE = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
PY = os.environ.get("PYTHON", sys.executable)
ROUNDS = int(os.environ.get("ROUNDS", "5"))
COMPILE_ROUNDS = int(os.environ.get("COMPILE_ROUNDS", "3"))
SPECS = os.environ.get("SPECS", "A:64,B:64,band:A:410,C:64").split(",")
NPAR = int(os.environ.get("JOBS_PARALLEL", str(max(1, (os.cpu_count() or 2) - 1))))
rows = []
CACHE = {"old": os.environ.get("CACHE_OLD") or os.path.join(WORK, "cache-old"),
         "new": os.environ.get("CACHE_NEW") or os.path.join(WORK, "cache-new")}


def runs(rs):
    return ", ".join("%.1f" % r["cpu_s"] for r in rs)
log = open(OUTFILE + ".log", "a")


def run(side, spec, cache):
    env = dict(os.environ, PYTHONPATH=os.path.join(WORK, side), SUDOKU_CACHE_DIR=cache, NUMBA_NUM_THREADS="1",
               SUDOKU_CATALOG=os.path.join(WORK, f"{side}.sqlite"))
    env.pop("NUMBA_CACHE_DIR", None)
    with tempfile.TemporaryFile("w+b") as out:
        t = time.time()
        p = subprocess.Popen([PY, os.path.join(HERE, "job.py"), spec], env=env, stdout=out, stderr=subprocess.STDOUT,
                             cwd=WORK)
        _, status, ru = os.wait4(p.pid, 0)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    row = {"side": side, "spec": spec, "cpu_s": round(ru.ru_utime + ru.ru_stime, 3), "wall_s": round(time.time() - t, 2),
           "status": status}
    try:
        row.update(json.loads(text.strip().splitlines()[-1]))
    except Exception:
        row["error"] = text[-2000:]
    rows.append(row)
    print(json.dumps(row), file=log, flush=True)
    return row


t0 = time.time()
with ThreadPoolExecutor(max(1, 2 * COMPILE_ROUNDS)) as ex:
    futs = []
    for k in range(COMPILE_ROUNDS):
        for side in (("old", "new") if k % 2 == 0 else ("new", "old")):
            cache = CACHE[side] if k == 0 else os.path.join(WORK, f"cache-{side}-{k}")
            futs.append(ex.submit(run, side, "compile", cache))
    [f.result() for f in futs]
t1 = time.time()
with ThreadPoolExecutor(NPAR) as ex:
    futs = []
    for k in range(ROUNDS):
        for spec in SPECS:
            for side in (("old", "new") if k % 2 == 0 else ("new", "old")):
                futs.append(ex.submit(run, side, spec, CACHE[side]))
    [f.result() for f in futs]
t2 = time.time()

lines = [f"devcheck: old main c1d3d02 against the new tree; {os.cpu_count()} CPUs, {NPAR} jobs at a time, "
         f"{ROUNDS} rounds, {COMPILE_ROUNDS} cold compiles per side; compile phase {t1 - t0:.0f} s, timing phase "
         f"{t2 - t1:.0f} s wall; {os.popen('uptime').read().strip()}",
         "CPU seconds per process (user+system), medians; in-process search seconds beside them.",
         f"{'job':14s} {'old cpu':>8s} {'new cpu':>8s} {'new/old':>8s} {'old srch':>8s} {'new srch':>8s} {'new/old':>8s}"
         f"  finds+counters  runs old | new"]
for spec in ["compile"] + SPECS:
    o = [r for r in rows if r["spec"] == spec and r["side"] == "old" and "error" not in r]
    n = [r for r in rows if r["spec"] == spec and r["side"] == "new" and "error" not in r]
    bad = [r for r in rows if r["spec"] == spec and "error" in r]
    if not o or not n:
        lines.append(f"{spec:14s} missing runs; errors: {[b['error'][-300:] for b in bad]}")
        continue
    key = "compile_s" if spec == "compile" else "search_s"
    oc, nc = statistics.median(r["cpu_s"] for r in o), statistics.median(r["cpu_s"] for r in n)
    os_, ns_ = statistics.median(r[key] for r in o), statistics.median(r[key] for r in n)
    same = "-" if spec == "compile" else ("identical" if {r["fp"] for r in o} == {r["fp"] for r in n} and
                                           len({r["fp"] for r in o}) == 1 else "DIFFER")
    lines.append(f"{spec:14s} {oc:8.2f} {nc:8.2f} {nc / oc:8.3f} {os_:8.2f} {ns_:8.2f} {ns_ / os_:8.3f}  {same:14s}  "
                 f"{runs(o)} | {runs(n)}"
                 + (f"  ({len(bad)} failed)" if bad else ""))
lines.append("compile row: process CPU of a cold start that builds the searcher (pass B, band 1 0, band 2 18), and the "
             "seconds inside Numba's compilations (srch columns).")
open(OUTFILE, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
