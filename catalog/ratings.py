"""Ratings: Sudoku Explainer's ER/EP/ED of the puzzles ``bin/rate --store`` rated.

Table ``ratings`` (migration 0012; model :class:`catalog.models.Rating`): one row per (``puzzle``,
``line``, ``max_level``): the puzzle exactly as rated (81 characters, ``.`` empty), the Sudoku
Explainer line followed (``1.2.1.3`` or ``2022``) and the chain level the rating was allowed
(5: all of SE's). ``canonical`` is the puzzle's pure minlex form: two morphs of one puzzle are two
rows with the same ``canonical``, each with its own rating (they agree but for the rare puzzle
where SE's choice among equally hard chains depends on the cells' order). ``complete`` False:
the rating stopped at ``max_level`` and ``er``/``ep``/``ed`` are lower bounds (``lower`` names
those that are, e.g. ``ER,EP``).

Writing: :func:`store_ratings` inserts rows with ``INSERT ... ON CONFLICT DO NOTHING`` (a puzzle
rated again is not counted twice) and returns ``(new, known)``; it does not commit when given a
Connection or Session, so a run can commit a chunk's rows with its checkpoint.

SQL a user can run::

    SELECT er, count(*) FROM ratings WHERE line = '1.2.1.3' AND complete GROUP BY er ORDER BY er;
    SELECT canonical, min(er), max(er) FROM ratings GROUP BY canonical HAVING min(er) <> max(er);
"""
from __future__ import annotations

from typing import Iterable, Mapping

from sqlalchemy import select

from ._dml import connection_of, insert_new
from .models import Rating, utcnow

TABLE = Rating.__table__
_CONFLICT = ("puzzle", "line", "max_level")


def store_ratings(target, rows: Iterable[Mapping], *, source: str | None = None) -> tuple[int, int]:
    """Store ratings (mappings with every column but ``rated_at``; ``source`` defaults to the
    argument), skipping those already stored; returns ``(new, known)``."""
    now = utcnow()
    prepared = []
    for row in rows:
        r = dict(row)
        if len(r.get("puzzle", "")) != 81 or len(r.get("canonical", "")) != 81:
            raise ValueError("puzzle and canonical must be 81-character strings")
        r.setdefault("source", source)
        r["rated_at"] = now
        prepared.append(r)
    if not prepared:
        return 0, 0
    with connection_of(target) as conn:
        new = insert_new(conn, TABLE, prepared, _CONFLICT)
    return new, len(prepared) - new


def stored_ratings(target, puzzles: Iterable[str], line: str = "1.2.1.3", max_level: int = 5) -> dict[str, dict]:
    """The stored rows of these puzzles (exact strings) for a line and level, by puzzle."""
    puzzles = list(puzzles)
    out: dict[str, dict] = {}
    with connection_of(target) as conn:
        for i in range(0, len(puzzles), 500):
            part = puzzles[i:i + 500]
            q = select(TABLE).where(TABLE.c.puzzle.in_(part), TABLE.c.line == line, TABLE.c.max_level == max_level)
            out.update({r.puzzle: dict(r._mapping) for r in conn.execute(q)})
    return out
