"""The pattern search and the neighbourhood side by side with dobrichev's gridchecker (built
outside the tree, e.g. /work/tools/gridchecker/gridchecker; ``--gridchecker PATH`` or the
GRIDCHECKER variable), and the expected values the tests read.

    python bench/explore_native.py expected            # writes tests/data/explore_gridchecker.json
    python bench/explore_native.py pattern --patterns 5 --seed 48 [--fixed-clues 9]
    python bench/explore_native.py vicinity --puzzles 10 --seed 48 [--minus 2]
    python bench/explore_native.py pieces --line 20578 --state bench/data/explore_whole_gridchecker.jsonl

``expected``: the cases of tests/test_explore_pattern.py (list 17s drawn with seed 48, 12 of the
17 clues fixed, the other 5 free, chosen with the list line as seed; and cases that are not 17s:
a list 17's pattern with 3 empty cells added, 14 digits fixed) run through
``gridchecker --pattern --enumerate PATTERN --fixclues FIXED``; gridchecker prints every puzzle
(every digit of the free cells), the file keeps their canonical forms (the project's canon,
which only removes the copies) and the number of lines gridchecker printed; and {-1+1} of a few
list 17s (gridchecker's classes less the puzzle's own). gridchecker cuts a
branch as soon as its logic (singles and locked candidates) solves the givens placed so far: on
a pattern whose puzzles are not all minimal it prints every minimal puzzle and only some of the
others (the tests check that it lies between the project's minimal and complete answers).

``pattern``: whole 17-clue patterns (those of list puzzles drawn with ``--seed``), each run by
gridchecker ``--pattern --enumerate`` and by the project's search, alternating, CPU seconds of
each (gridchecker's from the child's rusage), and whether both found the same classes.
gridchecker fixes one unit's givens to 1, 2, ... (no other symmetry), the project uses the
pattern's automorphisms too. ``--fixed-clues K``: the first K clues of each list puzzle fixed
(``--fixclues`` for gridchecker), the rest of the pattern searched: the same comparison in seconds.

``vicinity``: {-1+1} (``--minus 2``: {-2+2}) of list 17s by gridchecker (``--similar --minus1``,
then ``--similar --plus1 --unique`` or ``--plus2``) and by the project, alternating, CPU seconds,
and whether both found the same classes.

``pieces``: a whole 17-clue pattern by gridchecker, in pieces that one session can finish and the
next resume: gridchecker's own start (the unit with the most clues numbered 1, 2, ..., then its
order of the other clue cells, read from its source, patterns.cpp ``enumerate``) with the first
``--split`` cells of that order given every digit they can take, each piece one
``--pattern --enumerate --fixclues`` run. gridchecker orders the cells after a given one exactly
as after one it placed, so the pieces are the subtrees of its whole run and their CPU seconds add
up to it. Rows (piece, CPU seconds, lines) are appended to ``--state`` (JSON lines) as pieces end,
in a seeded random order, so a partial run gives an unbiased estimate of the whole (mean x pieces)
and a complete one the measurement; ``--budget`` stops after so many CPU seconds. ``--check``
runs the unsplit search once beside the pieces (with ``--fixed-clues``, where it is quick) to show
that the pieces' lines and seconds add up to it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, read_lines  # noqa: E402

GRIDCHECKER = os.environ.get("GRIDCHECKER", "/work/tools/gridchecker/gridchecker")
FREE = 5
"""Clues of a list 17 left free in the test cases (the others fixed)."""
VICINITY_LINES = (2387, 39781, 17146, 25255, 6389, 0, 46065)
"""List 17s (0-based lines) whose {-1+1} the tests compare with gridchecker's (5, 2, 3, 2, 3, 0
and 1 classes)."""


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def gridchecker(exe: str, args: list[str], stdin: str | None = None) -> tuple[list[str], float]:
    """gridchecker's output lines (81-character puzzles only) and its CPU seconds."""
    before = _child_cpu()
    r = subprocess.run([exe, *args], input=stdin, capture_output=True, text=True)
    if r.returncode < 0:  # its exit status is not an error flag (--enumerate returns a count); a signal is
        raise RuntimeError(f"gridchecker {' '.join(args)}: killed by signal {-r.returncode}")
    out = r.stdout
    lines = [ln[:81] for ln in out.splitlines() if len(ln) >= 81 and all(c in ".0123456789" for c in ln[:81])]
    return lines, _child_cpu() - before


