"""Text <-> arrays: the one place that reads and writes sudokus as characters.

Line format: 81 characters in row-major order, ``1``-``9`` a given, ``.``, ``0`` or ``*`` an
empty cell; blank lines and lines starting with ``#`` are skipped. Optionally (``allow_suffix``)
anything after a ``:`` that follows the 81 characters is kept aside (the shared count files).

Block format: 9 lines of 9 cells, digits separated by spaces or not, ``0`` / ``.`` / ``*``
empty; ``|``, ``-`` and ``+`` are layout and ignored.

Pair format (:func:`parse_pair`, :func:`format_pair`): two sudokus in one text, two blocks of
9 rows separated by a blank line (``0`` empty), or two 81-character lines.

Arrays are ``uint8`` with 0 for empty: shape (81,) for one sudoku, (N, 81) for a batch,
(27,) / (N, 27) for bands.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

_EMPTY = ".0*"
_TO_DIGIT = bytes.maketrans(b".0*123456789", b"\x00\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09")
_TO_CHAR = np.frombuffer(b".123456789", dtype=np.uint8)
_VALID = frozenset(".0*123456789")
_LOOKUP = np.full(256, 255, np.uint8)  # byte -> cell value, 255 = not a cell character
_LOOKUP[np.frombuffer(b".0*123456789", np.uint8)] = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]


class SudokuFormatError(ValueError):
    """A malformed input line; ``lineno`` is 1-based and ``source`` names the input."""

    def __init__(self, message: str, lineno: int | None = None, source: str | None = None):
        self.message = message
        self.lineno = lineno
        self.source = source
        if source is not None and lineno is not None:
            text = f"{source}:{lineno}: {message}"
        elif lineno is not None:
            text = f"line {lineno}: {message}"
        elif source is not None:
            text = f"{source}: {message}"
        else:
            text = message
        super().__init__(text)


@dataclass
class ParsedLines:
    """The result of reading a batch of lines.

    ``sudokus[k]`` came from input line ``linenos[k]``; ``suffixes[k]`` is what followed ``:``
    (empty string if nothing). ``errors`` holds the malformed lines when they were collected
    instead of raised; ``skipped`` counts blank and comment lines.
    """

    sudokus: np.ndarray
    linenos: np.ndarray
    suffixes: list[str] = field(default_factory=list)
    errors: list[SudokuFormatError] = field(default_factory=list)
    skipped: int = 0

    def __len__(self) -> int:
        return len(self.sudokus)


def utf8_problem(text: str) -> str | None:
    """Why ``text`` is not UTF-8 text, or None: readers decode with ``surrogateescape``, so a
    byte that is not UTF-8 (Latin-1 ``é`` is 0xE9) arrives as a lone surrogate U+DC80-U+DCFF."""
    for k, ch in enumerate(text):
        if "\udc80" <= ch <= "\udcff":
            return f"not UTF-8 text: byte 0x{ord(ch) - 0xDC00:02X} at position {k + 1} (save the file as UTF-8)"
    return None


def _check_cells(cells: str, width: int) -> str | None:
    """Why ``cells`` is not a ``width``-character sudoku string, or None if it is."""
    if not cells.isascii():
        problem = utf8_problem(cells)
        if problem is not None:
            return problem
    if len(cells) != width:
        hidden = next(((k, ch) for k, ch in enumerate(cells) if not ch.isprintable() or ch == "\ufeff"), None)
        if hidden is not None:
            k, ch = hidden
            return (f"expected {width} cells, got {len(cells)}, including the invisible character "
                    f"U+{ord(ch):04X} at position {k + 1}")
        return f"expected {width} cells, got {len(cells)}"
    bad = set(cells) - _VALID
    if bad:
        ch = next(c for c in cells if c in bad)
        return f"invalid character {ch!r} at position {cells.index(ch) + 1}"
    return None


def parse_lines(
    lines: Iterable[str],
    *,
    width: int = 81,
    source: str | None = None,
    allow_suffix: bool = False,
    errors: str = "raise",
    first_lineno: int = 1,
) -> ParsedLines:
    """Parse one sudoku (or band, ``width=27``) per line.

    ``errors="raise"`` raises :class:`SudokuFormatError` on the first malformed line;
    ``errors="collect"`` keeps going and returns the errors in input order, so a caller can
    report every one of them and make its counts add up.
    """
    if errors not in ("raise", "collect"):
        raise ValueError("errors must be 'raise' or 'collect'")
    if isinstance(lines, list):
        bulk = _parse_clean_chunk(lines, width, first_lineno)
        if bulk is not None:
            return bulk
    chunks: list[bytes] = []
    linenos: list[int] = []
    suffixes: list[str] = []
    errs: list[SudokuFormatError] = []
    skipped = 0
    for lineno, raw in enumerate(lines, start=first_lineno):
        line = raw.strip()
        if not line or line.startswith("#"):
            skipped += 1
            continue
        suffix = ""
        if allow_suffix and ":" in line:
            line, suffix = line.split(":", 1)
            line = line.rstrip()
        problem = _check_cells(line, width)
        if problem is not None:
            err = SudokuFormatError(problem, lineno, source)
            if errors == "raise":
                raise err
            errs.append(err)
            continue
        chunks.append(line.encode("ascii").translate(_TO_DIGIT))
        linenos.append(lineno)
        suffixes.append(suffix)
    data = np.frombuffer(b"".join(chunks), dtype=np.uint8).reshape(-1, width).copy()
    return ParsedLines(data, np.asarray(linenos, dtype=np.int64), suffixes, errs, skipped)


def _parse_clean_chunk(lines: list[str], width: int, first_lineno: int) -> ParsedLines | None:
    """The common case in bulk (numpy, no Python loop per line): every line exactly ``width``
    cell characters and a newline (``\n``, or ``\r\n`` on every line). None when any line is
    not, and the careful path runs."""
    n = len(lines)
    blob = "".join(lines)
    if n == 0 or not blob.isascii():
        return None
    end = len(blob) // n - width  # 1: lines end "\n"; 2: "\r\n"
    if end not in (1, 2) or len(blob) != (width + end) * n:
        return None
    raw = np.frombuffer(blob.encode("ascii"), np.uint8).reshape(n, width + end)
    cells = _LOOKUP[raw[:, :width]]
    if not (raw[:, -1] == 10).all() or (end == 2 and not (raw[:, width] == 13).all()) or (cells == 255).any():
        return None
    linenos = np.arange(first_lineno, first_lineno + n, dtype=np.int64)
    return ParsedLines(cells, linenos, [""] * n)


def parse(text: str, width: int = 81) -> np.ndarray:
    """One sudoku from an 81-character string (or a band from 27): shape (width,) uint8."""
    line = text.strip()
    problem = _check_cells(line, width)
    if problem is not None:
        raise SudokuFormatError(problem)
    return np.frombuffer(line.encode("ascii").translate(_TO_DIGIT), dtype=np.uint8).copy()


def _cell_rows(text: str) -> list[tuple[int, str]]:
    """(line number, cells) of each line holding cells: comments, blank lines and separator
    lines (``------+------``) skipped, spaces and ``|`` ``+`` ``-`` dropped."""
    rows: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cells = "".join(ch for ch in line if ch not in " \t|+-")
        if cells:
            rows.append((lineno, cells))
    return rows


def parse_block(text: str, source: str | None = None) -> np.ndarray:
    """One sudoku from the 9-line block format (comments and layout characters ignored)."""
    rows = _cell_rows(text)
    if len(rows) != 9:
        raise SudokuFormatError(f"block format needs 9 rows of 9 cells, found {len(rows)} rows", None, source)
    for lineno, cells in rows:
        problem = _check_cells(cells, 9)
        if problem is not None:
            raise SudokuFormatError(f"this row: {problem}", lineno, source)
    return parse("".join(cells for _, cells in rows))


def parse_one(text: str, source: str | None = None) -> np.ndarray:
    """One sudoku from either an 81-character line or the block format."""
    body = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if len(body) == 1:
        problem = _check_cells(body[0], 81)
        if problem is not None:
            raise SudokuFormatError(problem, None, source)
        return parse(body[0])
    return parse_block(text, source)


def format_sudoku(cells: np.ndarray) -> str:
    """81 (or 27) cells -> characters, ``.`` for empty."""
    return _TO_CHAR[np.asarray(cells, dtype=np.uint8)].tobytes().decode("ascii")


def format_lines(batch: np.ndarray) -> list[str]:
    """(N, w) cells -> N strings, ``.`` for empty."""
    batch = np.asarray(batch, dtype=np.uint8)
    if batch.ndim != 2:
        raise ValueError("expected a 2-d batch")
    if len(batch) == 0:
        return []
    width = batch.shape[1]
    blob = _TO_CHAR[batch].tobytes().decode("ascii")
    return [blob[k : k + width] for k in range(0, len(blob), width)]


def format_block(cells: np.ndarray) -> str:
    """One sudoku as 9 lines with spaces between stacks, for people."""
    s = format_sudoku(cells)
    out = []
    for i in range(9):
        row = s[9 * i : 9 * i + 9]
        out.append(" ".join((row[0:3], row[3:6], row[6:9])))
    return "\n".join(out)


def as_batch(sudokus, width: int = 81) -> np.ndarray:
    """Coerce strings (a list, a NumPy array of strings, a pandas column), a (width,) array or an
    (N, width) array to a contiguous (N, width) uint8 batch."""
    if isinstance(sudokus, str):
        return parse(sudokus, width)[None, :]
    if isinstance(sudokus, (list, tuple)) and sudokus and isinstance(sudokus[0], str):
        return np.stack([parse(s, width) for s in sudokus])
    if not isinstance(sudokus, np.ndarray) or sudokus.dtype.kind in "USO":
        texts = np.asarray(sudokus)
        if texts.dtype.kind in "USO":  # not numbers: converting them to uint8 would overflow
            lines = [s.decode("ascii", "replace") if isinstance(s, bytes) else str(s) for s in texts.reshape(-1).tolist()]
            return np.stack([parse(s, width) for s in lines]) if lines else np.zeros((0, width), np.uint8)
    arr = np.ascontiguousarray(sudokus, dtype=np.uint8)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != width:
        raise ValueError(f"expected shape (N, {width}), got {arr.shape}")
    if arr.size and arr.max() > 9:
        raise ValueError("cell values must be 0 (empty) or 1-9")
    return arr


# -- the two-grid pair format ------------------------------------------------------------------
def parse_pair(text: str, source: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Two sudokus from one text, as comparison tools save them: 9 rows of 9 cells (digits
    separated by spaces or not, ``0`` / ``.`` / ``*`` empty, ``|``, ``-``, ``+`` layout), a blank
    line, 9 more rows; or two 81-character lines. ``#`` comment lines are skipped; the blank line
    between the two blocks is optional."""
    rows = _cell_rows(text)
    if len(rows) == 2:
        out = []
        for lineno, cells in rows:
            problem = _check_cells(cells, 81)
            if problem is not None:
                raise SudokuFormatError(problem, lineno, source)
            out.append(parse(cells))
        return out[0], out[1]
    if len(rows) != 18:
        raise SudokuFormatError(f"a pair needs 18 rows of 9 cells (two blocks of 9) or two 81-character lines, "
                                f"found {len(rows)} rows", None, source)
    for lineno, cells in rows:
        problem = _check_cells(cells, 9)
        if problem is not None:
            raise SudokuFormatError(f"this row: {problem}", lineno, source)
    first = parse("".join(cells for _, cells in rows[:9]))
    second = parse("".join(cells for _, cells in rows[9:]))
    return first, second


