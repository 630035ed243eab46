"""s17-entry: the 17-clue search entry, band 1 by band 1 in the search's own band order.

    s17-entry --variant A|B|C --band1-rank K[,L-M] [--count-only] [--out FILE] [--db URL]
    s17-entry --variant A|B|C --band1-rank K[,L-M] --count-only --workers N|--scheduler ADDRESS
    s17-entry --table [--variant A|B|C] [--db URL]
    s17-entry --status [--db URL]
    s17-entry --import-shipped [--db URL]

Bands are ranked by their number of valid 6-clue sub-puzzles (ascending, ties by minlex
index; ``engine/search17/order.py``). For each band-1 rank the command writes the bands 2 the
middle loop keeps, each with its bands 3, one line per grid of the entry::

    K BAND2 BAND3        rank of band 1, rows 4-6 and rows 7-9 (27 digits each)
    K BAND2 -            a band 2 with no band 3 (it still counts as a band 2)

then, after the last band 1, ``bands2 N bands3 M``. Band 1 is the minlex band at rank K (see
``--table``). Lines come band 1 by band 1 in the order asked, bands 2 in lexicographic order,
the bands 3 of a band 2 in the generator's order. Variant B (the 665 entry searched as 656)
has the same bands 2 (the middle loop's pairs) and, under each, the bands 3 of lower rank: A's
grids with bands 2 and 3 exchanged, in the form whose pair is the list's, but for the grids
whose three bands have band 1's index (a few per band 1; pass A searches their 6-6-5).

A run with ``--count-only`` or ``--out`` is a resumable run (``jobs/s17_entry.py``: one shard per
band 1, a checkpoint on a boundary of 64 bands 2 committed with the counts, slices gathered for
a second per commit): killed at any moment and started again with the same arguments it ends
with the same totals, and ``--out`` with a byte-identical file (checked against the checksum
the run recorded; deleted, it is made again). ``--out -`` is standard output. Complete bands 1
go to the catalog (``s17_entry_bands``) and ``--table`` prints the search's table: rank, minlex
index, valid 6-clue count, bands 2, bands 3 (``-`` where not computed; the catalog's bands 1
and those shipped as package data, ``catalog/data/s17_entry_counts.json``, written by
``--export``). ``--import-shipped`` copies the package data's bands 1 into the catalog (after
checking each band 1's index against the order), so that a ``--count-only`` run on a fresh
machine skips them and a later ``--export`` keeps them: how a long run goes on in pieces.

``--count-only --workers N`` (a local Dask cluster) or ``--scheduler ADDRESS`` (an existing one)
works the bands 1 as Dask tasks (``jobs/dask.py``, ``jobs/s17_entry.py``): the shards and
checkpoints are the serial run's, so it is the same run (a run started in one process can go on
on a cluster, and back). Lines (standard output, ``--out``) come from one process, in order:
the cluster options need ``--count-only``.

Decisions the issue left open: variant B's bands 2 are A's (the middle loop's pairs); a
band 2 counts when the middle loop keeps it, with or without bands 3 (variant C needs that
meaning for its 983,959,110; A's bands 2 with at least one band 3 are the lines not ending in
``-``); bands 3 of a band 2 come in fill order, not sorted.
"""
from __future__ import annotations

import argparse
import json
import sys
from functools import partial

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run
from sudoku_symmetry.catalog.search17 import import_entry_bands, load_band_order, load_entry_bands, load_shipped_entry
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_cluster_arguments,
                                              add_db_argument, add_version_argument, cluster, count_argument, run,
                                              seconds_argument, writes_file)
from sudoku_symmetry.commands._runs import out_parameters, out_target, print_runs, refuse_distributed_output, start_run
from sudoku_symmetry.commands._s17 import parse_ranks, parse_variant
from sudoku_symmetry.engine.bands import N_BANDS
from sudoku_symmetry.jobs import s17_entry
from sudoku_symmetry.jobs.band_rows import store_band_rows
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.runner import run_job

