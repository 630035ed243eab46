"""canon: the canonical (minlex) form of each grid or puzzle, in input order.

    canon [--pattern-first] [--automorphisms] [--transform] [--store] [FILE ...]

Input: one sudoku per line (81 characters, ``.`` ``0`` or ``*`` empty; ``#`` comments and blank
lines skipped). A complete valid grid gets the grid minlex form; anything else is a puzzle and
gets pure minlex (default: the smallest string with ``.`` as 0) or, with ``--pattern-first``,
the smallest clue pattern first, then the digits. Output, one line per sudoku::

    CANONICAL_FORM [AUTOMORPHISM_COUNT] [TRANSFORMATION]

A malformed line, or one whose givens repeat a digit in a row, column or box, prints
``error line N: REASON`` in its place (and on standard error) and makes the exit status 2.
``--store`` records each canonical form in the catalog (table ``configurations``, deduplicated)
and ends with a summary on standard error: read, malformed, new, already known.

Storing a FILE is a resumable run (``catalog/driver.py``): the run is keyed on the file's
content (shard = its sha256, cursor = the line and byte offset reached plus the counts so far),
and every chunk of ``--chunk`` lines (default 100,000; ``$SUDOKU_CANON_CHUNK``) is committed with
its cursor in one transaction. Killed at any moment and run again, it resumes at the line
reached (printing the forms from there on) and ends with exactly the rows and counters of one
uninterrupted run; the summary counts the whole file. Run again once complete, it says the file
was already stored and prints the summary without recomputing anything. Two processes storing
the same file share the work safely: the second waits for the first to finish.
With ``--workers N`` or ``--scheduler ADDRESS`` a FILE is cut into pieces of ``--chunk`` lines,
stored by Dask workers (``_canon_tasks.py``; a run of its own): the forms are stored, not
printed; the malformed lines are listed on standard error at the end.
Standard input cannot be resumed (nothing identifies it before it is read): it is stored
chunk by chunk, each chunk committed, without a run; after a kill, storing it again is still
correct (rows are deduplicated) but starts from the beginning. Save it to a file to resume.

With ``--store``, a closed standard output (``canon --store FILE | head -1``) does not stop the
storing: the forms are no longer printed, the whole input is stored, the summary says so on
standard error and the exit status is 0 (2 if lines were malformed). Without ``--store`` a
closed output ends the command quietly (status 0), as usual for a filter.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
from dataclasses import dataclass
from itertools import islice

import numpy as np

from sudoku_symmetry.commands._common import (BOM, EXIT_BAD_INPUT, EXIT_OK, CommandError, _silence_stdout,
                                              add_cluster_arguments, add_db_argument, add_input_argument,
                                              check_inputs, count_argument, count_lines, decimal, distributed, emit,
                                              iter_chunks, parse_problems, run)

CHUNK = 100_000
CHUNK_ENV = "SUDOKU_CANON_CHUNK"
RUN_KIND = "canon-store"


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


def _hash_and_count(path: str) -> tuple[str, int, int]:
    """(sha256 hex of the content, number of lines, size in bytes), in one pass."""
    h, lines, size, last = hashlib.sha256(), 0, 0, b"\n"
    with open(path, "rb") as fh:
        for buf in iter(lambda: fh.read(1 << 20), b""):
            h.update(buf)
            lines += buf.count(b"\n")
            size += len(buf)
            last = buf[-1:]
    return h.hexdigest(), lines + (last != b"\n"), size


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    check_inputs(args.files)
    if distributed(args) and (not args.store or not args.files or "-" in args.files):
        raise CommandError("--workers and --scheduler need --store and FILEs (standard input cannot be shared "
                           "out: save it to a file)")
    from tqdm import tqdm

    from sudoku_symmetry.engine.canon import canonicalize
    from sudoku_symmetry.engine.group import format_transforms
    from sudoku_symmetry.engine.text import format_lines, parse_lines
    from sudoku_symmetry.engine.validity import conflicts, is_valid

    convention = "pattern_first" if args.pattern_first else "minlex"

    def process(lines: list[str], source: str, first: int):
        """(results, problems, rows) of a chunk of raw lines: the printed lines and bad lines
        with their line numbers, and the catalog rows."""
        parsed = parse_lines(lines, source=source, errors="collect", first_lineno=first)
        ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
        good = parsed.sudokus[ok]
        forms, transforms, counts, is_grid = canonicalize(good, args.pattern_first)
        plain = format_lines(forms)
        text = plain
        if args.automorphisms:
            text = [f"{s} {c}" for s, c in zip(text, counts.tolist())]
        if args.transform:
            text = [f"{s} {t}" for s, t in zip(text, format_transforms(transforms))]
        problems = parse_problems(parsed)
        problems += [(n, str(conflicts(cells)[0])) for n, cells in zip(parsed.linenos[~ok].tolist(), parsed.sudokus[~ok])]
        results = list(zip(parsed.linenos[ok].tolist(), text))
        rows = [] if not args.store else [
            {"canonical": f, "kind": "grid" if g else "puzzle", "convention": convention, "automorphism_count": c}
            for f, g, c in zip(plain, is_grid.tolist(), counts.tolist())
        ]
        return results, problems, rows

    out, err = _Output(sys.stdout, keep_going=args.store), sys.stderr
    total = Totals()
    if not args.store:
        progress = tqdm(total=count_lines(args.files), unit=" lines", disable=None, file=err)
        for source, lines, first in iter_chunks(args.files, args.chunk):
            results, problems, _ = process(lines, source, first)
            n_bad = emit(out, err, source, results, problems)
            total.read += len(results) + n_bad
            total.bad += n_bad
            progress.update(len(lines))
        progress.close()
        out.flush()
        if total.bad:
            print(f"canon: read {total.read}, malformed {total.bad}", file=err)
        return EXIT_BAD_INPUT if total.bad else EXIT_OK

    from sudoku_symmetry.catalog.db import open_catalog

    catalog = open_catalog(args.db)
    try:
        for path in args.files or ["-"]:
            part = _store_stdin(catalog, args, process, out, err) if path == "-" else \
                _store_file(catalog, path, args, convention, process, out, err)
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


def _store_stdin(catalog, args, process, out, err) -> Totals:
    """Standard input: each chunk stored and committed on its own, no run (see the docstring)."""
    from tqdm import tqdm

    from sudoku_symmetry.catalog.configurations import store_configurations

    name = args.source or "stdin"
    t = Totals()
    progress = tqdm(unit=" lines", disable=None, file=err)
    for source, lines, first in iter_chunks(["-"], args.chunk):
        results, problems, rows = process(lines, source, first)
        n_new, n_known = store_configurations(catalog, rows, source=name) if rows else (0, 0)
        n_bad = emit(out, err, source, results, problems)
        t.read, t.bad, t.new, t.known = t.read + len(results) + n_bad, t.bad + n_bad, t.new + n_new, t.known + n_known
        progress.update(len(lines))
    progress.close()
    return t


def _store_file(catalog, path: str, args, convention: str, process, out, err) -> Totals:
    """A file: a resumable run of kind ``canon-store`` keyed on (content sha256, convention),
    one shard (the sha256); the cursor is ``{"line", "offset", "read", "malformed"}``."""
    from sudoku_symmetry.catalog.configurations import store_configurations
    from sudoku_symmetry.catalog.driver import drive
    from sudoku_symmetry.catalog.runs import get_run, start_or_resume

    digest, n_lines, size = _hash_and_count(path)
    name = args.source or os.path.basename(path)
    if distributed(args):
        from sudoku_symmetry.commands import _canon_tasks

        return Totals(*_canon_tasks.store_file(args, catalog, path, digest, n_lines, name, convention, err))
    run = start_or_resume(catalog, RUN_KIND, {"sha256": digest, "convention": convention}, items_total=n_lines)
    start = run.cursor(digest)
    if run.status != "done" and start and start.get("line"):
        print(f"canon: {path}: resuming at line {start['line'] + 1} (run {run.id})", file=err)

    def work(shard: str, cursor):
        cur = dict(cursor or {"line": 0, "offset": 0, "read": 0, "malformed": 0})
        with open(path, "rb") as fh:
            fh.seek(cur["offset"])
            while cur["offset"] < size:
                raw = list(islice(fh, args.chunk))
                if not raw:
                    break
                lines = [b.decode("utf-8", "surrogateescape") for b in raw]
                if cur["offset"] == 0 and lines[0].startswith(BOM):
                    lines[0] = lines[0][1:]
                results, problems, rows = process(lines, path, cur["line"] + 1)
                nxt = {"line": cur["line"] + len(raw), "offset": cur["offset"] + sum(map(len, raw)),
                       "read": cur["read"] + len(results) + len(problems),
                       "malformed": cur["malformed"] + len(problems)}
                yield rows, nxt, nxt["offset"] >= size, len(raw)
                emit(out, err, path, results, problems)  # the chunk is committed: print it
                cur = nxt

    def write(conn, rows):
        return store_configurations(conn, rows, source=name)

    def waiting(held):
        who = ", ".join(sorted({w for w, _ in held.values()})) or "another worker"
        print(f"canon: {path} is being stored by another process ({who}): waiting for it", file=err)

    res = drive(catalog, run.id, [digest], work, write, on_wait=waiting, desc=os.path.basename(path),
                unit=" lines")
    state = get_run(catalog, run.id)
    if res.already_done:
        print(f"canon: {path}: already stored (run {run.id}); nothing to do", file=err)
    cur = state.cursor(digest) or {}
    read, bad = int(cur.get("read", 0)), int(cur.get("malformed", 0))
    return Totals(read, bad, state.items_new, read - bad - state.items_new)


def main(argv=None) -> int:
    return run(_main, argv, "canon")


if __name__ == "__main__":
    sys.exit(main())
