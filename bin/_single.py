"""One sudoku named on the command line, for the commands that take one or two (setlogic, equiv).

An argument is read as, in this order: ``-`` standard input; an existing path a file (a
directory or an unreadable file is an error); anything else an 81-character string (or the
9-line block format). A file or standard input holds one sudoku: one 81-character line, or
the 9-line block format; it must be UTF-8 text, and a byte-order mark is dropped. Every
failure is a :class:`CommandError` (one line, exit status 2) whose message starts with the
input's label (``A: ...``), when the command gives one.

:func:`read_pair` reads a file (or standard input) holding two sudokus: two blocks of 9 rows,
separated by a blank line, or two 81-character lines (``engine.text.parse_pair``).
"""
from __future__ import annotations

import os
import sys

import numpy as np

from sudoku_symmetry.commands._common import BOM, CommandError, check_inputs
from sudoku_symmetry.engine.text import SudokuFormatError, parse_one, parse_pair


def _decode(data: bytes, where: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{where}: not a text file (byte {exc.start + 1} is not UTF-8)") from None
    if "\0" in text:
        raise CommandError(f"{where}: not a text file (it holds NUL bytes)")
    return text[1:] if text.startswith(BOM) else text


def _shown(arg: str) -> str:
    return repr(arg if len(arg) <= 200 else arg[:197] + "...")


def read_sudoku(arg: str, label: str | None = None, what: str = "sudoku") -> np.ndarray:
    """The (81,) cells of the sudoku that ``arg`` names (see the module docstring)."""
    prefix = f"{label}: " if label else ""
    if arg != "-" and not os.path.lexists(arg):
        try:
            return parse_one(arg[1:] if arg.startswith(BOM) else arg)
        except SudokuFormatError as exc:
            raise CommandError(f"{prefix}{_shown(arg)}: no such file, and not an 81-character {what} "
                               f"({exc.message})") from None
    source, text = _read_input(arg, prefix, f"one {what}")
    try:
        return parse_one(text, source)
    except SudokuFormatError as exc:
        raise CommandError(f"{prefix}{exc}") from None


def read_pair(arg: str) -> tuple[np.ndarray, np.ndarray]:
    """The two sudokus of a pair file (or standard input for ``-``): two blocks of 9 rows
    (separated by a blank line), or two 81-character lines; see :func:`engine.text.parse_pair`."""
    if arg != "-" and not os.path.lexists(arg):
        raise CommandError(f"{_shown(arg)}: no such file (with one argument, equiv reads a file holding "
                           "both sudokus; give two 81-character strings as A and B)")
    source, text = _read_input(arg, "", "a pair of sudokus")
    try:
        return parse_pair(text, source)
    except SudokuFormatError as exc:
        hint = " (it holds one sudoku: give B as a second argument)" if "found 9 rows" in exc.message \
            or "found 1 rows" in exc.message else ""
        raise CommandError(f"{exc}{hint}") from None


def _read_input(arg: str, prefix: str, what: str) -> tuple[str, str]:
    """(source name, text) of a file or standard input; errors as :class:`CommandError`."""
    try:
        check_inputs([arg])
    except CommandError as exc:
        raise CommandError(f"{prefix}{exc}") from None
    if arg == "-":
        source = "<stdin>"
        buffer = getattr(sys.stdin, "buffer", None)
        text = _decode(buffer.read(), prefix + source) if buffer is not None else sys.stdin.read()
        text = text[1:] if text.startswith(BOM) else text
    else:
        source = arg
        with open(arg, "rb") as fh:
            text = _decode(fh.read(), prefix + source)
    if not text.strip():
        raise CommandError(f"{prefix}{source}: empty, expected {what}")
    return source, text
