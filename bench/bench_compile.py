"""Compile time of the kernels the commands use: every command's paths run once, in one process,
with an empty kernel cache, each Numba compilation timed (``numba.core.event``).

    python bench/bench_compile.py [--top 30] [--only band,canon,...] [--keep DIR] [--warmup] [--entry-points]

Prints per command the compile seconds it added (commands run in the order listed, so a kernel
two commands share is counted once, with the first), the total, and the kernels by exclusive
compile time (their own typing, lowering and LLVM, without the kernels they call, which compile
as their own dispatchers): name, signatures compiled, seconds. A kernel compiled for two
signatures (int32 and int64 arguments, C and A layouts, a read-only and a writable array) shows
``2`` in the signatures column. CPU seconds matter here: compilation is single-threaded.

The workloads are the commands themselves (``main(argv)``) on tiny inputs
(``tests/command_workloads.py``), with a throwaway catalog and cache folder (``--keep DIR`` keeps
them there instead); ``--warmup`` times ``engine/warmup.py``'s steps instead, the total compile
time of every kernel the commands use (what ``bin/populate`` does once). A benchmark: it asserts
nothing.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from command_workloads import run_command, workloads  # noqa: E402  (shared with tests/test_warmup.py)

class Compiles:
    """Inclusive and exclusive seconds per (kernel, signature) from the compile events."""

    def __init__(self):
        self.stack: list[list] = []  # [key, start, children seconds]
        self.exclusive = defaultdict(float)
        self.signatures = defaultdict(set)
        self.total = 0.0

    def on(self, event) -> None:
        from numba.core.event import EventStatus

        d = event.data["dispatcher"]
        name = f"{d.py_func.__module__.replace('sudoku_symmetry.engine.', '')}.{d.py_func.__qualname__}"
        if event.status == EventStatus.START:
            self.stack.append([name, time.process_time(), 0.0, str(event.data["args"])])
            return
        key, start, children, sig = self.stack.pop()
        took = time.process_time() - start
        self.exclusive[key] += took - children
        self.signatures[key].add(sig)
        if self.stack:
            self.stack[-1][2] += took
        else:
            self.total += took


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", type=int, default=30, help="kernels listed (by exclusive compile time)")
    ap.add_argument("--only", help="comma-separated commands (default: all)")
    ap.add_argument("--keep", type=Path, help="cache folder and catalog here (default: a throwaway folder)")
    ap.add_argument("--warmup", action="store_true",
                    help="time engine/warmup.py's steps instead of the commands (what bin/populate compiles)")
    ap.add_argument("--entry-points", action="store_true",
                    help="also list every kernel called from Python with its signatures (run twice with --keep: "
                         "in a warm process those are the only ones with signatures)")
    args = ap.parse_args(argv)
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="sudoku-bench-compile-"))
    tmp.mkdir(parents=True, exist_ok=True)
    os.environ.pop("NUMBA_CACHE_DIR", None)
    os.environ["SUDOKU_CACHE_DIR"] = str(tmp / "cache")
    os.environ["SUDOKU_CATALOG"] = str(tmp / "catalog.sqlite")
    from numba.core import event

    work = workloads(tmp)
    names = args.only.split(",") if args.only else list(work)
    rec = Compiles()

    class Listener(event.Listener):
        def on_start(self, ev):
            rec.on(ev)

        def on_end(self, ev):
            rec.on(ev)

    event.register("numba:compile", Listener())
    print(f"cache {tmp / 'cache'}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.warmup:
        from sudoku_symmetry.engine.warmup import STEPS

        work = {name: [step] for name, step in STEPS}
        names = [name for name, _ in STEPS]
    print(f"{'step' if args.warmup else 'command':12s} {'compile s':>10s} {'wall s':>8s} {'kernels':>8s}")
    for name in names:
        before, kernels, t0 = rec.total, len(rec.exclusive), time.perf_counter()
        for argv_ in work[name]:
            argv_() if args.warmup else run_command(name, argv_)
        print(f"{name:12s} {rec.total - before:>10.1f} {time.perf_counter() - t0:>8.1f} "
              f"{len(rec.exclusive) - kernels:>8d}", flush=True)
    print(f"{'total':12s} {rec.total:>10.1f} {'':>8s} {len(rec.exclusive):>8d}")
    print(f"\n{'kernel (exclusive compile seconds)':64s} {'sigs':>4s} {'s':>7s}")
    for key, secs in sorted(rec.exclusive.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{key[:64]:64s} {len(rec.signatures[key]):>4d} {secs:>7.2f}")
    if args.entry_points:
        from numba.core.registry import CPUDispatcher

        print("\nkernels with signatures in this process:")
        seen = set()
        for mod_name, mod in sorted(sys.modules.items()):
            if not mod_name.startswith("sudoku_symmetry.engine"):
                continue
            for attr, obj in sorted(vars(mod).items()):
                if isinstance(obj, CPUDispatcher) and obj.signatures and id(obj) not in seen:
                    seen.add(id(obj))
                    print(f"  {obj.py_func.__module__}.{obj.py_func.__qualname__}: {len(obj.signatures)}")
    multi = {k: v for k, v in rec.signatures.items() if len(v) > 1}
    if multi:
        print("\nkernels compiled for more than one signature:")
        for k, sigs in sorted(multi.items()):
            print(f"  {k}: " + " | ".join(sorted(sigs)))


if __name__ == "__main__":
    main()
