"""``canon --store``: the canonical forms stored in the catalog while they are printed (see
``canon.py``'s docstring for what a run is). Apart from ``canon.py`` so that a ``canon`` that
only prints imports no catalog, runner or SQLAlchemy; ``canon.py`` imports it for ``--store``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial

from tqdm import tqdm

from sudoku_symmetry.catalog.configurations import store_configurations
from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run, start_or_resume
from sudoku_symmetry.commands._common import cluster, distributed, emit, iter_chunks
from sudoku_symmetry.jobs import canon_store
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.inputs import hash_and_count, is_regular, line_chunks, parse_piece
from sudoku_symmetry.jobs.runner import run_job

RUN_KIND = canon_store.KIND


@dataclass
class Totals:
    read: int = 0
    bad: int = 0
    new: int = 0
    known: int = 0


def store(args, show: dict, out, err) -> Totals:
    """Store (and print, unless distributed) every input of ``canon --store``: a regular FILE as a
    resumable run, standard input and pipes chunk by chunk; the totals of all of them."""
    total = Totals()
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
    return total


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
