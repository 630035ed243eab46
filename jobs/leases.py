"""Leases: two processes on one catalog never work the same shard.

:func:`claim` takes the lease row of (run, shard) (table ``run_leases``, migration 0003; the SQL
is ``catalog.runs.claim_lease``) for ``worker_id`` until ``now + lease_seconds`` when it is free,
expired, already ours, or held by a dead process on this host (``worker_id`` is
``host:pid:random``; a SIGKILLed run is resumed at once, without waiting for its lease to
expire). Every chunk transaction first renews the lease (``catalog.runs.chunk(...,
lease=...)``); if another worker took it over (ours expired), nothing is committed and
:class:`~catalog.errors.LeaseLost` is raised. A lease lives ``lease_seconds`` (default
:data:`LEASE_SECONDS`, 10 minutes) after the last committed chunk, so a chunk must take well
under that; expiry compares the workers' clocks (UTC), which must agree to well within it.
"""
from __future__ import annotations

import os
import socket
import uuid
from datetime import datetime
from typing import Iterable

from sqlalchemy import Engine

from sudoku_symmetry.catalog.runs import claim_lease, live_leases, pending_shards, release_lease

LEASE_SECONDS = 600.0
"""How long a lease lasts after the last committed chunk (seconds)."""

__all__ = ["LEASE_SECONDS", "worker_name", "holder_is_dead", "claim", "claim_next", "release", "holders"]


def worker_name() -> str:
    """A worker id unique to this process: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def holder_is_dead(worker_id: str) -> bool:
    """True when ``worker_id`` names a process on this host that no longer runs (or is a zombie)."""
    host, _, rest = worker_id.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    import psutil  # every platform's process table (a zombie has exited but is still listed)

    try:
        return psutil.Process(pid).status() in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:  # access denied: another user's process, alive
        return False


def claim(engine: Engine, run_id: int, shard: str, worker_id: str, *, lease_seconds: float = LEASE_SECONDS) -> bool:
    """Take the lease on (run, shard) for ``worker_id`` if it is free, expired, ours, or held
    by a dead process on this host; True when this worker holds it now. A shard whose
    checkpoint is done is not claimed (False)."""
    return claim_lease(engine, run_id, shard, worker_id, lease_seconds, holder_is_dead)


def holders(engine: Engine, run_id: int) -> dict[str, tuple[str, datetime]]:
    """The live leases of a run: shard -> (worker_id, expires_at)."""
    return live_leases(engine, run_id, holder_is_dead)


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
    release_lease(engine, run_id, shard, worker_id)
