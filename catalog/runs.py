"""Resumable runs: what later work (grid and clue-pattern enumerations, the 17-clue search,
scale-out over Dask workers) uses to survive being killed.

Tables (migration 0001): ``runs`` — one row per run (``kind``, ``parameters`` as canonical JSON
text, ``status`` running/done/failed, counters ``items_done`` / ``items_new`` / ``items_total``,
timestamps); ``run_checkpoints`` — one row per (run, shard) with ``resume_cursor`` (JSON text),
``items_done`` and ``done``.

The rule that makes a kill at any instant lose nothing and duplicate nothing: **a chunk's
results and its checkpoint are committed in one transaction**. Use :func:`chunk`::

    from sudoku_symmetry.catalog.runs import start_or_resume, chunk, finish_run, pending_shards
    run = start_or_resume(engine, "ed_grids", {"band1": 0})      # same kind + parameters: resumed
    for shard in pending_shards(engine, run.id, [str(p) for p in prefixes]):
        cursor = run.cursor(shard)                                # None: start of the shard
        for results, next_cursor, last in work(shard, cursor):    # the caller's generator
            with chunk(engine, run.id, shard) as c:               # BEGIN
                new, known = store_configurations(c.conn, results)
                c.advance(next_cursor, items=len(results), new=new, done=last)
            # COMMIT here: the rows and the cursor together, or neither
    finish_run(engine, run.id)

A shard is any text key (a band index, a (band 1, row 4) prefix, a file name); shards of one run
may be worked on by different processes at once (each commits its own checkpoint row; the run's
counters are incremented in the same transactions). Cursors are any JSON value. Results should
be written with ``ON CONFLICT DO NOTHING`` (as ``store_configurations`` does) so that re-running
a chunk whose commit was lost is harmless anyway.

Most callers should not write this loop themselves: the runner (``jobs/runner.py``: ``drive``,
``run_shard``) runs it, with shard leases (table ``run_leases``, migration 0003; the rows are
read and written here, :func:`claim_lease`, :func:`live_leases`, :func:`release_lease`; who may
take one is the runner's policy, ``jobs/leases.py``) so that two processes never work the same
shard, and ``chunk(..., lease=(worker_id, seconds))`` renews the lease in the chunk's own
transaction (``LeaseLost`` if another worker took it over).

For the commands: :func:`list_runs` (the ``--status`` listings), :func:`shard_cursors` (the
committed cursors of a run's shards, e.g. to combine the pieces of a band 1) and
:func:`restart_run` (forget a run's progress: its output file was deleted).
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy import Connection, Engine, delete, func, select, update

from ._dml import connection_of, dialect_insert
from .errors import LeaseLost
from .models import Run, RunCheckpoint, RunLease, utcnow

RUNS = Run.__table__
CHECKPOINTS = RunCheckpoint.__table__
LEASES = RunLease.__table__
_RUN_CREATION_LOCK = 0x5D0C1  # PostgreSQL advisory lock key: two processes never create the same run twice


@contextmanager
def _writing(target) -> Iterator[Connection]:
    """connection_of, but an Engine gets a write transaction (BEGIN IMMEDIATE on SQLite, an
    advisory lock on PostgreSQL): read-then-insert of a run is atomic across processes."""
    if isinstance(target, Engine):
        from .db import write_transaction

        with write_transaction(target) as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_RUN_CREATION_LOCK})")
            yield conn
    else:
        with connection_of(target) as conn:
            yield conn


def canonical_parameters(parameters: Any) -> str:
    """Parameters as canonical JSON text (sorted keys, no spaces): equal parameters, equal text."""
    return json.dumps(parameters if parameters is not None else {}, sort_keys=True, separators=(",", ":"))


@dataclass
class Checkpoint:
    shard: str
    cursor: Any  # the decoded JSON resume cursor (None: not started)
    items_done: int
    done: bool


@dataclass
class RunState:
    """A run as read from the catalog. ``resumed``: it existed before :func:`start_or_resume`."""

    id: int
    kind: str
    parameters: Any
    status: str
    items_done: int
    items_new: int
    items_total: int | None
    resumed: bool
    checkpoints: dict[str, Checkpoint] = field(default_factory=dict)

    def cursor(self, shard: str) -> Any:
        cp = self.checkpoints.get(shard)
        return None if cp is None else cp.cursor

    def shard_done(self, shard: str) -> bool:
        cp = self.checkpoints.get(shard)
        return bool(cp and cp.done)


def _read(conn: Connection, run_id: int, resumed: bool) -> RunState:
    r = conn.execute(select(RUNS).where(RUNS.c.id == run_id)).mappings().one()
    cps = {
        c["shard"]: Checkpoint(c["shard"], None if c["resume_cursor"] is None else json.loads(c["resume_cursor"]),
                               int(c["items_done"]), bool(c["done"]))
        for c in conn.execute(select(CHECKPOINTS).where(CHECKPOINTS.c.run_id == run_id)).mappings()
    }
    return RunState(int(r["id"]), r["kind"], json.loads(r["parameters"]), r["status"], int(r["items_done"]),
                    int(r["items_new"]), r["items_total"], resumed, cps)


def start_or_resume(target, kind: str, parameters: Any = None, *, items_total: int | None = None,
                    restart: bool = False) -> RunState:
    """The newest run of ``kind`` with these ``parameters`` (status set back to ``running`` if it
    had failed), or a new one. A finished run is returned as is (``status == "done"``): the
    caller has nothing to do. ``restart=True`` always starts a new run."""
    params = canonical_parameters(parameters)
    with _writing(target) as conn:
        run_id = None
        if not restart:
            run_id = conn.scalar(
                select(RUNS.c.id).where(RUNS.c.kind == kind, RUNS.c.parameters == params)
                .order_by(RUNS.c.id.desc()).limit(1)
            )
        if run_id is None:
            now = utcnow()
            run_id = conn.execute(
                RUNS.insert().values(kind=kind, parameters=params, status="running", items_done=0, items_new=0,
                                     items_total=items_total, created_at=now, updated_at=now)
            ).inserted_primary_key[0]
            return _read(conn, run_id, resumed=False)
        values: dict[str, Any] = {}
        if items_total is not None:
            values["items_total"] = items_total
        status = conn.scalar(select(RUNS.c.status).where(RUNS.c.id == run_id))
        if status == "failed":
            values["status"] = "running"
        if values:
            conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(**values, updated_at=utcnow()))
        return _read(conn, run_id, resumed=True)


def get_run(target, run_id: int) -> RunState:
    with connection_of(target) as conn:
        return _read(conn, run_id, resumed=True)


def record_checkpoint(conn: Connection, run_id: int, shard: str, cursor: Any, *, items: int = 0,
                      new: int = 0, done: bool = False) -> None:
    """Advance the checkpoint of (run, shard) inside the caller's transaction: set the cursor,
    add ``items`` to the shard's and the run's ``items_done`` and ``new`` to the run's
    ``items_new``. Commit it with the chunk's results (see :func:`chunk`)."""
    now = utcnow()
    ins = dialect_insert(conn, CHECKPOINTS)
    stmt = ins.values(run_id=run_id, shard=str(shard), resume_cursor=json.dumps(cursor), items_done=items,
                      done=done, updated_at=now)
    stmt = stmt.on_conflict_do_update(
        index_elements=["run_id", "shard"],
        set_={"resume_cursor": stmt.excluded.resume_cursor, "done": stmt.excluded.done, "updated_at": now,
              "items_done": CHECKPOINTS.c.items_done + stmt.excluded.items_done},
    )
    conn.execute(stmt)
    conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(
        items_done=RUNS.c.items_done + items, items_new=RUNS.c.items_new + new, updated_at=now))


