"""What every command shares: reading inputs, the one way bad lines are reported, the --db
option, argument types, and :func:`run`, which turns every expected failure into one line on
standard error and exit status 2 (never a traceback).

Reading: files or standard input (``-``), UTF-8 with or without a byte-order mark, streamed in
chunks of lines with the number of their first line. Every input path is checked before any
output is written, so a missing file or a directory stops the command before it starts. Each
input is read once, front to back: a pipe, a FIFO or a process substitution (``<(...)``,
``/dev/stdin``) works like a file; line totals for the progress bar are counted beforehand only
for regular files. A line ends at ``\n`` (``\r\n`` too: the ``\r`` is stripped with the other
trailing space), the same in a file and on standard input, so line numbers agree with
``wc -l``, ``sed -n Np`` and the byte offsets of resumable runs; a lone ``\r`` (a classic Mac
line end, or a stray byte) does not end a line: it is part of it, and such a line is reported
as malformed with its number. Bytes that are not UTF-8 are kept (as lone surrogates), so the
line that holds them is reported as "not UTF-8" with its line number.

Numbers (every integer argument of every command, and ranks read as text): :func:`decimal`,
ASCII digits ``0``-``9`` only, as puzzle text accepts them (no ``+``, no ``_``, no digits of
other scripts such as ``٣``; a leading ``-`` reads, to be refused as out of range).

Reporting (:func:`emit`): a command produces, per chunk, its result lines and its bad lines,
each with its input line number; ``emit`` prints them in line order on standard output, a bad
line as ``error line N: REASON`` in its place (so output stays aligned with input), and repeats
each bad line on standard error as ``error: SOURCE:N: REASON``.

Resumable runs (``canon --store``, ``enumerate``, ``s17-entry``, ``patterns``): the jobs and their
runner live in ``jobs/``; their options and ``--status`` listing are in ``_runs.py``.
"""
from __future__ import annotations

import argparse
import atexit
import errno
import gc
import io
import os
import re
import sys
from itertools import islice
from typing import Callable, Iterable, Iterator, Union

from sudoku_symmetry import __version__
from sudoku_symmetry.catalog.errors import CatalogError  # no SQLAlchemy in it: cheap for every command
from sudoku_symmetry.engine import _cache  # no Numba in it: the cache folders and the compile notice
from sudoku_symmetry.engine.text import SudokuFormatError

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2
INT64_MAX = (1 << 63) - 1
BOM = "\ufeff"


class CommandError(Exception):
    """An expected failure: printed as ``PROG: error: MESSAGE``, exit status 2."""


# -- arguments -------------------------------------------------------------------------------
def add_version_argument(parser: argparse.ArgumentParser) -> None:
    """``--version``: ``PROG (sudoku-symmetry) VERSION`` on standard output, exit 0."""
    parser.add_argument("--version", action="version", version=f"%(prog)s (sudoku-symmetry) {__version__}",
                        help="print the version and exit")


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL_OR_PATH",
        default=None,
        type=_db_value,
        help="catalog: a SQLite file path or any SQLAlchemy URL "
        "(default: $SUDOKU_CATALOG, else the documented default file)",
    )


def _db_value(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--db needs a file path or a URL (it was empty)")
    return text


def add_input_argument(parser: argparse.ArgumentParser, what: str = "sudokus") -> None:
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help=f"files of {what}, one per line ('-' or none: standard input); "
        "'#' comments and blank lines are skipped",
    )


_DECIMAL = re.compile(r"-?[0-9]+")
_SECONDS = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def decimal(text: str) -> int:
    """``text`` (surrounding spaces aside) as a whole number in ASCII digits, ``-`` allowed in
    front (so that ``-1`` is refused as out of range); ValueError for anything else: ``+``, ``_``,
    ``٣`` or another script's digits (``int()`` takes them all)."""
    text = text.strip()
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"expected a whole number in ASCII digits 0-9, got {text!r}")
    return int(text)