def _digits(pattern: str) -> str:
    """A pattern as gridchecker reads one: a digit on each clue cell (it takes any other
    character as empty)."""
    return pattern.replace("x", "1")


def _forms(lines) -> list[str]:
    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.text import as_batch, format_lines

    return sorted(set(format_lines(canon_puzzles(as_batch(list(lines))).forms))) if len(lines) else []


def list_cases(batch: np.ndarray, n_random: int = 20, seed: int = 48) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The test's list cases: (line index, pattern, fixed) with FREE clues left free."""
    rng = np.random.default_rng(seed)
    out = []
    for index in (int(i) for i in rng.choice(len(batch), n_random, replace=False)):
        puzzle = batch[index]
        free = np.random.default_rng(index).choice(np.flatnonzero(puzzle), FREE, replace=False)
        fixed = puzzle.copy()
        fixed[free] = 0
        out.append((index, puzzle > 0, fixed))
    return out


def wider_cases(batch: np.ndarray, n: int = 4, seed: int = 4848) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Patterns of 20 cells: a list 17's pattern with 3 empty cells added; 14 of the 17 clues
    fixed, the other 3 and the added cells free (puzzles that are not all minimal)."""
    rng = np.random.default_rng(seed)
    out = []
    for index in (int(i) for i in rng.choice(len(batch), n, replace=False)):
        puzzle = batch[index]
        pattern = puzzle > 0
        pattern[rng.choice(np.flatnonzero(puzzle == 0), 3, replace=False)] = True
        fixed = puzzle.copy()
        fixed[rng.choice(np.flatnonzero(puzzle), 3, replace=False)] = 0
        out.append((index, pattern, fixed))
    return out


def expected(args) -> None:
    from sudoku_symmetry.engine.explore import format_pattern
    from sudoku_symmetry.engine.text import as_batch, format_lines

    batch = as_batch(read_lines("17clue_49158.txt"))
    cases = []
    for kind, group in (("list", list_cases(batch)), ("wider", wider_cases(batch))):
        for index, pattern, fixed in group:
            p, f = format_pattern(pattern), format_lines(fixed[None, :])[0]
            lines, sec = gridchecker(args.gridchecker, ["--pattern", "--enumerate", _digits(p), "--fixclues", f])
            cases.append({"kind": kind, "line": index + 1, "pattern": p, "fixed": f, "gridchecker_lines": len(lines),
                          "canonical": _forms(lines)})
            print(f"{kind} line {index + 1}: {len(lines)} lines, {len(cases[-1]['canonical'])} classes, {sec:.2f} s",
                  flush=True)
    lines = read_lines("17clue_49158.txt")
    near = []
    for index in VICINITY_LINES:
        found, sec = gridchecker_vicinity(args.gridchecker, lines[index], 1)
        forms = sorted(set(_forms(found)) - set(_forms([lines[index]])))
        near.append({"line": index + 1, "puzzle": lines[index], "gridchecker_lines": len(found), "canonical": forms})
        print(f"{{-1+1}} line {index + 1}: {len(found)} lines, {len(forms)} classes, {sec:.2f} s", flush=True)
    out = {"origin": "dobrichev/gridchecker (GitHub), built here with g++ -O3 -march=native; for each case "
                     "`gridchecker --pattern --enumerate PATTERN --fixclues FIXED` (PATTERN with 1 on its cells), "
                     "its puzzles' canonical forms (the project's canon_puzzles); for each {-1+1} case `gridchecker "
                     "--similar --minus1 < PUZZLE | gridchecker --similar --plus1 --unique`, the canonical forms "
                     "less the puzzle's own; made by `python bench/explore_native.py expected`",
           "cases": cases, "vicinity": near}
    path = ROOT / "tests" / "data" / "explore_gridchecker.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


def pattern(args) -> None:
    from sudoku_symmetry.engine.explore import format_pattern, puzzles_on_pattern
    from sudoku_symmetry.engine.text import as_batch, format_lines

    sys.path.insert(0, str(ROOT / "bench"))
    from bench_explore import sample_patterns

    batch = as_batch(read_lines("17clue_49158.txt"))
    puzzles_on_pattern(batch[0] > 0, fixed=np.where(np.arange(81) < 60, batch[0], 0))  # compiled before timing
    ours, theirs = [], []
    for index in sample_patterns(batch, args.patterns, args.seed, args.top):
        p = format_pattern(batch[index] > 0)
        fixed = None
        if args.fixed_clues is not None:  # the first K clues of the list puzzle (reading order) fixed
            fixed = batch[index].copy()
            fixed[np.flatnonzero(fixed)[args.fixed_clues:]] = 0
        extra = [] if fixed is None else ["--fixclues", format_lines(fixed[None, :])[0]]
        for turn in range(2):  # alternate which side goes first
            if (turn + len(ours)) % 2 == 0:
                t0 = time.process_time()
                found = puzzles_on_pattern(p, fixed=fixed)
                mine = time.process_time() - t0
            else:
                lines, sec = gridchecker(args.gridchecker, ["--pattern", "--enumerate", _digits(p), *extra])
        same = _forms(lines) == _forms(found.puzzles)
        ours.append(mine)
        theirs.append(sec)
        print(f"line {index + 1}: project {mine:.2f} s ({found.classes} classes), gridchecker {sec:.2f} s "
              f"({len(lines)} lines), same classes: {same}", flush=True)
    what = "whole patterns" if args.fixed_clues is None else f"patterns with {args.fixed_clues} clues fixed"
    print(f"{what}: median CPU s per pattern: project {statistics.median(ours):.2f}, gridchecker "
          f"{statistics.median(theirs):.2f}, ratio {statistics.median(theirs) / statistics.median(ours):.2f}x")


def gridchecker_vicinity(exe: str, puzzle: str, minus: int) -> tuple[list[str], float]:
    """{-minus+minus} of one puzzle by gridchecker: ``--similar --minus1`` ``minus`` times (each
    time every puzzle less one clue, printed in its canonical form; repeats removed between the
    steps), then ``--similar --plus1 --unique`` (minus 1) or ``--similar --plus2`` (minus 2),
    which print the unique puzzles with one or two givens added; the lines and the CPU seconds."""
    lines, total = [puzzle], 0.0
    for _ in range(minus):
        lines, sec = gridchecker(exe, ["--similar", "--minus1"], stdin="\n".join(lines) + "\n")
        lines = sorted(set(lines))
        total += sec
    plus = ["--similar", "--plus1", "--unique"] if minus == 1 else ["--similar", "--plus2"]
    found, sec = gridchecker(exe, plus, stdin="\n".join(lines) + "\n")
    return found, total + sec


def vicinity(args) -> None:
    from sudoku_symmetry.engine.explore import neighbourhood
    from sudoku_symmetry.engine.text import as_batch

    lines = read_lines("17clue_49158.txt")
    batch = as_batch(lines)
    picks = np.random.default_rng(args.seed).choice(len(batch), args.puzzles, replace=False)
    neighbourhood(batch[0], args.minus, args.minus)
    ours, theirs, checked = [], [], 0
    for i in picks:
        t0 = time.process_time()
        near = neighbourhood(batch[i], args.minus, args.minus)
        ours.append(time.process_time() - t0)
        checked += near.checked
        found, sec = gridchecker_vicinity(args.gridchecker, lines[i], args.minus)
        theirs.append(sec)
        same = set(_forms(found)) - set(_forms([lines[i]])) == set(near.forms)
        print(f"line {i + 1}: project {ours[-1]:.3f} s ({len(near)} classes, {near.checked:,} candidates), "
              f"gridchecker {sec:.3f} s ({len(found)} lines), same classes: {same}", flush=True)
    print(f"{{-{args.minus}+{args.minus}}} of {len(picks)} list 17s: {checked:,} candidates; project {sum(ours):.2f} "
          f"CPU s ({checked / sum(ours):,.0f} per second), gridchecker {sum(theirs):.2f} CPU s, "
          f"ratio {sum(theirs) / sum(ours):.2f}x")


UNITS = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)] + \
    [[(3 * (b // 3) + i // 3) * 9 + 3 * (b % 3) + i % 3 for i in range(9)] for b in range(9)]
"""gridchecker's units in its order: rows, columns, boxes, each cell in reading order."""


