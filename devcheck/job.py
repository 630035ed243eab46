"""One timed job of devcheck/run.sh, run in its own process with PYTHONPATH at one side's tree.

    python job.py SPEC          SPEC: P:R (bench slice P:R:0-0 from bench_ids.json), band:P:R (whole band 1)
    python job.py compile       a cold compile of the search's kernels (the s17-search command's workload)

Prints one JSON line: the in-process search seconds, the finds and counters (hashed), and for
``compile`` the seconds Numba spent compiling (top-level compilations, CPU)."""
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = sys.argv[1]
compile_s = [0.0]
if spec == "compile":
    from numba.core import event

    class _Timer(event.Listener):
        depth = 0

        def on_start(self, ev):
            if self.depth == 0:
                self.t0 = time.process_time()
            self.depth += 1

        def on_end(self, ev):
            self.depth -= 1
            if self.depth == 0:
                compile_s[0] += time.process_time() - self.t0

    event.register("numba:compile", _Timer())

import numpy as np  # noqa: E402
from sudoku_symmetry.engine.search17 import search_slice  # noqa: E402

t0 = time.process_time()
if spec == "compile":
    # band 2 18 of band 1 0 (pass B): the searcher is built (every kernel a pair calls), no pair searched
    runs = [("B", 0, 18, 19)]
elif spec.startswith("band:"):
    _, p, r = spec.split(":")
    runs = [(p, int(r), 0, None)]
else:
    p, r = spec.split(":")
    ids = json.load(open(os.path.join(HERE, "bench_ids.json")))[f"{p}:{r}:0-0"]
    runs = [(p, int(r), i, i + 1) for i in ids]
found, inproc, h, stats = 0, 0.0, hashlib.sha1(), {}
for p, r, a, b in runs:
    s = search_slice(p, r, a, b)
    found += len(s.puzzles)
    inproc += s.seconds
    h.update(np.ascontiguousarray(s.puzzles).tobytes())
    for k, v in s.stats.items():
        stats[k] = stats.get(k, 0) + v
h.update(json.dumps(stats, sort_keys=True).encode())
print(json.dumps({"spec": spec, "found": found, "search_s": round(inproc, 3), "compile_s": round(compile_s[0], 2),
                  "total_s": round(time.process_time() - t0, 3), "fp": h.hexdigest()[:16]}))
