"""Configurations: the canonical forms of grids and puzzles the project has seen, deduplicated.

Table ``configurations`` (migration 0002; model :class:`catalog.models.Configuration`):
one row per (``canonical``, ``convention``), where ``canonical`` is the 81-character canonical
form (``.`` for an empty cell), ``kind`` is ``grid`` or ``puzzle``, ``convention`` is
``minlex`` (pure minlex, the default) or ``pattern_first``, ``n_givens`` the number of clues
(81 for a grid), ``automorphism_count`` (NULL when not computed), ``source`` where it was first
seen (a name given on the command line, by default the input file name) and ``first_seen``.

Writing: :func:`store_configurations` takes plain rows (dicts, the engine does the canonical
forms beforehand), inserts them in batches of 1,000 with ``INSERT ... ON CONFLICT DO NOTHING``
and returns ``(new, known)``. It does not commit when given a Connection or Session, so a caller
can commit the rows together with a run checkpoint (``catalog.runs.chunk``).

SQL a user can run::

    SELECT count(*) FROM configurations WHERE kind = 'puzzle' AND n_givens = 17;
    SELECT automorphism_count, count(*) FROM configurations
     WHERE kind = 'puzzle' AND n_givens = 17 AND automorphism_count > 1
     GROUP BY automorphism_count ORDER BY 1;

both answered from the index on (kind, n_givens, automorphism_count).
"""
from __future__ import annotations

from typing import Iterable, Mapping

from sqlalchemy import func, select

from ._dml import BATCH, connection_of, insert_new
from .models import CONVENTIONS, KINDS, Configuration, utcnow

TABLE = Configuration.__table__
_CONFLICT = ("canonical", "convention")


def make_row(canonical: str, *, kind: str | None = None, convention: str = "minlex",
             automorphism_count: int | None = None, source: str | None = None) -> dict:
    """A row for :func:`store_configurations` from a canonical string (``n_givens`` counted,
    ``kind`` = ``grid`` when all 81 cells are given unless said otherwise)."""
    n = 81 - sum(canonical.count(ch) for ch in ".0*")
    return {"canonical": canonical, "kind": kind or ("grid" if n == 81 else "puzzle"),
            "convention": convention, "n_givens": n, "automorphism_count": automorphism_count,
            "source": source}


def _check(row: Mapping) -> dict:
    out = dict(row)
    canon = out.get("canonical")
    if not isinstance(canon, str) or len(canon) != 81:
        raise ValueError(f"canonical must be an 81-character string, got {canon!r}")
    out.setdefault("convention", "minlex")
    if out["convention"] not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {out['convention']!r}")
    if "n_givens" not in out:
        out["n_givens"] = 81 - sum(canon.count(ch) for ch in ".0*")
    out.setdefault("kind", "grid" if out["n_givens"] == 81 else "puzzle")
    if out["kind"] not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {out['kind']!r}")
    out.setdefault("automorphism_count", None)
    out.setdefault("source", None)
    return out


def store_configurations(target, rows: Iterable[Mapping], *, source: str | None = None,
                         batch: int = BATCH) -> tuple[int, int]:
    """Store canonical forms, skipping those already known; returns ``(new, known)``.

    ``target``: an Engine (committed here), or a Connection / Session (the caller commits).
    ``rows``: mappings with ``canonical`` (81 chars) and optionally ``kind``, ``convention``
    (default ``minlex``), ``n_givens`` (counted if absent), ``automorphism_count``, ``source``
    (default: the ``source`` argument). ``new + known == len(rows)``; a row repeated inside
    ``rows`` counts once as new and then as known. ``first_seen`` is now, for the new ones.
    """
    now = utcnow()
    prepared = []
    for row in rows:
        r = _check(row)
        if r["source"] is None:
            r["source"] = source
        r["first_seen"] = now
        prepared.append(r)
    with connection_of(target) as conn:
        new = insert_new(conn, TABLE, prepared, _CONFLICT, batch)
    return new, len(prepared) - new


def known_canonicals(target, canonicals: Iterable[str], convention: str = "minlex",
                     chunk: int = 500) -> set[str]:
    """Which of these canonical strings are stored already (looked up 500 at a time with IN)."""
    wanted = list(dict.fromkeys(canonicals))
    found: set[str] = set()
    with connection_of(target) as conn:
        for start in range(0, len(wanted), chunk):
            part = wanted[start : start + chunk]
            q = select(TABLE.c.canonical).where(TABLE.c.convention == convention, TABLE.c.canonical.in_(part))
            found.update(conn.scalars(q))
    return found


def count_configurations(target, *, kind: str | None = None, n_givens: int | None = None) -> int:
    """How many configurations are stored (optionally of one kind and number of givens)."""
    q = select(func.count()).select_from(TABLE)
    if kind is not None:
        q = q.where(TABLE.c.kind == kind)
    if n_givens is not None:
        q = q.where(TABLE.c.n_givens == n_givens)
    with connection_of(target) as conn:
        return int(conn.scalar(q))
