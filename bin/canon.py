"""canon: the canonical (minlex) form of each grid or puzzle, in input order.

    canon [--pattern-first] [--automorphisms] [--transform] [--store] [--svg FILE] [FILE ...]

Input: one sudoku per line (81 characters, ``.`` ``0`` or ``*`` empty; ``#`` comments and blank
lines skipped). A complete valid grid gets the grid minlex form; anything else is a puzzle and
gets pure minlex (default: the smallest string with ``.`` as 0) or, with ``--pattern-first``,
the smallest clue pattern first, then the digits. Output, one line per sudoku::

    CANONICAL_FORM [AUTOMORPHISM_COUNT] [TRANSFORMATION]

A malformed line, or one whose givens repeat a digit in a row, column or box, prints
``error line N: REASON`` in its place (and on standard error) and makes the exit status 2.
``--svg FILE`` draws the first sudoku of the input beside its canonical form, with the
transformation and the automorphism count (an SVG file, written with no dependency).
``--store`` records each canonical form in the catalog (table ``configurations``, deduplicated)
and ends with a summary on standard error: read, malformed, new, already known.

Storing a FILE is a resumable run (``jobs/canon_store.py``): the run is keyed on the file's
content (shard = its sha256, cursor = the line and byte offset reached plus the counts so far),
and every chunk of ``--chunk`` lines (default 100,000; ``$SUDOKU_CANON_CHUNK``) is committed with
its cursor in one transaction. Killed at any moment and run again, it resumes at the line
reached and ends with exactly the rows and counters of one uninterrupted run. Every run prints
every form (the store is deduplicated, the printing is not): the lines a killed run, another
process or an earlier run stored are canonicalized again for printing, not stored again. The
summary describes the run: its lines read and malformed, and the rows it added (a file already
stored: ``new 0``, every valid line already known). Two processes storing the same file share
the work safely: the second waits for the first to finish.
With ``--workers N`` or ``--scheduler ADDRESS`` a FILE is cut into pieces of ``--chunk`` lines,
stored by Dask workers (a run of its own): the forms are stored, not printed; the malformed
lines are listed on standard error at the end.
Standard input, and a FILE that is not a regular file (a pipe such as ``<(...)``, a FIFO), cannot
be resumed (nothing identifies it before it is read, and it can be read only once): it is stored
chunk by chunk, each chunk committed, without a run; after a kill, storing it again is still
correct (rows are deduplicated) but starts from the beginning. Save it to a file to resume.

With ``--store``, a closed standard output (``canon --store FILE | head -1``) does not stop the
storing: the forms are no longer printed, the whole input is stored, the summary says so on
standard error and the exit status is 0 (2 if lines were malformed). Without ``--store`` a
closed output ends the command quietly (status 0), as usual for a filter.
"""
from __future__ import annotations

import argparse
import os
import sys

from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_BAD_INPUT, EXIT_OK, _silence_stdout,
                                              add_cluster_arguments, add_db_argument, add_input_argument,
                                              add_version_argument, check_inputs, count_argument, count_lines, decimal,
                                              distributed, iter_chunks, progress_bar, run, write_svg, writes_file)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs
from sudoku_symmetry.engine.canon import canonicalize
from sudoku_symmetry.engine.group import format_transforms
from sudoku_symmetry.engine.text import format_lines, format_sudoku, parse_one
from sudoku_symmetry.jobs import canon_store
from sudoku_symmetry.jobs.inputs import is_regular

CHUNK = 100_000
CHUNK_ENV = "SUDOKU_CANON_CHUNK"
FIELDS = ("form", "kind", "automorphisms", "transform")  # --format csv/jsonl: all of them, whatever the flags


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="canon", description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter,
                      epilog="Output: 'FORM [AUTOMORPHISMS] [TRANSFORMATION]' per sudoku line.")
    p.add_argument("--pattern-first", action="store_true",
                   help="for puzzles, minimize the clue pattern first (empty before given), then the digits")
    p.add_argument("--automorphisms", action="store_true", help="append the automorphism count")
    p.add_argument("--transform", action="store_true",
                   help="append the transformation onto the form (T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD)")
    p.add_argument("--store", action="store_true",
                   help="record the canonical forms in the catalog (a FILE is a resumable run: rerun after a kill)")
    p.add_argument("--source", help="with --store: where they were first seen (default: the file name)")
    writes_file(p.add_argument("--svg", metavar="FILE",
                               help="draw the first sudoku beside its canonical form (SVG), not with --store"))
    p.add_argument("--chunk", type=count_argument(1, 10_000_000), metavar="LINES",
                   default=_env_chunk(), help=f"lines per chunk, i.e. per committed checkpoint with --store "
                                               f"(default {CHUNK:,}; ${CHUNK_ENV})")
    add_db_argument(p)
    add_cluster_arguments(p)  # with --store FILE: pieces of --chunk lines as Dask tasks; forms stored, not printed
    add_input_argument(p)
    add_format_argument(p, FIELDS)
    add_version_argument(p)
    return p


