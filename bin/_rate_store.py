"""``rate --store``: the ratings stored in the catalog while they are printed (see ``rate.py``'s
docstring for what a run is). Apart from ``rate.py`` so that a ``rate`` that only prints imports
no catalog, runner or SQLAlchemy.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.ratings import store_ratings, stored_ratings
from sudoku_symmetry.catalog.runs import get_run, start_or_resume
from sudoku_symmetry.commands._common import cluster, distributed, emit, iter_chunks, progress_bar
from sudoku_symmetry.jobs import rate_store
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.inputs import hash_and_count, is_regular, line_chunks, parse_piece
from sudoku_symmetry.jobs.runner import run_job

RUN_KIND = rate_store.KIND


@dataclass
class Totals:
    read: int = 0
    bad: int = 0
    new: int = 0
    known: int = 0


def store(args, out, err) -> Totals:
    """Store (and print, unless distributed) every input of ``rate --store``: a regular FILE as
    a resumable run, standard input and pipes chunk by chunk; the totals of all of them."""
    total = Totals()
    catalog = open_catalog(args.db)
    try:
        for path in args.files or ["-"]:
            if path != "-" and is_regular(path):
                part = _store_file(catalog, path, args, out, err)
            else:
                part = _store_stream(catalog, path, args, out, err)
            total.read, total.bad = total.read + part.read, total.bad + part.bad
            total.new, total.known = total.new + part.new, total.known + part.known
    finally:
        catalog.dispose()
    return total


def _store_stream(catalog, path: str, args, out, err) -> Totals:
    """Standard input or a pipe: each chunk rated, stored and committed on its own, no run."""
    name = args.source or ("stdin" if path == "-" else path)
    t = Totals()
    progress = progress_bar(err, unit=" lines")
    for source, lines, first in iter_chunks([path], args.chunk):
        p = rate_store.process(lines, source, first, max_level=args.max_level, line=args.line)
        n_new, n_known = store_ratings(catalog, p.rows, source=name) if p.rows else (0, 0)
        n_bad = emit(out, err, source, p.results, p.problems)
        out.flush()
        t.read, t.bad, t.new, t.known = t.read + len(p.results) + n_bad, t.bad + n_bad, t.new + n_new, t.known + n_known
        progress.update(len(lines))
    progress.close()
    return t


def _catch_up_lines(catalog, path: str, lines: list[str], first: int, args) -> tuple[bytes, str]:
    """The printed lines of a stored stretch of the file: ratings read back from the catalog
    (rating again only what is not there), bad lines found again."""
    from sudoku_symmetry.engine.text import format_lines, parse_lines

    parsed = parse_lines(lines, source=path, allow_suffix=True, errors="collect", first_lineno=first)
    texts = format_lines(parsed.sudokus) if len(parsed) else []
    known = stored_ratings(catalog, texts, args.line, args.max_level)
    # the lines whose rating is not stored (bad lines, or rated by nobody yet) are processed
    # again; the others become comments, which keeps the line numbers
    stored = {n for n, text in zip(parsed.linenos.tolist(), texts) if text in known}
    again = ["#\n" if first + i in stored else ln for i, ln in enumerate(lines)]
    p = rate_store.process(again, path, first, max_level=args.max_level, line=args.line, rows=False)
    results, problems = list(p.results), p.problems
    for n, text in zip(parsed.linenos.tolist(), texts):
        if text in known:
            k = known[text]
            low = set(k["lower"].split(",")) if k["lower"] else set()
            fig = "/".join((">=" if name in low else "") + f"{k[name.lower()]:.1f}" for name in ("ER", "EP", "ED"))
            results.append((n, f"{text} {fig}"))
    return rate_store.printed(rate_store.Processed(results, problems, []), path)


def _store_file(catalog, path: str, args, out, err) -> Totals:
    """A file: a resumable run of kind ``rate-store`` keyed on (content sha256, line, level), one
    shard (the sha256); the cursor is ``{"line", "offset", "read", "malformed"}``. Every rating is
    printed: what this process did not rate itself is read back from the catalog."""
    digest, n_lines, size = hash_and_count(path)
    name = args.source or os.path.basename(path)
    if distributed(args):
        return _store_pieces(catalog, path, digest, n_lines, name, args, err)
    run = start_or_resume(catalog, RUN_KIND, rate_store.parameters(digest, args.line, args.max_level),
                          items_total=n_lines)
    start = run.cursor(digest)
    if run.status != "done" and start and start.get("line"):
        print(f"rate: {path}: resuming at line {start['line'] + 1} (run {run.id})", file=err)
    shown = {"line": 0, "offset": 0}

    def print_chunk(data: bytes, notes: str) -> None:
        out.write(data.decode())
        out.flush()
        if notes:
            err.write(notes)

    def catch_up(offset: int) -> None:
        for raw, lines in line_chunks(path, shown["offset"], offset, args.chunk):
            print_chunk(*_catch_up_lines(catalog, path, lines, shown["line"] + 1, args))
            shown["line"] += len(raw)
            shown["offset"] += sum(map(len, raw))

    def work(shard: str, cursor):
        catch_up(int((cursor or {}).get("offset", 0)))
        for c in rate_store.work(shard, cursor, path=path, chunk=args.chunk, max_level=args.max_level, line=args.line):
            yield c
            print_chunk(c.data, c.notes)
            shown.update(line=c.cursor["line"], offset=c.cursor["offset"])

    def waiting(held):
        who = ", ".join(sorted({w for w, _ in held.values()})) or "another worker"
        print(f"rate: {path} is being rated by another process ({who}): waiting for it", file=err)

    res = run_job(catalog, run.id, rate_store.shards(path, digest), Job(work, partial(rate_store.write, source=name)),
                  on_wait=waiting, desc=os.path.basename(path), unit=" lines")
    catch_up(size)
    state = get_run(catalog, run.id)
    if res.already_done:
        print(f"rate: {path}: already rated (run {run.id}); nothing new to store", file=err)
    cur = state.cursor(digest) or {}
    read, bad = int(cur.get("read", 0)), int(cur.get("malformed", 0))
    new = 0 if res.already_done else state.items_new
    return Totals(read, bad, new, read - bad - new)


def _store_pieces(catalog, path: str, digest: str, n_lines: int, name: str, args, err) -> Totals:
    """``--workers`` / ``--scheduler``: the file's pieces of ``--chunk`` lines as Dask tasks; the
    ratings are stored, not printed; the bad lines are listed at the end."""
    run = start_or_resume(catalog, RUN_KIND, rate_store.parameters(digest, args.line, args.max_level, args.chunk),
                          items_total=n_lines)
    keys = rate_store.shards(path, digest, args.chunk)
    job = Job(partial(rate_store.work, path=path, chunk=args.chunk, max_level=args.max_level, line=args.line,
                      emit=False), partial(rate_store.write, source=name))
    res = run_job(catalog, run.id, keys, job, desc=name, unit=" lines", **cluster(args))
    if res.already_done:
        print(f"rate: {path}: already rated (run {run.id}); nothing new to store", file=err)
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
