"""What every command shares: input reading with line-numbered errors, the --db option, exit codes."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Iterator

from engine.text import ParsedLines

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL_OR_PATH",
        default=None,
        help="catalog: a SQLite file path or any SQLAlchemy URL "
        "(default: $SUDOKU_CATALOG, else the documented default file)",
    )


def add_input_argument(parser: argparse.ArgumentParser, what: str = "sudokus") -> None:
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help=f"files of {what}, one per line ('-' or none: standard input); "
        "'#' comments and blank lines are skipped",
    )


def open_inputs(files: list[str]) -> Iterator[tuple[str, Iterator[str]]]:
    """(source name, lines) for each input; '-' or no files means standard input."""
    for path in files or ["-"]:
        if path == "-":
            yield "<stdin>", sys.stdin
        else:
            with open(path, encoding="utf-8", errors="replace") as fh:
                yield path, fh


def report_errors(parsed: ParsedLines) -> None:
    for err in parsed.errors:
        print(f"error: {err}", file=sys.stderr)


def run(main_fn, argv=None) -> int:
    """Call ``main_fn(argv)``; a closed output pipe (``| head``) ends quietly."""
    try:
        return main_fn(argv)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except FileNotFoundError as exc:
        print(f"error: {exc.filename}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT


def iter_chunks(files: list[str], size: int = 100_000) -> Iterator[tuple[str, list[str], int]]:
    """(source, up to ``size`` raw lines, line number of the first) over every input, streamed."""
    from itertools import islice

    for source, lines in open_inputs(files):
        lineno = 1
        while True:
            chunk = list(islice(lines, size))
            if not chunk:
                break
            yield source, chunk, lineno
            lineno += len(chunk)


def count_lines(files: list[str]) -> int | None:
    """Lines in the input files (for a progress total), None when reading standard input."""
    if not files or "-" in files:
        return None
    total = 0
    for path in files:
        with open(path, "rb") as fh:
            total += sum(buf.count(b"\n") for buf in iter(lambda: fh.read(1 << 20), b""))
    return total
