"""The resumable-run driver: one loop for every long computation (canon --store on a file now;
grid enumeration, the 17-clue search, clue patterns and Dask workers next).

The computation is a generator with no database in it; the driver owns the catalog side::

    work(shard, cursor)  -> yields (results, next_cursor, done)        # or (..., done, items)
    write(conn, results) -> (new, known)                               # stores them on conn

* ``shard``: a text key naming an independent slice of the run (a file's sha256, a band index,
  a prefix). ``cursor``: a JSON value saying where to resume inside the shard, ``None`` at its
  start; the generator must produce, from ``cursor``, exactly what an uninterrupted run would
  produce from that point (a line number, an enumeration prefix, a random-generator state).
* Each yielded chunk is committed by :func:`catalog.runs.chunk` in ONE transaction: the lease
  renewal, ``write``'s rows and the checkpoint (``next_cursor``, counters). So a kill at any
  instant leaves the catalog either before or after the chunk, never between: rows and cursor
  always agree, and a rerun resumes at the cursor and ends with exactly the rows (and
  ``runs`` / ``run_checkpoints`` counters) of one uninterrupted run. ``items`` (default
  ``len(results)``) is what the chunk counts towards ``items_done`` and the progress bar.
* The driver asks for the next chunk only after committing the previous one, so code after a
  ``yield`` runs once that chunk is safe (``canon`` prints its lines there). A generator that
  ends without ``done`` marks its shard done with an empty chunk; one that yields after ``done``
  is a bug (RuntimeError).

Leases (table ``run_leases``, migration 0003): two processes on one catalog never work the
same shard. :func:`claim` takes the lease row of (run, shard) for ``worker_id`` until
``now + lease_seconds`` when it is free, expired, already ours, or held by a dead process on
this host (``worker_id`` is ``host:pid:random``; a SIGKILLed run is resumed at once, without
waiting for its lease to expire). The claim is one short write transaction: ``SELECT ... FOR
UPDATE SKIP LOCKED`` on PostgreSQL (a row another claimer is deciding about is skipped, never
waited for), ``BEGIN IMMEDIATE`` on SQLite (claims are serialized by the write lock). Every
chunk transaction first renews the lease with ``UPDATE ... WHERE worker_id = me``; if another
worker took it over (ours expired), nothing is committed and :class:`LeaseLost` is raised. A
lease lives ``lease_seconds`` (default :data:`LEASE_SECONDS`, 10 minutes) after the last
committed chunk, so a chunk must take well under that; expiry compares the workers' clocks
(UTC), which must agree to well within it.

API (all take an Engine from :func:`catalog.db.open_catalog` and a run id from
:func:`catalog.runs.start_or_resume`):

* :func:`run_shard` ``(engine, run_id, shard, work, write, worker_id=None)``: claim one shard and
  work it to its end (what a Dask task calls); returns a :class:`ShardResult`.
* :func:`drive` ``(engine, run_id, shards, work, write)``: serially, every pending shard this
  worker can claim (optionally waiting for shards other workers hold), with a tqdm progress bar
  over the run's items (rate and ETA; ``disable=None``: silent when standard error is not a
  terminal); marks the run done when no shard is left; returns a :class:`DriveResult`.
* :func:`claim`, :func:`claim_next`, :func:`release`, :func:`holders`, :func:`worker_name`:
  the pieces, for other schedulers (``catalog/distributed.py`` runs :func:`run_shard` as Dask tasks).
* :func:`reconnecting` ``(engine, body)``: faults of the database connection
  (:class:`~catalog.errors.ConnectionLost`: a PostgreSQL backend terminated, the server restarted
  or unreachable) are retried with exponential backoff (:data:`RETRIES` tries, ``BACKOFF`` s
  doubling: 0.5 + 1 + 2 + 4 + 8 s; ``$SUDOKU_DB_RETRIES``, ``$SUDOKU_DB_BACKOFF``), the count
  starting again after each committed chunk; then the run stops with one line (a
  :class:`CatalogError`) and resumes from its checkpoints when started again. A retry is safe
  because the chunk in flight was rolled back: the shard is claimed again (the lease is still
  this worker's) and resumed from its committed cursor. :func:`drive` uses it.
"""
from __future__ import annotations

