"""`solve`: solve sudokus, count their solutions, check uniqueness and minimality.

One output line per input sudoku, in input order (blank and '#' lines produce nothing):

  default            the first solution, or `none`
  --limit N          (N >= 2) the first solution, followed by ` multiple` when there are 2 or more
  --count            the number of solutions, counting stops at --limit (default 1000000), so a
                     value equal to the limit means "at least that many"
  --check            `unique minimal`, `unique not-minimal`, `multiple` or `none`
  --all              every solution, one per line, then a `# N solutions` line per puzzle
                     (comment lines, so the output can be read back); --cap N stops at N each:
                     a puzzle with more than N gets `# N solutions (cap N reached: there are
                     more)` and a line on standard error counts them (exactly N: no mark)
  --logic-only       no guessing: the partly solved sudoku that logic alone reaches (singles,
                     locked candidates, the band permutation rule), as 81 characters with `.`
                     for open cells, then ` solved`, ` stuck` or ` contradiction`; with
                     --candidates the open cells are written as their candidates instead, the 81
                     cells separated by spaces (`4 1 2679 ...`; a placed cell is its digit)

A malformed line prints ``error line N: REASON`` in its place on standard output and a message with its line
number on standard error; the exit status is then 2. Anything after ':' following the 81
cells is ignored, so the shared `puzzle:count` files can be fed directly.
"""
from __future__ import annotations

import argparse
import sys
from functools import partial

import numpy as np

from sudoku_symmetry.engine.solve import solver
from sudoku_symmetry.engine.text import format_lines, format_sudoku, parse_lines

from sudoku_symmetry.commands._common import (CommandParser, EXIT_BAD_INPUT, EXIT_OK, INT64_MAX, add_input_argument,
                                              add_version_argument, count_argument, count_lines, iter_chunks,
                                              parse_problems, progress_bar, run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs

CHUNK = 4096  # puzzles per call into the solver (keeps the progress bar moving)
LINES_PER_CHUNK = 100_000  # input is streamed in chunks of lines
# --format csv/jsonl: the fields of each mode (docs/formats.md)
FIELDS = {"solve": ("solution", "count", "limit"), "count": ("count", "limit"), "check": ("solutions", "minimal"),
          "logic_only": ("state", "status"), "all": ("count", "capped", "solutions")}


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(
        prog="solve",
        description="Solve sudokus, count solutions, check uniqueness and minimality (one output line per input line).",
        epilog="Malformed lines print 'error line N: REASON' in their place (and on stderr); exit status 2 if there were any.",
    )
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="print the number of solutions (capped at --limit)")
    mode.add_argument("--all", action="store_true", help="print every solution (at most --cap per puzzle)")
    mode.add_argument("--check", action="store_true", help="print unique/multiple/none and whether the puzzle is minimal")
    mode.add_argument("--logic-only", action="store_true",
                      help="no guessing: print what logic alone reaches and whether it is solved, stuck or contradiction")
    ap.add_argument("--candidates", action="store_true",
                    help="with --logic-only: write each open cell as its candidates (cells separated by spaces)")
    ap.add_argument("--limit", type=count_argument(1), default=None, metavar="N",
                    help="stop counting at N solutions (default: 1 when solving, 1000000 with --count); "
                    f"with --all, the same as --cap (N from 1 to {INT64_MAX})")
    ap.add_argument("--cap", type=count_argument(0), default=None, metavar="N",
                    help="with --all: at most N solutions per puzzle")
    ap.add_argument("--stats", action="store_true", help="print guesses and the logic-only fraction on stderr")
    add_input_argument(ap, "puzzles")
    add_format_argument(ap, sorted({f for fields in FIELDS.values() for f in fields}))
    add_version_argument(ap)
    return ap


def _mode(args) -> str:
    return next((m for m in ("count", "check", "logic_only", "all") if getattr(args, m)), "solve")


def logic_line(puzzle: np.ndarray, candidates: bool = False, fields: bool = False) -> str | dict:
    """One --logic-only output line for one puzzle (``fields``: as --format's fields)."""
    state = solver.logic_state(puzzle)
    if candidates:
        cand = state.candidates.tolist()
        text = " ".join(str(v) if v else "".join(str(d + 1) for d in range(9) if c >> d & 1) or "-"
                        for v, c in zip(state.cells.tolist(), cand))
    else:
        text = format_sudoku(state.cells)
    return {"state": text, "status": state.status} if fields else f"{text} {state.status}"


