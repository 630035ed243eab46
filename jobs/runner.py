"""The runner: one loop for every long computation, serial or on Dask, resumable at any instant.

A job (``jobs/<name>.py``, see ``docs/runs.md``) is a generator with no database in it, plus
how its results are stored::

    work(shard, cursor)                  -> yields Chunk(results, cursor, done, items, data)
    write(conn, results)                 -> (new, known)   stores them on the chunk's connection
    finish(conn, run_id, shard, cursor)  -> None           optional: a shard's last chunk

* ``shard``: a text key naming an independent slice of the run (a file's sha256, a band index,
  a prefix range). ``cursor``: a JSON value saying where to resume inside the shard, ``None`` at
  its start; the generator must produce, from ``cursor``, exactly what an uninterrupted run
  would produce from that point.
* Each chunk is committed by :func:`catalog.runs.chunk` in ONE transaction: the lease renewal,
  ``write``'s rows, ``finish`` on the shard's last chunk, and the checkpoint (cursor, counters).
  So a kill at any instant leaves the catalog either before or after the chunk, never between:
  a rerun resumes at the cursor and ends with exactly the rows (and ``runs`` /
  ``run_checkpoints`` counters) of one uninterrupted run. ``items`` (default ``len(results)``)
  is what the chunk counts towards ``items_done`` and the progress bar.
* The runner asks for the next chunk only after committing the previous one, so code after a
  ``yield`` runs once that chunk is safe (:func:`jobs.output.with_output` writes standard output
  there). A generator that ends without ``done`` marks its shard done with an empty chunk; one
  that yields after ``done`` is a bug (RuntimeError).

API (an Engine from :func:`catalog.db.open_catalog`, a run id from
:func:`catalog.runs.start_or_resume`):

* :func:`run_job` ``(catalog, run_id, shards, job, ...)``: what a command calls: serially in
  this process (:func:`drive`) or, with ``workers`` / ``scheduler``, as Dask tasks
  (``jobs/dask.py``), the chunks' ``data`` going to an ``--out`` file or standard output.
* :func:`run_shard` ``(engine, run_id, shard, work, write, worker_id=None)``: claim one shard and
  work it to its end (what a Dask task calls); returns a :class:`ShardResult`.
* :func:`drive` ``(engine, run_id, shards, work, write)``: serially, every pending shard this
  worker can claim (optionally waiting for shards other workers hold), with a tqdm progress bar
  over the run's items (rate and ETA; ``disable=None``: silent when standard error is not a
  terminal); marks the run done when no shard is left; returns a :class:`DriveResult`.
* :func:`reconnecting` ``(engine, body)``: faults of the database connection
  (:class:`~catalog.errors.ConnectionLost`: a PostgreSQL backend terminated, the server restarted
  or unreachable) are retried with exponential backoff (:data:`RETRIES` tries, ``BACKOFF`` s
  doubling: 0.5 + 1 + 2 + 4 + 8 s; ``$SUDOKU_DB_RETRIES``, ``$SUDOKU_DB_BACKOFF``), the count
  starting again after each committed chunk; then the run stops with one line (a
  :class:`CatalogError`) and resumes from its checkpoints when started again. A retry is safe
  because the chunk in flight was rolled back: the shard is claimed again (the lease is still
  this worker's) and resumed from its committed cursor. :func:`drive` uses it.
* Leases (who works which shard): ``jobs/leases.py``.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from sqlalchemy import Connection, Engine
from tqdm import tqdm

from sudoku_symmetry.catalog.errors import CatalogError, ConnectionLost, LeaseLost
from sudoku_symmetry.catalog.runs import chunk, finish_run, get_run, pending_shards

from .chunk import Chunk, Job
from .leases import LEASE_SECONDS, claim, claim_next, holders, release, worker_name

RETRIES = 5
"""Tries after a lost database connection before the run stops (``$SUDOKU_DB_RETRIES``)."""
BACKOFF = 0.5
"""Seconds before the first retry, doubled each time (``$SUDOKU_DB_BACKOFF``)."""

Work = Callable[[str, Any], Iterable]
Write = Callable[[Connection, Any], tuple[int, int]]
Finish = Callable[[Connection, int, str, Any], None]

__all__ = ["LEASE_SECONDS", "RETRIES", "BACKOFF", "JobError", "LeaseLost", "reconnecting", "Progress", "ShardResult",
           "DriveResult", "run_shard", "drive", "run_job"]


class JobError(CatalogError):
    """A run cannot go on (its output file was changed, a recount disagrees with the catalog):
    one line, exit status 2 in the commands; what was committed is kept."""


class Progress:
    """Counts committed items and forwards them to a tqdm bar (or nothing): :func:`reconnecting`
    restarts its count of tries when this moved."""

    def __init__(self, bar=None):
        self.bar, self.n = bar, 0

    def update(self, n: int) -> None:
        self.n += n
        if self.bar is not None:
            self.bar.update(n)


def _env_number(name: str, default, kind):
    try:
        value = kind(os.environ.get(name, "").strip() or default)
    except ValueError:
        return default
    return value if value >= 0 else default


def reconnecting(engine: Engine, body: Callable[[], Any], *, progress: Progress | None = None,
                 retries: int | None = None, backoff: float | None = None,
                 on_retry: Callable[[int, float, BaseException], None] | None = None) -> Any:
    """``body()``, called again after a :class:`ConnectionLost` (the pool is emptied, then a
    pause of ``backoff * 2**k`` s), up to ``retries`` times in a row; a ``progress`` that moved
    between two faults starts the count again. Past that, :class:`CatalogError` (one line):
    the run stopped and resumes when the command is run again."""
    retries = _env_number("SUDOKU_DB_RETRIES", RETRIES, int) if retries is None else retries
    backoff = _env_number("SUDOKU_DB_BACKOFF", BACKOFF, float) if backoff is None else backoff
    tries, waited, seen = 0, 0.0, None
    while True:
        try:
            return body()
        except ConnectionLost as exc:
            now = progress.n if progress is not None else None
            if now != seen:
                tries, waited, seen = 0, 0.0, now
            if tries >= retries:
                raise CatalogError(f"{exc} (lost the connection; {tries} retries over {waited:.0f} s did not get it "
                                   f"back): stopped; what was committed is kept: run the same command again "
                                   f"to resume") from exc
            pause = backoff * 2 ** tries
            tries += 1
            if on_retry is not None:
                on_retry(tries, pause, exc)
            engine.dispose()
            time.sleep(pause)
            waited += pause


@dataclass
class ShardResult:
    shard: str
    claimed: bool  # False: another live worker holds it, or it was done already
    chunks: int = 0  # chunks committed by this call
    items: int = 0
    new: int = 0
    known: int = 0
    done: bool = False  # the shard's checkpoint is marked done


@dataclass
class DriveResult:
    run_id: int
    already_done: bool  # the run was marked done before this call: nothing was computed
    finished: bool  # every shard is done and the run is marked done
    items: int = 0  # committed by this call
    new: int = 0
    known: int = 0
    shards: list[ShardResult] = field(default_factory=list)  # the shards this call worked on
    held_elsewhere: list[str] = field(default_factory=list)  # pending shards left to other workers

    def add(self, res: ShardResult) -> None:
        self.shards.append(res)
        self.items, self.new, self.known = self.items + res.items, self.new + res.new, self.known + res.known


def _chunks(work: Work, shard: str, cursor: Any) -> Iterator[Chunk]:
    for item in work(shard, cursor):
        yield Chunk.of(item)


def run_shard(engine: Engine, run_id: int, shard: str, work: Work, write: Write, worker_id: str | None = None, *,
              lease_seconds: float = LEASE_SECONDS, progress=None, claimed: bool = False,
              finish: Finish | None = None) -> ShardResult:
    """Claim ``shard`` (unless ``claimed``), then commit ``work``'s chunks from the shard's cursor
    to its end, each with its results (``write``) and its cursor in one transaction that also
    renews the lease (and, for the shard's last chunk, calls ``finish``). Returns without working
    when another live worker holds the shard or it is done. Raises :class:`LeaseLost` if the
    lease was taken over (the chunk in hand is not committed). ``progress``: a tqdm bar (or
    anything with ``update(n)``)."""
    shard = str(shard)
    worker_id = worker_id or worker_name()
    result = ShardResult(shard, claimed=False)
    if not claimed and not claim(engine, run_id, shard, worker_id, lease_seconds=lease_seconds):
        result.done = get_run(engine, run_id).shard_done(shard)
        return result
    result.claimed = True
    lost = False
    try:
        state = get_run(engine, run_id)  # read after the claim: the cursor the last holder committed
        if state.shard_done(shard):
            result.done = True
            return result
        cursor = state.cursor(shard)
        for c in _chunks(work, shard, cursor):
            if result.done:
                raise RuntimeError(f"work for shard {shard!r} yielded a chunk after its last (done) chunk")
            items = c.count
            with chunk(engine, run_id, shard, lease=(worker_id, lease_seconds)) as tx:
                new, known = write(tx.conn, c.results) if c.has_results else (0, 0)
                if c.done and finish is not None:
                    finish(tx.conn, run_id, shard, c.cursor)
                tx.advance(c.cursor, items=items, new=new, done=c.done)
            cursor = c.cursor
            result.chunks += 1
            result.items += items
            result.new += new
            result.known += known
            result.done = c.done
            if progress is not None:
                progress.update(items)
        if not result.done:  # the generator ended: the shard is complete
            with chunk(engine, run_id, shard, lease=(worker_id, lease_seconds)) as tx:
                if finish is not None:
                    finish(tx.conn, run_id, shard, cursor)
                tx.advance(cursor, done=True)
            result.done = True
        return result
    except LeaseLost:
        lost = True
        raise
    finally:
        if not lost:
            try:
                release(engine, run_id, shard, worker_id)
            except Exception:  # the catalog went away: the lease expires by itself
                pass


def progress_bar(state, *, progress: bool, desc: str | None, unit: str):
    """A tqdm bar over the run's items, starting at those already done (silent off a terminal)."""
    return tqdm(total=state.items_total, initial=state.items_done, unit=unit, desc=desc, unit_scale=True,
                disable=None if progress else True, dynamic_ncols=True)


def close_run(engine: Engine, run_id: int, shards: Sequence[str], out: DriveResult) -> DriveResult:
    """Mark the run done when none of ``shards`` is pending (``out.finished``)."""
    if not reconnecting(engine, lambda: pending_shards(engine, run_id, shards)):
        if get_run(engine, run_id).status != "done":
            finish_run(engine, run_id)
        out.finished = True
    return out


def drive(engine: Engine, run_id: int, shards: Iterable[str], work: Work, write: Write, *,
          worker_id: str | None = None, lease_seconds: float = LEASE_SECONDS, wait: bool = True,
          poll_seconds: float = 0.5, on_wait: Callable[[dict], None] | None = None, progress: bool = True,
          desc: str | None = None, unit: str = " items", finish: Finish | None = None) -> DriveResult:
    """Work every pending shard of the run, one after the other, each through :func:`run_shard`.

    Shards other live workers hold are skipped; with ``wait`` (default) the runner then polls
    every ``poll_seconds`` until they are done or claimable (``on_wait(holders)`` is called once,
    the first time), so the call returns only when the whole run is done. The run is marked done
    (``finish_run``) when no shard is pending. A run already done returns at once
    (``already_done``). Progress: a tqdm bar over the run's items (``items_total`` of the run if
    set), starting at the items already done, on standard error."""
    shards = [str(s) for s in shards]
    worker_id = worker_id or worker_name()
    state = get_run(engine, run_id)
    if state.status == "done" and not pending_shards(engine, run_id, shards):
        return DriveResult(run_id, already_done=True, finished=True)
    out = DriveResult(run_id, already_done=False, finished=False)
    bar = progress_bar(state, progress=progress, desc=desc, unit=unit)
    told = False
    counted = Progress(bar)

    def loop() -> None:
        nonlocal told
        while True:
            pending = pending_shards(engine, run_id, shards)
            if not pending:
                break
            shard = claim_next(engine, run_id, pending, worker_id, lease_seconds=lease_seconds)
            if shard is None:
                held = {s: w for s, w in holders(engine, run_id).items() if s in pending}
                if not wait:
                    out.held_elsewhere = sorted(held) or pending
                    break
                if not told and on_wait is not None:
                    on_wait(held)
                told = True
                time.sleep(poll_seconds)
                continue
            out.add(run_shard(engine, run_id, shard, work, write, worker_id, lease_seconds=lease_seconds,
                              progress=counted, claimed=True, finish=finish))

    try:
        reconnecting(engine, loop, progress=counted)
    finally:
        bar.close()
    return close_run(engine, run_id, shards, out)


def run_job(catalog: Engine, run_id: int, shards: Sequence[str], job: Job, *, workers: int | None = None,
            scheduler: str | None = None, output=None, desc: str | None = None, unit: str = " items",
            progress: bool = True, on_wait: Callable[[dict], None] | None = None) -> DriveResult:
    """Every pending shard of the run through ``job``: in this process, or with ``workers`` (a
    local Dask cluster of that many processes) or ``scheduler`` (an existing cluster's address)
    as Dask tasks, each calling :func:`run_shard` (``jobs/dask.py``). ``output``: where the
    chunks' ``data`` goes (:func:`jobs.output.open_output`: an ``--out`` file, resumable, or
    standard output, anything with ``wrap(work)``; serial runs only: lines come out in shard order
    from one process)."""
    if workers or scheduler:
        if output is not None:
            raise JobError("lines printed or written to a file come out in order from one process: "
                           "a distributed run counts only")
        from . import dask as dask_runner  # deferred: importing Dask costs about a second

        return dask_runner.run_distributed(catalog, run_id, shards, job, workers=workers, scheduler=scheduler,
                                           desc=desc, unit=unit, progress=progress)
    work = job.work if output is None else output.wrap(job.work)
    return drive(catalog, run_id, shards, work, job.write, finish=job.finish, desc=desc, unit=unit,
                 progress=progress, on_wait=on_wait)
