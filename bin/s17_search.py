"""s17-search: the 17-clue search over the entry, band 1 by band 1, pass A, B or C.

    s17-search --variant A|B|C --band1-rank K[,L-M] [--bands2 A:B] [--store] [--out FILE] [--db URL]
    s17-search --variant A|B|C --band1-rank K[,L-M] --store --workers N|--scheduler ADDRESS
    s17-search --variant A|B|C --band1-rank K[,L-M] --store --shard-seconds S [--workers N]
    s17-search --table [--db URL]
    s17-search --status [--db URL]
    s17-search --export FILE [--variant P] [--of K[,L-M]] [--db URL]
    s17-search --export-table FILE.json [--db URL]

For each band-1 rank (the search's band order, as ``s17-entry``) the command searches the pass's
17-clue puzzles among the entry's grids of that band 1 (``engine/search17/search.py``,
``docs/s17-search.md``): pass A the 5-6-6 / 6-5-6 puzzles of entry A (no stack above 6), B the
6-6-5 ones (entry B: A's grids with bands 2 and 3 exchanged, where they read 6-5-6), C those with a chute of
7 or more clues (entry C, that chute as band 3). It prints each 17 found as an 81-character line
(``.`` empty) in the entry's presentation, each class once per band 1, then ``found N`` for the
band 1.

Every run is resumable (``jobs/s17_search.py``: a shard per pass and band 1, a checkpoint on a
boundary of the entry's 64-band-2 slices committed with the finds it covers, slices gathered for
half a minute per commit): killed at any moment and started again with the same arguments, it
ends with the same finds and no duplicates; ``--out FILE`` is then byte-identical. Standard
output is not resumable: a run that prints there starts over. The finds always go to the catalog
(canonical forms in ``configurations``, kind ``puzzle``; ``s17_search_finds`` with the pass and
band-1 rank; per pass and band 1 a row in ``s17_search_bands`` with the bands 2 done, pairs,
bands 3, 17s found and CPU seconds); ``--store`` prints no line (a count-only run, which
``--workers N`` / ``--scheduler ADDRESS`` need: lines come out in order from one process).
``--bands2 A:B`` searches bands 2 A..B-1 of each band 1 only (a sample; the band 1 stays
incomplete). A progress bar counts bands 2, with the ETA.

``--shard-seconds S`` cuts each band 1 into shards of about S estimated CPU seconds (ranges of
bands 2: each band 2 costs its bands 3 times the CPU per band 3 measured near that rank, from the
package data), for runs on many workers, where a shard of a whole band 1 (up to years at the
low ranks) would be the tail; a band 1 is complete once its ranges are. With ``--store`` only;
the plan is the same at every start of the run, so it resumes shard by shard.

``--export FILE`` writes the finds stored in the catalog as puzzles, one 81-character line per
class (its canonical form, ``.`` empty), sorted, each class once however many passes and bands 1
found it (``--variant`` and ``--of`` select passes and band-1 ranks); ``-`` is standard output.

``--table`` prints, per pass and measured band 1 (the catalog's rows over the package data's,
``catalog/data/s17_search_bands.json``, written by ``--export-table``): bands 2 done of the entry's,
pairs, bands 3, 17s found, CPU seconds, complete; then the estimate of the whole search (3 passes
x 416 bands 1): the CPU seconds per band 3 measured, interpolated across ranks, times each band
1's bands 3 (the entry's counts), and its wall time on 64 and 256 Dask workers; then the same
estimate from the package's random samples (``catalog/data/s17_search_rates.json``, CPU seconds
per band 3 of random pairs at sampled ranks, what ``--shard-seconds`` sizes shards by).
"""
from __future__ import annotations

import argparse
import json
import sys
from functools import partial

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run
from sudoku_symmetry.catalog.search17 import load_band_order, load_entry_bands, load_search_bands, load_shipped_entry
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_OK, add_cluster_arguments,
                                              add_db_argument, add_version_argument, cluster, count_argument,
                                              distributed, run, seconds_argument, writes_file)
