"""band: the band index (0-415), minlex band and transformation of each 27-digit band.

    band [FILE ...]            (no FILE or '-': standard input)

Input: one band per line, 27 cells (rows 1-3 in order), ``#`` comments and blank lines skipped.
Output, one line per band line, in input order (comment and blank lines give no output)::

    INDEX MINLEX_BAND TRANSFORMATION
    0 123456789456789123789123456 0:123456789:123456789:123456789

``TRANSFORMATION`` (string form of ``sudoku_symmetry.engine.group.transform.Transform``, ``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``)
maps the input band onto the minlex band (rows 4-9 untouched). A malformed or invalid line
prints ``error line N: REASON`` on standard output in its place, so output lines stay aligned
with the input bands, and ``error: SOURCE:N: REASON`` on standard error; the exit status is
then 2 (0 when every line was a valid band). Input is processed in chunks of 100,000 lines, so
files of any size stream through in constant memory.
"""
from __future__ import annotations

import argparse
import sys

from sudoku_symmetry.commands._common import (CommandParser, EXIT_BAD_INPUT, EXIT_OK, add_input_argument,
                                              add_version_argument, iter_chunks, parse_problems, run)
from sudoku_symmetry.commands._formats import Rows, add_format_argument, chunk_inputs
from sudoku_symmetry.engine.bands import ROW_PROBLEM, band_index, band_tables
from sudoku_symmetry.engine.group import format_transforms
from sudoku_symmetry.engine.text import parse_lines

CHUNK = 100_000
FIELDS = ("index", "band", "transform")  # --format csv/jsonl


def process_chunk(lines: list[str], source: str, first_lineno: int, rows: Rows) -> tuple[int, int]:
    """Parse, look up and print one chunk of lines; returns (bands done, bad lines)."""
    parsed = parse_lines(lines, width=27, source=source, errors="collect", first_lineno=first_lineno)
    results: list = []
    problems = parse_problems(parsed)
    if len(parsed):
        index, transforms = band_index(parsed.sudokus, check=False)
        names = _minlex_strings(band_tables())
        tstr = format_transforms(transforms)
        for k, (i, lineno) in enumerate(zip(index.tolist(), parsed.linenos.tolist())):
            if i < 0:
                problems.append((lineno, ROW_PROBLEM.get(i, "not a valid band")))
            else:
                results.append((lineno, f"{i} {names[i]} {tstr[k]}" if rows.text else
                                 {"index": i, "band": names[i], "transform": tstr[k]}))
    bad = rows.emit(source, chunk_inputs(lines, first_lineno), results, problems)
    return len(results), bad


_NAMES: list[str] = []


def _minlex_strings(T) -> list[str]:
    if not _NAMES:
        _NAMES.extend(T.minlex_string(i) for i in range(len(T.minlex)))
    return _NAMES


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="band",
        description="Band index (0-415), minlex band and the transformation onto it, for each 27-digit band.",
        epilog="output: 'INDEX MINLEX_BAND T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD' per band line; a bad line prints "
        "'error line N: REASON' in its place (and on stderr), and the exit status is 2.",
    )
    add_input_argument(p, what="bands (27 digits)")
    add_format_argument(p, FIELDS)
    add_version_argument(p)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    rows = Rows(args.format, FIELDS, out, err)
    done = bad = 0
    for source, chunk, first in iter_chunks(args.files, CHUNK):
        d, b = process_chunk(chunk, source, first, rows)
        done, bad = done + d, bad + b
    rows.finish()
    out.flush()
    if bad:
        print(f"band: {done + bad} bands read, {done} done, {bad} bad", file=err)
        return EXIT_BAD_INPUT
    return EXIT_OK


def main(argv=None) -> int:
    return run(_main, argv, "band")


if __name__ == "__main__":
    sys.exit(main())