RUN_KIND = s17_entry.KIND


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="s17-entry", description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter,
                      epilog="Line format: 'K BAND2 BAND3' per grid (see the module docstring).")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--band1-rank", type=parse_ranks, metavar="K[,L-M]",
                       help="bands 1 by rank (0-415): K, K-M (both ends: 10-415 to the last) or a list of them")
    which.add_argument("--table", action="store_true", help="print the search's table of all 416 bands 1")
    which.add_argument("--status", action="store_true", help="list the runs and the bands 1 done")
    which.add_argument("--import-shipped", action="store_true",
                       help="copy the package data's bands 1 into the catalog (a run then skips them)")
    writes_file(which.add_argument("--export", metavar="FILE.json",
                                   help="write the catalog's complete bands 1 (variants A, B, C) as package data"))
    p.add_argument("--variant", type=parse_variant, default=None, help="A (566/656), B (665) or C (7+ clues)")
    p.add_argument("--markdown", action="store_true",
                   help="with --table: variants A and C side by side as a Markdown table (docs/s17-entry.md's)")
    p.add_argument("--count-only", action="store_true", help="count, print no line")
    writes_file(p.add_argument("--out", metavar="FILE",
                               help="write the lines to FILE (resumable) instead of standard output"))
    p.add_argument("--chunk", type=count_argument(0), default=s17_entry.CHUNK, help=argparse.SUPPRESS)
    p.add_argument("--checkpoint-seconds", type=seconds_argument, default=None, help=argparse.SUPPRESS)
    add_db_argument(p)
    add_cluster_arguments(p)
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.count_only and args.out:
        raise CommandError("--count-only and --out exclude each other")
    if args.chunk < 1:
        raise CommandError("--chunk must be at least 1")
    if args.checkpoint_seconds is not None and not args.checkpoint_seconds >= 0:
        raise CommandError("--checkpoint-seconds must be at least 0")
    if args.markdown and not args.table:
        raise CommandError("--markdown goes with --table")
    if args.band1_rank is not None and args.variant is None:
        raise CommandError("--variant A, B or C is required with --band1-rank")
    target = None
    if args.band1_rank is not None:
        refuse_distributed_output(args)
        target = out_target(args)
    catalog = open_catalog(args.db, create=not (args.status or args.export or args.table))  # read-only: never makes one
    if args.status:
        return _status(catalog, sys.stdout)
    if args.export:
        return _export(catalog, args.export, sys.stderr)
    _ensure_band_order(catalog)
    if args.import_shipped:
        return _import_shipped(catalog, sys.stderr)
    if args.table:
        if args.markdown:
            return _markdown_table(catalog, sys.stdout)
        return _table(catalog, args.variant or "A", sys.stdout)
    return _generate(catalog, args, target, argv, sys.stderr)


def _ensure_band_order(catalog) -> None:
    """The bands rows and their order columns (what ``populate`` stores for the bands)."""
    if len(load_band_order(catalog)) < N_BANDS:
        store_band_rows(catalog)


def shipped_counts() -> dict:
    """The package data (``catalog/data/s17_entry_counts.json``): variant -> {rank: (index,
    bands 2, bands 3)} for the bands 1 computed when it was made; {} if absent."""
    return load_shipped_entry()


def _export(catalog, path: str, err) -> int:
    bands = {v: [[r, *row] for r, row in sorted(load_entry_bands(catalog, v).items())] for v in ("A", "B", "C")}
    bands = {v: rows for v, rows in bands.items() if rows}
    manifest = {
        "complete": {v: len(rows) == N_BANDS for v, rows in bands.items()},
        "totals": {v: {"bands1": len(rows), "bands2": sum(r[2] for r in rows), "bands3": sum(r[3] for r in rows)}
                   for v, rows in bands.items()},
        "columns": ["band1_rank", "band1_index", "bands2", "bands3"],
        "bands": bands,
        "command": "bin/s17-entry --import-shipped --db DB && "
                   "bin/s17-entry --variant A --band1-rank 0-415 --count-only --db DB && bin/s17-entry --variant C "
                   "--band1-rank 0-415 --count-only --db DB && bin/s17-entry --export "
                   "catalog/data/s17_entry_counts.json --db DB",
    }
    with open(path, "w") as fh:
        json.dump(manifest, fh, indent=None, separators=(",", ":"))
        fh.write("\n")
    err.write(f"s17-entry: exported {', '.join(f'{v}: {len(r)} bands 1' for v, r in bands.items())} to {path}\n")
    return EXIT_OK


def _import_shipped(catalog, err) -> int:
    """Store every band 1 of the package data in the catalog (what ``populate`` does too)."""
    shipped = shipped_counts()
    new = import_entry_bands(catalog, shipped)
    err.write("s17-entry: imported " + (", ".join(f"{v}: {new[v]} new of {len(rows)} bands 1"
                                                   for v, rows in shipped.items()) or "nothing (no package data)")
              + "\n")
    return EXIT_OK


