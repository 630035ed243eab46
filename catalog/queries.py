"""Named, described SQL queries over the catalog: the ones the docs show, the canned queries of
``bin/browse`` (Datasette) and the data behind ``bin/plot``. One list, so a query shown to a
reader is the query a test runs and the query a browser offers.

Each :class:`Query` says which command fills the tables it reads (``needs``), so a reader who
gets no rows knows what to run first. The SQL is plain and portable (SQLite and PostgreSQL),
except where :attr:`Query.sqlite_only` says it uses SQLite's JSON functions.

    >>> [q.name for q in QUERIES][:3]
    ['bands_most_automorphisms', 'gangster_classes', 'search_order']
    >>> query("grids_per_band1").needs
    'bin/populate'
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text

from ._dml import connection_of


@dataclass(frozen=True)
class Query:
    """One query: ``name`` (an identifier, the canned query's URL), ``title``, ``description``,
    ``sql`` (named parameters as ``:name``), ``needs`` (the command that fills its tables)."""

    name: str
    title: str
    description: str
    sql: str
    needs: str = "bin/populate"
    sqlite_only: bool = False


QUERIES: tuple[Query, ...] = (
    Query("bands_most_automorphisms", "The bands with the most automorphisms",
          "The 416 minlex bands ordered by the size of their automorphism group (1 to 108).",
          "SELECT band_index, minlex, automorphism_count FROM bands\n"
          " ORDER BY automorphism_count DESC, band_index LIMIT 5"),
    Query("gangster_classes", "The 44 gangster classes",
          "Bands whose columns hold the same digit sets (up to relabeling and column moves) accept "
          "the same completions; there are 44 such classes.",
          "SELECT gangster_class, count(*) AS bands FROM bands\n"
          " GROUP BY gangster_class ORDER BY bands DESC, gangster_class"),
    Query("search_order", "The 17-clue search's band order",
          "Bands ordered by their number of valid 6-clue sub-puzzles (ties by index): the rank "
          "names a band 1 of the search.",
          "SELECT s17_rank, band_index, valid6, valid5, min_clues FROM bands\n"
          " ORDER BY s17_rank LIMIT 10"),
    Query("grids_per_band1", "Essentially different grids per band 1",
          "How many of the 5,472,730,538 ED grids have each band as band 1 (the minlex form's "
          "first three rows), and how many of them have a non-trivial automorphism.",
          "SELECT band1, grids, automorphic FROM ed_grid_bands ORDER BY band1"),
    Query("ed_grid_totals", "How far the ED-grid catalog is",
          "Bands 1 complete, grids counted (5,472,730,538 when complete) and grids with a "
          "non-trivial automorphism.",
          "SELECT count(*) AS bands1, sum(grids) AS grids, sum(automorphic) AS automorphic\n"
          "  FROM ed_grid_bands"),
    Query("bands1_without_grids", "Bands that are band 1 of no grid",
          "15 of the 416 bands are band 1 of no essentially different grid: a smaller chute "
          "always exists.",
          "SELECT band1 FROM ed_grid_bands WHERE grids = 0 ORDER BY band1"),
    Query("automorphism_histogram", "Automorphism histogram of the ED grids",
          "How many essentially different grids have each automorphism group size, summed over "
          "all bands 1 (SQLite's json_each reads the per-band JSON histograms).",
          "SELECT CAST(h.key AS INTEGER) AS automorphisms, sum(h.value) AS grids\n"
          "  FROM ed_grid_bands, json_each(ed_grid_bands.automorphism_histogram) AS h\n"
          " GROUP BY automorphisms ORDER BY automorphisms",
          sqlite_only=True),
    Query("s17_entry_table", "The 17-clue search entry, per band 1",
          "Per band 1 (by rank in the search order): its minlex index, valid 6-clue count, bands "
          "2, and bands 3 of variants A (one per ED grid) and C (band 3 free).",
          "SELECT a.band1_rank, a.band1, b.valid6, a.bands2, a.bands3 AS bands3_a, c.bands3 AS bands3_c\n"
          "  FROM s17_entry_bands a JOIN bands b ON b.band_index = a.band1\n"
          "  LEFT JOIN s17_entry_bands c ON c.variant = 'C' AND c.band1_rank = a.band1_rank\n"
          " WHERE a.variant = 'A' ORDER BY a.band1_rank"),
    Query("s17_entry_totals", "17-clue entry totals",
          "Bands 1 done and the sums per variant (A: 983,959,110 bands 2 and 5,472,730,538 bands "
          "3 when complete).",
          "SELECT variant, count(*) AS bands1, sum(bands2) AS bands2, sum(bands3) AS bands3\n"
          "  FROM s17_entry_bands GROUP BY variant ORDER BY variant"),
    Query("s17_search_progress", "How far the 17-clue search is",
          "Per pass and band 1 (by rank): bands 2 searched of the band 1's total, the band-1/band-2 "
          "pairs and bands 3 tried, the 17s found, and whether the band 1 is complete.",
          "SELECT pass, band1_rank, band1, bands2_done, bands2_total, pairs, bands3, found, complete\n"
          "  FROM s17_search_bands ORDER BY pass, band1_rank",
          needs="bin/s17-search"),
    Query("s17_search_finds", "The finds of the 17-clue search",
          "Every 17-clue puzzle the search found, in minlex form, by pass and band-1 rank (each "
          "class once per pass and band 1; also in configurations, kind puzzle).",
          "SELECT pass, band1_rank, canonical FROM s17_search_finds\n"
          " ORDER BY pass, band1_rank, canonical",
          needs="bin/s17-search --store"),
    Query("stored_counts", "What the catalog stores, by kind and size",
          "Canonical forms stored by canon --store, patterns and the searches, per kind, "
          "convention and number of givens.",
          "SELECT kind, convention, n_givens, count(*) AS forms FROM configurations\n"
          " GROUP BY kind, convention, n_givens ORDER BY kind, convention, n_givens",
          needs="bin/canon --store, bin/patterns"),
    Query("symmetric_puzzles", "Stored puzzles with a non-trivial automorphism",
          "Puzzles whose canonical form is mapped to itself by some transformation other than "
          "the identity, most symmetric first.",
          "SELECT canonical, n_givens, automorphism_count FROM configurations\n"
          " WHERE kind = 'puzzle' AND automorphism_count > 1\n"
          " ORDER BY automorphism_count DESC, canonical LIMIT 20",
          needs="bin/canon --automorphisms --store"),
    Query("pattern_counts", "Essentially different clue patterns by number of cells",
          "Stored ED clue patterns (orbits of cell sets under the 3,359,232 position maps) per "
          "number of cells: 1, 1, 5, 21, 109 for 0..4 cells.",
          "SELECT n_givens AS cells, count(*) AS patterns FROM configurations\n"
          " WHERE kind = 'pattern' AND convention = 'box_first' GROUP BY n_givens ORDER BY n_givens",
          needs="bin/patterns --cells N"),
    Query("hardest_puzzles", "The hardest stored puzzles",
          "The stored puzzles with the highest Sudoku Explainer rating (ER, then EP, ED), one row per "
          "puzzle as rated; morphs of one puzzle share their canonical form. Lower bounds (a rating "
          "stopped at --max-level) are left out.",
          "SELECT puzzle, canonical, er, ep, ed, n_givens, steps FROM ratings\n"
          " WHERE line = '1.2.1.3' AND complete\n"
          " ORDER BY er DESC, ep DESC, ed DESC, puzzle LIMIT 20",
          needs="bin/rate --store"),
    Query("rating_histogram", "How hard the stored puzzles are",
          "How many stored puzzles have each Sudoku Explainer rating (ER), complete ratings of SE "
          "1.2.1.3's line.",
          "SELECT er, count(*) AS puzzles FROM ratings WHERE line = '1.2.1.3' AND complete\n"
          " GROUP BY er ORDER BY er",
          needs="bin/rate --store"),
    Query("runs", "Long runs and how far they are",
          "Every resumable run: its kind, parameters, status and items done.",
          "SELECT id, kind, status, items_done, items_total, parameters FROM runs ORDER BY id",
          needs="any resumable run"),
)


def query(name: str) -> Query:
    """The query called ``name`` (KeyError naming the known ones otherwise)."""
    for q in QUERIES:
        if q.name == name:
            return q
    raise KeyError(f"no query {name!r} (known: {', '.join(q.name for q in QUERIES)})")


def run_query(target, name: str, **params: Any) -> list[tuple]:
    """The rows of the named query on a catalog (an Engine or a Connection)."""
    q = query(name)
    with connection_of(target) as conn:
        if q.sqlite_only and conn.dialect.name != "sqlite":
            raise ValueError(f"query {name!r} uses SQLite's JSON functions")
        return [tuple(r) for r in conn.execute(text(q.sql), params)]


def automorphism_histogram(target) -> dict[int, int]:
    """Grids per automorphism count over every complete band 1 (any dialect: the JSON is
    summed here rather than in SQL)."""
    total: dict[int, int] = {}
    with connection_of(target) as conn:
        for (h,) in conn.execute(text("SELECT automorphism_histogram FROM ed_grid_bands")):
            for k, v in json.loads(h).items():
                total[int(k)] = total.get(int(k), 0) + int(v)
    return dict(sorted(total.items()))