def seconds_argument(text: str) -> float:
    """An argparse type: a non-negative number of seconds in ASCII digits (``2``, ``0.5``)."""
    if not _SECONDS.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"expected a number of seconds in ASCII digits (like 2 or 0.5), got {text!r}")
    return float(text)


def count_argument(minimum: int = 0, maximum: int = INT64_MAX) -> Callable[[str], int]:
    """An argparse type: an integer in [minimum, maximum] (the kernels count in int64), written
    in ASCII digits (:func:`decimal`)."""

    def parse(text: str) -> int:
        try:
            value = decimal(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum or value > maximum:
            raise argparse.ArgumentTypeError(f"must be between {minimum} and {maximum}, got {value}")
        return value

    return parse


# -- distributed runs (canon --store, enumerate, s17-entry, patterns) ---------------------------
def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` / ``--scheduler ADDRESS`` (exclusive): run the shards of a resumable run
    as Dask tasks (``jobs/dask.py``; the rest of what runs share is in ``_runs.py``)."""
    g = parser.add_argument_group("distributed runs (Dask)").add_mutually_exclusive_group()
    g.add_argument("--workers", type=count_argument(1, 4096), metavar="N",
                   help="run the shards on a local Dask cluster of N worker processes, one thread each")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the shards on an existing Dask cluster (e.g. tcp://host:8786)")


def distributed(args) -> bool:
    """True when ``--workers`` or ``--scheduler`` was given."""
    return bool(getattr(args, "workers", None) or getattr(args, "scheduler", None))


def cluster(args) -> dict:
    """``workers`` and ``scheduler`` for ``jobs.runner.run_job`` (None and None: in this process)."""
    return {"workers": getattr(args, "workers", None), "scheduler": getattr(args, "scheduler", None)}


# -- inputs ----------------------------------------------------------------------------------
def check_inputs(files: list[str]) -> None:
    """Raise :class:`CommandError` for the first input that cannot be read as a file."""
    for path in files:
        if path == "-":
            if sys.stdin is None:
                raise CommandError("standard input is closed")
            continue
        if os.path.isdir(path):
            raise CommandError(f"{path}: is a directory, not a file")
        if not os.path.exists(path):
            raise CommandError(f"{path}: no such file")
        if not os.access(path, os.R_OK):
            raise CommandError(f"{path}: not readable (permission denied)")
    if not files and sys.stdin is None:
        raise CommandError("standard input is closed")


def _strip_bom(lines: Iterator[str]) -> Iterator[str]:
    first = next(lines, None)
    if first is None:
        return
    yield first[1:] if first.startswith(BOM) else first
    yield from lines


def _text_lines(binary) -> io.TextIOWrapper:
    """The lines of a binary stream as the module docstring says: UTF-8, a byte-order mark
    dropped, lines ending at ``\n`` only, bytes that are not UTF-8 kept as lone surrogates."""
    return io.TextIOWrapper(binary, encoding="utf-8-sig", errors="surrogateescape", newline="\n")


def open_inputs(files: list[str]) -> Iterator[tuple[str, Iterator[str]]]:
    """(source name, lines) for each input; '-' or no files means standard input. Each input is
    read once (pipes and FIFOs too); see the module docstring for line ends and bad bytes."""
    check_inputs(files)
    for path in files or ["-"]:
        if path == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            if buffer is None:  # a text stream put in its place (tests)
                yield "<stdin>", _strip_bom(iter(sys.stdin))
                continue
            stream = _text_lines(buffer)
            try:
                yield "<stdin>", iter(stream)
            finally:
                stream.detach()  # leaves sys.stdin's buffer open
        else:
            with open(path, "rb") as raw, _text_lines(raw) as fh:
                yield path, iter(fh)


def read_text(path: str, what: str) -> str:
    """The whole text of a file (BOM dropped), or of standard input for ``-``."""
    check_inputs([path])
    if path == "-":
        text = sys.stdin.read()
    else:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read()
    return text[1:] if text.startswith(BOM) else text


def iter_chunks(files: list[str], size: int = 100_000) -> Iterator[tuple[str, list[str], int]]:
    """(source, up to ``size`` raw lines, line number of the first) over every input, streamed."""
    for source, lines in open_inputs(files):
        lineno = 1
        while True:
            chunk = list(islice(lines, size))
            if not chunk:
                break
            yield source, chunk, lineno
            lineno += len(chunk)


def iter_grid_args(args: list[str], size: int = 100_000) -> Iterator[tuple[str, list[str], int]]:
    """Like :func:`iter_chunks` for commands taking ``GRID|FILE...``: ``-`` or an existing path is
    a file; any other argument is one sudoku written on the command line (source ``argument K``,
    line 1). An argument that is neither a file nor an 81-character sudoku stops the command
    before any output, as a missing file does."""
    from sudoku_symmetry.engine.text import parse_one

    for k, arg in enumerate(args, 1):
        if arg != "-" and not os.path.lexists(arg):
            try:
                parse_one(arg)
            except SudokuFormatError as exc:
                shown = arg if len(arg) <= 90 else arg[:87] + "..."
                raise CommandError(f"{shown!r}: no such file, and not an 81-character sudoku ({exc.message})") from None
    check_inputs([a for a in args if a == "-" or os.path.lexists(a)])
    for k, arg in enumerate(args or ["-"], 1):
        if arg == "-" or os.path.lexists(arg):
            yield from iter_chunks([arg], size)
        else:
            yield f"argument {k}", [arg], 1


def count_lines(files: list[str]) -> int | None:
    """Lines in the input files (for a progress total); None when an input is standard input, a
    pipe or anything else that is not a regular file (counting would consume it)."""
    from sudoku_symmetry.jobs.inputs import is_regular  # here: the jobs layer only where a run counts lines

    if not files or not all(is_regular(path) for path in files):
        return None
    check_inputs(files)
    total = 0
    for path in files:
        with open(path, "rb") as fh:
            total += sum(buf.count(b"\n") for buf in iter(lambda: fh.read(1 << 20), b""))
    return total


class _NoProgress:
    """What ``tqdm(disable=True)`` does: nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(file, total: Callable[[], int | None] = lambda: None, **options):
    """``tqdm(total=total(), disable=None, file=file, **options)``: a bar only when ``file`` is a
    terminal (tqdm's ``disable=None`` rule); off one, a stand-in that does nothing, and neither
    tqdm (25 ms to import) nor ``total`` (which may count the lines of every input) is called."""
    if hasattr(file, "isatty") and not file.isatty():
        return _NoProgress()
    # Deliberately deferred: tqdm only when a bar is shown (a one-line run on a pipe starts faster).
    from tqdm import tqdm

    return tqdm(total=total(), disable=None, file=file, **options)


# -- output ----------------------------------------------------------------------------------
Result = Union[str, Callable[[object], None]]
"""A result line, or a function that writes a result's lines to the stream it is given."""


def error_line(lineno: int, reason: str) -> str:
    return f"error line {lineno}: {reason}"


def emit(out, err, source: str, results: Iterable[tuple[int, Result]],
         problems: Iterable[tuple[int, str]]) -> int:
    """Print ``results`` and ``problems`` (each ``(line number, ...)``) in line order on ``out``,
    a problem as ``error line N: REASON``; repeat the problems on ``err`` with their source.
    Returns the number of problems."""
    problems = sorted(problems)
    items: list[tuple[int, Result]] = list(results)
    if problems:
        items += [(n, error_line(n, reason)) for n, reason in problems]
        items.sort(key=lambda item: item[0])
    text: list[str] = []
    for _, what in items:
        if isinstance(what, str):
            text.append(what + "\n")
        else:
            out.write("".join(text))
            text = []
            what(out)
    out.write("".join(text))
    if problems:
        out.flush()  # so a terminal shows the lines in order
        err.write("".join(f"error: {source}:{n}: {reason}\n" for n, reason in problems))
    return len(problems)


def parse_problems(parsed) -> list[tuple[int, str]]:
    """The malformed lines of a :class:`ParsedLines` as ``(line number, reason)``."""
    return [(e.lineno, e.message) for e in parsed.errors]


# -- running a command -----------------------------------------------------------------------
def _fail(prog: str, message: str) -> int:
    try:
        print(f"{prog}: error: {message}", file=sys.stderr)
    except (OSError, AttributeError, ValueError):
        pass
    return EXIT_BAD_INPUT


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _catalog_message(exc: BaseException) -> str | None:
    """A one-line reason for a database error (never the SQL statement or its parameters)."""
    sa_exc = sys.modules.get("sqlalchemy.exc")
    if sa_exc is None or not isinstance(exc, sa_exc.SQLAlchemyError):
        return None
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return "catalog: " + (text[0] if text else type(exc).__name__)


def compile_notice(prog: str) -> None:
    """Before the first kernel this process must compile (an emptied cache, a new version), say so
    on standard error, once; ``SUDOKU_COMPILE_NOTICE=0`` keeps quiet (the test suite sets it)."""
    if os.environ.get("SUDOKU_COMPILE_NOTICE", "") == "0":
        return

    def say() -> None:
        sys.stderr.write(f"{prog}: compiling the engine's kernels for this version first (once per cache folder, "
                         f"{_cache.kernel_cache_dir()}; `bin/populate` compiles them all up front)\n")
        sys.stderr.flush()

    _cache.on_first_compile(say)


def exit_without_final_collection() -> None:
    """At the interpreter's exit, freeze the objects still alive (``gc.freeze``, from an ``atexit``
    handler), so that its last garbage collection neither walks nor frees them one by one: once
    Numba has loaded a kernel that teardown takes about 0.1 s, a fifth of a one-line command
    (measured on bin/solve: 0.45 -> 0.35 s; the operating system takes the memory back at once).
    Everything else the exit does still happens: the other atexit handlers, the flush of standard
    output and error, objects freed by reference counting; only the ``__del__`` of objects kept
    alive by reference cycles is not called, which Python never promises at exit either (files
    and catalogs are closed explicitly). Harmless in any process (a test run calling commands
    in-process only exits faster); registered once however many commands a process runs."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def run(main_fn, argv=None, prog: str | None = None) -> int:
    """Call ``main_fn(argv)`` and turn expected failures into one line and exit status 2:
    a missing or unreadable input, a directory, closed standard input or output, a full disk,
    a catalog that cannot be used. A closed output pipe (``| head``) ends quietly (status 0).
    A compilation the command must do first is announced (:func:`compile_notice`); the process
    exits without its final garbage collection (:func:`exit_without_final_collection`)."""
    prog = prog or os.path.basename(sys.argv[0]) or "sudoku"
    exit_without_final_collection()
    if sys.stdout is None:
        return _fail(prog, "standard output is closed")
    compile_notice(prog)
    try:
        status = main_fn(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except (CommandError, CatalogError, SudokuFormatError) as exc:
        return _fail(prog, str(exc))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _silence_stdout()
            return EXIT_OK
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else "cannot write output: " \
            if exc.errno in (errno.ENOSPC, errno.EBADF, errno.EIO) else ""
        return _fail(prog, f"{where}{exc.strerror or exc}")
    except Exception as exc:
        message = _catalog_message(exc)
        if message is None:
            raise
        return _fail(prog, message)


def write_svg(path: str, svg_text: str) -> None:
    """Write a drawing (``--svg FILE``): a file the command names, or one line and exit 2."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg_text + "\n")
    except OSError as exc:
        raise CommandError(f"--svg {path}: {exc.strerror or exc}") from None
