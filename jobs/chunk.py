"""The two records every job exchanges with the runner: a :class:`Chunk` of a shard's work, and
the :class:`Job` itself (its ``work``, ``write`` and ``finish``). No database, no engine here:
a job module imports this, the runner reads it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional


@dataclass(frozen=True)
class Chunk:
    """What ``work(shard, cursor)`` yields, one per commit.

    ``results``: what ``write(conn, results)`` stores (the job's own typed record; ``None`` or
    an empty list: nothing to store); ``cursor``: JSON, where the shard resumes after this
    chunk (an uninterrupted run from it produces exactly what follows); ``done``: the shard is
    complete; ``items``: what the chunk counts towards the run's ``items_done`` and the progress
    bar (``None``: ``len(results)``); ``data``: the chunk's output lines as bytes (``--out FILE``
    or standard output, written in shard order; empty when nothing is printed); ``notes``: text
    for standard error once the chunk is committed (e.g. the malformed lines it met)."""

    results: Any
    cursor: Any
    done: bool = False
    items: Optional[int] = None
    data: bytes = b""
    notes: str = ""

    @classmethod
    def of(cls, item) -> "Chunk":
        """A Chunk, or a plain tuple ``(results, cursor, done[, items[, data]])`` read as one."""
        if isinstance(item, Chunk):
            return item
        return cls(*item)

    @property
    def count(self) -> int:
        """``items``, or the number of results when the job did not say."""
        if self.items is not None:
            return int(self.items)
        return len(self.results) if self.results is not None else 0

    @property
    def has_results(self) -> bool:
        r = self.results
        return r is not None and (not hasattr(r, "__len__") or len(r) > 0)


@dataclass(frozen=True)
class Job:
    """A long computation as the runner takes it: module-level functions (or
    ``functools.partial`` of them over plain data), so that a Dask worker unpickles the same code.

    * ``work(shard, cursor) -> Iterable[Chunk]``: the computation, no database in it;
    * ``write(conn, results) -> (new, known)``: stores a chunk's results on the chunk's
      connection (its transaction also holds the cursor);
    * ``finish(conn, run_id, shard, cursor)``, optional: called in the transaction of a shard's
      last chunk, where the results of several shards must be combined (a band 1 cut in pieces)."""

    work: Callable[[str, Any], Iterable[Chunk]]
    write: Callable[[Any, Any], tuple[int, int]]
    finish: Optional[Callable[[Any, int, str, Any], None]] = None