def gridchecker_start(pattern: np.ndarray, fixed: np.ndarray | None = None) -> tuple[np.ndarray, list[int]]:
    """gridchecker's start of ``--pattern --enumerate`` (patterns.cpp ``enumerate``): the digits it
    gives (``fixed`` on the pattern's cells, or else the last unit with the most clue cells,
    numbered 1, 2, ... in its cell order) and the order in which it places the other clue cells
    (most clues seen that are placed, then most not placed, then most not placed in the cell's
    chutes outside its box; ties to the first cell)."""
    given = np.zeros(81, np.int64)
    if fixed is not None:
        given[pattern] = fixed[pattern]
    else:
        counts = [int(pattern[u].sum()) for u in UNITS]
        best = max(i for i in range(27) if counts[i] == max(counts))
        k = 0
        for c in UNITS[best]:
            if pattern[c]:
                k += 1
                given[c] = k
    placed = given > 0
    clues = [int(c) for c in np.flatnonzero(pattern)]
    order = []
    for _ in range(len(clues) - int(placed.sum())):
        best, top = -1, 0
        for i in clues:
            if placed[i]:
                continue
            ri, ci, bi = i // 9, i % 9, (i // 27) * 3 + (i % 9) // 3
            rating = 0
            for j in clues:
                if j == i:
                    continue
                rj, cj, bj = j // 9, j % 9, (j // 27) * 3 + (j % 9) // 3
                if ri == rj or ci == cj or bi == bj:
                    rating += 10000 if placed[j] else 100
                if not placed[j] and (ri // 3 == rj // 3 or ci // 3 == cj // 3) and bi != bj:
                    rating += 1
            if top < rating:
                best, top = i, rating
        placed[best] = True
        order.append(best)
    return given, order


def _sees(a: int, b: int) -> bool:
    return a // 9 == b // 9 or a % 9 == b % 9 or ((a // 27) * 3 + (a % 9) // 3) == ((b // 27) * 3 + (b % 9) // 3)


def gridchecker_pieces(given: np.ndarray, cells: list[int]) -> list[np.ndarray]:
    """Every digit assignment to ``cells`` (on top of ``given``) that breaks no unit: the pieces
    of gridchecker's search below those cells (those its logic rules out end at once)."""
    out = [given.copy()]
    for c in cells:
        nxt = []
        for g in out:
            seen = {int(g[j]) for j in range(81) if g[j] and _sees(c, j)}
            for d in range(1, 10):
                if d not in seen:
                    h = g.copy()
                    h[c] = d
                    nxt.append(h)
        out = nxt
    return out


def pieces(args) -> None:
    from sudoku_symmetry.engine.explore import format_pattern
    from sudoku_symmetry.engine.text import as_batch, format_lines

    lines = read_lines("17clue_49158.txt")
    batch = as_batch(lines)
    puzzle = batch[args.line - 1]
    pattern = puzzle > 0
    fixed = None
    if args.fixed_clues is not None:
        fixed = puzzle.copy()
        fixed[np.flatnonzero(fixed)[args.fixed_clues:]] = 0
    given, order = gridchecker_start(pattern, fixed)
    parts = gridchecker_pieces(given, order[:args.split])
    np.random.default_rng(args.seed).shuffle(parts)
    p = _digits(format_pattern(pattern))
    state = Path(args.state)
    done = {}
    if state.exists():
        for row in map(json.loads, filter(str.strip, state.read_text().splitlines())):
            done[row["fixclues"]] = row
    print(f"list line {args.line}: gridchecker gives {int((given > 0).sum())} digits, then places "
          f"{order[:args.split]} first: {len(parts)} pieces, {len(done)} done", flush=True)
    spent = 0.0
    for part in parts:
        key = format_lines(part[None, :])[0]
        if key in done:
            continue
        if args.budget and spent >= args.budget:
            break
        found, sec = gridchecker(args.gridchecker, ["--pattern", "--enumerate", p, "--fixclues", key])
        spent += sec
        row = {"line": args.line, "fixclues": key, "cpu": round(sec, 3), "lines": len(found), "found": sorted(set(found))}
        done[key] = row
        with state.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(f"{len(done):4d}/{len(parts)} {key} {sec:9.2f} s {len(found)} lines", flush=True)
    rows = [done[format_lines(q[None, :])[0]] for q in parts if format_lines(q[None, :])[0] in done]
    total = sum(r["cpu"] for r in rows)
    found = sorted({x for r in rows for x in r["found"]})
    if len(rows) == len(parts):
        print(f"gridchecker, whole: {total:,.1f} CPU s over {len(parts)} pieces, {len(found)} puzzles, "
              f"{len(_forms(found))} classes")
    elif rows:
        print(f"gridchecker: {len(rows)} of {len(parts)} pieces, {total:,.1f} CPU s; the whole about "
              f"{total / len(rows) * len(parts):,.0f} CPU s (the mean piece times the pieces, drawn at random)")
    if fixed is not None:
        on = np.flatnonzero(fixed)
        members = np.flatnonzero(((batch > 0) == pattern).all(axis=1) & (batch[:, on] == fixed[on]).all(axis=1))
        print(f"the list's puzzles holding them: {len(members)} ({len(_forms([lines[i] for i in members]))} classes)")
    if args.check:
        extra = [] if fixed is None else ["--fixclues", format_lines(given[None, :])[0]]
        whole_lines, sec = gridchecker(args.gridchecker, ["--pattern", "--enumerate", p, *extra])
        print(f"unsplit: {sec:.2f} CPU s, {len(whole_lines)} lines; the pieces: {total:.2f} CPU s, "
              f"same lines: {sorted(set(whole_lines)) == found}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gridchecker", default=GRIDCHECKER)
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("expected")
    p = sub.add_parser("pattern")
    p.add_argument("--patterns", type=int, default=5)
    p.add_argument("--top", type=int, default=0)
    p.add_argument("--seed", type=int, default=48)
    p.add_argument("--fixed-clues", type=int, default=None,
                   help="fix the first K clues of each list puzzle (both tools), the rest of the pattern free")
    v = sub.add_parser("vicinity")
    v.add_argument("--puzzles", type=int, default=10)
    v.add_argument("--seed", type=int, default=48)
    v.add_argument("--minus", type=int, choices=(1, 2), default=1, help="{-1+1} or {-2+2}")
    w = sub.add_parser("pieces")
    w.add_argument("--line", type=int, default=20578, help="the list 17 (1-based line) whose pattern is searched")
    w.add_argument("--fixed-clues", type=int, default=None, help="fix its first K clues (a quick case for --check)")
    w.add_argument("--split", type=int, default=2, help="cells of gridchecker's order given every digit")
    w.add_argument("--seed", type=int, default=48, help="the order of the pieces")
    w.add_argument("--state", required=True, help="JSON lines, one per piece done (resumable)")
    w.add_argument("--budget", type=float, default=0, help="stop after about so many CPU seconds (0: no limit)")
    w.add_argument("--check", action="store_true", help="run the unsplit search too and compare")
    args = ap.parse_args()
    {"expected": expected, "pattern": pattern, "vicinity": vicinity, "pieces": pieces}[args.what](args)


if __name__ == "__main__":
    main()
