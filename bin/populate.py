"""populate: create or upgrade the catalog and fill it. Running it again changes nothing and says so.

    populate [--db PATH_OR_URL] [--adopt] [--step NAME ...] [--list-steps]

The catalog is ``--db``, else ``$SUDOKU_CATALOG``, else the default SQLite file
``$XDG_DATA_HOME/sudoku-symmetry/catalog.sqlite`` (``~/.local/share/...`` when unset); see
``catalog/db.py``. Opening it applies any missing migrations. A non-empty database that is not a
catalog (another application's) is refused unless ``--adopt`` is given. Two populates of one
catalog never interleave: the second waits for the first to finish (saying so), then finds its
work done (``catalog/locks.py``).

The work is a list of named steps (:data:`STEPS`), run in order; each computes its rows with the
engine and stores them with ``ON CONFLICT DO NOTHING``, so every step is idempotent and reports
``total (new)``. To add a step (e.g. the ED-grid counts per band 1), write a function
``(engine) -> StepResult`` and append a :class:`Step`.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from sudoku_symmetry import shipped
from sudoku_symmetry.catalog.bands import N_BANDS, band_summary
from sudoku_symmetry.catalog.db import HEAD_REVISION, describe, migrated_from, open_catalog, resolve_url
from sudoku_symmetry.catalog.grids import coverage, import_counts
from sudoku_symmetry.catalog.locks import exclusive
from sudoku_symmetry.catalog.search17 import import_entry_bands, load_entry_bands, load_shipped_entry
from sudoku_symmetry.catalog.shipped import ED_GRID_COUNTS, ed_grid_counts, manifest
from sudoku_symmetry.commands._common import CommandParser, EXIT_OK, add_db_argument, add_version_argument, run
from sudoku_symmetry.engine import _cache
from sudoku_symmetry.engine.warmup import warm_up
from sudoku_symmetry.jobs.band_rows import store_band_rows


@dataclass
class StepResult:
    lines: list[str] = field(default_factory=list)  # the summary lines to print
    new: int = 0  # rows added (0: the step changed nothing)


@dataclass
class Step:
    name: str
    help: str
    fn: Callable[..., StepResult]


def step_bands(engine) -> StepResult:
    """The 416 minlex bands and their automorphisms, from the engine's band tables."""
    new = store_band_rows(engine)
    s = band_summary(engine)
    lines = [
        f"bands: {s.bands} ({new.bands} new), gangster classes: {s.gangster_classes}, "
        f"sum of 1/|Aut|: {s.inverse_aut_sum}",
        f"band automorphisms: {s.automorphisms} ({new.automorphisms} new)",
        f"17-clue search band order: valid 6-clue counts of {s.bands} bands ({new.order} new)",
    ]
    if not s.complete:
        lines.append(f"warning: the bands tables are not complete ({s})")
    return StepResult(lines, sum(new))


def step_ed_grids(engine) -> StepResult:
    """The ED-grid counts shipped as package data (``catalog/data/ed_grid_counts.npz``, made by
    ``bin/enumerate --export``), checked against the sha256 in its manifest."""
    arrays = ed_grid_counts()
    if arrays is None:
        return StepResult(["ED grid counts: no package data (bin/enumerate --all --count-only computes them)"], 0)
    new = import_counts(engine, arrays)
    n, grids, automorphic = coverage(engine)
    state = "complete" if manifest(ED_GRID_COUNTS).get("complete") else \
        f"incomplete: bin/enumerate --all --count-only computes the other {N_BANDS - n}"
    return StepResult([f"ED grid counts: {n} of {N_BANDS} bands 1 ({new} new), {grids:,} grids, {automorphic:,} "
                       f"with a non-trivial automorphism ({state})"], new)


def step_s17_entry(engine) -> StepResult:
    """The 17-clue search entry's counts per band 1 shipped as package data
    (``catalog/data/s17_entry_counts.json``, made by ``bin/s17-entry --export``)."""
    shipped = load_shipped_entry()
    if not shipped:
        return StepResult(["17-clue entry counts: no package data (bin/s17-entry --band1-rank 0-415 --count-only "
                           "computes them)"], 0)
    new = import_entry_bands(engine, shipped)
    lines = []
    for v in sorted(shipped):
        done = load_entry_bands(engine, v)
        state = "complete" if len(done) == N_BANDS else \
            f"incomplete: bin/s17-entry --variant {v} --band1-rank 0-415 --count-only computes the other {N_BANDS - len(done)}"
        lines.append(f"17-clue entry counts, variant {v}: {len(done)} of {N_BANDS} bands 1 ({new[v]} new), "
                     f"bands2 {sum(x[1] for x in done.values()):,} bands3 {sum(x[2] for x in done.values()):,} ({state})")
    return StepResult(lines, sum(new.values()))


PACKAGES = ("sudoku_symmetry", "sudoku_symmetry.engine", "sudoku_symmetry.catalog", "sudoku_symmetry.jobs",
            "sudoku_symmetry.commands", "sudoku_symmetry.migrations", "sudoku_symmetry.pictures")


