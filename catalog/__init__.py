"""The SQL catalog (SQLAlchemy 2 + Alembic); never imports ``engine`` — it takes plain rows.

* ``catalog.db``: where the catalog is (``--db``, ``$SUDOKU_CATALOG``, default file),
  :func:`catalog.db.open_catalog` (migrations applied on open), :func:`catalog.db.session_scope`.
* ``catalog.models``: the tables and the constraint naming convention.
* ``catalog.bands``: the 416 bands and their automorphisms.
* ``catalog.configurations``: canonical grids and puzzles, deduplicated (``store_configurations``).
* ``catalog.runs``: resumable runs; a chunk's results and its checkpoint commit together.
* ``catalog.driver``: the one loop for long computations: claims shards (leases), commits each
  chunk of a ``work(shard, cursor)`` generator with its cursor, progress bar (``drive``, ``run_shard``).
* ``catalog.distributed``: the shards of a run as Dask tasks (a LocalCluster or an existing
  scheduler), each calling ``driver.run_shard`` (``run_distributed``, ``shard_task``).
* ``catalog.errors``: :class:`CatalogError` (one line, exit 2 in the commands), ``LeaseLost``,
  ``ConnectionLost`` (retried with backoff by the driver).
"""