def renew_lease(conn: Connection, run_id: int, shard: str, worker_id: str, seconds: float) -> None:
    """Inside the caller's transaction: extend ``worker_id``'s lease on (run, shard) by ``seconds``
    from now, or raise :class:`LeaseLost` if another worker holds it now. Run it first in the
    transaction: on SQLite the UPDATE takes the write lock, on PostgreSQL the row lock, so no
    claim can slip in between this check and the commit."""
    res = conn.execute(update(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.shard == str(shard),
                                            LEASES.c.worker_id == worker_id)
                       .values(expires_at=utcnow() + timedelta(seconds=seconds)))
    if res.rowcount != 1:
        raise LeaseLost(f"the lease on shard {shard!r} of run {run_id} was taken over by another worker; "
                        f"this worker ({worker_id}) stopped without committing its chunk")


class ChunkTransaction:
    """What :func:`chunk` yields: ``conn`` to write results on, ``advance`` to move the checkpoint."""

    def __init__(self, conn: Connection, run_id: int, shard: str):
        self.conn, self.run_id, self.shard = conn, run_id, shard
        self.advanced = False

    def advance(self, cursor: Any, *, items: int = 0, new: int = 0, done: bool = False) -> None:
        record_checkpoint(self.conn, self.run_id, self.shard, cursor, items=items, new=new, done=done)
        self.advanced = True