def _env_chunk() -> int:
    try:
        value = decimal(os.environ.get(CHUNK_ENV, ""))
    except ValueError:
        return CHUNK
    return value if value > 0 else CHUNK


class _Output:
    """Standard output that, with ``keep_going``, survives its reader going away: the first
    BrokenPipeError silences it (fd 1 onto /dev/null) and later writes are dropped."""

    def __init__(self, stream, keep_going: bool):
        self.stream, self.keep_going, self.closed_pipe = stream, keep_going, False

    def _guard(self, fn, *args):
        if self.closed_pipe:
            return
        try:
            fn(*args)
        except BrokenPipeError:
            if not self.keep_going:
                raise
            self.closed_pipe = True
            _silence_stdout()

    def write(self, text: str) -> None:
        self._guard(self.stream.write, text)

    def flush(self) -> None:
        self._guard(self.stream.flush)


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    check_inputs(args.files)
    if distributed(args):
        if not args.store or not args.files or "-" in args.files:
            raise CommandError("--workers and --scheduler need --store and FILEs (standard input cannot be shared "
                               "out: save it to a file)")
        for path in args.files:
            if not is_regular(path):
                raise CommandError(f"{path}: not a regular file (a pipe can be read only once): --workers and "
                                   f"--scheduler need a FILE: save it to one")
    if args.store and args.format != "text":
        raise CommandError(f"--format {args.format} does not go with --store (it prints the forms as text)")
    if args.svg and args.store:
        raise CommandError("--svg draws the first sudoku of a plain run: it does not go with --store")
    show = {"pattern_first": args.pattern_first, "automorphisms": args.automorphisms, "transform": args.transform}
    out, err = _Output(sys.stdout, keep_going=args.store), sys.stderr
    if not args.store:
        read = bad = 0
        rows = Rows(args.format, FIELDS, out, err)
        progress = progress_bar(err, lambda: count_lines(args.files), unit=" lines")
        drawn = args.svg is None
        for source, lines, first in iter_chunks(args.files, args.chunk):
            p = canon_store.process(lines, source, first, rows=False, fields=not rows.text, **show)
            if not drawn and p.results:
                _draw(args.svg, lines[p.results[0][0] - first], args.pattern_first)
                drawn = True
            n_bad = rows.emit(source, chunk_inputs(lines, first), p.results, p.problems)
            read, bad = read + len(p.results) + n_bad, bad + n_bad
            progress.update(len(lines))
        rows.finish()
        progress.close()
        out.flush()
        if not drawn:
            print(f"canon: no sudoku to draw: {args.svg} not written", file=err)
        if bad:
            print(f"canon: read {read}, malformed {bad}", file=err)
        return EXIT_BAD_INPUT if bad else EXIT_OK

    # Deliberately deferred: the catalog and the run machinery (SQLAlchemy: about 0.3 s of CPU to
    # import) only with --store, so a canon that only prints starts as fast as solve and band.
    from sudoku_symmetry.catalog.configurations import store_configurations
    from sudoku_symmetry.commands._line_store import LineStore, store

    convention = "pattern_first" if args.pattern_first else "minlex"
    spec = LineStore("canon", canon_store, lambda digest, pieces: canon_store.parameters(digest, convention, pieces),
                     store_configurations, show)
    total = store(spec, args, out, err)
    out.flush()
    if out.closed_pipe:
        print("canon: standard output was closed: the forms were not all printed, but everything was stored",
              file=err)
    print(f"canon: read {total.read}, malformed {total.bad}, new {total.new}, already known {total.known}", file=err)
    return EXIT_BAD_INPUT if total.bad else EXIT_OK


def _draw(path: str, line: str, pattern_first: bool) -> None:
    """``--svg``: the sudoku of ``line`` beside its canonical form, the transformation below."""
    from sudoku_symmetry.pictures.svg import pair_svg  # deferred: only --svg draws

    cells = parse_one(line)
    forms, transforms, counts, is_grid = canonicalize(cells[None, :], pattern_first)
    kind = "grid" if is_grid[0] else "puzzle"
    convention = "minlex" if is_grid[0] or not pattern_first else "pattern-first minlex"
    caption = [f"a {kind} and its {convention} form ({int(counts[0])} automorphisms)",
               f"transformation {format_transforms(transforms)[0]}"]
    write_svg(path, pair_svg(format_sudoku(cells), format_lines(forms)[0], caption=caption,
                             title=f"canonical form of a {kind}"))


def main(argv=None) -> int:
    return run(_main, argv, "canon")


if __name__ == "__main__":
    sys.exit(main())