def format_pair(a: np.ndarray, b: np.ndarray) -> str:
    """Two sudokus in the pair format: 9 rows of digits separated by spaces, ``0`` for empty, a
    blank line, 9 more rows (ends with a newline)."""
    blocks = []
    for cells in (a, b):
        cells = np.asarray(cells, dtype=np.uint8).reshape(9, 9)
        blocks.append("\n".join(" ".join(str(int(v)) for v in row) for row in cells))
    return blocks[0] + "\n\n" + blocks[1] + "\n"


def format_side_by_side(a: np.ndarray, b: np.ndarray, titles: tuple[str, str] = ("A", "B")) -> str:
    """Two sudokus side by side with box borders, ``.`` for empty, for people."""

    def lines(cells) -> list[str]:
        s = format_sudoku(cells)
        border = "+-------+-------+-------+"
        out = [border]
        for i in range(9):
            row = s[9 * i : 9 * i + 9]
            out.append("| " + " | ".join(" ".join(row[3 * k : 3 * k + 3]) for k in range(3)) + " |")
            if i % 3 == 2:
                out.append(border)
        return out

    left, right = lines(a), lines(b)
    width = len(left[0])
    head = f"{titles[0]:<{width}}   {titles[1]}".rstrip()
    return "\n".join([head] + [f"{x}   {y}" for x, y in zip(left, right)])