def compile_bytecode() -> None:
    """Write the package's bytecode (``__pycache__``) where it is missing or older than its source,
    as ``pip install`` does for a wheel but not for an editable install: the commands then read
    their modules compiled, also where ``PYTHONDONTWRITEBYTECODE`` keeps Python from writing it
    (measured: 10-40 ms of every command's start, the kernel modules being long). Quiet; a folder
    that cannot be written is left as it is; an up-to-date package costs a few milliseconds."""
    import compileall
    from importlib.util import find_spec

    for name in PACKAGES:
        for folder in find_spec(name).submodule_search_locations or []:
            compileall.compile_dir(folder, quiet=2)


def step_kernels(engine) -> StepResult:
    """Compile every kernel the commands use (``engine/warmup.py``), once per version of the
    engine: a marker in the kernel cache folder makes later runs skip it in a file test. The
    Python bytecode of the package is brought up to date every time (:func:`compile_bytecode`)."""
    compile_bytecode()
    where = _cache.kernel_cache_dir()
    if _cache.is_warm():
        return StepResult([f"kernels: compiled already ({where})"], 0)
    print(f"kernels: compiling every kernel the commands use into {where}; this happens once per version "
          "of the engine for every install of it on this machine (minutes; then a command compiles nothing)",
          flush=True)
    total = 0.0
    for name, seconds in warm_up():
        total += seconds
        print(f"kernels: {name} ({seconds:.1f} s)", flush=True)
    return StepResult([f"kernels: ready ({total:.0f} s)"], 0)


def step_rank_index(engine) -> StepResult:
    """The rank index of the shipped ED-grid counts, decoded once into memory-mapped arrays in the
    cache folder (``sudoku_symmetry.shipped``), so the first ``bin/rank`` answers at once."""
    if shipped.is_built():
        return StepResult([f"rank index: built already ({shipped.index_dir()})"], 0)
    print("rank index: decoding the shipped counts once (about 10 s)", flush=True)
    t0 = time.perf_counter()
    index = shipped.rank_index()
    index.ranks_of(index.grids_at([1]))
    return StepResult([f"rank index: {index.first_missing} bands 1 ({time.perf_counter() - t0:.0f} s, "
                       f"{shipped.index_dir()})"], 0)


STEPS: list[Step] = [
    Step("bands", "the 416 minlex bands, automorphism counts, gangster classes, automorphisms", step_bands),
    Step("ed_grids", "the counts of essentially different grids per band 1 and row-4 prefix (package data)",
         step_ed_grids),
    Step("s17_entry", "the 17-clue search entry's bands 2 and bands 3 per band 1 (package data)", step_s17_entry),
    Step("kernels", "compile every kernel the commands use (once per version; a progress line per family)",
         step_kernels),
    Step("rank_index", "the rank index of the shipped counts, memory-mapped in the cache folder (once)",
         step_rank_index),
]


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="populate",
        description="Create or upgrade the catalog and fill it (idempotent: a second run adds nothing).",
        epilog="steps: " + "; ".join(f"{s.name}: {s.help}" for s in STEPS),
    )
    add_db_argument(p)
    p.add_argument("--step", action="append", choices=[s.name for s in STEPS], metavar="NAME",
                   help="run only this step (repeatable; default: all, in order)")
    p.add_argument("--list-steps", action="store_true", help="list the steps and exit")
    p.add_argument("--adopt", action="store_true",
                   help="accept a non-empty database that is not a catalog yet and add the catalog's tables to it "
                        "(refused otherwise, so that --db pointing at another application's database changes nothing)")
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.list_steps:
        for s in STEPS:
            print(f"{s.name}: {s.help}")
        return EXIT_OK
    t0 = time.perf_counter()
    url = resolve_url(args.db)

    def waiting() -> None:
        print(f"populate: another populate of {describe(url)} is running: waiting for it to finish", file=sys.stderr,
              flush=True)

    with exclusive(url, "populate", on_wait=waiting):  # one populate of a catalog at a time
        return _populate(args, url, t0)


def _populate(args, url: str, t0: float) -> int:
    engine = open_catalog(url, adopt=args.adopt)  # CatalogError: one line and exit 2 (run())
    before = migrated_from(engine)
    if before is None:
        state = f"created at revision {HEAD_REVISION}"
    elif before != HEAD_REVISION:
        state = f"upgraded from revision {before} to {HEAD_REVISION}"
    else:
        state = f"revision {HEAD_REVISION}, up to date"
    print(f"catalog: {describe(url)} ({state})")
    total_new = 0
    try:
        for s in STEPS:
            if args.step and s.name not in args.step:
                continue
            result = s.fn(engine)
            for line in result.lines:
                print(line)
            total_new += result.new
    finally:
        engine.dispose()
    seconds = time.perf_counter() - t0
    if total_new == 0 and before == HEAD_REVISION:
        print(f"nothing changed: the catalog was already populated ({seconds:.1f} s)")
    else:
        print(f"done: {total_new} rows added ({seconds:.1f} s)")
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "populate", compile_notice_too=False)  # it says what it compiles, step by step


if __name__ == "__main__":
    sys.exit(main())
