"""Benchmarks of the pattern search and the neighbourhood (one core, CPU seconds).

    python bench/bench_explore.py whole --patterns 5 --seed 48 --state runs/whole.json
    python bench/bench_explore.py vicinity --puzzles 20 --seed 48 [--minus 2 --plus 2]
    python bench/bench_explore.py closure --index 0 --steps 3

``whole``: whole 17-clue patterns (those of list puzzles drawn at random with ``--seed``, and
``--top K`` of the patterns carrying the most 17s), each searched to its end; the search's
cursor is saved in ``--state`` (JSON) after every kernel call, so a killed run resumes where it
stopped (run it under ``nice`` in the background). Prints per pattern the CPU seconds, classes
found, solver checks, and whether every list 17 on the pattern was found (and nothing else:
the list is complete); then the median seconds per pattern.

``vicinity``: {-N+M} of list 17s drawn at random: candidate puzzles per CPU second (candidates
are the sets of added givens that break no unit, over every removal: the same count for any
tool) and the classes found, each checked against the list (a 17 found outside it is an error).

``closure``: the {-1+1} walk from one list 17 for ``--steps`` steps: per step the new classes
and how many of them are list 17s.

The side-by-side runs with gridchecker are ``bench/explore_native.py``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import read_lines  # noqa: E402


def _list_forms(lines: list[str]) -> tuple[np.ndarray, set[str]]:
    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.text import as_batch, format_lines

    batch = as_batch(lines)
    return batch, set(format_lines(canon_puzzles(batch).forms))


def list_patterns(batch: np.ndarray) -> tuple[np.ndarray, dict[bytes, list[int]]]:
    """The box-first canonical pattern key of each list puzzle, and the puzzles per key."""
    from sudoku_symmetry.engine.patterns import canonical_forms

    cells = canonical_forms((batch > 0).astype(np.uint8)).cells
    keys = [row.tobytes() for row in np.packbits(cells, axis=1)]
    groups: dict[bytes, list[int]] = {}
    for i, k in enumerate(keys):
        groups.setdefault(k, []).append(i)
    return np.array(keys, dtype=object), groups


def sample_patterns(batch: np.ndarray, n: int, seed: int, top: int) -> list[int]:
    """Indexes of list puzzles whose patterns are benchmarked: the first puzzle of each of the
    ``top`` patterns with most 17s, then ``n`` drawn at random (patterns not yet taken)."""
    keys, groups = list_patterns(batch)
    order = sorted(groups, key=lambda k: -len(groups[k]))
    chosen = [groups[k][0] for k in order[:top]]
    taken = {keys[i] for i in chosen}
    rng = np.random.default_rng(seed)
    for i in rng.permutation(len(batch)):
        if len(chosen) >= top + n:
            break
        if keys[i] not in taken:
            taken.add(keys[i])
            chosen.append(int(i))
    return chosen


def whole(args) -> None:
    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.explore import PatternSearch
    from sudoku_symmetry.engine.text import format_lines

    from sudoku_symmetry.engine.text import as_batch

    batch = as_batch(read_lines("17clue_49158.txt"))
    state_path = Path(args.state)
    state = json.loads(state_path.read_text()) if state_path.exists() else {}
    if "chosen" not in state:
        state = {"seed": args.seed, "chosen": sample_patterns(batch, args.patterns, args.seed, args.top), "runs": {}}
    keys, groups = list_patterns(batch)
    for index in state["chosen"]:
        run = state["runs"].setdefault(str(index), {"cursor": None, "found": []})
        pattern = batch[index] > 0
        if not (run["cursor"] or {}).get("done"):
            search = PatternSearch(pattern)
            search.resume(run["cursor"])
            for puzzles, _ in search.run():
                run["found"] += format_lines(canon_puzzles(puzzles).forms) if len(puzzles) else []
                run["cursor"] = search.cursor()
                run["info"] = search.info()
                run["progress"] = search.progress()
                tmp = state_path.with_suffix(".tmp")
                tmp.write_text(json.dumps(state))
                os.replace(tmp, state_path)
        members = groups[keys[index]]
        expected = set(format_lines(canon_puzzles(batch[members]).forms))
        run["expected"] = len(expected)
        run["agrees"] = set(run["found"]) == expected
        tmp = state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state))
        os.replace(tmp, state_path)
    report(state)


def report(state: dict) -> None:
    print(f"{'list line':>9s} {'CPU s':>10s} {'classes':>8s} {'list 17s':>8s} {'agrees':>6s} {'checks':>14s} "
          f"{'checks/s':>10s}")
    done = []
    for index in state["chosen"]:
        run = state["runs"].get(str(index))
        if not run or not run.get("cursor"):
            continue
        info = run.get("info", {})
        sec = info.get("cpu_seconds", 0.0)
        fin = run["cursor"].get("done")
        if fin:
            done.append(sec)
        rate = info.get("checks", 0) / sec if sec else 0
        print(f"{index + 1:>9d} {sec:>10.0f} {len(run['found']):>8d} {run.get('expected', '-')!s:>8s} "
              f"{run.get('agrees', '-')!s:>6s} {info.get('checks', 0):>14,d} {rate:>10,.0f}"
              + ("" if fin else f"  (running, about {100 * run.get('progress', 0):.1f} %)"))
    if done:
        print(f"median CPU seconds per whole pattern: {statistics.median(done):,.0f} over {len(done)} patterns")


def vicinity(args) -> None:
    from sudoku_symmetry.engine.explore import neighbourhood

    lines = read_lines("17clue_49158.txt")
    batch, forms = _list_forms(lines)
    rng = np.random.default_rng(args.seed)
    picks = rng.choice(len(batch), args.puzzles, replace=False)
    neighbourhood(batch[0], args.minus, args.plus)  # compiled before timing
    total_c = total_t = 0.0
    found = outside = 0
    for i in picks:
        t0 = time.process_time()
        near = neighbourhood(batch[i], args.minus, args.plus)
        dt = time.process_time() - t0
        total_c += near.checked
        total_t += dt
        found += len(near)
        outside += sum(1 for f in near.forms if f not in forms)
        print(f"line {i + 1:>6d}: {near.checked:>10,d} candidates {dt:>8.2f} s {near.checked / dt:>12,.0f}/s "
              f"{len(near):>4d} classes")
    print(f"{{-{args.minus}+{args.plus}}} of {args.puzzles} list 17s: {total_c:,.0f} candidates in {total_t:.2f} CPU s: "
          f"{total_c / total_t:,.0f} per second; {found} classes, {outside} not in the list")


def closure(args) -> None:
    from sudoku_symmetry.engine.explore import walk

    lines = read_lines("17clue_49158.txt")
    batch, forms = _list_forms(lines)
    for step in walk(batch[args.index:args.index + 1], 1, 1, args.steps):
        in_list = sum(1 for f in step.forms if f in forms)
        print(f"step {step.number}: {len(step.forms)} new classes, {in_list} of them list 17s "
              f"({step.checked:,} candidates, {step.cpu_seconds:.1f} CPU s)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    w = sub.add_parser("whole")
    w.add_argument("--patterns", type=int, default=5)
    w.add_argument("--top", type=int, default=1)
    w.add_argument("--seed", type=int, default=48)
    w.add_argument("--state", default="explore_whole.json")
    w.add_argument("--report", action="store_true", help="print the table of the state file and stop")
    v = sub.add_parser("vicinity")
    v.add_argument("--puzzles", type=int, default=20)
    v.add_argument("--seed", type=int, default=48)
    v.add_argument("--minus", type=int, default=1)
    v.add_argument("--plus", type=int, default=1)
    c = sub.add_parser("closure")
    c.add_argument("--index", type=int, default=0)
    c.add_argument("--steps", type=int, default=3)
    args = ap.parse_args()
    if args.what == "whole":
        if args.report:
            report(json.loads(Path(args.state).read_text()))
        else:
            whole(args)
    elif args.what == "vicinity":
        vicinity(args)
    else:
        closure(args)


if __name__ == "__main__":
    main()
