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
from pathlib import Path
from typing import Callable, Iterable, Iterator, Union

from sudoku_symmetry.catalog.errors import CatalogError  # no SQLAlchemy in it: cheap for every command
from sudoku_symmetry.catalog.files import check_write_target  # nor in this one (plain paths)
from sudoku_symmetry.engine import _cache  # no Numba in it: the cache folders and the compile notice
from sudoku_symmetry.engine.text import SudokuFormatError

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2
INT64_MAX = (1 << 63) - 1
BOM = "\ufeff"


class CommandError(Exception):
    """An expected failure: printed as ``PROG: error: MESSAGE``, exit status 2."""


# -- how the commands are named: bin/NAME in a checkout, `sudoku NAME` once installed --------
def in_checkout() -> bool:
    """True when the commands run from a checkout (``bin/NAME`` beside this module's folder), False
    for an installed package (a wheel: ``sudoku NAME``, and no ``docs/`` folder)."""
    return (Path(__file__).resolve().parent / "populate").is_file()


_BIN = re.compile(r"\bbin/([a-z][a-z0-9-]*)")
_DOC = re.compile(r"\bdocs/([a-z0-9-]+)\.md\b")


def for_user(text: str) -> str:
    """``text`` as this user can follow it: unchanged in a checkout; installed, ``bin/populate``
    becomes ``sudoku populate`` and ``docs/formats.md`` the address of that page of the docs."""
    if in_checkout() or ("bin/" not in text and "docs/" not in text):
        return text
    return _DOC.sub(lambda m: f"{docs_address()}/{m.group(1)}.md", _BIN.sub(r"sudoku \1", text))


def docs_address() -> str:
    """The documentation's address, from the package's metadata (``Documentation`` in pyproject)."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        for entry in metadata("sudoku-symmetry").get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip().lower() == "documentation":
                return url.strip().rstrip("/")
    except PackageNotFoundError:
        pass
    return "docs"


# -- arguments -------------------------------------------------------------------------------
class _Version(argparse.Action):
    """``--version``, the package's version read only when asked (``importlib.metadata`` costs a
    command tens of milliseconds)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from sudoku_symmetry import __version__

        sys.stdout.write(f"{parser.prog} (sudoku-symmetry) {__version__}\n")
        parser.exit()


class CommandParser(argparse.ArgumentParser):
    """Every command's argument parser: an ``argparse.ArgumentParser`` that checks the files the
    command will write (the options marked with :func:`writes_file`) before anything else, so a
    path that would destroy a catalog is refused in one line, exit status 2, whatever else the
    command line holds (``catalog.files.check_write_target``)."""

    def parse_known_args(self, args=None, namespace=None):
        argv = list(sys.argv[1:] if args is None else args)
        early = _written_early(self, argv)
        if early is not None:
            check_writes(self, early)
        ns, extras = super().parse_known_args(argv, namespace)
        check_writes(self, ns)
        return ns, extras


def writes_file(action: argparse.Action) -> argparse.Action:
    """Mark an option whose value is a file the command writes (``--out``, ``--export``, ``--svg``):
    :class:`CommandParser` checks it. Returns the action (``writes_file(p.add_argument(...))``)."""
    action.writes_file = True
    return action


def written_options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options of ``parser`` marked with :func:`writes_file`."""
    return [a for a in parser._actions if getattr(a, "writes_file", False)]


def check_writes(parser: argparse.ArgumentParser, args) -> None:
    """Check every file ``args`` asks the command to write (``catalog.files.check_write_target``)."""
    for action in written_options(parser):
        value = getattr(args, action.dest, None)
        if isinstance(value, str):
            check_write_target(action.option_strings[-1], value, getattr(args, "db", None))


class _QuietParser(argparse.ArgumentParser):
    def error(self, message):
        raise argparse.ArgumentError(None, message)


def _written_early(parser: argparse.ArgumentParser, argv: list[str]):
    """The written options and ``--db`` of ``argv`` read alone (None when that fails): so that the
    check comes first, before the parser's own errors."""
    marked = written_options(parser)
    if not marked:
        return None
    mini = _QuietParser(add_help=False, allow_abbrev=parser.allow_abbrev, exit_on_error=False)
    for action in marked + [a for a in parser._actions if a.dest == "db" and a.option_strings]:
        mini.add_argument(*action.option_strings, dest=action.dest, default=None)
    try:
        return mini.parse_known_args(argv)[0]
    except (argparse.ArgumentError, SystemExit):
        return None


def add_version_argument(parser: argparse.ArgumentParser) -> None:
    """``--version`` (``PROG (sudoku-symmetry) VERSION`` on standard output, exit 0), which every
    command has; and the parser's help and usage said for this user (:func:`for_user`: ``sudoku
    NAME`` and the docs' address once installed)."""
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    if not in_checkout():
        parser.prog = f"sudoku {parser.prog}"
        for method in ("format_help", "format_usage"):
            plain = getattr(parser, method)
            setattr(parser, method, lambda plain=plain: for_user(plain()))


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