from sudoku_symmetry.commands._runs import out_parameters, out_target, print_runs, start_run
from sudoku_symmetry.commands._s17 import parse_ranks, parse_variant
from sudoku_symmetry.engine.bands import N_BANDS
from sudoku_symmetry.jobs import s17_search
from sudoku_symmetry.jobs.band_rows import store_band_rows
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.runner import run_job

RUN_KIND = s17_search.KIND
YEAR = 365.25 * 86400


def parse_bands2(text: str) -> tuple[int, int]:
    """``A:B`` -> (A, B), 0 <= A < B (argparse type)."""
    lo, sep, hi = text.partition(":")
    try:
        a, b = count_argument(0)(lo), count_argument(1)(hi)
    except argparse.ArgumentTypeError:
        a = b = -1
    if not sep or not 0 <= a < b:
        raise argparse.ArgumentTypeError(f"expected a range of bands 2 like 0:64, got {text!r}")
    return a, b


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="s17-search", description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter,
                      epilog="Example: s17-search --variant C --band1-rank 2 --bands2 18137:18138")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--band1-rank", type=parse_ranks, metavar="K[,L-M]",
                       help="bands 1 by rank (0-415): K, K-M (both ends: 10-415 to the last) or a list of them")
    p.add_argument("--of", type=parse_ranks, metavar="K[,L-M]", default=None,
                   help="with --export: only the finds of these band-1 ranks")
    which.add_argument("--table", action="store_true", help="the measured bands 1 and the estimate of the search")
    which.add_argument("--status", action="store_true", help="list the runs and the bands 1 done")
    writes_file(which.add_argument("--export", metavar="FILE",
                                   help="write the finds as puzzles (canonical forms, one a line)"))
    writes_file(which.add_argument("--export-table", metavar="FILE.json",
                                   help="write the catalog's measured bands 1 as package data"))
    p.add_argument("--variant", type=parse_variant, default=None,
                   help="the pass: A (5-6-6 / 6-5-6), B (6-6-5) or C (a chute of 7+ clues)")
    p.add_argument("--bands2", type=parse_bands2, default=None, metavar="A:B",
                   help="only bands 2 A..B-1 of each band 1 (a sample)")
    p.add_argument("--store", action="store_true", help="store the finds, print no line (resumable, Dask)")
    p.add_argument("--shard-seconds", type=seconds_argument, default=None, metavar="S",
                   help="with --store: shards of about S estimated CPU seconds (ranges of bands 2)")
    writes_file(p.add_argument("--out", metavar="FILE",
                               help="write the lines to FILE (resumable) instead of standard output"))
    p.add_argument("--chunk", type=count_argument(1), default=s17_search.CHUNK, help=argparse.SUPPRESS)
    p.add_argument("--checkpoint-seconds", type=seconds_argument, default=None, help=argparse.SUPPRESS)
    add_db_argument(p)
    add_cluster_arguments(p)
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.store and args.out:
        raise CommandError("--store and --out exclude each other (--out stores too)")
    if args.band1_rank is not None and args.variant is None:
        raise CommandError("--variant A, B or C is required with --band1-rank")
    if args.band1_rank is None and (args.bands2 or args.store or args.out or distributed(args)
                                    or args.shard_seconds is not None):
        raise CommandError("--bands2, --store, --out, --shard-seconds, --workers and --scheduler go with --band1-rank")
    if args.shard_seconds is not None and not (args.store and args.shard_seconds > 0):
        raise CommandError("--shard-seconds needs --store and a positive number of seconds")
    if args.variant is not None and not (args.band1_rank is not None or args.export):
        raise CommandError("--variant goes with --band1-rank or --export")
    target = None
    if args.band1_rank is not None:
        if distributed(args) and not args.store:
            raise CommandError("--workers and --scheduler need --store (lines come out in order from one process)")
        args.count_only = args.store
        target = out_target(args)
        args.ranges = _ranges(args, sys.stderr)  # before the catalog is opened or made
    if args.of is not None and not args.export:
        raise CommandError("--of goes with --export")
    read_only = args.status or args.table or args.export or args.export_table
    catalog = open_catalog(args.db, create=not read_only)  # read-only: never makes one
    if args.status:
        print_runs(catalog, RUN_KIND, sys.stdout, shards="ranks", what="bands 1", unit="bands 2",
                   label=lambda params: f"pass {params.get('pass')}, ", no_lines="stored, no lines")
        return EXIT_OK
    if args.export:
        return _export_finds(catalog, args.export, args.variant, args.of, sys.stderr)
    if args.export_table:
        return _export_table(catalog, args.export_table, sys.stderr)
    if args.table:
        return _table(catalog, sys.stdout)
    if len(load_band_order(catalog)) < N_BANDS:
        store_band_rows(catalog)  # the bands rows and their order columns (what populate stores)
    return _search(catalog, args, target, argv, sys.stderr)


