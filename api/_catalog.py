"""The SQL catalog from Python: its named queries as pandas frames, and its plots as matplotlib
figures (``ss.query``, ``ss.plot``). ``db`` is a catalog as every command's ``--db`` takes it: an
SQLite file path or an SQLAlchemy URL (default: ``$SUDOKU_CATALOG``, else the user's catalog
that ``bin/populate`` fills). Neither creates a catalog: a missing one is an error that says so."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def _open(db: str | None):
    from .catalog.db import open_catalog
    from .catalog.errors import CatalogError

    try:
        return open_catalog(db, create=False)
    except CatalogError as exc:
        raise ValueError(str(exc)) from None


def query(name: str | None = None, db: str | None = None, **params: Any) -> "pd.DataFrame":
    """The rows of the catalog's query ``name`` as a pandas frame, its columns named as in the SQL
    (the queries the docs' catalog page shows and ``bin/browse`` offers); ``params`` fill the
    query's ``:name`` parameters. With no name, the list of queries: name, title, what fills
    their tables. A query on tables not filled yet gives no rows (``needs`` says what to run).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.query().loc[:2, ["name", "needs"]]
                               name         needs
        0  bands_most_automorphisms  bin/populate
        1          gangster_classes  bin/populate
        2              search_order  bin/populate
        >>> ss.query("ed_grid_totals")                     # doctest: +SKIP
           bands1       grids  automorphic
        0     416  5472730538       560151
    """
    import pandas as pd

    from .catalog.queries import QUERIES, query as named

    if name is None:
        return pd.DataFrame([(q.name, q.title, q.needs) for q in QUERIES], columns=["name", "title", "needs"])
    try:
        q = named(name)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    from sqlalchemy import text

    catalog = _open(db)
    try:
        with catalog.connect() as conn:
            if q.sqlite_only and conn.dialect.name != "sqlite":
                raise ValueError(f"query {name!r} uses SQLite's JSON functions")
            result = conn.execute(text(q.sql), params)
            return pd.DataFrame(result.fetchall(), columns=list(result.keys()))
    finally:
        catalog.dispose()


@dataclass(frozen=True)
class PlotKind:
    """One kind of plot: what it shows, the command that fills its data, and how it is drawn
    (``draw(catalog)`` -> (the data, a function drawing it); no data: nothing to draw)."""

    help: str
    needs: str
    draw: Callable


def _band1_grids(catalog):
    from .catalog.queries import run_query
    from .pictures import plots

    rows = run_query(catalog, "grids_per_band1")
    return rows, lambda: plots.grids_per_band1([r[0] for r in rows], [r[1] for r in rows])


def _automorphisms(catalog):
    from .catalog.queries import automorphism_histogram
    from .pictures import plots

    hist = automorphism_histogram(catalog)
    return hist, lambda: plots.automorphism_histogram(hist)


def _s17_entry(catalog):
    from .catalog.queries import run_query
    from .pictures import plots

    rows = run_query(catalog, "s17_entry_table")
    return rows, lambda: plots.s17_entry([r[0] for r in rows], [r[3] for r in rows], [r[4] for r in rows],
                                         [r[5] for r in rows])


def _patterns(catalog):
    from .catalog.queries import run_query
    from .engine.patterns.burnside import pattern_counts
    from .pictures import plots

    burnside = dict(enumerate(pattern_counts()))
    stored = {int(n): int(c) for n, c in run_query(catalog, "pattern_counts")}
    return burnside, lambda: plots.pattern_counts(burnside, stored)


PLOTS: dict[str, PlotKind] = {
    "band1-grids": PlotKind("essentially different grids per band 1 (416 bars, log scale)", "bin/populate",
                            _band1_grids),
    "automorphisms": PlotKind("automorphism histogram of the essentially different grids", "bin/populate",
                              _automorphisms),
    "s17-entry": PlotKind("17-clue search entry by band-1 rank: bands 2, bands 3 of variants A and C",
                          "bin/populate", _s17_entry),
    "patterns": PlotKind("ED clue patterns by number of cells: Burnside's exact count and the catalog's", "nothing",
                         _patterns),
}
"""The plot kinds, by name (``bin/plot --list``); add a kind here and both ``ss.plot`` and
``bin/plot`` draw it."""


def plot(kind: str, db: str | None = None) -> "Figure":
    """A plot of what the catalog holds, as a matplotlib ``Figure`` (``bin/plot KIND``): in a
    notebook it shows itself, ``fig.savefig("x.svg")`` writes it. Kinds: ``band1-grids``,
    ``automorphisms``, ``s17-entry`` (filled by ``bin/populate``), ``patterns`` (Burnside's
    count, and the patterns ``bin/patterns --cells N`` stored). The figure is drawn without
    pyplot, so the user's own plots and backend are left as they are. Needs matplotlib (the
    ``plot`` extra).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> fig = ss.plot("patterns")                      # doctest: +SKIP
        >>> fig.axes[0].get_xlabel()                       # doctest: +SKIP
        'cells in the pattern'
    """
    if kind not in PLOTS:
        raise ValueError(f"no plot kind {kind!r} (kinds: {', '.join(PLOTS)})")
    catalog = _open(db)
    try:
        data, draw = PLOTS[kind].draw(catalog)
    finally:
        catalog.dispose()
    if not data:
        raise ValueError(f"the catalog holds nothing to draw for {kind} (run {PLOTS[kind].needs} first)")
    return draw()
