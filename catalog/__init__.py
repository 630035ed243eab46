"""The SQL catalog (SQLAlchemy 2 + Alembic): it only stores. It imports neither ``engine`` nor
``jobs`` nor the commands, nor tqdm or Dask (``tests/test_layout.py``): plain rows in, plain
numbers out.

* ``catalog.db``: where the catalog is (``--db``, ``$SUDOKU_CATALOG``, default file),
  :func:`catalog.db.open_catalog` (migrations applied on open), :func:`catalog.db.session_scope`.
* ``catalog.models``: the tables and the constraint naming convention.
* ``catalog.bands``: the 416 bands and their automorphisms.
* ``catalog.configurations``: canonical grids and puzzles, deduplicated (``store_configurations``).
* ``catalog.grids``, ``catalog.fine``, ``catalog.patterns``, ``catalog.search17``: what the long
  jobs store (ED-grid counts, their fine counts, clue patterns, the 17-clue entry).
* ``catalog.runs``: resumable runs; a chunk's results and its checkpoint commit together; the
  lease rows; the runs' listing.
* ``catalog.shipped``: the package data files (``data/``), located once.
* ``catalog.errors``: :class:`CatalogError` (one line, exit 2 in the commands), ``LeaseLost``,
  ``ConnectionLost`` (retried with backoff by the runner, ``jobs/runner.py``).
"""
