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
from dataclasses import dataclass
from functools import partial

from tqdm import tqdm

from sudoku_symmetry.catalog.configurations import store_configurations
from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run, start_or_resume
from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, CommandError, _silence_stdout, add_db_argument,
                                              add_input_argument, check_inputs, count_argument, count_lines, decimal,
                                              emit, iter_chunks, run, write_svg)
from sudoku_symmetry.commands._runs import add_cluster_arguments, cluster, distributed
from sudoku_symmetry.engine.canon import canonicalize
from sudoku_symmetry.engine.group import format_transforms
from sudoku_symmetry.engine.text import format_lines, format_sudoku, parse_one
from sudoku_symmetry.jobs import canon_store
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.inputs import hash_and_count, is_regular, line_chunks, parse_piece
from sudoku_symmetry.jobs.runner import run_job
from sudoku_symmetry.pictures.svg import pair_svg

CHUNK = 100_000
CHUNK_ENV = "SUDOKU_CANON_CHUNK"
RUN_KIND = canon_store.KIND


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="canon", description=__doc__.split("\n\n")[0],
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
    p.add_argument("--svg", metavar="FILE", help="draw the first sudoku beside its canonical form (SVG), not with --store")
    p.add_argument("--chunk", type=count_argument(1, 10_000_000), metavar="LINES",
                   default=_env_chunk(), help=f"lines per chunk, i.e. per committed checkpoint with --store "
                                               f"(default {CHUNK:,}; ${CHUNK_ENV})")
    add_db_argument(p)
    add_cluster_arguments(p)  # with --store FILE: pieces of --chunk lines as Dask tasks; forms stored, not printed
    add_input_argument(p)
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


@dataclass
class Totals:
    read: int = 0
    bad: int = 0
    new: int = 0
    known: int = 0


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
    if args.svg and args.store:
        raise CommandError("--svg draws the first sudoku of a plain run: it does not go with --store")
    show = {"pattern_first": args.pattern_first, "automorphisms": args.automorphisms, "transform": args.transform}
    out, err = _Output(sys.stdout, keep_going=args.store), sys.stderr
    total = Totals()
    if not args.store:
        progress = tqdm(total=count_lines(args.files), unit=" lines", disable=None, file=err)
        drawn = args.svg is None
        for source, lines, first in iter_chunks(args.files, args.chunk):
            p = canon_store.process(lines, source, first, rows=False, **show)
            if not drawn and p.results:
                _draw(args.svg, lines[p.results[0][0] - first], args.pattern_first)
                drawn = True
            n_bad = emit(out, err, source, p.results, p.problems)
            total.read += len(p.results) + n_bad
            total.bad += n_bad
            progress.update(len(lines))
        progress.close()
        out.flush()
        if not drawn:
            print(f"canon: no sudoku to draw: {args.svg} not written", file=err)
        if total.bad:
            print(f"canon: read {total.read}, malformed {total.bad}", file=err)
        return EXIT_BAD_INPUT if total.bad else EXIT_OK

    catalog = open_catalog(args.db)
    try:
        for path in args.files or ["-"]:
            if path != "-" and is_regular(path):
                part = _store_file(catalog, path, args, show, out, err)
            else:
                part = _store_stream(catalog, path, args, show, out, err)
            total.read, total.bad = total.read + part.read, total.bad + part.bad
            total.new, total.known = total.new + part.new, total.known + part.known
    finally:
        catalog.dispose()
    out.flush()
    if out.closed_pipe:
        print("canon: standard output was closed: the forms were not all printed, but everything was stored",
              file=err)
    print(f"canon: read {total.read}, malformed {total.bad}, new {total.new}, already known {total.known}", file=err)
    return EXIT_BAD_INPUT if total.bad else EXIT_OK


def _draw(path: str, line: str, pattern_first: bool) -> None:
    """``--svg``: the sudoku of ``line`` beside its canonical form, the transformation below."""
    cells = parse_one(line)
    forms, transforms, counts, is_grid = canonicalize(cells[None, :], pattern_first)
    kind = "grid" if is_grid[0] else "puzzle"
    convention = "minlex" if is_grid[0] or not pattern_first else "pattern-first minlex"
    caption = [f"a {kind} and its {convention} form ({int(counts[0])} automorphisms)",
               f"transformation {format_transforms(transforms)[0]}"]
    write_svg(path, pair_svg(format_sudoku(cells), format_lines(forms)[0], caption=caption,
                             title=f"canonical form of a {kind}"))


