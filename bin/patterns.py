"""patterns: essentially different clue patterns and configurations, their counts and canonical forms.

    patterns --cells N [--digits] [--count-only] [--out FILE] [--db URL]
    patterns --cells N [--digits] --count-only --workers N|--scheduler ADDRESS [--db URL]
    patterns --burnside --cells N|all
    patterns [FILE ...]

``--cells N`` enumerates every essentially different (ED) clue pattern with N cells (with
``--digits``: every ED configuration with N clues, digits with no row, column or box conflict),
each once, in box-first canonical form (engine/patterns/canonical.py), in decreasing key order,
and stores them in the catalog (table ``configurations``, kind ``pattern`` or
``configuration``, convention ``box_first``, with automorphism counts; deduplicated). It prints
the canonical forms (``x`` for a clue, ``.`` for an empty cell; digits for configurations) on
standard output or into ``--out FILE``, then the count on standard error; with ``--count-only``
only the count, on standard output. Every form is stored, ``--count-only`` included (at 10 cells
that is 2,499,689 rows, about 750 MB of SQLite); the summary says how many rows were stored and
how many were new, and ``--no-store`` counts (or writes) without storing.

A run with ``--count-only`` or ``--out`` is resumable (``jobs/patterns.py``: one shard, the
cursor is the next enumeration unit, a clue-count matrix, and the file offset and checksum):
killed at any moment and started again with the same arguments, it ends with the same rows and a
byte-identical file (deleted, it is made again). Output to standard output (``--out -``) is
not resumable (a new run each time; rows are deduplicated).

``--count-only --workers N`` (a local Dask cluster) or ``--scheduler ADDRESS`` (an existing one)
works the units as Dask tasks (``jobs/dask.py``), one shard per box occupancy; the catalog
gets the serial run's rows and the same count. It is a
run of its own (its shards differ): resume it with the same options. Canonical forms (standard
output, ``--out``) come from one process, in order: the cluster options need ``--count-only``.

``--burnside --cells N|all`` prints ``N COUNT`` lines: the number of ED patterns by Burnside's
lemma over the group's cycle types (exact, no enumeration). Configurations have no Burnside
count here (``--digits`` is refused): their fixed points are not a product over cycles.

Without ``--cells`` or ``--burnside``: one pattern or configuration per input line (81
characters, ``.`` or ``0`` empty, ``x`` a clue of a pattern or digits 1-9 of a
configuration), its canonical form and automorphism count per line (``FORM COUNT``); a bad line
prints ``error line N: REASON`` in its place and the exit status is 2.
"""
from __future__ import annotations

import argparse
import sys
from functools import partial

import numpy as np

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.runs import get_run
from sudoku_symmetry.commands._common import (CommandError, CommandParser, EXIT_BAD_INPUT, EXIT_OK,
                                              add_cluster_arguments, add_db_argument, add_input_argument,
                                              add_version_argument, cluster, count_argument, decimal, distributed,
                                              iter_chunks, run, writes_file)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs
from sudoku_symmetry.commands._runs import out_parameters, out_target, refuse_distributed_output, start_run
from sudoku_symmetry.engine.patterns.burnside import pattern_counts
from sudoku_symmetry.engine.grids import N_ED_GRIDS
from sudoku_symmetry.engine.patterns.canonical import canonical_forms, format_cells, has_conflict, parse_line
from sudoku_symmetry.engine.patterns.enumeration import TooSymmetric
from sudoku_symmetry.jobs import patterns
from sudoku_symmetry.jobs.chunk import Job
from sudoku_symmetry.jobs.runner import run_job

RUN_KIND = patterns.KIND
MAX_CELLS = 81
FIELDS = ("form", "kind", "automorphisms")  # --format csv/jsonl of the per-line canonical forms


