"""``--store`` of the commands that print one result per input line (``canon``, ``rate``): the
results stored in the catalog while they are printed. A regular FILE is a resumable run (its
content's sha256 is the shard; the cursor is ``{"line", "offset", "read", "malformed"}``), standard
input and pipes are stored chunk by chunk, and ``--workers``/``--scheduler`` send a file's pieces
of ``--chunk`` lines to Dask (stored, not printed; the bad lines listed at the end). What differs
between the commands is a :class:`LineStore`. Apart from the commands' modules so that a command
that only prints imports no catalog, runner or SQLAlchemy.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import Callable

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run, start_or_resume
from sudoku_symmetry.commands._common import cluster, distributed, emit, iter_chunks, progress_bar
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.inputs import hash_and_count, is_regular, line_chunks, parse_piece
from sudoku_symmetry.jobs.runner import run_job


@dataclass
class Totals:
    read: int = 0
    bad: int = 0
    new: int = 0
    known: int = 0

    def add(self, other: "Totals") -> None:
        self.read, self.bad = self.read + other.read, self.bad + other.bad
        self.new, self.known = self.new + other.new, self.known + other.known


@dataclass(frozen=True)
class LineStore:
    """What one command's ``--store`` is made of.

    ``job``: the job module (``KIND``, ``process``, ``printed``, ``work``, ``write``, ``shards``);
    ``parameters(digest, pieces)``: the run's parameters; ``options``: the keyword options of
    ``process`` and ``work`` (what is printed and how); ``store_rows(catalog, rows, source=)``:
    a stream's rows into the catalog; ``catch_up(catalog, path, lines, first)``: the printed
    stretch of a file that another process stored (default: processed again, no rows);
    ``done``: the word for a finished line in messages ("stored", "rated")."""

    command: str
    job: ModuleType
    parameters: Callable[[str, int | None], dict]
    store_rows: Callable
    options: dict = field(default_factory=dict)
    catch_up: Callable | None = None
    done: str = "stored"


def store(spec: LineStore, args, out, err) -> Totals:
    """Store (and print, unless distributed) every input: a regular FILE as a resumable run,
    standard input and pipes chunk by chunk; the totals of all of them."""
    total = Totals()
    catalog = open_catalog(args.db)
    try:
        for path in args.files or ["-"]:
            total.add(_store_file(spec, catalog, path, args, out, err) if path != "-" and is_regular(path)
                      else _store_stream(spec, catalog, path, args, out, err))
    finally:
        catalog.dispose()
    return total


def _store_stream(spec: LineStore, catalog, path: str, args, out, err) -> Totals:
    """Standard input or a pipe: each chunk processed, stored and committed on its own, no run."""
    name = args.source or ("stdin" if path == "-" else path)
    t = Totals()
    progress = progress_bar(err, unit=" lines")
    for source, lines, first in iter_chunks([path], args.chunk):
        p = spec.job.process(lines, source, first, **spec.options)
        n_new, n_known = spec.store_rows(catalog, p.rows, source=name) if p.rows else (0, 0)
        n_bad = emit(out, err, source, p.results, p.problems)
        out.flush()
        t.add(Totals(len(p.results) + n_bad, n_bad, n_new, n_known))
        progress.update(len(lines))
    progress.close()
    return t


def _store_file(spec: LineStore, catalog, path: str, args, out, err) -> Totals:
    """A file: a resumable run of the job's kind, one shard (the sha256). Every line is printed:
    what this process did not store itself comes from ``spec.catch_up``."""
    job, cmd = spec.job, spec.command
    digest, n_lines, size = hash_and_count(path)
    name = args.source or os.path.basename(path)
    if distributed(args):
        return _store_pieces(spec, catalog, path, digest, n_lines, name, args, err)
    run = start_or_resume(catalog, job.KIND, spec.parameters(digest, None), items_total=n_lines)
    start = run.cursor(digest)
    if run.status != "done" and start and start.get("line"):
        print(f"{cmd}: {path}: resuming at line {start['line'] + 1} (run {run.id})", file=err)
    shown = {"line": 0, "offset": 0}  # how far this process has printed

    def print_chunk(data: bytes, notes: str) -> None:
        out.write(data.decode())
        out.flush()  # so a terminal shows the lines and the notes in order
        if notes:
            err.write(notes)

    def catch_up(offset: int) -> None:
        """Print the lines up to ``offset`` that another run or process stored."""
        for raw, lines in line_chunks(path, shown["offset"], offset, args.chunk):
            first = shown["line"] + 1
            if spec.catch_up is not None:
                print_chunk(*spec.catch_up(catalog, path, lines, first))
            else:
                print_chunk(*job.printed(job.process(lines, path, first, rows=False, **spec.options), path))
            shown["line"] += len(raw)
            shown["offset"] += sum(map(len, raw))

    def work(shard: str, cursor):
        catch_up(int((cursor or {}).get("offset", 0)))
        for c in job.work(shard, cursor, path=path, chunk=args.chunk, **spec.options):
            yield c
            print_chunk(c.data, c.notes)  # the chunk is committed: print it
            shown.update(line=c.cursor["line"], offset=c.cursor["offset"])

    def waiting(held):
        who = ", ".join(sorted({w for w, _ in held.values()})) or "another worker"
        print(f"{cmd}: {path} is being {spec.done} by another process ({who}): waiting for it", file=err)

    res = run_job(catalog, run.id, job.shards(path, digest), Job(work, partial(job.write, source=name)),
                  on_wait=waiting, desc=os.path.basename(path), unit=" lines")
    catch_up(size)
    state = get_run(catalog, run.id)
    if res.already_done:
        print(f"{cmd}: {path}: already {spec.done} (run {run.id}); nothing new to store", file=err)
    cur = state.cursor(digest) or {}
    read, bad = int(cur.get("read", 0)), int(cur.get("malformed", 0))
    new = 0 if res.already_done else state.items_new
    return Totals(read, bad, new, read - bad - new)


def _store_pieces(spec: LineStore, catalog, path: str, digest: str, n_lines: int, name: str, args, err) -> Totals:
    """``--workers`` / ``--scheduler``: the file's pieces of ``--chunk`` lines as Dask tasks; the
    results are stored, not printed; the bad lines are listed at the end."""
    job = spec.job
    run = start_or_resume(catalog, job.KIND, spec.parameters(digest, args.chunk), items_total=n_lines)
    keys = job.shards(path, digest, args.chunk)
    tasks = Job(partial(job.work, path=path, chunk=args.chunk, emit=False, **spec.options),
                partial(job.write, source=name))
    res = run_job(catalog, run.id, keys, tasks, desc=name, unit=" lines", **cluster(args))
    if res.already_done:
        print(f"{spec.command}: {path}: already {spec.done} (run {run.id}); nothing new to store", file=err)
    state = get_run(catalog, run.id)
    read = bad = 0
    for key in keys:
        cur = state.cursor(key) or {}
        read, bad = read + int(cur.get("read", 0)), bad + int(cur.get("malformed", 0))
        shown = cur.get("problems", [])
        err.write("".join(f"error: {path}:{n}: {reason}\n" for n, reason in shown))
        if int(cur.get("malformed", 0)) > len(shown):
            err.write(f"error: {path}: {int(cur['malformed']) - len(shown)} more bad lines in lines "
                      f"{parse_piece(key)[0] + 1}-{cur['line']} (run without --workers to see them all)\n")
    new = 0 if res.already_done else state.items_new
    return Totals(read, bad, new, read - bad - new)
