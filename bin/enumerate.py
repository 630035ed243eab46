"""enumerate: every essentially different grid of some bands 1, in minlex catalog order.

    enumerate --band1 I[,J,K-L] | --all  [--count-only [--fine]] [--out FILE] [--db URL]
    enumerate --status [--db URL]

For each band 1 (a minlex band, index 0-415) the ED grids whose minlex form starts with it
come out as 81-digit lines in increasing order, to standard output or ``--out FILE``; with
``--count-only`` nothing is printed but the counts. Either way the counts go to the catalog:
the grids under each row-4 prefix (``ed_grid_prefixes``) and, once a band 1 is complete, its
total with its automorphism histogram (``ed_grid_bands``); ``bin/rank`` reads them.

A run with ``--count-only`` or ``--out`` is a resumable run (one shard per band 1, a checkpoint
every 64 prefixes committed with the counts it covers): killed at any moment and started again
with the same arguments it ends with exactly the same counts, and ``--out`` with a
byte-identical file (the file is cut back to the last checkpoint and continued). Bands 1 that
the catalog has already counted are skipped by ``--count-only``. Output to standard output is
not resumable (a new run each time). ``--status`` lists the runs and what the catalog holds.

``--count-only --fine`` also stores the *fine counts* (``ed_grid_fine``): a checkpoint about
every 128 grids inside each prefix (the band-2 ordinal and the grids before it), which rank <->
grid resumes from; it recounts the bands 1 that lack them, checks every prefix count and total
against those the catalog already holds (a mismatch stops the run), and is resumable the same
way. ``--export-fine FILE.npz`` writes them, thinned to a checkpoint every ``--fine-step``
grids, as package data (see ``catalog/fine.py``).

``--count-only --workers N`` (a local Dask cluster) or ``--scheduler ADDRESS`` (an existing one)
works the shards as Dask tasks (``catalog/distributed.py``), bands 1 of more than 2,000,000
grids cut into pieces of row-4 prefixes (``_enumerate_tasks.py``); the catalog ends the same as
after a serial run. It is a run of its own (its shards differ): resume it with the same options.
"""
from __future__ import annotations

import argparse
import os
import sys

from sudoku_symmetry.commands._common import (EXIT_OK, CommandError, OutputFile, add_cluster_arguments,
                                              add_db_argument, count_argument, decimal, distributed, drive_shards,
                                              list_runs, refuse_distributed_output, run, with_output)

RUN_KIND = "ed-grids"
N_BANDS = 416
CHUNK = 64  # prefixes per committed chunk (the issue asks for a checkpoint at least every 64)
FINE_STEP = 128  # grids between fine checkpoints in the catalog (package data thins them)


