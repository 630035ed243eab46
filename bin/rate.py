"""rate: how hard each puzzle is, as Sudoku Explainer rates it (ER/EP/ED), in input order.

    rate [--steps] [--max-level N] [--line 1.2.1.3|2022] [--format text|csv|jsonl] [--store] [FILE ...]

Input: one puzzle per line (81 characters, ``.`` ``0`` or ``*`` empty; ``#`` comments and blank
lines skipped; anything after the 81 cells is ignored). Output, one line per puzzle::

    PUZZLE ER/EP/ED

the figures ``serate`` 1.2.1.3 prints: ER the hardest step of the solution path, EP the hardest
up to the first placed digit, ED the first step. ``--steps`` prints the path after each puzzle's
line, one step per line (number, technique, difficulty, what it places or removes in the cell
notation ``r1c2``). ``--max-level N`` (0-5) stops before chains nested deeper than N (0: up to
dynamic forcing chains, 1: "Dynamic Forcing Chains (+)", 2-5: the nested levels, seconds to
minutes each on the hardest puzzles); a puzzle that needs more gets lower bounds, ``>=9.5``.
``--line 2022`` lets the "Direct" hints remove their candidates as the 2022 line of Sudoku
Explainer does.

A malformed line, or a puzzle without exactly one solution, prints ``error line N: REASON`` in
its place (``not a unique puzzle (M solutions)``) and on standard error; the exit status is 2.

``--store`` records each rating in the catalog (table ``ratings``: the puzzle as given, its
canonical form, ER/EP/ED, the path's length and CPU seconds) and ends with a summary on standard
error. Rating a FILE with ``--store`` is a resumable run (``jobs/rate_store.py``): keyed on the
file's content, the SE line and ``--max-level``, every chunk of ``--chunk`` lines (default 100)
committed with its cursor; killed and run again it resumes at the line reached, printing the
ratings stored before from the catalog. With ``--workers N`` or ``--scheduler ADDRESS`` the file
is cut into pieces of ``--chunk`` lines rated by Dask workers (stored, not printed; bad lines
listed at the end). Standard input and pipes are stored chunk by chunk, without a run.
"""
from __future__ import annotations

import argparse
import sys
from functools import partial

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, CommandError, CommandParser,
                                              add_cluster_arguments, add_db_argument, add_input_argument,
                                              add_version_argument, check_inputs, count_argument, count_lines,
                                              distributed, iter_chunks, progress_bar, run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs

CHUNK = 100  # lines per chunk: rated and printed (or committed) at once; a hard puzzle takes seconds
FIELDS = ("puzzle", "er", "ep", "ed", "complete", "steps")


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="rate", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Output: 'PUZZLE ER/EP/ED' per puzzle line (see docs/rating.md).")
    p.add_argument("--steps", action="store_true", help="print each puzzle's solution path, a step per line")
    p.add_argument("--max-level", type=int, choices=range(6), default=5, metavar="N",
                   help="stop before chains nested deeper than N (0-5, default 5: all of Sudoku Explainer's)")
    p.add_argument("--line", choices=("1.2.1.3", "2022"), default="1.2.1.3",
                   help="the Sudoku Explainer line to follow (default 1.2.1.3, serate's)")
    p.add_argument("--store", action="store_true",
                   help="record the ratings in the catalog (a FILE is a resumable run: rerun after a kill)")
    p.add_argument("--source", help="with --store: where the puzzles come from (default: the file name)")
    p.add_argument("--chunk", type=count_argument(1, 1_000_000), metavar="LINES", default=CHUNK,
                   help=f"lines per chunk, i.e. per committed checkpoint with --store (default {CHUNK})")
    add_db_argument(p)
    add_cluster_arguments(p)  # with --store FILE: pieces of --chunk lines as Dask tasks; ratings stored, not printed
    add_input_argument(p, "puzzles")
    add_format_argument(p, FIELDS)
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    check_inputs(args.files)
    if distributed(args):
        if not args.store or not args.files or "-" in args.files:
            raise CommandError("--workers and --scheduler need --store and FILEs (standard input cannot be shared "
                               "between workers)")
    if args.store and (args.format != "text" or args.steps):
        raise CommandError("--store prints the ratings as text lines: it does not go with --format or --steps")
    out, err = sys.stdout, sys.stderr
    if args.store:
        # Deliberately deferred: the catalog, the runner and SQLAlchemy only when storing.
        from sudoku_symmetry.catalog.ratings import store_ratings
        from sudoku_symmetry.commands._line_store import LineStore, store
        from sudoku_symmetry.jobs import rate_store

        spec = LineStore("rate", rate_store, lambda digest, pieces: rate_store.parameters(
            digest, args.line, args.max_level, pieces), store_ratings, {"max_level": args.max_level, "line": args.line},
            partial(_stored_lines, line=args.line, max_level=args.max_level), done="rated")
        total = store(spec, args, out, err)
        print(f"rate: read {total.read}, bad {total.bad}, new {total.new}, already stored {total.known}", file=err)
        return EXIT_BAD_INPUT if total.bad else EXIT_OK
    from sudoku_symmetry.jobs import rate_store

    rows = Rows(args.format, FIELDS, out, err)
    status = EXIT_OK
    progress = progress_bar(err, lambda: count_lines(args.files), unit=" lines")
    for source, chunk, first in iter_chunks(args.files, args.chunk):
        p = rate_store.process(chunk, source, first, max_level=args.max_level, line=args.line, steps=args.steps,
                               fields=not rows.text, rows=False)
        if rows.emit(source, chunk_inputs(chunk, first), p.results, p.problems):
            status = EXIT_BAD_INPUT
        out.flush()
        progress.update(len(chunk))
    rows.finish()
    progress.close()
    return status


def _stored_lines(catalog, path: str, lines: list[str], first: int, *, line: str, max_level: int) -> tuple[bytes, str]:
    """The printed lines of a stored stretch of the file: ratings read back from the catalog
    (rating again only what is not there), bad lines found again."""
    from sudoku_symmetry.catalog.ratings import stored_ratings
    from sudoku_symmetry.engine.text import format_lines, parse_lines
    from sudoku_symmetry.jobs import rate_store

    parsed = parse_lines(lines, source=path, allow_suffix=True, errors="collect", first_lineno=first)
    texts = format_lines(parsed.sudokus) if len(parsed) else []
    known = stored_ratings(catalog, texts, line, max_level)
    # the lines whose rating is not stored (bad lines, or rated by nobody yet) are processed
    # again; the others become comments, which keeps the line numbers
    stored = {n for n, text in zip(parsed.linenos.tolist(), texts) if text in known}
    again = ["#\n" if first + i in stored else ln for i, ln in enumerate(lines)]
    p = rate_store.process(again, path, first, max_level=max_level, line=line, rows=False)
    results, problems = list(p.results), p.problems
    for n, text in zip(parsed.linenos.tolist(), texts):
        if text in known:
            k = known[text]
            low = set(k["lower"].split(",")) if k["lower"] else set()
            fig = "/".join((">=" if name in low else "") + f"{k[name.lower()]:.1f}" for name in ("ER", "EP", "ED"))
            results.append((n, f"{text} {fig}"))
    return rate_store.printed(rate_store.Processed(results, problems, []), path)


def main(argv=None) -> int:
    return run(_main, argv, "rate")


if __name__ == "__main__":
    sys.exit(main())
