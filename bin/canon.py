"""canon: the canonical (minlex) form of each grid or puzzle, in input order.

    canon [--pattern-first] [--automorphisms] [--transform] [--store] [FILE ...]

Input: one sudoku per line (81 characters, ``.`` ``0`` or ``*`` empty; ``#`` comments and blank
lines skipped). A complete valid grid gets the grid minlex form; anything else is a puzzle and
gets pure minlex (default: the smallest string with ``.`` as 0) or, with ``--pattern-first``,
the smallest clue pattern first, then the digits. Output, one line per sudoku::

    CANONICAL_FORM [AUTOMORPHISM_COUNT] [TRANSFORMATION]

A malformed line, or one whose givens repeat a digit in a row, column or box, prints
``error line N: REASON`` in its place (and on standard error) and makes the exit status 2.
``--store`` records each canonical form in the catalog (table ``configurations``, deduplicated)
and ends with a summary on standard error: read, malformed, new, already known.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from sudoku_symmetry.commands._common import (EXIT_BAD_INPUT, EXIT_OK, add_db_argument, add_input_argument,
                                              count_lines, emit, iter_chunks, parse_problems, run)

CHUNK = 100_000


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="canon", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Output: 'FORM [AUTOMORPHISMS] [TRANSFORMATION]' per sudoku line.")
    p.add_argument("--pattern-first", action="store_true",
                   help="for puzzles, minimize the clue pattern first (empty before given), then the digits")
    p.add_argument("--automorphisms", action="store_true", help="append the automorphism count")
    p.add_argument("--transform", action="store_true",
                   help="append the transformation onto the form (T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD)")
    p.add_argument("--store", action="store_true", help="record the canonical forms in the catalog")
    p.add_argument("--source", help="with --store: where they were first seen (default: the file name)")
    add_db_argument(p)
    add_input_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from tqdm import tqdm

    from sudoku_symmetry.engine.canon import canonicalize
    from sudoku_symmetry.engine.group import format_transforms
    from sudoku_symmetry.engine.text import format_lines, parse_lines
    from sudoku_symmetry.engine.validity import conflicts, is_valid

    catalog = None
    if args.store:
        from sudoku_symmetry.catalog.configurations import store_configurations
        from sudoku_symmetry.catalog.db import open_catalog

        catalog = open_catalog(args.db)
    convention = "pattern_first" if args.pattern_first else "minlex"
    read = bad = new = known = 0
    out, err = sys.stdout, sys.stderr
    progress = tqdm(total=count_lines(args.files), unit=" lines", disable=None, file=err)
    for source, lines, first in iter_chunks(args.files, CHUNK):
        parsed = parse_lines(lines, source=source, errors="collect", first_lineno=first)
        ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
        good = parsed.sudokus[ok]
        forms, transforms, counts, is_grid = canonicalize(good, args.pattern_first)
        text = format_lines(forms)
        if args.automorphisms:
            text = [f"{s} {c}" for s, c in zip(text, counts.tolist())]
        if args.transform:
            text = [f"{s} {t}" for s, t in zip(text, format_transforms(transforms))]
        problems = parse_problems(parsed)
        problems += [(n, str(conflicts(cells)[0])) for n, cells in zip(parsed.linenos[~ok].tolist(), parsed.sudokus[~ok])]
        results = list(zip(parsed.linenos[ok].tolist(), text))
        n_bad = emit(out, err, source, results, problems)
        read += len(results) + n_bad
        bad += n_bad
        if catalog is not None and len(good):
            name = args.source or (os.path.basename(source) if source != "<stdin>" else "stdin")
            rows = [
                {"canonical": s, "kind": "grid" if g else "puzzle", "convention": convention,
                 "automorphism_count": c}
                for s, g, c in zip(format_lines(forms), is_grid.tolist(), counts.tolist())
            ]
            n_new, n_known = store_configurations(catalog, rows, source=name)
            new, known = new + n_new, known + n_known
        progress.update(len(lines))
    progress.close()
    out.flush()
    if catalog is not None:
        print(f"canon: read {read}, malformed {bad}, new {new}, already known {known}", file=err)
    elif bad:
        print(f"canon: read {read}, malformed {bad}", file=err)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "canon")


if __name__ == "__main__":
    sys.exit(main())
