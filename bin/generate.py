"""`generate`: exactly uniform random grids, and minimal puzzles made top-down from them.

    generate --grids N [--seed S] [--out FILE | --store]
    generate --count N [--seed S] [--clues A-B] [--symmetry NAME] [--rating A-B] [--solutions]
             [--stats] [--out FILE] [--store] [--db URL]
    generate --attempts N ... --store --workers K|--scheduler ADDRESS
    generate --status

``--grids N`` prints N solution grids, each of the 6,670,903,752,021,072,936,960 exactly equally
likely (engine/grids/uniform.py says why), one per line. ``--count N`` prints N minimal puzzles:
attempt i takes grid i of the seed's draw and removes its givens in a uniformly random order
while the puzzle keeps one solution (the top-down generator of the literature, on uniform grids).
``--clues A-B`` keeps those with A to B givens, ``--rating A-B`` those whose Sudoku Explainer
rating (ER) lies in A-B (a filter needs more attempts: the summary says how many). ``--symmetry
NAME`` makes the pattern of givens symmetric, removing the givens an orbit at a time (the puzzle
is then minimal among the puzzles with that symmetry; names: rotate180 (180), rotate90 (90),
horizontal, vertical, orthogonal, diagonal, antidiagonal, bidiagonal, dihedral (full), bands,
stacks, boxes, none). ``--solutions`` puts each puzzle's solution after it on its line.
``--attempts N`` instead of ``--count``: the puzzles of the first N attempts that pass the
filters. The same ``--seed`` (default 0) and options give the same lines, byte for byte.

``--stats`` prints, on standard error at the end, the number of puzzles per clue count, their
mean, standard deviation and skewness (Berthier's top-down figures: 24.38, 1.12, 0.08), and with
``--rating`` the mean, spread and maximum ER of the puzzles kept (``--rating 0-`` keeps and rates
every puzzle: Berthier's mean ER 3.77, sd 2.42, maximum 9.3).

``--out FILE`` writes the lines to FILE as a resumable run (``jobs/generate.py``): killed and
started again with the same options, it continues where it stopped and ends with the same file,
byte for byte; ``--store`` puts the minlex forms in the catalog (table ``configurations``, kind
``puzzle`` or ``grid``, ``source`` = how it was made: seed, attempt, symmetry), also as a
resumable run. ``--workers K`` (a local Dask cluster) or ``--scheduler ADDRESS`` run a stored
``--attempts`` (or ``--grids``, or ``--count`` without filters) as shards of 65,536 attempts;
they print nothing but the summary. ``--status`` lists the catalog's generate runs.
"""
from __future__ import annotations

import argparse
import sys
from functools import partial

import numpy as np

from sudoku_symmetry.commands._common import (EXIT_OK, CommandError, CommandParser, add_cluster_arguments,
                                              add_db_argument, add_version_argument, cluster, count_argument,
                                              distributed, rating_argument, run, writes_file)
from sudoku_symmetry.engine.generate import canonical_name, parse_range

MAX_SEED = (1 << 63) - 1
BERTHIER = {"mean": 24.38, "sd": 1.12, "skewness": 0.08, "er_mean": 3.77, "er_sd": 2.42, "er_max": 9.3}
"""Denis Berthier's figures for 1,000,000 top-down minimal puzzles (suexg), for --stats."""