def _store_stream(catalog, path: str, args, show, out, err) -> Totals:
    """Standard input or a pipe: each chunk stored and committed on its own, no run (see the docstring)."""
    name = args.source or ("stdin" if path == "-" else path)
    t = Totals()
    progress = tqdm(unit=" lines", disable=None, file=err)
    for source, lines, first in iter_chunks([path], args.chunk):
        p = canon_store.process(lines, source, first, **show)
        n_new, n_known = store_configurations(catalog, p.rows, source=name) if p.rows else (0, 0)
        n_bad = emit(out, err, source, p.results, p.problems)
        t.read, t.bad, t.new, t.known = t.read + len(p.results) + n_bad, t.bad + n_bad, t.new + n_new, t.known + n_known
        progress.update(len(lines))
    progress.close()
    return t


def _store_file(catalog, path: str, args, show, out, err) -> Totals:
    """A file: a resumable run of kind ``canon-store`` keyed on (content sha256, convention),
    one shard (the sha256); the cursor is ``{"line", "offset", "read", "malformed"}``. Every form
    is printed: what this process did not store itself is canonicalized again for printing."""
    digest, n_lines, size = hash_and_count(path)
    name = args.source or os.path.basename(path)
    convention = "pattern_first" if args.pattern_first else "minlex"
    if distributed(args):
        return _store_pieces(catalog, path, digest, n_lines, name, convention, args, err)
    run = start_or_resume(catalog, RUN_KIND, canon_store.parameters(digest, convention), items_total=n_lines)
    start = run.cursor(digest)
    if run.status != "done" and start and start.get("line"):
        print(f"canon: {path}: resuming at line {start['line'] + 1} (run {run.id})", file=err)
    shown = {"line": 0, "offset": 0}  # how far this process has printed

    def print_chunk(data: bytes, notes: str) -> None:
        out.write(data.decode())
        if notes:
            out.flush()  # so a terminal shows the lines in order
            err.write(notes)

    def catch_up(offset: int) -> None:
        """Print the forms up to ``offset`` that another run or process stored."""
        for raw, lines in line_chunks(path, shown["offset"], offset, args.chunk):
            print_chunk(*canon_store.printed(canon_store.process(lines, path, shown["line"] + 1, rows=False, **show),
                                             path))
            shown["line"] += len(raw)
            shown["offset"] += sum(map(len, raw))

    def work(shard: str, cursor):
        catch_up(int((cursor or {}).get("offset", 0)))
        for c in canon_store.work(shard, cursor, path=path, chunk=args.chunk, **show):
            yield c
            print_chunk(c.data, c.notes)  # the chunk is committed: print it
            shown.update(line=c.cursor["line"], offset=c.cursor["offset"])

    def waiting(held):
        who = ", ".join(sorted({w for w, _ in held.values()})) or "another worker"
        print(f"canon: {path} is being stored by another process ({who}): waiting for it", file=err)

    res = run_job(catalog, run.id, canon_store.shards(path, digest), Job(work, partial(canon_store.write, source=name)),
                  on_wait=waiting, desc=os.path.basename(path), unit=" lines")
    catch_up(size)
    state = get_run(catalog, run.id)
    if res.already_done:
        print(f"canon: {path}: already stored (run {run.id}); nothing new to store", file=err)
    cur = state.cursor(digest) or {}
    read, bad = int(cur.get("read", 0)), int(cur.get("malformed", 0))
    new = 0 if res.already_done else state.items_new
    return Totals(read, bad, new, read - bad - new)


def _store_pieces(catalog, path: str, digest: str, n_lines: int, name: str, convention: str, args, err) -> Totals:
    """``--workers`` / ``--scheduler``: the file's pieces of ``--chunk`` lines as Dask tasks; the
    forms are stored, not printed; the malformed lines are listed at the end."""
    run = start_or_resume(catalog, RUN_KIND, canon_store.parameters(digest, convention, args.chunk),
                          items_total=n_lines)
    keys = canon_store.shards(path, digest, args.chunk)
    job = Job(partial(canon_store.work, path=path, chunk=args.chunk, pattern_first=args.pattern_first, emit=False),
              partial(canon_store.write, source=name))
    res = run_job(catalog, run.id, keys, job, desc=name, unit=" lines", **cluster(args))
    if res.already_done:
        print(f"canon: {path}: already stored (run {run.id}); nothing new to store", file=err)
    state = get_run(catalog, run.id)
    read = bad = 0
    for key in keys:
        cur = state.cursor(key) or {}
        read, bad = read + int(cur.get("read", 0)), bad + int(cur.get("malformed", 0))
        shown = cur.get("problems", [])
        err.write("".join(f"error: {path}:{n}: {reason}\n" for n, reason in shown))
        if int(cur.get("malformed", 0)) > len(shown):
            err.write(f"error: {path}: {int(cur['malformed']) - len(shown)} more malformed lines in lines "
                      f"{parse_piece(key)[0] + 1}-{cur['line']} (run without --workers to see them all)\n")
    new = 0 if res.already_done else state.items_new
    return Totals(read, bad, new, read - bad - new)


def main(argv=None) -> int:
    return run(_main, argv, "canon")


if __name__ == "__main__":
    sys.exit(main())
