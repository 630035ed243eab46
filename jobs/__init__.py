"""Every long computation once, and the runner that makes it resumable, serial or on Dask.

A job is a module with module-level functions (``docs/runs.md`` says how to add one):

* ``shards(...)``: the run's independent slices, as text keys;
* ``work(shard, cursor)``: a generator of :class:`~jobs.chunk.Chunk` records (results, cursor,
  done, items, data) with no database in it; from a cursor it produces exactly what an
  uninterrupted run produces from there;
* ``write(conn, results)``: stores a chunk's results on the chunk's connection;
* ``finish(conn, run_id, shard, cursor)``, where a shard's results must be combined.

Jobs: ``canon_store`` (canonical forms of a file into the catalog), ``ed_grids`` (the
essentially different grids per band 1, and the rank index over their counts), ``s17_entry``
(the 17-clue search entry), ``s17_search`` (the 17-clue search over it), ``patterns`` (essentially different clue patterns and
configurations); ``band_rows`` computes the rows ``populate`` stores for the 416 bands.

The machinery: ``runner`` (:func:`~jobs.runner.run_job`, ``drive``, ``run_shard``: each chunk's
results and cursor committed in one transaction), ``leases`` (two workers never hold one
shard), ``dask`` (the shards as Dask tasks), ``output`` (``--out`` files that survive kills
byte for byte), ``inputs`` (a file cut into pieces of lines). ``jobs`` joins ``engine`` and
``catalog``; it never imports the commands.
"""