@contextmanager
def chunk(engine: Engine, run_id: int, shard: str, *, lease: tuple[str, float] | None = None) -> Iterator[ChunkTransaction]:
    """One transaction for a chunk of results and its checkpoint: committed together when the
    block ends, rolled back together on any exception (or a kill). The block must call
    ``advance``; a block that does not is rolled back and raises, since results committed
    without their cursor would be recomputed (harmless with ON CONFLICT, but a bug).

    ``lease=(worker_id, seconds)``: the transaction first renews that worker's lease on the
    shard (``jobs/runner.py``) and raises :class:`LeaseLost` (nothing committed) when
    another worker has taken it over."""
    with engine.begin() as conn:
        if lease is not None:
            renew_lease(conn, run_id, shard, lease[0], lease[1])
        c = ChunkTransaction(conn, run_id, shard)
        yield c
        if not c.advanced:
            raise RuntimeError(f"chunk of run {run_id}, shard {shard!r} ended without advance(); rolled back")


def commit_chunk(engine: Engine, run_id: int, shard: str, cursor: Any, *, items: int = 0,
                 write=None, done: bool = False):
    """Functional form of :func:`chunk`: ``write(conn)`` stores the results and returns how many
    were new (or ``(new, known)``); then the checkpoint; one commit. Returns what ``write`` did."""
    with chunk(engine, run_id, shard) as c:
        out = write(c.conn) if write is not None else 0
        new = out[0] if isinstance(out, tuple) else int(out or 0)
        c.advance(cursor, items=items, new=new, done=done)
    return out


def pending_shards(target, run_id: int, shards: Iterable[str]) -> list[str]:
    """The shards, in the given order, whose checkpoint is not marked done."""
    with connection_of(target) as conn:
        done = set(conn.scalars(select(CHECKPOINTS.c.shard).where(CHECKPOINTS.c.run_id == run_id,
                                                                   CHECKPOINTS.c.done.is_(True))))
    return [s for s in map(str, shards) if s not in done]


def finish_run(target, run_id: int, status: str = "done") -> None:
    """Mark a run ``done`` (or ``failed``) and stamp ``finished_at``."""
    if status not in ("done", "failed", "running"):
        raise ValueError(f"bad status {status!r}")
    now = utcnow()
    with connection_of(target) as conn:
        conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(
            status=status, updated_at=now, finished_at=None if status == "running" else now))


# -- leases: which worker holds which shard (the policy, who may take one, is jobs/leases.py) --
def _aware(t: datetime | None) -> datetime | None:
    if t is not None and t.tzinfo is None:  # SQLite gives naive datetimes back
        t = t.replace(tzinfo=timezone.utc)
    return t


def _lease_is_free(row, worker_id: str, now: datetime, holder_is_dead: Callable[[str], bool]) -> bool:
    holder = row["worker_id"]
    if holder is None or holder == worker_id:
        return True
    expires = _aware(row["expires_at"])
    return expires is None or expires <= now or holder_is_dead(holder)