def _search(catalog, args, target, argv, err) -> int:
    pass_, ranks = args.variant, args.band1_rank
    params = s17_search.parameters(pass_, ranks, list(args.bands2) if args.bands2 else None,
                                   chunk=args.chunk, **out_parameters(target))
    total = sum(b - a for a, b in args.ranges.values())
    shards = s17_search.shards(pass_, ranks)
    if args.shard_seconds is not None:
        params["shard_seconds"] = args.shard_seconds
        try:
            shards, costs = s17_search.plan(pass_, ranks, args.shard_seconds, args.bands2)
        except ValueError as e:
            raise CommandError(str(e)) from None
        params["shard_count"] = len(shards)  # --status: the shards pending are the plan's
        err.write(f"s17-search: pass {pass_}: {len(shards):,} shards of about {args.shard_seconds:g} CPU-s over "
                  f"{len(ranks)} bands 1 (estimated: {sum(costs):,.0f} CPU-s in all, the largest shard "
                  f"{max(costs, default=0.0):,.0f})\n")
    state, output = start_run(catalog, RUN_KIND, params, target, items_total=total, prog="s17-search", argv=argv)
    seconds = s17_search.CHECKPOINT_SECONDS if args.checkpoint_seconds is None else args.checkpoint_seconds
    job = Job(partial(s17_search.work, chunk=args.chunk, emit=target is not None, seconds=seconds,
                      bands2_range=args.bands2), s17_search.write)
    res = run_job(catalog, state.id, shards, job, output=output,
                  desc=f"s17 search {pass_}", unit=" bands2", **cluster(args))
    state = get_run(catalog, state.id)
    if res.already_done:
        err.write(f"s17-search: run {state.id} was already complete; nothing to do\n")
    rows = load_search_bands(catalog, pass_)
    got = [rows[(pass_, r)] for r in ranks if (pass_, r) in rows]
    err.write(f"s17-search: pass {pass_}: {len(got)} of {len(ranks)} bands 1 searched "
              f"({sum(1 for g in got if g['complete'])} complete), {sum(g['found'] for g in got)} 17s, "
              f"{sum(g['cpu_seconds'] for g in got):,.1f} CPU-s (run {state.id})\n")
    return EXIT_OK


def _ranges(args, err) -> dict[int, tuple[int, int]]:
    """The bands 2 searched per band 1; a ``--bands2`` range past a band 1's end is refused (a
    slip, not "found 0"), one that runs past it is cut, with a line saying so."""
    ranges = {r: s17_search.band_range(r, args.bands2) for r in args.band1_rank}
    if args.bands2:
        a, b = args.bands2
        for r, (lo, hi) in ranges.items():
            if lo >= hi:
                raise CommandError(f"--bands2 {a}:{b} is past the end of band 1 rank {r} (it has {hi:,} bands 2: "
                                   f"0:{hi})")
        for r, (lo, hi) in ranges.items():
            if hi < b:
                err.write(f"s17-search: band 1 rank {r} has {hi:,} bands 2: searching {lo}:{hi}\n")
    return ranges


