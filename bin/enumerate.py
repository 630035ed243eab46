"""enumerate: every essentially different grid of some bands 1, in minlex catalog order.

    enumerate --band1 I[,J,K-L] | --all  [--count-only [--fine]] [--out FILE] [--db URL]
    enumerate --status [--db URL]

For each band 1 (a minlex band, index 0-415) the ED grids whose minlex form starts with it
come out as 81-digit lines in increasing order, to standard output or ``--out FILE``; with
``--count-only`` nothing is printed but the counts. Either way the counts go to the catalog:
the grids under each row-4 prefix (``ed_grid_prefixes``) and, once a band 1 is complete, its
total with its automorphism histogram (``ed_grid_bands``); ``bin/rank`` reads them.

A run with ``--count-only`` or ``--out`` is a resumable run (``jobs/ed_grids.py``: one shard per
band 1, a checkpoint every 64 prefixes committed with the counts it covers): killed at any
moment and started again with the same arguments it ends with exactly the same counts, and
``--out`` with a byte-identical file (the file is cut back to the last checkpoint, checked
against the checksum the run recorded, and continued; deleted, it is made again; changed, the
error gives the command that makes it again). ``--out`` is never the catalog's own file;
``--out -`` is standard output. Bands 1 that the catalog has already counted are skipped by
``--count-only``. Output to standard output is not resumable (a new run each time).
``--status`` lists the runs and what the catalog holds.

``--count-only --fine`` also stores the *fine counts* (``ed_grid_fine``): a checkpoint about
every 128 grids inside each prefix (the band-2 ordinal and the grids before it), which rank <->
grid resumes from; it recounts the bands 1 that lack them, checks every prefix count and total
against those the catalog already holds (a mismatch stops the run), and is resumable the same
way. ``--export-fine FILE.npz`` writes them, thinned to a checkpoint every ``--fine-step``
grids, as package data (see ``catalog/fine.py``).

``--count-only --workers N`` (a local Dask cluster) or ``--scheduler ADDRESS`` (an existing one)
works the shards as Dask tasks (``jobs/dask.py``), bands 1 of more than 2,000,000 grids cut
into pieces of row-4 prefixes; the catalog ends the same as after a serial run. It is a run of
its own (its shards differ): resume it with the same options.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from functools import partial

import numpy as np

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.fine import export_fine
from sudoku_symmetry.catalog.grids import coverage, export_counts, fine_prefixes, load_totals
from sudoku_symmetry.catalog.runs import get_run
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_cluster_arguments,
                                              add_db_argument, add_version_argument, check_write_target, cluster,
                                              count_argument, decimal, distributed, run, writes_file)
from sudoku_symmetry.commands._runs import out_parameters, out_target, print_runs, refuse_distributed_output, start_run
from sudoku_symmetry.engine.bands import N_BANDS
from sudoku_symmetry.engine.grids import prefixes
from sudoku_symmetry.jobs import ed_grids
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.runner import run_job

RUN_KIND = ed_grids.KIND


def parse_bands(text: str) -> list[int]:
    """``I[,J,K-L]`` -> sorted distinct band indexes (argparse type); a range has both ends."""
    out: set[int] = set()
    try:
        for part in text.split(","):
            part = part.strip()
            lo, dash, hi = part.partition("-")
            a, b = decimal(lo), decimal(hi) if dash else decimal(lo)
            if not (0 <= a <= b < N_BANDS):
                raise ValueError
            out.update(range(a, b + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected band indexes 0-415 like 0,5,10-20 (a range K-L has both ends), "
                                         f"got {text!r}") from None
    return sorted(out)


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="enumerate", description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter,
                      epilog="Output: one 81-digit grid per line, in minlex catalog order.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--band1", type=parse_bands, metavar="I[,J,K-L]", help="bands 1 to enumerate (0-415)")
    which.add_argument("--all", action="store_true", help="all 416 bands 1 (the whole catalog: hours)")
    which.add_argument("--status", action="store_true", help="list the runs and the bands 1 counted")
    writes_file(which.add_argument("--export", metavar="FILE.npz",
                                   help="write the catalog's complete bands 1 as package data "
                                   "(FILE.npz and FILE.json)"))
    writes_file(which.add_argument("--export-fine", metavar="FILE.npz",
                                   help="write the catalog's fine counts as package data (FILE.npz and FILE.json)"))
    p.add_argument("--count-only", action="store_true", help="count, print no grid")
    p.add_argument("--fine", action="store_true",
                   help="with --count-only: also store checkpoints inside each prefix (fast rank <-> grid)")
    p.add_argument("--fine-step", type=count_argument(1), default=384, metavar="GRIDS",
                   help="with --export-fine: grids between the checkpoints shipped (default 384)")
    p.add_argument("--keep-shipped", action="store_true",
                   help="with --export-fine: keep the shipped bands 1 that the catalog lacks (a recount in pieces)")
    writes_file(p.add_argument("--out", metavar="FILE",
                               help="write the grids to FILE (resumable) instead of standard output"))
    p.add_argument("--chunk", type=count_argument(0), default=ed_grids.CHUNK, help=argparse.SUPPRESS)
    p.add_argument("--split", type=count_argument(0), default=None,
                   help=argparse.SUPPRESS)  # grids per distributed shard
    add_db_argument(p)
    add_cluster_arguments(p)
    add_version_argument(p)
    return p


def _status(catalog, out) -> int:
    print_runs(catalog, RUN_KIND, out, shards="bands", what="bands 1", unit="grids")
    n, grids, automorphic = coverage(catalog)
    out.write(f"catalog: {n} of {N_BANDS} bands 1 counted, {grids:,} grids, {automorphic:,} with a non-trivial "
              f"automorphism{' (complete)' if n == N_BANDS else ''}\n")
    return EXIT_OK


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.count_only and args.out:
        raise CommandError("--count-only and --out exclude each other")
    if args.chunk < 1:
        raise CommandError("--chunk must be at least 1")
    if args.fine and not args.count_only:
        raise CommandError("--fine needs --count-only")
    if not (args.status or args.export):
        refuse_distributed_output(args, "grids")
    if args.fine and distributed(args):
        raise CommandError("--fine runs in one process (its checkpoints are per band 1); drop --workers/--scheduler")
    for option, path in (("--export", args.export), ("--export-fine", args.export_fine)):
        if path:  # the manifest beside the arrays goes through the same check
            manifest = os.path.splitext(path)[0] + ".json"
            if os.path.abspath(manifest) == os.path.abspath(path):
                raise CommandError(f"{option} {path}: name the arrays' file FILE.npz (FILE.json is their manifest)")
            check_write_target(option, manifest, args.db)
    read_only = bool(args.status or args.export or args.export_fine)
    target = None if read_only else out_target(args)
    catalog = open_catalog(args.db, create=not read_only)  # a read-only command never makes a catalog
    out, err = sys.stdout, sys.stderr
    if args.status:
        return _status(catalog, out)
    if args.export:
        return _export(catalog, args.export, err)
    if args.export_fine:
        res = export_fine(catalog, args.export_fine, args.fine_step, keep_shipped=args.keep_shipped)
        carried = f" ({res.carried} carried over from the package data)" if res.carried else ""
        err.write(f"enumerate: exported the fine counts of {len(res.bands)} bands 1{carried} ({res.checkpoints:,} "
                  f"checkpoints, step {args.fine_step}, {res.size:,} bytes) to {args.export_fine}\n")
        return EXIT_OK
    bands = list(range(N_BANDS)) if args.all else args.band1
    return _enumerate(catalog, bands, args, target, argv, err)


def _enumerate(catalog, bands: list[int], args, target, argv, err) -> int:
    known = load_totals(catalog)
    step = ed_grids.FINE_STEP if args.fine else 0
    if args.fine:
        have = fine_prefixes(catalog)
        todo = [b for b in bands if have.get(b, 0) < len(prefixes(b))]
    else:
        todo = [b for b in bands if not (args.count_only and b in known)]
    if args.count_only and len(todo) < len(bands):
        err.write(f"enumerate: {len(bands) - len(todo)} of the bands 1 are counted already"
                  f"{' (with fine counts)' if args.fine else ''}: skipped\n")
    split = (ed_grids.SPLIT_GRIDS if args.split is None else args.split) if distributed(args) else None
    params = ed_grids.parameters(bands, fine_step=step, split=split, **out_parameters(target))
    total = sum(known[b] for b in bands) if all(b in known for b in bands) else None
    state, output = start_run(catalog, RUN_KIND, params, target, items_total=total, prog="enumerate", argv=argv)
    job = Job(partial(ed_grids.work, chunk=args.chunk, emit=target is not None, step=step), ed_grids.write,
              ed_grids.finish)
    res = run_job(catalog, state.id, ed_grids.shards(todo, split), job, output=output, desc="ED grids", unit=" grids",
                  **cluster(args))
    sys.stdout.flush()
    state = get_run(catalog, state.id)
    if res.already_done:
        err.write(f"enumerate: run {state.id} was already complete; nothing to do\n")
    totals = load_totals(catalog)
    counted = [b for b in bands if b in totals]
    grids = sum(totals[b] for b in counted)
    err.write(f"enumerate: {len(counted)} of {len(bands)} bands 1 counted, {grids:,} grids"
              f" ({state.items_done:,} enumerated by run {state.id})\n")
    return EXIT_OK


def _export(catalog, path: str, err) -> int:
    """Package data: the counts as a compressed npz and a JSON manifest (sha256, bands, command)."""
    arrays = export_counts(catalog)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    bands = arrays["band1"].tolist()
    manifest = {
        "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(),
        "bands": bands, "complete": len(bands) == N_BANDS, "grids": int(arrays["grids"].sum()),
        "automorphic": int(arrays["automorphic"].sum()),
        "command": "bin/enumerate --all --count-only --db DB && bin/enumerate --export "
                   "catalog/data/ed_grid_counts.npz --db DB",
    }
    with open(os.path.splitext(path)[0] + ".json", "w") as fh:
        json.dump(manifest, fh, indent=1)
        fh.write("\n")
    err.write(f"enumerate: exported {len(bands)} bands 1, {manifest['grids']:,} grids to {path}\n")
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "enumerate")


if __name__ == "__main__":
    sys.exit(main())