def parse_bands(text: str) -> list[int]:
    """``I[,J,K-L]`` -> sorted distinct band indexes (argparse type)."""
    out: set[int] = set()
    try:
        for part in text.split(","):
            part = part.strip()
            lo, _, hi = part.partition("-")
            a, b = decimal(lo), decimal(hi) if hi else decimal(lo)
            if not (0 <= a <= b < N_BANDS):
                raise ValueError
            out.update(range(a, b + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected band indexes 0-415 like 0,5,10-20, got {text!r}") from None
    return sorted(out)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="enumerate", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Output: one 81-digit grid per line, in minlex catalog order.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--band1", type=parse_bands, metavar="I[,J,K-L]", help="bands 1 to enumerate (0-415)")
    which.add_argument("--all", action="store_true", help="all 416 bands 1 (the whole catalog: hours)")
    which.add_argument("--status", action="store_true", help="list the runs and the bands 1 counted")
    which.add_argument("--export", metavar="FILE.npz",
                       help="write the catalog's complete bands 1 as package data (FILE.npz and FILE.json)")
    which.add_argument("--export-fine", metavar="FILE.npz",
                       help="write the catalog's fine counts as package data (FILE.npz and FILE.json)")
    p.add_argument("--count-only", action="store_true", help="count, print no grid")
    p.add_argument("--fine", action="store_true",
                   help="with --count-only: also store checkpoints inside each prefix (fast rank <-> grid)")
    p.add_argument("--fine-step", type=count_argument(1), default=384, metavar="GRIDS",
                   help="with --export-fine: grids between the checkpoints shipped (default 384)")
    p.add_argument("--keep-shipped", action="store_true",
                   help="with --export-fine: keep the shipped bands 1 that the catalog lacks (a recount in pieces)")
    p.add_argument("--out", metavar="FILE", help="write the grids to FILE (resumable) instead of standard output")
    p.add_argument("--chunk", type=count_argument(0), default=CHUNK, help=argparse.SUPPRESS)
    p.add_argument("--split", type=count_argument(0), default=None,
                   help=argparse.SUPPRESS)  # grids per distributed shard
    add_db_argument(p)
    add_cluster_arguments(p)
    return p


def _status(catalog, out) -> int:
    from sudoku_symmetry.catalog.grids import coverage

    list_runs(catalog, RUN_KIND, out, shards="bands", what="bands 1", unit="grids")
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
    from sudoku_symmetry.catalog.db import open_catalog

    read_only = bool(args.status or args.export or args.export_fine)
    catalog = open_catalog(args.db, create=not read_only)  # a read-only command never makes a catalog
    out, err = sys.stdout, sys.stderr
    if args.status:
        return _status(catalog, out)
    if args.export:
        return _export(catalog, args.export, err)
    if args.export_fine:
        from sudoku_symmetry.catalog.fine import export_fine

        return export_fine(catalog, args.export_fine, args.fine_step, err, keep_shipped=args.keep_shipped)
    bands = list(range(N_BANDS)) if args.all else args.band1
    return _enumerate(catalog, bands, args, out, err)


def _enumerate(catalog, bands: list[int], args, out, err) -> int:
    from sudoku_symmetry.catalog.grids import (fine_prefixes, load_prefix_counts, load_totals, store_band_total,
                                               store_fine_chunk, store_prefix_counts)
    from sudoku_symmetry.catalog.runs import get_run, start_or_resume
    from sudoku_symmetry.engine.grids import enumeration
    from sudoku_symmetry.engine.text import format_lines

    known = load_totals(catalog)
    path = os.path.abspath(args.out) if args.out else None
    stdout_mode = not args.count_only and path is None
    step = FINE_STEP if args.fine else 0
    if args.fine:
        have = fine_prefixes(catalog)
        shards = [b for b in bands if have.get(b, 0) < len(enumeration.prefixes(b))]
    else:
        shards = [b for b in bands if not (args.count_only and b in known)]
    if args.count_only and len(shards) < len(bands):
        err.write(f"enumerate: {len(bands) - len(shards)} of the bands 1 are counted already"
                  f"{' (with fine counts)' if args.fine else ''}: skipped\n")
    params = {"bands": bands, "out": path, "stdout": stdout_mode}
    if args.fine:
        params["fine"] = step
    if distributed(args):  # finer shards (pieces of big bands 1): a different run from the serial one
        from functools import partial

        from sudoku_symmetry.commands import _enumerate_tasks as tasks

        split = tasks.SPLIT_GRIDS if args.split is None else args.split
        params["split"] = split
        shards = tasks.shard_keys(shards, split)
    total = sum(known[b] for b in bands) if all(b in known for b in bands) else None
    run_state = start_or_resume(catalog, RUN_KIND, params, items_total=total, restart=stdout_mode)
    output = OutputFile(path, run_state) if path is not None else None

    def work(shard: str, cursor):
        band = int(shard)
        cur = dict(cursor or {"prefix": 0, "hist": {}})
        rows4 = format_lines(enumeration.prefixes(band))
        for res, nxt, done in enumeration.band1_chunks(band, cur["prefix"], chunk=args.chunk, emit=not args.count_only,
                                               step=step):
            hist = dict(cur["hist"])
            for k in map(int, res.hist.nonzero()[0]):
                hist[str(k)] = hist.get(str(k), 0) + int(res.hist[k])
            text = "".join(line + "\n" for line in format_lines(res.grids)) if res.grids is not None else ""
            final = None
            if done:
                final = (sum(hist.values()), len(rows4), {int(k): v for k, v in hist.items()})
            fine = (res.checkpoint_counts, res.checkpoints) if step else None
            chunk_rows = (band, res.start, rows4[res.start:res.stop], res.counts.tolist(), final, fine)
            cur = {"prefix": nxt, "hist": hist}
            yield chunk_rows, cur, done, res.total, text.encode("ascii")

    def write(conn, rows):
        band, start, rows4, counts, final, fine = rows
        if fine is not None:  # a recount: what the catalog holds must agree
            held = load_prefix_counts(conn, band)[start : start + len(counts)]
            if held and held != counts:
                raise CommandError(f"band 1 {band}, prefixes {start}-{start + len(counts) - 1}: the recount "
                                   f"differs from the counts in the catalog")
            if final is not None and band in known and known[band] != final[0]:
                raise CommandError(f"band 1 {band}: the recount gives {final[0]:,} grids, the catalog {known[band]:,}")
            store_fine_chunk(conn, band, start, step, *fine)
        new = store_prefix_counts(conn, band, start, rows4, counts)
        if final is not None:
            store_band_total(conn, band, *final)
        return new, len(counts) - new

    if distributed(args):
        work, write = partial(tasks.work, chunk=args.chunk), partial(tasks.write, run_id=run_state.id)
    else:
        work = with_output(work, output, out if stdout_mode else None)
    res = drive_shards(args, catalog, run_state.id, [str(b) for b in shards], work, write, desc="ED grids",
                       unit=" grids")
    out.flush()
    state = get_run(catalog, run_state.id)
    if res.already_done:
        err.write(f"enumerate: run {run_state.id} was already complete; nothing to do\n")
    totals = load_totals(catalog)
    counted = [b for b in bands if b in totals]
    grids = sum(totals[b] for b in counted)
    err.write(f"enumerate: {len(counted)} of {len(bands)} bands 1 counted, {grids:,} grids"
              f" ({state.items_done:,} enumerated by run {run_state.id})\n")
    return EXIT_OK


def _export(catalog, path: str, err) -> int:
    """Package data: the counts as a compressed npz and a JSON manifest (sha256, bands, command)."""
    import hashlib
    import json

    import numpy as np

    from sudoku_symmetry.catalog.grids import export_counts

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
