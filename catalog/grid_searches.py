"""The searches of grids for their puzzles (``grid_searches``, migrations 0009 and 0011): plain rows in.

* :func:`store_grid_searches` records searches, one row per (grid, clues, minimal) holding the
  most that is known: a complete search's count; else the largest count a search cut by a limit
  found (at least that many exist). A record is replaced by a search that knows more (a complete
  one, or a limited one that found more); a complete record stays (a complete search's result is
  the same whenever it runs).

SQL a user can run::

    -- the grids searched for 17s, and how many each has (copies under automorphisms apart)
    SELECT grid, found, automorphism_count, seconds FROM grid_searches
     WHERE clues = 17 AND NOT minimal AND complete ORDER BY found DESC;
    -- a 16 anywhere?
    SELECT count(*), sum(found) FROM grid_searches WHERE clues = 16 AND complete;
"""
from __future__ import annotations

from typing import Iterable, Mapping

from sqlalchemy import and_, not_, or_

from ._dml import connection_of, dialect_insert
from .models import GridSearch, utcnow

TABLE = GridSearch.__table__
KEY = ["grid", "clues", "minimal"]


def store_grid_searches(target, rows: Iterable[Mapping]) -> int:
    """``rows``: mappings with grid (minlex, 81 digits), clues, minimal, complete, found,
    automorphism_count, seconds. Returns the number of records added or improved."""
    now = utcnow()
    best: dict[tuple, dict] = {}
    for r in rows:
        row = {"grid": str(r["grid"]), "clues": int(r["clues"]), "minimal": bool(r["minimal"]),
               "complete": bool(r["complete"]), "found": int(r["found"]),
               "automorphism_count": int(r["automorphism_count"]), "seconds": float(r["seconds"]),
               "computed_at": now}
        key = (row["grid"], row["clues"], row["minimal"])
        if key not in best or _knows_more(row, best[key]):
            best[key] = row  # one statement may not touch a row twice
    if not best:
        return 0
    with connection_of(target) as conn:
        stmt = dialect_insert(conn, TABLE)
        new, old = stmt.excluded, TABLE.c
        stmt = stmt.on_conflict_do_update(
            index_elements=KEY,
            set_={c: getattr(new, c) for c in ("complete", "found", "automorphism_count", "seconds", "computed_at")},
            where=and_(not_(old.complete), or_(new.complete, new.found > old.found)))
        return sum(conn.execute(stmt, [row]).rowcount for row in best.values())


def _knows_more(a: Mapping, b: Mapping) -> bool:
    return not b["complete"] and (a["complete"] or a["found"] > b["found"])