import os
import socket
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, Iterator, Sequence

from sqlalchemy import Connection, Engine, select, update

from ._dml import dialect_insert
from .db import write_transaction
from .errors import CatalogError, ConnectionLost, LeaseLost
from .models import utcnow
from .runs import CHECKPOINTS, LEASES, chunk, finish_run, get_run, pending_shards

LEASE_SECONDS = 600.0
"""How long a lease lasts after the last committed chunk (seconds)."""

RETRIES = 5
"""Tries after a lost database connection before the run stops (``$SUDOKU_DB_RETRIES``)."""
BACKOFF = 0.5
"""Seconds before the first retry, doubled each time (``$SUDOKU_DB_BACKOFF``)."""

Work = Callable[[str, Any], Iterable[tuple]]
Write = Callable[[Connection, Sequence], tuple[int, int]]

__all__ = ["LEASE_SECONDS", "RETRIES", "BACKOFF", "LeaseLost", "reconnecting", "Progress", "ShardResult", "DriveResult", "worker_name", "claim", "claim_next",
           "release", "holders", "run_shard", "drive"]


def worker_name() -> str:
    """A worker id unique to this process: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _holder_is_dead(worker_id: str) -> bool:
    """True when ``worker_id`` names a process on this host that no longer runs (or is a zombie)."""
    host, _, rest = worker_id.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


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


def _aware(t: datetime | None) -> datetime | None:
    if t is not None and t.tzinfo is None:  # SQLite gives naive datetimes back
        t = t.replace(tzinfo=timezone.utc)
    return t


def _is_free(row, worker_id: str, now: datetime) -> bool:
    holder = row["worker_id"]
    if holder is None or holder == worker_id:
        return True
    expires = _aware(row["expires_at"])
    return expires is None or expires <= now or _holder_is_dead(holder)


def claim(engine: Engine, run_id: int, shard: str, worker_id: str, *,
          lease_seconds: float = LEASE_SECONDS) -> bool:
    """Take the lease on (run, shard) for ``worker_id`` if it is free, expired, ours, or held
    by a dead process on this host; True when this worker holds it now. A shard whose
    checkpoint is done is not claimed (False)."""
    shard = str(shard)
    now = utcnow()
    with write_transaction(engine) as conn:
        conn.execute(dialect_insert(conn, LEASES).values(run_id=run_id, shard=shard)
                     .on_conflict_do_nothing(index_elements=["run_id", "shard"]))
        q = select(LEASES.c.worker_id, LEASES.c.expires_at).where(LEASES.c.run_id == run_id, LEASES.c.shard == shard)
        if conn.dialect.name == "postgresql":
            q = q.with_for_update(skip_locked=True)
        row = conn.execute(q).mappings().first()
        if row is None or not _is_free(row, worker_id, now):
            return False
        done = conn.scalar(select(CHECKPOINTS.c.done).where(CHECKPOINTS.c.run_id == run_id,
                                                            CHECKPOINTS.c.shard == shard))
        if done:
            return False
        conn.execute(update(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.shard == shard).values(
            worker_id=worker_id, expires_at=now + timedelta(seconds=lease_seconds), claimed_at=now))
    return True


def holders(engine: Engine, run_id: int) -> dict[str, tuple[str, datetime]]:
    """The live leases of a run: shard -> (worker_id, expires_at)."""
    now = utcnow()
    with engine.connect() as conn:
        rows = conn.execute(select(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.worker_id.is_not(None)))
        out = {r.shard: (r.worker_id, _aware(r.expires_at)) for r in rows}
    return {s: (w, e) for s, (w, e) in out.items() if e is not None and e > now and not _holder_is_dead(w)}


def claim_next(engine: Engine, run_id: int, shards: Iterable[str], worker_id: str, *,
               lease_seconds: float = LEASE_SECONDS) -> str | None:
    """The first of ``shards`` (in order) that is not done and that this worker could claim,
    claimed; None when every pending shard is held by another live worker (or all are done)."""
    held = holders(engine, run_id)
    for shard in pending_shards(engine, run_id, shards):
        if shard in held and held[shard][0] != worker_id:
            continue
        if claim(engine, run_id, shard, worker_id, lease_seconds=lease_seconds):
            return shard
    return None


def release(engine: Engine, run_id: int, shard: str, worker_id: str) -> None:
    """Give the lease back (only if ``worker_id`` still holds it)."""
    with engine.begin() as conn:
        conn.execute(update(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.shard == str(shard),
                                          LEASES.c.worker_id == worker_id).values(worker_id=None, expires_at=None))


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


def _chunks(work: Work, shard: str, cursor: Any) -> Iterator[tuple[Sequence, Any, bool, int]]:
    for item in work(shard, cursor):
        results, next_cursor, done = item[0], item[1], bool(item[2])
        items = int(item[3]) if len(item) > 3 else len(results)
        yield results, next_cursor, done, items


def run_shard(engine: Engine, run_id: int, shard: str, work: Work, write: Write, worker_id: str | None = None, *,
              lease_seconds: float = LEASE_SECONDS, progress=None, claimed: bool = False) -> ShardResult:
    """Claim ``shard`` (unless ``claimed``), then commit ``work``'s chunks from the shard's cursor
    to its end, each with its results (``write``) and its cursor in one transaction that also
    renews the lease. Returns without working when another live worker holds the shard or it is
    done. Raises :class:`LeaseLost` if the lease was taken over (the chunk in hand is not
    committed). ``progress``: a tqdm bar (or anything with ``update(n)``)."""
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
        for results, next_cursor, done, items in _chunks(work, shard, cursor):
            if result.done:
                raise RuntimeError(f"work for shard {shard!r} yielded a chunk after its last (done) chunk")
            with chunk(engine, run_id, shard, lease=(worker_id, lease_seconds)) as c:
                new, known = write(c.conn, results) if len(results) else (0, 0)
                c.advance(next_cursor, items=items, new=new, done=done)
            cursor = next_cursor
            result.chunks += 1
            result.items += items
            result.new += new
            result.known += known
            result.done = done
            if progress is not None:
                progress.update(items)
        if not result.done:  # the generator ended: the shard is complete
            with chunk(engine, run_id, shard, lease=(worker_id, lease_seconds)) as c:
                c.advance(cursor, done=True)
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


def drive(engine: Engine, run_id: int, shards: Iterable[str], work: Work, write: Write, *,
          worker_id: str | None = None, lease_seconds: float = LEASE_SECONDS, wait: bool = True,
          poll_seconds: float = 0.5, on_wait: Callable[[dict], None] | None = None, progress: bool = True,
          desc: str | None = None, unit: str = " items") -> DriveResult:
    """Work every pending shard of the run, one after the other, each through :func:`run_shard`.

    Shards other live workers hold are skipped; with ``wait`` (default) the driver then polls
    every ``poll_seconds`` until they are done or claimable (``on_wait(holders)`` is called once,
    the first time), so the call returns only when the whole run is done. The run is marked done
    (``finish_run``) when no shard is pending. A run already done returns at once
    (``already_done``). Progress: a tqdm bar over the run's items (``items_total`` of the run if
    set), starting at the items already done, on standard error."""
    from tqdm import tqdm

    shards = [str(s) for s in shards]
    worker_id = worker_id or worker_name()
    state = get_run(engine, run_id)
    if state.status == "done" and not pending_shards(engine, run_id, shards):
        return DriveResult(run_id, already_done=True, finished=True)
    out = DriveResult(run_id, already_done=False, finished=False)
    bar = tqdm(total=state.items_total, initial=state.items_done, unit=unit, desc=desc, unit_scale=True,
               disable=None if progress else True, dynamic_ncols=True)
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
            res = run_shard(engine, run_id, shard, work, write, worker_id, lease_seconds=lease_seconds,
                            progress=counted, claimed=True)
            out.shards.append(res)
            out.items, out.new, out.known = out.items + res.items, out.new + res.new, out.known + res.known

    try:
        reconnecting(engine, loop, progress=counted)
    finally:
        bar.close()
    if not reconnecting(engine, lambda: pending_shards(engine, run_id, shards)):
        if get_run(engine, run_id).status != "done":
            finish_run(engine, run_id)
        out.finished = True
    return out