def _cells_value(text: str):
    if text == "all":
        return "all"
    try:
        n = decimal(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of cells 0-81 (or 'all' with --burnside), "
                                         f"got {text!r}") from None
    if not 0 <= n <= MAX_CELLS:
        raise argparse.ArgumentTypeError(f"the number of cells must be between 0 and 81, got {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(prog="patterns", description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cells", type=_cells_value, metavar="N", help="number of clues (0-81; 'all' with --burnside)")
    p.add_argument("--digits", action="store_true", help="configurations (clues with digits), not patterns")
    p.add_argument("--count-only", action="store_true",
                   help="print only the count (the forms are still stored in the catalog unless --no-store)")
    p.add_argument("--no-store", action="store_true",
                   help="do not store the forms in the catalog (10 cells: 2.5 M rows, about 750 MB of SQLite)")
    writes_file(p.add_argument("--out", metavar="FILE", help="write the canonical forms to FILE (resumable)"))
    p.add_argument("--burnside", action="store_true", help="print the counts by Burnside's lemma")
    p.add_argument("--chunk", type=count_argument(0), default=patterns.CHUNK, help=argparse.SUPPRESS)
    add_db_argument(p)
    add_cluster_arguments(p)
    add_input_argument(p, "patterns or configurations")
    add_format_argument(p, FIELDS)
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    if args.format != "text" and (args.burnside or args.cells is not None):
        raise CommandError(f"--format {args.format} goes with the canonical forms of input lines (not --cells, "
                           "--burnside)")
    if args.burnside:
        if args.cells is None:
            raise CommandError("--burnside needs --cells N or --cells all")
        if args.digits:
            raise CommandError("configuration counts by Burnside are not available (patterns only)")
        if args.files or args.out or args.count_only or distributed(args):
            raise CommandError("--burnside takes only --cells")
        return _burnside(args.cells, out)
    if args.cells is not None:
        if args.cells == "all":
            raise CommandError("--cells all works only with --burnside")
        if args.files:
            raise CommandError("--cells enumerates: it reads no input files")
        if args.count_only and args.out:
            raise CommandError("--count-only and --out exclude each other")
        if args.chunk < 1:
            raise CommandError("--chunk must be at least 1")
        refuse_distributed_output(args, "canonical forms")
        if args.digits and args.cells == MAX_CELLS:
            raise CommandError(f"configurations of 81 clues are the solution grids: bin/enumerate --all "
                               f"--count-only counts the {N_ED_GRIDS:,} essentially different ones")
        return _enumerate(args, out_target(args), argv, out, err)
    if args.digits or args.count_only or args.out or args.no_store or distributed(args):
        raise CommandError("--digits, --count-only, --out, --no-store, --workers and --scheduler go with --cells N")
    return _canonical(args.files, Rows(args.format, FIELDS, out, err))


def _burnside(cells, out) -> int:
    counts = pattern_counts()
    ns = range(MAX_CELLS + 1) if cells == "all" else [cells]
    out.write("".join(f"{n} {counts[n]}\n" for n in ns))
    return EXIT_OK


def _canonical(files, out: Rows) -> int:
    bad = 0
    for source, lines, first in iter_chunks(files):
        rows, kinds, where, problems = [], [], [], []
        for i, line in enumerate(lines):
            n = first + i
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                cells, digits = parse_line(text)
            except ValueError as exc:
                problems.append((n, str(exc)))
                continue
            if digits and has_conflict(cells):
                problems.append((n, "two equal digits share a row, column or box"))
                continue
            rows.append(cells)
            kinds.append(digits)
            where.append(n)
        results = []
        if rows:
            batch = np.array(rows, np.uint8)
            kind = np.array(kinds)
            forms = [""] * len(rows)
            auts = [0] * len(rows)
            for digits in (False, True):
                sel = np.nonzero(kind == digits)[0]
                if len(sel):
                    res = canonical_forms(batch[sel], digits=digits)
                    for k, text, a in zip(sel, format_cells(res.cells, digits), res.automorphisms):
                        forms[k], auts[k] = text, int(a)
            if out.text:
                results = [(n, f"{f} {a}") for n, f, a in zip(where, forms, auts)]
            else:
                results = [(n, {"form": f, "kind": "configuration" if d else "pattern", "automorphisms": a})
                           for n, f, a, d in zip(where, forms, auts, kinds)]
        bad += out.emit(source, chunk_inputs(lines, first), results, problems)
    out.finish()
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _enumerate(args, target, argv, out, err) -> int:
    n, digits = args.cells, args.digits
    catalog = open_catalog(args.db)
    store = not args.no_store
    params = patterns.parameters(n, digits, distributed=distributed(args), store=store, **out_parameters(target))
    total = None if digits else pattern_counts()[n]
    state, output = start_run(catalog, RUN_KIND, params, target, items_total=total, prog="patterns", argv=argv)
    job = Job(partial(patterns.work, n=n, digits=digits, chunk=args.chunk, emit=target is not None),
              partial(patterns.write, n=n, digits=digits, store=store))
    what = "configurations" if digits else "patterns"
    try:
        res = run_job(catalog, state.id, patterns.shards(n, distributed(args)), job, output=output,
                      desc=f"ED {what}", unit=f" {what}", **cluster(args))
    except TooSymmetric as exc:  # near 81 clues: one line, not a traceback
        raise CommandError(str(exc)) from None
    out.flush()
    if res.already_done:
        err.write(f"patterns: run {state.id} was already complete; nothing to do\n")
    run_state = get_run(catalog, state.id)
    count = run_state.items_done
    if args.count_only:
        out.write(f"{count}\n")
        out.flush()
    stored = (f"{count:,} rows stored in the catalog, {run_state.items_new:,} of them new" if store
              else "none stored (--no-store)")
    err.write(f"patterns: {count:,} ED {what} with {n} {'clues' if digits else 'cells'}; {stored}\n")
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "patterns")


if __name__ == "__main__":
    sys.exit(main())
