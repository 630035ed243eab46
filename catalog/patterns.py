"""Essentially different clue patterns and configurations in the catalog.

They live in the ``configurations`` table (migrations 0002 and 0007) with ``kind`` ``pattern``
(canonical string with ``x`` for a clue) or ``configuration`` (digits), ``convention``
``box_first`` (engine/patterns/canonical.py), ``n_givens`` the number of clues and
``automorphism_count`` the number of group elements fixing the class's canonical member
(relabelings included for configurations; the class has |G| / automorphism_count members,
|G| = 3,359,232 for patterns and 3,359,232 x 9! for configurations). Writes go through
:func:`catalog.configurations.store_configurations` (``INSERT ... ON CONFLICT DO NOTHING``), so
storing a class twice keeps one row.

SQL a user can run::

    SELECT n_givens, count(*) FROM configurations
     WHERE kind = 'pattern' AND convention = 'box_first' GROUP BY n_givens ORDER BY 1;
    SELECT canonical, automorphism_count FROM configurations
     WHERE kind = 'pattern' AND n_givens = 5 AND automorphism_count > 1 ORDER BY 2 DESC;
"""
from __future__ import annotations

from typing import Sequence

from sqlalchemy import func, select

from .configurations import TABLE, store_configurations

CONVENTION = "box_first"
PATTERN_KINDS = ("pattern", "configuration")


def store_patterns(target, canonicals: Sequence[str], automorphisms: Sequence[int], *, digits: bool,
                   source: str | None = None) -> tuple[int, int]:
    """Store canonical forms (81 characters) with their automorphism counts; ``(new, known)``.
    ``target``: an Engine (committed here) or a Connection (the caller's transaction)."""
    kind = "configuration" if digits else "pattern"
    rows = [{"canonical": c, "kind": kind, "convention": CONVENTION, "n_givens": 81 - c.count("."),
             "automorphism_count": int(a), "source": source} for c, a in zip(canonicals, automorphisms)]
    return store_configurations(target, rows)


def count_patterns(target, *, digits: bool, n_givens: int | None = None) -> int:
    """How many classes of this kind (and number of clues) the catalog holds."""
    from ._dml import connection_of

    q = select(func.count()).select_from(TABLE).where(
        TABLE.c.kind == ("configuration" if digits else "pattern"), TABLE.c.convention == CONVENTION)
    if n_givens is not None:
        q = q.where(TABLE.c.n_givens == n_givens)
    with connection_of(target) as conn:
        return int(conn.scalar(q))