def _clues(text: str):
    try:
        return parse_range(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _symmetry(text: str) -> str:
    try:
        return canonical_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parser() -> argparse.ArgumentParser:
    ap = CommandParser(
        prog="generate",
        description="Exactly uniform random grids, and minimal puzzles made top-down from them.",
        epilog="examples: generate --grids 5 --seed 1;  generate --count 100 --clues 24 --symmetry rotate180 --stats",
    )
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--grids", type=count_argument(0), metavar="N", help="N uniformly random solution grids")
    what.add_argument("--count", type=count_argument(0), metavar="N", help="N minimal puzzles (those the filters keep)")
    what.add_argument("--attempts", type=count_argument(0), metavar="N",
                      help="the minimal puzzles of the first N attempts that the filters keep")
    what.add_argument("--status", action="store_true", help="list the catalog's generate runs")
    ap.add_argument("--seed", type=count_argument(0, MAX_SEED), default=0, help="the seed (default 0)")
    ap.add_argument("--clues", type=_clues, metavar="A-B", help="keep puzzles with A to B givens")
    ap.add_argument("--symmetry", type=_symmetry, default="none", metavar="NAME",
                    help="a symmetric pattern of givens (rotate180, rotate90, horizontal, vertical, orthogonal, diagonal, "
                    "antidiagonal, bidiagonal, dihedral, bands, stacks, boxes)")
    ap.add_argument("--rating", type=rating_argument, metavar="A-B",
                    help="keep puzzles whose Sudoku Explainer rating (ER) is from A to B")
    ap.add_argument("--solutions", action="store_true", help="put each puzzle's solution after it")
    ap.add_argument("--stats", action="store_true",
                    help="print the clue-count distribution, mean, sd and skewness (with --rating, the ratings' too) on stderr")
    writes_file(ap.add_argument("--out", metavar="FILE", help="write the lines to FILE as a resumable run"))
    ap.add_argument("--store", action="store_true", help="store the minlex forms in the catalog (a resumable run)")
    ap.add_argument("--block", type=count_argument(1), default=None, metavar="N",
                    help="with --workers/--scheduler: attempts per shard (default 65,536)")
    add_db_argument(ap)
    add_cluster_arguments(ap)
    add_version_argument(ap)
    return ap


def _job_options(args) -> dict:
    if args.grids is not None:
        return {"what": "grids", "seed": args.seed, "count": args.grids}
    return {"what": "puzzles", "seed": args.seed, "symmetry": args.symmetry, "clues": args.clues, "rating": args.rating,
            "count": args.count, "attempts": args.attempts, "solutions": args.solutions}


def _stats(s: dict, what: str, err, rating=None) -> None:
    if what == "grids" or not s.get("kept"):
        return
    hist = s["hist"]
    err.write(f"generate: {s['kept']:,} puzzles from {s['attempts']:,} attempts\n")
    err.write("clues  puzzles  share\n")
    for k in np.flatnonzero(hist).tolist():
        err.write(f"{k:5d} {int(hist[k]):8,d} {hist[k] / s['kept']:6.2%}\n")
    n = s["kept"]
    err.write(f"mean {s['mean']:.3f} (standard error {s['sd'] / n ** 0.5:.3f}; Berthier {BERTHIER['mean']}), "
              f"sd {s['sd']:.3f} ({BERTHIER['sd']}), skewness {s['skewness']:.3f} ({BERTHIER['skewness']})\n")
    if "er_mean" in s:
        every = rating is not None and rating[0] <= 0 and rating[1] >= 20  # Berthier's figures are of every puzzle
        b = (lambda key, text: f"{text}{BERTHIER[key]}") if every else (lambda key, text: "")
        err.write(f"ER: {s['rated']:,} rated, mean {s['er_mean']:.3f} (standard error "
                  f"{s['er_sd'] / s['rated'] ** 0.5:.3f}{b('er_mean', '; Berthier ')}), sd {s['er_sd']:.3f}"
                  f"{b('er_sd', ' (') + (')' if every else '')}, max {s['er_max']:.1f}"
                  f"{b('er_max', ' (') + (')' if every else '')}\n")


def _print_direct(args, out, err) -> int:
    """No run: the lines straight to standard output, chunk by chunk (no catalog opened)."""
    from sudoku_symmetry.jobs import generate as job

    opts = _job_options(args)
    cursor = None
    for c in job.work("all", None, emit=True, **opts):
        out.buffer.write(c.data) if hasattr(out, "buffer") else out.write(c.data.decode())
        out.flush()
        cursor = c.cursor
    _summary(args, opts, job.summary([cursor]), err)
    return EXIT_OK


def _summary(args, opts, s: dict, err) -> None:
    if opts["what"] == "puzzles" and (args.clues or args.rating) and not args.stats:
        err.write(f"generate: {s['kept']:,} puzzles kept from {s['attempts']:,} attempts\n")
    if args.stats:
        _stats(s, opts["what"], err, args.rating)


def _run(args, argv, out, err) -> int:
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.runs import get_run
    from sudoku_symmetry.commands._runs import out_parameters, start_run
    from sudoku_symmetry.jobs import generate as job
    from sudoku_symmetry.jobs.chunk import Job
    from sudoku_symmetry.jobs.output import output_target
    from sudoku_symmetry.jobs.runner import run_job

    from sudoku_symmetry.catalog.db import resolve_url

    dist = distributed(args)
    opts = _job_options(args)
    if dist:
        if not args.store or args.out:
            raise CommandError("--workers and --scheduler go with --store (a distributed run stores; lines come out "
                               "in order from one process only)")
        if opts.get("count") is not None:
            if args.clues or args.rating:
                raise CommandError("a distributed run covers a set of attempts: use --attempts N with --clues/--rating")
            opts["attempts"], opts["count"] = opts["count"], None
    target = None if dist or (args.store and not args.out) else output_target(args.out, resolve_url(args.db))
    catalog = open_catalog(args.db)
    try:
        block = args.block or job.BLOCK
        params = job.parameters(**opts, store=args.store, distributed=dist, block=block, **out_parameters(target))
        total = opts.get("count") if opts.get("count") is not None else opts.get("attempts")
        state, output = start_run(catalog, job.KIND, params, target, items_total=total, prog="generate", argv=argv)
        keys = job.shards(opts.get("attempts"), dist, block)
        work = partial(job.work, **opts, store=args.store, emit=target is not None)
        res = run_job(catalog, state.id, keys, Job(work, job.write), output=output, desc="generate",
                      unit=" grids" if opts["what"] == "grids" else " puzzles", **cluster(args))
        out.flush()
        state = get_run(catalog, state.id)
        s = job.summary([state.cursor(k) for k in keys])
        if res.already_done:
            err.write(f"generate: run {state.id} was already complete; nothing to do\n")
        if args.store:
            err.write(f"generate: {s['kept']:,} {opts['what']} stored (run {state.id}), "
                      f"{0 if res.already_done else state.items_new:,} new in the catalog\n")
        _summary(args, opts, s, err)
    finally:
        catalog.dispose()
    return EXIT_OK


def _status(args, out) -> int:
    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.catalog.runs import list_runs
    from sudoku_symmetry.jobs import generate as job

    catalog = open_catalog(args.db)
    try:
        for r in list_runs(catalog, job.KIND):
            p = r.parameters
            size = f"{p['count']:,} {p['what']}" if p.get("count") is not None else \
                f"{p['what']} of {p.get('attempts') or 0:,} attempts"
            extra = "".join(f", {k} {p[k] if k == 'symmetry' else '-'.join(map(str, p[k]))}" for k in
                            ("symmetry", "clues", "rating") if p.get(k) and p.get(k) != "none")
            where = p.get("out") or ("standard output" if p.get("stdout") else "stored" if p.get("store") else "-")
            shards = int(p.get("shard_count", 1))
            out.write(f"run {r.id}: {size}, seed {p['seed']}{extra} ({where}): {r.status}, "
                      f"{r.shards_done} of {shards} shards done, {r.items_done:,} items\n")
    finally:
        catalog.dispose()
    return EXIT_OK


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    if args.status:
        return _status(args, out)
    if args.grids is None and args.count is None and args.attempts is None:
        raise CommandError("say what to make: --grids N, --count N or --attempts N (or --status)")
    if args.grids is not None and (args.clues or args.rating or args.symmetry != "none" or args.solutions):
        raise CommandError("--clues, --rating, --symmetry and --solutions make puzzles: use --count N")
    if args.block is not None and not distributed(args):
        raise CommandError("--block goes with --workers or --scheduler")
    if args.out or args.store or distributed(args):
        return _run(args, argv, out, err)
    return _print_direct(args, out, err)


def main(argv=None) -> int:
    return run(_main, argv, "generate")


if __name__ == "__main__":
    sys.exit(main())