def _export_finds(catalog, path: str, pass_, ranks, err) -> int:
    forms = s17_search.found_classes(catalog, pass_, ranks)
    text = "".join(f"{f}\n" for f in forms)
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as fh:
            fh.write(text)
    err.write(f"s17-search: exported {len(forms)} 17-clue puzzles (distinct classes) to {path}\n")
    return EXIT_OK


def _export_table(catalog, path: str, err) -> int:
    rows = load_search_bands(catalog)
    cols = ["pass", "band1_rank", "band1", "bands2_total", "bands2_done", "pairs", "bands3", "found", "cpu_seconds",
            "complete"]
    data = {"columns": cols, "complete": sum(1 for r in rows.values() if r["complete"]),
            "bands": [[p, r, *[row[c] for c in cols[2:]]] for (p, r), row in sorted(rows.items())],
            "command": "bin/s17-search --variant P --band1-rank K [--bands2 A:B] --store --db DB && "
                       "bin/s17-search --export-table catalog/data/s17_search_bands.json --db DB"}
    with open(path, "w") as fh:
        json.dump(data, fh, indent=None, separators=(",", ":"))
        fh.write("\n")
    err.write(f"s17-search: exported {len(rows)} measured bands 1 ({data['complete']} complete) to {path}\n")
    return EXIT_OK


def _table(catalog, out) -> int:
    rows = s17_search.measured(catalog)
    out.write("# pass rank index bands2_done/bands2 pairs bands3 found cpu_s complete\n")
    for (p, r), row in sorted(rows.items()):
        out.write(f"{p} {r} {row['band1']} {row['bands2_done']}/{row['bands2_total']} {row['pairs']} {row['bands3']} "
                  f"{row['found']} {row['cpu_seconds']:.1f} {'yes' if row['complete'] else 'no'}\n")
    entry = {v: {**load_shipped_entry().get(v, {}), **load_entry_bands(catalog, v)} for v in ("A", "C")}
    est = s17_search.estimate_search(rows, entry)
    total = 0.0
    biggest_band1 = biggest_slice = 0.0
    for p in s17_search.PASSES:
        per = est[p]["per_band1"]
        if not per:
            out.write(f"# estimate pass {p}: nothing measured\n")
            continue
        cpu = sum(per.values())
        total += cpu
        biggest_band1 = max(biggest_band1, max(per.values()))
        biggest_slice = max(biggest_slice, max(v / max(1, -(-est[p]["bands2"][r] // 64)) for r, v in per.items()))
        out.write(f"# estimate pass {p}: {len(per)} bands 1 from {est[p]['samples']} measured ranks: "
                  f"{cpu:,.0f} CPU-s ({cpu / YEAR:,.1f} CPU-years)\n")
    if total:
        out.write(f"# estimate all passes: {total:,.0f} CPU-s ({total / YEAR:,.1f} CPU-years); largest band 1 "
                  f"{biggest_band1:,.0f} s, largest 64-band-2 slice about {biggest_slice:,.0f} s\n")
        for w in (64, 256):
            out.write(f"# wall on {w} workers: shards of one band 1 {max(total / w, biggest_band1) / 86400:,.1f} "
                      f"days; shards of 64 bands 2 {(total / w + biggest_slice) / 86400:,.1f} days\n")
    sampled = s17_search.estimate_sampled(entry)
    if sampled:
        cpu = {p: sum(v.values()) for p, v in sampled.items()}
        every = sum(cpu.values())
        out.write("# estimate from the package's random samples (s17_search_rates.json): "
                  + ", ".join(f"pass {p} {c / YEAR:,.0f}" for p, c in cpu.items())
                  + f", all {every / YEAR:,.0f} CPU-years; on 64 / 256 workers with shards of a day "
                    f"(--shard-seconds 86400) {(every / 64 + 86400) / YEAR:,.1f} / {(every / 256 + 86400) / YEAR:,.1f} "
                    "years\n")
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "s17-search")


if __name__ == "__main__":
    sys.exit(main())