def claim_lease(engine: Engine, run_id: int, shard: str, worker_id: str, lease_seconds: float,
                holder_is_dead: Callable[[str], bool]) -> bool:
    """Take the lease on (run, shard) for ``worker_id`` until ``now + lease_seconds`` if it is free,
    expired, ours, or held by a worker ``holder_is_dead`` says is gone; True when this worker
    holds it now. A shard whose checkpoint is done is not claimed (False). One short write
    transaction: ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL (a row another claimer is
    deciding about is skipped, never waited for), ``BEGIN IMMEDIATE`` on SQLite."""
    from .db import write_transaction

    shard = str(shard)
    now = utcnow()
    with write_transaction(engine) as conn:
        conn.execute(dialect_insert(conn, LEASES).values(run_id=run_id, shard=shard)
                     .on_conflict_do_nothing(index_elements=["run_id", "shard"]))
        q = select(LEASES.c.worker_id, LEASES.c.expires_at).where(LEASES.c.run_id == run_id, LEASES.c.shard == shard)
        if conn.dialect.name == "postgresql":
            q = q.with_for_update(skip_locked=True)
        row = conn.execute(q).mappings().first()
        if row is None or not _lease_is_free(row, worker_id, now, holder_is_dead):
            return False
        done = conn.scalar(select(CHECKPOINTS.c.done).where(CHECKPOINTS.c.run_id == run_id,
                                                            CHECKPOINTS.c.shard == shard))
        if done:
            return False
        conn.execute(update(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.shard == shard).values(
            worker_id=worker_id, expires_at=now + timedelta(seconds=lease_seconds), claimed_at=now))
    return True


def live_leases(engine: Engine, run_id: int, holder_is_dead: Callable[[str], bool]) -> dict[str, tuple[str, datetime]]:
    """The live leases of a run: shard -> (worker_id, expires_at), not expired, holder not dead."""
    now = utcnow()
    with engine.connect() as conn:
        rows = conn.execute(select(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.worker_id.is_not(None)))
        out = {r.shard: (r.worker_id, _aware(r.expires_at)) for r in rows}
    return {s: (w, e) for s, (w, e) in out.items() if e is not None and e > now and not holder_is_dead(w)}


def release_lease(engine: Engine, run_id: int, shard: str, worker_id: str) -> None:
    """Give the lease back (only if ``worker_id`` still holds it)."""
    with engine.begin() as conn:
        conn.execute(update(LEASES).where(LEASES.c.run_id == run_id, LEASES.c.shard == str(shard),
                                          LEASES.c.worker_id == worker_id).values(worker_id=None, expires_at=None))


# -- what the commands read and reset ---------------------------------------------------------
@dataclass
class RunListing:
    """One run as ``--status`` lists it."""

    id: int
    status: str
    parameters: Any
    shards_done: int
    items_done: int
    updated_at: datetime | None = None  # the last checkpoint (or the start)


def list_runs(target, kind: str) -> list[RunListing]:
    """Every run of ``kind``, oldest first, with its shards done and when it last moved."""
    with connection_of(target) as conn:
        done = dict(conn.execute(select(CHECKPOINTS.c.run_id, func.count()).where(CHECKPOINTS.c.done.is_(True))
                                 .group_by(CHECKPOINTS.c.run_id)).all())
        rows = conn.execute(select(RUNS).where(RUNS.c.kind == kind).order_by(RUNS.c.id)).mappings().all()
    return [RunListing(int(r["id"]), r["status"], json.loads(r["parameters"]), int(done.get(r["id"], 0)),
                       int(r["items_done"]), _aware(r["updated_at"])) for r in rows]


def shard_cursors(conn: Connection, run_id: int, *, done: bool = True) -> dict[str, Any]:
    """shard -> committed cursor (decoded JSON) of a run's shards (only those marked done, by
    default), read on the caller's connection (inside its transaction)."""
    q = select(CHECKPOINTS.c.shard, CHECKPOINTS.c.resume_cursor).where(CHECKPOINTS.c.run_id == run_id)
    if done:
        q = q.where(CHECKPOINTS.c.done.is_(True))
    return {s: None if c is None else json.loads(c) for s, c in conn.execute(q)}


def restart_run(target, run_id: int) -> None:
    """Forget a run's progress: its checkpoints and leases are deleted, its counters set to 0 and
    its status to running (what it stored stays: rows are deduplicated). For a run whose output
    file was deleted: it makes the file again from the start."""
    now = utcnow()
    with _writing(target) as conn:
        conn.execute(delete(CHECKPOINTS).where(CHECKPOINTS.c.run_id == run_id))
        conn.execute(delete(LEASES).where(LEASES.c.run_id == run_id))
        conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(status="running", items_done=0, items_new=0,
                                                                    updated_at=now, finished_at=None))