def rating_argument(text: str) -> tuple[float, float]:
    """An argparse type: a range of Sudoku Explainer ratings (ER), ``A-B``, ``A-``, ``-B`` or
    ``A`` (``engine.rate.filter.parse_rating``)."""
    from sudoku_symmetry.engine.rate.filter import parse_rating

    try:
        return parse_rating(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def rating_text(rating) -> str | None:
    """An ER range as rows and summaries write it (``7.0-8.0``); None stays None."""
    return None if rating is None else f"{rating[0]:.1f}-{rating[1]:.1f}"


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
def dataset_name(path: str) -> str | None:
    """The shipped set an input names (``@17clue``: ``17clue``), or None for a file or ``-``. A
    file whose name starts with ``@`` is still read as that file."""
    if not path.startswith("@") or os.path.lexists(path):
        return None
    from sudoku_symmetry import datasets

    name = path[1:]
    if name not in datasets.SETS:
        raise CommandError(f"{path}: no such file, and no shipped set {name!r} (the sets: "
                           f"{', '.join('@' + n for n in datasets.SETS)}; `bin/data` lists them)")
    return name


def check_inputs(files: list[str]) -> None:
    """Raise :class:`CommandError` for the first input that cannot be read as a file (or as a
    shipped set, ``@NAME``)."""
    for path in files:
        if path == "-":
            if sys.stdin is None:
                raise CommandError("standard input is closed")
            continue
        if dataset_name(path):
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
        if dataset_name(path):
            from sudoku_symmetry import datasets

            yield path, datasets.puzzle_lines(path[1:])
        elif path == "-":
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
    if dataset_name(path):
        from sudoku_symmetry import datasets

        text = "".join(datasets.puzzle_lines(path[1:]))
    elif path == "-":
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
        if arg != "-" and not os.path.lexists(arg) and not dataset_name(arg):
            try:
                parse_one(arg)
            except SudokuFormatError as exc:
                shown = arg if len(arg) <= 90 else arg[:87] + "..."
                raise CommandError(f"{shown!r}: no such file, and not an 81-character sudoku ({exc.message})") from None
    args = args or ["-"]
    files = [a for a in args if a == "-" or os.path.lexists(a) or dataset_name(a)]
    check_inputs(files)
    for k, arg in enumerate(args, 1):
        if arg in files:
            yield from iter_chunks([arg], size)
        else:
            yield f"argument {k}", [arg], 1


def place(source: str, lineno: int) -> str:
    """Where an input line came from, for a message: ``FILE:N``, or ``argument K`` for a sudoku
    written on the command line (:func:`iter_grid_args`; it has no line number)."""
    return source if source.startswith("argument ") else f"{source}:{lineno}"


def plural(n: int, word: str) -> str:
    """``1 puzzle``, ``2 puzzles``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_store_files(inputs: list[str], what: str) -> None:
    """``--store`` reads FILEs of ``what``: a stored run is keyed on its file and resumes by reading
    it again, so standard input, a missing path and a pipe are refused before anything runs."""
    from sudoku_symmetry.jobs.inputs import is_regular  # here: the jobs layer only where a run counts lines

    if not inputs or any(a == "-" or not os.path.lexists(a) for a in inputs):
        raise CommandError(f"--store needs FILEs of {what} (a run resumes from a file; save standard input or "
                           f"the {what} to one)")
    check_inputs(inputs)
    for path in inputs:
        if not is_regular(path):
            raise CommandError(f"{path}: not a regular file (a pipe can be read only once): --store needs a FILE")


def count_lines(files: list[str]) -> int | None:
    """Lines in the input files (for a progress total); None when an input is standard input, a
    pipe or anything else that is not a regular file (counting would consume it)."""
    from sudoku_symmetry.jobs.inputs import is_regular  # here: the jobs layer only where a run counts lines

    if not files or not all(is_regular(path) or dataset_name(path) for path in files):
        return None
    check_inputs(files)
    total = 0
    for path in files:
        if dataset_name(path):
            from sudoku_symmetry import datasets

            total += datasets.info(path[1:]).puzzles
            continue
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
        print(f"{prog}: error: {for_user(message)}", file=sys.stderr)
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
    on standard error, and at the end how long compiling took; ``SUDOKU_COMPILE_NOTICE=0`` keeps
    quiet (the test suite sets it). Only the kernels the command calls are compiled (Numba compiles
    a kernel at its first call), each once per version of the engine for every install on the
    machine (``engine/_cache.py``)."""
    if os.environ.get("SUDOKU_COMPILE_NOTICE", "") == "0":
        return

    def say() -> None:
        sys.stderr.write(for_user(f"{prog}: compiling the kernels this command needs, once for this version "
                                  f"(into {_cache.kernel_cache_dir()}; seconds to minutes; `bin/populate` "
                                  "compiles every kernel up front)\n"))
        sys.stderr.flush()
        atexit.register(said)

    def said() -> None:
        n, seconds = _cache.compiled()
        try:
            sys.stderr.write(f"{prog}: compiled {n} kernel{'s' if n != 1 else ''} in {seconds:.0f} s; "
                             "later runs load them from the cache\n")
        except (OSError, ValueError, AttributeError):
            pass

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


def run(main_fn, argv=None, prog: str | None = None, compile_notice_too: bool = True) -> int:
    """Call ``main_fn(argv)`` and turn expected failures into one line and exit status 2:
    a missing or unreadable input, a directory, closed standard input or output, a full disk,
    a catalog that cannot be used. A closed output pipe (``| head``) ends quietly (status 0).
    A compilation the command must do first is announced (:func:`compile_notice`; not for a
    command that says itself what it compiles: ``compile_notice_too=False``); the process exits
    without its final garbage collection (:func:`exit_without_final_collection`)."""
    prog = prog or os.path.basename(sys.argv[0]) or "sudoku"
    exit_without_final_collection()
    if sys.stdout is None:
        return _fail(prog, "standard output is closed")
    if compile_notice_too:
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
