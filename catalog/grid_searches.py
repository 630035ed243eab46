"""The searches of grids for their puzzles (``grid_searches``, migration 0009): plain rows in.

* :func:`store_grid_searches` inserts search records (``ON CONFLICT DO NOTHING``: the first
  record of a (grid, clues, minimal, complete) is kept; a complete search's result is the same
  whenever it runs); returns how many were new.

SQL a user can run::

    -- the grids searched for 17s, and how many each has (copies under automorphisms apart)
    SELECT grid, found, automorphism_count, seconds FROM grid_searches
     WHERE clues = 17 AND NOT minimal AND complete ORDER BY found DESC;
    -- a 16 anywhere?
    SELECT count(*), sum(found) FROM grid_searches WHERE clues = 16 AND complete;
"""
from __future__ import annotations

from typing import Iterable, Mapping

from ._dml import connection_of, insert_new
from .models import GridSearch, utcnow

TABLE = GridSearch.__table__
KEY = ["grid", "clues", "minimal", "complete"]


def store_grid_searches(target, rows: Iterable[Mapping]) -> int:
    """``rows``: mappings with grid (minlex, 81 digits), clues, minimal, complete, found,
    automorphism_count, seconds. Returns the number of new rows."""
    now = utcnow()
    prepared = [{"grid": str(r["grid"]), "clues": int(r["clues"]), "minimal": bool(r["minimal"]),
                 "complete": bool(r["complete"]), "found": int(r["found"]),
                 "automorphism_count": int(r["automorphism_count"]), "seconds": float(r["seconds"]),
                 "computed_at": now} for r in rows]
    if not prepared:
        return 0
    with connection_of(target) as conn:
        return insert_new(conn, TABLE, prepared, KEY)
