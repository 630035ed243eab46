"""``--format text|csv|jsonl``: the one writer of every command that prints a result per input line
(``canon``, ``solve``, ``band``, ``rank``, ``patterns`` reading lines; ``unavoidable`` and
``find-puzzles``, whose row per grid lists its sets or puzzles: :func:`emit_grid_rows`), and of
the two that print a report on one input (``equiv``: one row; ``setlogic``: a row per
elimination; :func:`serialize`).

``text`` (the default) is each command's own line, byte for byte what it printed before
``--format`` existed (:func:`_common.emit`). ``csv`` and ``jsonl`` print one row per input line
that is not blank or a ``#`` comment, in input order, with the same columns on every row::

    source, line, input, <the command's fields>, error

``source`` is the file name (``<stdin>`` for standard input, ``<arguments>`` for ``rank``'s
literal arguments), ``line`` its line number there (1 = the first line; for ``<arguments>`` the
argument's position), ``input`` the line as read (its line end removed). A good line has the
result's fields and an empty ``error``; a bad line has empty fields and ``error`` the reason
that text output prints as ``error line N: REASON``, so no line is dropped. Standard error still
gets ``error: SOURCE:N: REASON`` for each bad line, and the exit status is unchanged.

CSV: a header row, then comma-separated values quoted as needed (RFC 4180, ``\\n`` line ends;
Python's ``csv`` module, pandas and spreadsheets read it); an empty cell is a missing value,
booleans are ``true``/``false``, a list is its items separated by ``; ``. JSONL: one JSON object per line,
missing values ``null``, numbers and booleans typed, lists as JSON arrays. Bytes that are not
UTF-8 in an input line are written as ``\\xNN``. The fields of each command: docs/formats.md.
"""
from __future__ import annotations

import argparse
import csv
import json
from typing import Callable, Iterable, Sequence

from sudoku_symmetry.commands._common import Result, emit

FORMATS = ("text", "csv", "jsonl")
ECHO = ("source", "line", "input")


def add_format_argument(parser: argparse.ArgumentParser, fields: Sequence[str]) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default): the lines described above; csv or jsonl: a row per input line with "
                        f"source, line, input, {', '.join(fields)}, error (docs/formats.md)")


def _readable(text: str) -> str:
    """``text`` with the bytes that were not UTF-8 (kept as lone surrogates) written ``\\xNN``."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def echo(raw: str) -> str:
    """An input line as read, its line end (``\\n`` or ``\\r\\n``) removed."""
    if raw.endswith("\n"):
        raw = raw[:-1]
        if raw.endswith("\r"):
            raw = raw[:-1]
    return _readable(raw)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "; ".join(map(_cell, value))  # items may hold spaces (equiv's steps)
    return str(value)


class _Lines:
    """A file-like sink for :mod:`csv` that collects the rows of one call."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)


class Rows:
    """A command's per-line output in format ``fmt``, with result ``fields`` (the columns between
    the echo of the input and ``error``). :meth:`emit` takes what :func:`_common.emit` takes, plus
    the input lines; in csv and jsonl a result is a dict of ``fields`` (missing ones empty)."""

    def __init__(self, fmt: str, fields: Sequence[str], out, err) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.fmt, self.fields, self.out, self.err = fmt, tuple(fields), out, err
        self.columns = ECHO + self.fields + ("error",)
        self._header = fmt != "csv"  # True once nothing more is to be written before the rows

    @property
    def text(self) -> bool:
        return self.fmt == "text"

    def emit(self, source: str, inputs: Callable[[int], str], results: Iterable[tuple[int, Result | dict]],
             problems: Iterable[tuple[int, str]]) -> int:
        """Print ``results`` and ``problems`` (each ``(line number, ...)``) in line order, the input of
        line ``n`` being ``inputs(n)`` (a raw line); repeat the problems on standard error as
        ``error: SOURCE:N: REASON``. Returns the number of problems."""
        if self.text:
            return emit(self.out, self.err, source, results, problems)
        problems = sorted(problems)
        items = [(n, False, fields) for n, fields in results] + [(n, True, reason) for n, reason in problems]
        items.sort(key=lambda item: item[0])
        records = []
        for n, bad, what in items:
            record = {"source": _readable(source), "line": n, "input": echo(inputs(n))}
            for name in self.fields:
                record[name] = None if bad else what.get(name)
            record["error"] = _readable(what) if bad else None
            records.append(record)
        self._write(records)
        if problems:
            self.out.flush()  # so a terminal shows the lines in order
            self.err.write("".join(f"error: {source}:{n}: {reason}\n" for n, reason in problems))
        return len(problems)

    def _write(self, records: list[dict]) -> None:
        self.out.write(serialize(self.fmt, self.columns, records, header=not self._header))
        self._header = True

    def finish(self) -> None:
        """The CSV header when no row was written (an input of comments only is a valid table)."""
        if not self._header:
            self._write([])


def serialize(fmt: str, columns: Sequence[str], records: list[dict], header: bool = False) -> str:
    """``records`` (dicts with ``columns``) as CSV rows (the header first when ``header``) or JSON
    lines, written as the module docstring says."""
    if fmt == "jsonl":
        return "".join(json.dumps({c: r[c] for c in columns}, ensure_ascii=False) + "\n" for r in records)
    sink = _Lines()
    writer = csv.writer(sink, lineterminator="\n")
    if header:
        writer.writerow(columns)
    writer.writerows([_cell(r[c]) for c in columns] for r in records)
    return "".join(sink.parts)


def emit_grid_rows(rows: Rows, source: str, lines: Sequence[str], first: int, grids, problems,
                   result: Callable[[int, object], dict]) -> int:
    """csv/jsonl for the commands that search each grid of a chunk (``unavoidable``,
    ``find-puzzles``): ``grids`` and ``problems`` as ``parse_grids`` gives them, ``result(line
    number, grid)`` the row's fields; each row is written as soon as its grid is done (a search
    can take minutes), in line order. Returns the number of problems."""
    inputs = chunk_inputs(lines, first)
    items = sorted([(n, grid, None) for n, grid in grids] + [(n, None, reason) for n, reason in problems],
                   key=lambda item: item[0])
    bad = 0
    for n, grid, reason in items:
        if reason is not None:
            bad += rows.emit(source, inputs, [], [(n, reason)])
        else:
            rows.emit(source, inputs, [(n, result(n, grid))], [])
        rows.out.flush()
    return bad


def chunk_inputs(lines: Sequence[str], first: int) -> Callable[[int], str]:
    """The raw line of number ``n`` in a chunk whose first line is number ``first``."""
    return lambda n: lines[n - first]