def _table(catalog, variant: str, out) -> int:
    by_rank, known = _table_rows(catalog, [variant])
    done = known[variant]
    out.write(f"# variant {variant}: rank index valid6 bands2 bands3\n")
    for r in range(N_BANDS):
        i, v6 = by_rank[r]
        n2, n3 = (done[r][1], done[r][2]) if r in done else ("-", "-")
        out.write(f"{r} {i} {v6} {n2} {n3}\n")
    t2 = sum(v[1] for v in done.values())
    t3 = sum(v[2] for v in done.values())
    out.write(f"# {len(done)} of {N_BANDS} bands 1 done: bands2 {t2} bands3 {t3}\n")
    return EXIT_OK


def _table_rows(catalog, variants):
    """(rank -> (band index, valid 6-clue count), variant -> {rank: (index, bands 2, bands 3)}):
    the package data's bands 1, then the catalog's over them."""
    by_rank = {r: (i, v6) for i, (r, v6, _v5, _m) in load_band_order(catalog).items()}
    shipped = shipped_counts()
    done = {v: {**shipped.get(v, {}), **load_entry_bands(catalog, v)} for v in variants}
    return by_rank, done


def _markdown_table(catalog, out) -> int:
    """Variants A and C side by side, one row per band 1, then the totals (the table of docs/s17-entry.md)."""
    by_rank, done = _table_rows(catalog, ["A", "C"])

    def cell(v, r, k):
        return f"{done[v][r][k]:,}" if r in done[v] else "-"

    out.write("| rank | band | valid 6-clue | A: bands 2 | A: bands 3 | C: bands 3 |\n")
    out.write("|---:|---:|---:|---:|---:|---:|\n")
    for r in range(N_BANDS):
        i, v6 = by_rank[r]
        out.write(f"| {r} | {i} | {v6:,} | {cell('A', r, 1)} | {cell('A', r, 2)} | {cell('C', r, 2)} |\n")
    tot = {v: (len(d), sum(x[1] for x in d.values()), sum(x[2] for x in d.values())) for v, d in done.items()}
    out.write(f"| all | {tot['A'][0]} (A), {tot['C'][0]} (C) of {N_BANDS} | | {tot['A'][1]:,} | {tot['A'][2]:,} "
              f"| {tot['C'][2]:,} |\n")
    return EXIT_OK


def _status(catalog, out) -> int:
    print_runs(catalog, RUN_KIND, out, shards="ranks", what="bands 1", unit="bands 3",
              label=lambda params: f"variant {params.get('variant')}, ")
    for v in ("A", "B", "C"):
        d = load_entry_bands(catalog, v)
        if d:
            out.write(f"catalog: variant {v}: {len(d)} of {N_BANDS} bands 1 done, bands2 "
                      f"{sum(x[1] for x in d.values()):,} bands3 {sum(x[2] for x in d.values()):,}\n")
    return EXIT_OK


def _generate(catalog, args, target, argv, err) -> int:
    variant = args.variant
    ranks = args.band1_rank
    known = load_entry_bands(catalog, variant)
    todo = [r for r in ranks if not (args.count_only and r in known)]
    if args.count_only and len(todo) < len(ranks):
        err.write(f"s17-entry: {len(ranks) - len(todo)} of the bands 1 are done already: skipped\n")
    params = s17_entry.parameters(variant, ranks, chunk=args.chunk, **out_parameters(target))
    total = sum(known[r][2] for r in ranks) if all(r in known for r in ranks) else None
    state, output = start_run(catalog, RUN_KIND, params, target, items_total=total, prog="s17-entry", argv=argv)
    seconds = s17_entry.CHECKPOINT_SECONDS if args.checkpoint_seconds is None else args.checkpoint_seconds
    job = Job(partial(s17_entry.work, variant=variant, chunk=args.chunk, emit=target is not None, seconds=seconds),
              partial(s17_entry.write, variant=variant))
    res = run_job(catalog, state.id, s17_entry.shards(todo), job, output=output, desc=f"s17 entry {variant}",
                  unit=" bands3", **cluster(args))
    state = get_run(catalog, state.id)
    if res.already_done:
        err.write(f"s17-entry: run {state.id} was already complete; nothing to do\n")
    done = load_entry_bands(catalog, variant)
    complete = [r for r in ranks if r in done]
    n2 = sum(done[r][1] for r in complete)
    n3 = sum(done[r][2] for r in complete)
    if len(complete) == len(ranks) and target is not None:
        summary = f"bands2 {n2} bands3 {n3}\n"
        if target.resumable:
            with open(target.path, "ab") as fh:
                fh.write(summary.encode())
        else:
            output.write_line(summary)
    err.write(f"s17-entry: variant {variant}: {len(complete)} of {len(ranks)} bands 1 done, bands2 {n2:,} "
              f"bands3 {n3:,} ({state.items_done:,} generated by run {state.id})\n")
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "s17-entry")


if __name__ == "__main__":
    sys.exit(main())
