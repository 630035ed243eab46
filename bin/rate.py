"""rate: how hard each puzzle is, as Sudoku Explainer rates it (ER/EP/ED), in input order.

    rate [--steps] [--max-level N] [--line 1.2.1.3|2022] [--format text|csv|jsonl] [FILE ...]

Input: one puzzle per line (81 characters, ``.`` ``0`` or ``*`` empty; ``#`` comments and blank
lines skipped; anything after the 81 cells is ignored). Output, one line per puzzle::

    PUZZLE ER/EP/ED

the figures ``serate`` 1.2.1.3 prints: ER the hardest step of the solution path, EP the hardest
up to the first placed digit, ED the first step. ``--steps`` prints the path after each puzzle's
line, one step per line (number, technique, difficulty, where, what it places or removes in the
cell notation ``r1c2``). ``--max-level N`` (0-5) stops before chains nested deeper than N (0: up to
dynamic forcing chains, 1: "Dynamic Forcing Chains (+)", 2-5: the nested levels, seconds to
minutes each on the hardest puzzles); a puzzle that needs more gets lower bounds, ``>=9.5``.
``--line 2022`` lets the "Direct" hints remove their candidates as the 2022 line of Sudoku
Explainer does.

A malformed line, or a puzzle without exactly one solution, prints ``error line N: REASON`` in
its place (``not a unique puzzle (M solutions)``) and on standard error; the exit status is 2.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, add_input_argument, add_version_argument,
                                              count_lines, iter_chunks, parse_problems, progress_bar, run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs

LINES_PER_CHUNK = 1000  # a chunk is rated and printed at once: small, since a hard puzzle takes seconds
FIELDS = ("puzzle", "er", "ep", "ed", "complete", "steps")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rate", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Output: 'PUZZLE ER/EP/ED' per puzzle line (see docs/rating.md).")
    p.add_argument("--steps", action="store_true", help="print each puzzle's solution path, a step per line")
    p.add_argument("--max-level", type=int, choices=range(6), default=5, metavar="N",
                   help="stop before chains nested deeper than N (0-5, default 5: all of Sudoku Explainer's)")
    p.add_argument("--line", choices=("1.2.1.3", "2022"), default="1.2.1.3",
                   help="the Sudoku Explainer line to follow (default 1.2.1.3, serate's)")
    add_input_argument(p, "puzzles")
    add_format_argument(p, FIELDS)
    add_version_argument(p)
    return p


def rate_chunk(lines: list[str], source: str, first: int, *, max_level: int, line: str, steps: bool, fields: bool):
    """(results, problems) of a chunk of raw lines: ``results`` ``(line number, text or fields)``
    of the unique puzzles, ``problems`` ``(line number, reason)`` of the others."""
    import numpy as np

    from sudoku_symmetry.engine.rate import not_unique, rate
    from sudoku_symmetry.engine.text import format_lines, parse_lines
    from sudoku_symmetry.engine.validity import conflicts, is_valid

    parsed = parse_lines(lines, source=source, allow_suffix=True, errors="collect", first_lineno=first)
    problems = parse_problems(parsed)
    linenos = parsed.linenos
    ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
    problems += [(n, str(conflicts(cells)[0])) for n, cells in zip(linenos[~ok].tolist(), parsed.sudokus[~ok])]
    batch, linenos = parsed.sudokus[ok], linenos[ok]
    bad = not_unique(batch) if len(batch) else {}
    problems += [(int(linenos[k]), reason) for k, reason in bad.items()]
    keep = np.array([k not in bad for k in range(len(batch))], bool)
    batch, linenos = batch[keep], linenos[keep]
    ratings = rate(batch, max_level=max_level, line=line, steps=steps) if len(batch) else []
    texts = format_lines(batch) if len(batch) else []
    results = []
    for n, text, r in zip(linenos.tolist(), texts, ratings):
        if fields:
            results.append((n, {"puzzle": text, "er": r.er, "ep": r.ep, "ed": r.ed, "complete": r.complete,
                                "steps": [str(s) for s in r.steps] if steps else None}))
        elif steps:
            results.append((n, f"{text} {r}\n" + "\n".join(f"  {s}" for s in r.steps)))
        else:
            results.append((n, f"{text} {r}"))
    return results, problems


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    rows = Rows(args.format, FIELDS, out, err)
    status = EXIT_OK
    progress = progress_bar(err, lambda: count_lines(args.files), unit=" lines")
    for source, chunk, first in iter_chunks(args.files, LINES_PER_CHUNK):
        results, problems = rate_chunk(chunk, source, first, max_level=args.max_level, line=args.line,
                                       steps=args.steps, fields=not rows.text)
        if rows.emit(source, chunk_inputs(chunk, first), results, problems):
            status = EXIT_BAD_INPUT
        out.flush()
        progress.update(len(chunk))
    rows.finish()
    progress.close()
    return status


def main(argv=None) -> int:
    return run(_main, argv, "rate")


if __name__ == "__main__":
    sys.exit(main())
