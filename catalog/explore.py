"""The searches of clue patterns (``pattern_searches``) and the walks of the {-n+m} neighbourhood
(``vicinity_walks``), migration 0014: plain rows in, plain rows out.

* :func:`store_pattern_search` records one pattern's search (a complete search replaces a
  partial record of the same question; a record is never replaced by one that knows less);
* :func:`store_walk_forms` adds the classes a walk reached at a step (``ON CONFLICT DO
  NOTHING``: a class keeps the first step that reached it); returns how many were new;
* :func:`walk_frontier` the classes first reached at a step, in canonical order.

SQL a user can run::

    -- the patterns searched, most puzzles first
    SELECT pattern, cells, automorphism_count, classes, on_pattern, cpu_seconds FROM pattern_searches
     WHERE complete AND fixed = '' ORDER BY classes DESC;
    -- what a walk reached at each step
    SELECT step, count(*) FROM vicinity_walks WHERE walk = 1 GROUP BY step ORDER BY step;
"""
from __future__ import annotations

from typing import Iterable

from sqlalchemy import and_, select

from ._dml import connection_of, insert_new
from .models import PatternSearch, VicinityWalk, utcnow

PATTERNS = PatternSearch.__table__
WALKS = VicinityWalk.__table__


def store_pattern_search(target, row: dict) -> None:
    """``row``: pattern (81, ``x`` a clue), fixed (81 or ``''``), minimal, cells,
    automorphism_count, classes, on_pattern, complete, cpu_seconds."""
    values = {"pattern": str(row["pattern"]), "fixed": str(row.get("fixed") or ""), "minimal": bool(row["minimal"]),
              "cells": int(row["cells"]), "automorphism_count": int(row["automorphism_count"]),
              "classes": int(row["classes"]), "on_pattern": int(row["on_pattern"]), "complete": bool(row["complete"]),
              "cpu_seconds": float(row["cpu_seconds"]), "computed_at": utcnow()}
    key = and_(PATTERNS.c.pattern == values["pattern"], PATTERNS.c.fixed == values["fixed"],
               PATTERNS.c.minimal == values["minimal"])
    with connection_of(target) as conn:
        old = conn.execute(select(PATTERNS.c.complete, PATTERNS.c.classes).where(key)).first()
        if old is None:
            conn.execute(PATTERNS.insert().values(**values))
        elif not old.complete and (values["complete"] or values["classes"] > old.classes):
            conn.execute(PATTERNS.update().where(key).values(**values))


def store_walk_forms(target, walk: int, step: int, forms: Iterable[str]) -> int:
    """Add the classes ``forms`` (minlex, 81 characters) to ``walk`` at ``step``; those already
    in the walk keep their step. Returns how many were new."""
    rows = [{"walk": int(walk), "canonical": str(f), "step": int(step)} for f in forms]
    if not rows:
        return 0
    with connection_of(target) as conn:
        return insert_new(conn, WALKS, rows, ["walk", "canonical"])


def walk_frontier(target, walk: int, step: int) -> list[str]:
    """The classes ``walk`` reached first at ``step``, in canonical order."""
    with connection_of(target) as conn:
        return list(conn.scalars(select(WALKS.c.canonical).where(WALKS.c.walk == int(walk), WALKS.c.step == int(step))
                                 .order_by(WALKS.c.canonical)))


def walk_counts(target, walk: int) -> dict[int, int]:
    """Classes per step of ``walk``."""
    from sqlalchemy import func

    with connection_of(target) as conn:
        return {int(s): int(n) for s, n in conn.execute(
            select(WALKS.c.step, func.count()).where(WALKS.c.walk == int(walk)).group_by(WALKS.c.step))}
