"""The shards of a run as Dask tasks: on a local cluster of N worker processes, or on an existing
Dask scheduler (many machines). Dask schedules; the catalog keeps the truth.

Each shard is one task, :func:`shard_task`, which opens the catalog in the worker (once per
process) and calls :func:`jobs.runner.run_shard` with the job's own ``work``, ``write`` and
``finish`` (the serial run's code): claim the shard's lease, resume at its committed cursor,
commit each chunk with its cursor in one transaction. So:

* a worker killed mid-shard loses nothing: Dask reschedules its task on another worker
  (``distributed.scheduler.allowed-failures``, 3 by default), which claims the lease of the dead
  process (same host: at once; another host: when the lease expires, ``lease_seconds``) and
  resumes from the checkpoint; the final rows and counters equal one serial run's;
* two clusters (or a cluster and a serial run) on one catalog never work the same shard: a task
  whose shard another live worker holds waits (polling) until that shard is done or free;
* a lost database connection is retried with backoff (:func:`jobs.runner.reconnecting`),
  then the task fails with one line, the client cancels the rest and the command stops; run
  again, it resumes from the checkpoints.

The :class:`~jobs.chunk.Job` travels to the workers by (cloud)pickle: module-level functions or
``functools.partial`` of them over plain data (no open files, no standard output). Workers
compute with one thread: a local cluster is started with ``threads_per_worker=1`` and
``NUMBA_NUM_THREADS=1`` in its workers' environment; they inherit ``SUDOKU_CACHE_DIR``, so the
kernels compile once for all of them (the Numba cache is shared). Workers of an existing
cluster should be started the same way::

    NUMBA_NUM_THREADS=1 SUDOKU_CACHE_DIR=/shared/cache dask worker tcp://HOST:8786 --nthreads 1

Measured (bench/bench_distributed.py): see the README's "Scale-out" section.
"""
from __future__ import annotations

import logging
import os
import time
import uuid
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from sqlalchemy import Engine

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.errors import CatalogError
from sudoku_symmetry.catalog.runs import get_run, pending_shards

from .chunk import Job
from .leases import LEASE_SECONDS, worker_name
from .runner import DriveResult, Progress, ShardResult, close_run, progress_bar, reconnecting, run_shard

try:
    import distributed
except ImportError:  # an optional dependency: ``pip install 'sudoku-symmetry[distributed]'``
    distributed = None

WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Set in the workers of a local cluster: one thread each (the cluster gives the parallelism)."""

POLL_SECONDS = 1.0

_ENGINES: dict[str, Engine] = {}
_WORKER_ID: list[str] = []


class ClusterError(CatalogError):
    """The cluster cannot be reached or gave up on a shard (one line, exit 2 in the commands)."""


def _engine(url: str) -> Engine:
    engine = _ENGINES.get(url)
    if engine is None:
        engine = _ENGINES[url] = open_catalog(url)
    return engine


def _worker_id() -> str:
    if not _WORKER_ID or _WORKER_ID[0].split(":")[1] != str(os.getpid()):
        _WORKER_ID[:] = [worker_name()]
    return _WORKER_ID[0]


def shard_task(url: str, run_id: int, shard: str, job: Job, lease_seconds: float = LEASE_SECONDS,
               poll_seconds: float = POLL_SECONDS) -> ShardResult:
    """One shard to its end, in a worker (what each Dask task runs). Waits while another live
    worker holds the shard; returns once the shard is done. ``items``: committed by this task."""
    engine = _engine(url)
    me = _worker_id()
    progress = Progress()

    def body() -> ShardResult:
        while True:
            res = run_shard(engine, run_id, shard, job.work, job.write, me, lease_seconds=lease_seconds,
                            progress=progress, finish=job.finish)
            if res.claimed or res.done:
                return res
            time.sleep(poll_seconds)  # held by another live worker (another cluster, or a lease not expired)

    res = reconnecting(engine, body, progress=progress)
    res.items = progress.n
    return res


@contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: on an existing ``scheduler`` (an address such as
    ``tcp://host:8786``), else on a new ``LocalCluster`` of ``workers`` processes with one
    thread each (closed at the end)."""
    if distributed is None:
        raise ClusterError("--workers and --scheduler need Dask: pip install 'sudoku-symmetry[distributed]'")
    if scheduler:
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler {scheduler}: {str(exc).strip().splitlines()[0]}") \
                from exc
        try:
            yield client
        finally:
            client.close()
        return
    env = dict(WORKER_ENV)
    for name in ("SUDOKU_CACHE_DIR", "XDG_CACHE_HOME"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    cluster = distributed.LocalCluster(n_workers=int(workers or 1), threads_per_worker=1, processes=True, env=env,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def run_distributed(engine: Engine, run_id: int, shards: Sequence[str], job: Job, *, workers: int | None = None,
                    scheduler: str | None = None, lease_seconds: float = LEASE_SECONDS, progress: bool = True,
                    desc: str | None = None, unit: str = " items", poll_seconds: float = POLL_SECONDS) -> DriveResult:
    """Every pending shard of the run as one Dask task (:func:`shard_task`); the run is marked done
    when none is left. Same result as :func:`jobs.runner.drive`; the progress bar follows the
    run's committed items (read from the catalog every second)."""
    shards = [str(s) for s in shards]
    state = get_run(engine, run_id)
    pending = pending_shards(engine, run_id, shards)
    if state.status == "done" and not pending:
        return DriveResult(run_id, already_done=True, finished=True)
    out = DriveResult(run_id, already_done=False, finished=False)
    url = engine.url.render_as_string(hide_password=False)
    if pending:
        bar = progress_bar(state, progress=progress, desc=desc, unit=unit)
        tag = uuid.uuid4().hex[:8]
        try:
            with dask_client(workers, scheduler) as client:
                futures = [client.submit(shard_task, url, run_id, s, job, lease_seconds, poll_seconds,
                                         key=f"shard-{run_id}-{s}-{tag}", pure=False) for s in pending]
                left = set(futures)
                try:
                    while left:
                        try:
                            done, left_now = distributed.wait(list(left), timeout=1.0, return_when="FIRST_COMPLETED")
                        except TimeoutError:
                            done, left_now = set(), left
                        for fut in done:
                            out.add(_result(fut))
                        left = set(left_now)
                        now = reconnecting(engine, lambda: get_run(engine, run_id).items_done)
                        bar.update(now - bar.n)
                finally:
                    for fut in left:
                        fut.cancel()
        finally:
            bar.close()
    return close_run(engine, run_id, shards, out)


def _result(fut) -> ShardResult:
    try:
        return fut.result()
    except CatalogError:
        raise
    except Exception as exc:
        name = type(exc).__name__
        text = (str(exc).strip().splitlines() or [name])[0]
        if name == "KilledWorker":
            raise ClusterError(f"the workers running {fut.key} died too often ({text}): stopped; what was "
                               f"committed is kept: run the same command again to resume") from exc
        raise
