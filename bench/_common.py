"""Shared by the benchmarks: timing medians, the data folder, a table printer."""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
sys.path.insert(0, str(ROOT / "tests"))  # the slow references live beside the tests


def median_seconds(fn, repeats: int = 5, clock=time.perf_counter) -> float:
    """Median time of ``fn()`` over ``repeats`` runs (after the caller's warm-up): wall time, or
    CPU time with ``clock=time.process_time`` (on a shared machine wall time counts other
    processes' time slices, 4-12 ms each under load, which swamp sub-millisecond calls)."""
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def print_table(title: str, rows: list[tuple]) -> None:
    """rows: (job, items, seconds, target per second or None)."""
    print(f"\n{title}")
    print(f"{'job':58s} {'items':>10s} {'per second':>14s} {'target':>12s}")
    for job, items, seconds, target in rows:
        rate = items / seconds if seconds else float("inf")
        tgt = f"{target:,.0f}" if target else "-"
        print(f"{job:58s} {items:>10,d} {rate:>14,.0f} {tgt:>12s}")


def read_lines(name: str) -> list[str]:
    text = (DATA / name).read_text()
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


# -- side by side with a native tool -----------------------------------------------------------
# A native tool is driven through a small harness built outside the project tree (never
# vendored; see the README's benchmark section for the sources and the build): it is called as
# ``PATH MODE FILE REPEAT`` and prints one line ``<items> <cpu seconds>`` per repeat, timing only
# its canon loop (parsing and output are outside the clock, as for the project's figures).


def native_seconds(path: str, mode: str, file: str) -> tuple[int, float]:
    """One run of the native harness ``path`` in ``mode`` over ``file``: (items, CPU seconds)."""
    import subprocess

    out = subprocess.run([path, mode, str(file), "1"], check=True, capture_output=True, text=True).stdout
    items, secs = out.split()[:2]
    return int(items), float(secs)


def cpu_seconds(fn) -> float:
    """CPU time of one call (process time: other load on the shared machine matters less)."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def side_by_side(project_fn, items: int, native: str | None, mode: str, file, pairs: int = 6) -> dict:
    """Alternate ``pairs`` runs of the native tool and of the project (one process tree, same
    inputs); returns the project's and the tool's medians per second and the median of the
    per-pair ratios (project / tool).  Without ``native``: the project's median alone."""
    proj, tool, ratios = [], [], []
    for _ in range(pairs):
        if native:
            n, secs = native_seconds(native, mode, file)
            if n != items:
                raise RuntimeError(f"native tool read {n} items, the project {items}")
            tool.append(items / secs)
        proj.append(items / cpu_seconds(project_fn))
        if native:
            ratios.append(proj[-1] / tool[-1])
    res = {"project": statistics.median(proj), "project_spread": (min(proj), max(proj))}
    if native:
        res.update(tool=statistics.median(tool), tool_spread=(min(tool), max(tool)), ratio=statistics.median(ratios),
                   ratio_spread=(min(ratios), max(ratios)))
    return res


def print_side_by_side(rows: list[tuple]) -> None:
    """rows: (job, items, side_by_side result, target per second or None)."""
    print(f"{'job':44s} {'items':>8s} {'project/s':>11s} {'tool/s':>11s} {'ratio':>6s} {'ratio range':>12s} {'target':>10s}")
    for job, items, r, target in rows:
        tool = f"{r['tool']:,.0f}" if "tool" in r else "-"
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else "-"
        spread = f"{r['ratio_spread'][0]:.2f}-{r['ratio_spread'][1]:.2f}" if "ratio" in r else "-"
        tgt = f"{target:,.0f}" if target else "-"
        print(f"{job:44s} {items:>8,d} {r['project']:>11,.0f} {tool:>11s} {ratio:>6s} {spread:>12s} {tgt:>10s}")


def write_lines(batch, path) -> None:
    """(N, 81) uint8 sudokus -> a text file, one 81-character line each ('.' for empty)."""
    from sudoku_symmetry.engine.text import format_lines

    Path(path).write_text("".join(line + "\n" for line in format_lines(batch)))