def _results(args, batch: np.ndarray, stats: dict, fields: bool = False) -> list[str] | list[dict]:
    """The output lines of a batch of puzzles (``fields``: the --format fields of each)."""
    if args.logic_only:
        return [logic_line(p, args.candidates, fields) for p in batch]
    if args.check:
        counts, minimal = solver.check(batch)
        if fields:
            return [{"solutions": "none" if c == 0 else "multiple" if c > 1 else "unique",
                     "minimal": bool(m) if c == 1 else None} for c, m in zip(counts.tolist(), minimal.tolist())]
        return [
            "none" if c == 0 else "multiple" if c > 1 else ("unique minimal" if m else "unique not-minimal")
            for c, m in zip(counts.tolist(), minimal.tolist())
        ]
    if args.count:
        limit = args.limit or 1_000_000
        res = solver.count_solutions(batch, limit)
        _tally(stats, res)
        if fields:
            return [{"count": c, "limit": limit} for c in res.counts.tolist()]
        return [str(c) for c in res.counts.tolist()]
    limit = args.limit or 1
    res = solver.count_solutions(batch, limit, solutions=True)
    _tally(stats, res)
    sols = format_lines(res.solutions)
    if fields:
        return [{"solution": s if c else None, "count": c, "limit": limit} for c, s in zip(res.counts.tolist(), sols)]
    return [
        "none" if c == 0 else (s + " multiple" if c > 1 else s)
        for c, s in zip(res.counts.tolist(), sols)
    ]


def _tally(stats: dict, res) -> None:
    stats["n"] += len(res)
    stats["guesses"] += int(res.guesses.sum())
    stats["logic"] += int(res.logic_only.sum())


def _all(cap, capped: list, lineno: int, puzzle: np.ndarray, out) -> None:
    """Every solution (at most ``cap``), then ``# N solutions``; one more solution is looked for,
    so a list cut by the cap says so (and ``lineno`` goes into ``capped``)."""
    n = 0
    for sol in solver.iter_solutions(puzzle, cap=None if cap is None else cap + 1):
        if n == cap:
            capped.append(lineno)
            out.write(f"# {n} solutions (cap {cap} reached: there are more)\n")
            return
        out.write(format_sudoku(sol) + "\n")
        n += 1
    out.write(f"# {n} solutions\n")


def _all_fields(cap, capped: list, lineno: int, puzzle: np.ndarray) -> dict:
    """--all's --format fields: the solutions (at most ``cap``), their number, whether the cap cut them."""
    sols = [format_sudoku(s) for s in solver.iter_solutions(puzzle, cap=None if cap is None else cap + 1)]
    cut = cap is not None and len(sols) > cap
    if cut:
        capped.append(lineno)
        sols = sols[:cap]
    return {"count": len(sols), "capped": cut, "solutions": sols}


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.cap is not None and not args.all:
        _parser().error("--cap goes with --all")
    if args.candidates and not args.logic_only:
        _parser().error("--candidates goes with --logic-only")
    if args.logic_only and args.limit is not None:
        _parser().error("--limit does not go with --logic-only (it counts no solution)")
    cap = args.cap
    if args.all and args.limit is not None:
        cap = args.limit if cap is None else min(cap, args.limit)
    out = sys.stdout
    rows = Rows(args.format, FIELDS[_mode(args)], out, sys.stderr)
    status = EXIT_OK
    stats = {"n": 0, "guesses": 0, "logic": 0}
    capped: list[int] = []  # --all: the lines whose solutions the cap cut
    progress = progress_bar(sys.stderr, lambda: count_lines(args.files), unit=" lines")
    for source, chunk, first in iter_chunks(args.files, LINES_PER_CHUNK):
        parsed = parse_lines(chunk, source=source, allow_suffix=True, errors="collect", first_lineno=first)
        linenos = parsed.linenos.tolist()
        if args.all and rows.text:
            # stream: each puzzle's solutions are written as its turn comes
            results = [(ln, partial(_all, cap, capped, ln, parsed.sudokus[k])) for k, ln in enumerate(linenos)]
        elif args.all:
            results = [(ln, _all_fields(cap, capped, ln, parsed.sudokus[k])) for k, ln in enumerate(linenos)]
        else:
            texts: list = []
            for start in range(0, len(parsed), CHUNK):
                texts.extend(_results(args, parsed.sudokus[start : start + CHUNK], stats, not rows.text))
            results = list(zip(linenos, texts))
        if rows.emit(source, chunk_inputs(chunk, first), results, parse_problems(parsed)):
            status = EXIT_BAD_INPUT
        progress.update(len(chunk))
    rows.finish()
    progress.close()
    if capped:
        shown = ", ".join(map(str, capped[:10])) + (", ..." if len(capped) > 10 else "")
        print(f"solve: the cap ({cap}) was reached: {len(capped)} puzzle(s) have more solutions than printed "
              f"(line {shown})", file=sys.stderr)
    if args.stats and stats["n"]:
        n = stats["n"]
        print(f"puzzles: {n}  guesses: {stats['guesses']} ({stats['guesses'] / n:.2f}/puzzle)  "
              f"logic only: {stats['logic']} ({100 * stats['logic'] / n:.1f}%)", file=sys.stderr)
    return status


def main(argv=None) -> int:
    return run(_main, argv, "solve")


if __name__ == "__main__":
    sys.exit(main())
