"""Where a run's lines go: an ``--out FILE`` that survives kills byte for byte, or a stream.

* :func:`output_target` reads the ``--out`` argument before anything is opened: ``-`` is
  standard output; a path that is not a regular file (``/dev/stdout``, a FIFO, a terminal) is a
  stream; a path that would destroy a catalog (its own SQLite file and its ``-wal``, ``-shm``,
  ``-journal`` files, any SQLite database) is refused by the one check every written file goes
  through (``catalog.files.check_write_target``), as :class:`OutputError`; a directory too.
* :func:`open_output` gives the run's output: an :class:`OutputFile` for a regular file, a
  :class:`StreamOutput` for standard output and streams (not resumable: such a run is a new run
  each time).
* :class:`OutputFile`: written by this process in shard order, each chunk's bytes fsynced before
  the chunk is committed, with the file's new end and the CRC-32 of everything before it
  (``offset``, ``crc`` in the chunk's cursor). Opening it cuts the file back to the run's last
  checkpoint (which drops a summary line written after it too) once its first ``offset`` bytes
  are checked against the CRC (a read of the file: about a second per GB). A file deleted since
  makes the run start over (a finished run writes it again); a file that is shorter or differs
  is refused with the command that makes it again.
"""
from __future__ import annotations

import io
import os
import shlex
import stat
import sys
import zlib
from dataclasses import dataclass
from functools import partial
from typing import Any

from sudoku_symmetry.catalog.files import WriteRefused, check_write_target, is_stream
from sudoku_symmetry.catalog.runs import get_run, restart_run

from .chunk import Chunk
from .runner import JobError

STDOUT = "-"


class OutputError(JobError):
    """An ``--out`` that cannot be used or continued (one line, exit status 2)."""


@dataclass(frozen=True)
class OutputTarget:
    """Where ``--out`` points: ``kind`` ``file`` (a regular file, resumable), ``stream`` (a path
    that is not a regular file) or ``stdout``; ``path`` as the run's parameters record it."""

    kind: str
    path: str | None

    @property
    def resumable(self) -> bool:
        return self.kind == "file"


def output_target(out: str | None, catalog_url: str | None = None) -> OutputTarget:
    """The ``--out`` argument checked (see the module docstring); ``out`` None or ``-``: standard output."""
    if out is None or out == STDOUT:
        return OutputTarget("stdout", None)
    try:
        check_write_target("--out", out, catalog_url)
    except WriteRefused as exc:
        raise OutputError(str(exc)) from None
    path = os.path.abspath(out)
    if is_stream(out) or (os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode)):
        return OutputTarget("stream", out)
    return OutputTarget("file", path)


def open_output(target: OutputTarget, catalog, run_state, command: str | None = None, stdout=None):
    """(output, run_state) for a run whose lines go to ``target``: an :class:`OutputFile` (the run
    restarted when its file was deleted), a :class:`StreamOutput`, or None for ``count only``
    (``target`` None)."""
    if target is None:
        return None, run_state
    if target.kind == "stdout":
        return StreamOutput(stdout if stdout is not None else sys.stdout), run_state
    if target.kind == "stream":
        return StreamOutput(open(target.path, "ab", buffering=0), close=True), run_state
    if OutputFile.committed(run_state)[0] and not os.path.exists(target.path):
        restart_run(catalog, run_state.id)  # the file is gone: the run makes it again from the start
        run_state = get_run(catalog, run_state.id)
    return OutputFile(target.path, run_state, command=command), run_state


def command_line(prog: str, argv) -> str:
    """``bin/PROG ARGS`` as a shell line (what an error tells the user to run)."""
    return shlex.join([f"bin/{prog}", *(sys.argv[1:] if argv is None else argv)])


def _file_crc(path: str, size: int) -> int:
    crc, left = 0, size
    with open(path, "rb") as fh:
        while left > 0:
            buf = fh.read(min(left, 1 << 22))
            if not buf:
                break
            crc = zlib.crc32(buf, crc)
            left -= len(buf)
    return crc


def file_size(path: str) -> int:
    return os.path.getsize(path) if os.path.exists(path) else 0


class OutputFile:
    """``--out FILE`` of a resumable run (see the module docstring). ``command``: the command
    line that made it, named in the error when the file must be made again."""

    def __init__(self, path: str, run_state, *, command: str | None = None):
        offset, crc = self.committed(run_state)
        redo = f"to make it again: rm {shlex.quote(path)} && {command}" if command else \
            "remove it and use other arguments to start again"
        size = file_size(path)
        if offset and size < offset:
            raise OutputError(f"{path} is shorter than the run's checkpoint ({offset} bytes): it was changed outside "
                              f"the run; {redo}")
        if offset and crc is not None and _file_crc(path, offset) != crc:
            raise OutputError(f"{path} differs from what run {run_state.id} wrote in its first {offset} bytes: it was "
                              f"changed outside the run; {redo}")
        with open(path, "ab") as fh:
            fh.truncate(offset)
        self.path = path
        self.end, self.crc = offset, crc or 0  # where the committed output ends, the CRC-32 before it

    @staticmethod
    def committed(run_state) -> tuple[int, int | None]:
        """(end, CRC-32 of the bytes before it) of the output the run's checkpoints cover; the CRC is
        None for a checkpoint written before CRCs were recorded."""
        best = (0, None)
        for cp in run_state.checkpoints.values():
            cur = cp.cursor if isinstance(cp.cursor, dict) else {}
            offset = int(cur.get("offset", 0))
            if offset > best[0]:
                best = (offset, cur.get("crc"))
        return best

    def start(self, cursor) -> tuple[int, int]:
        """Where a shard's output goes, (offset, CRC so far): its cursor's when it is resumed, else
        the end of the committed output; bytes after it (a chunk whose commit was lost) are cut off."""
        if cursor is None or "offset" not in cursor:
            at, crc = self.end, self.crc
        else:
            at, crc = int(cursor["offset"]), cursor.get("crc")
            if crc is None:
                crc = _file_crc(self.path, at)
        if file_size(self.path) > at:
            with open(self.path, "ab") as fh:
                fh.truncate(at)
        return at, int(crc)

    def append(self, offset: int, crc: int, data: bytes) -> tuple[int, int]:
        """Write ``data`` at the end (``offset``), durably; returns the new (end, CRC)."""
        with open(self.path, "ab") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return offset + len(data), zlib.crc32(data, crc)

    def committed_to(self, offset: int, crc: int) -> None:
        self.end, self.crc = offset, crc

    def wrap(self, work):
        return with_output(work, self)


class StreamOutput:
    """Standard output or another stream: each chunk's lines written once the chunk is committed
    (not resumable: a killed run's lines cannot be taken back)."""

    def __init__(self, stream, *, close: bool = False):
        self.stream, self.close_it = stream, close

    def wrap(self, work):
        return with_output(work, out=self.stream)

    def write_line(self, text: str) -> None:
        """A line after the run's own (a summary)."""
        write_bytes(self.stream, text.encode())

    def close(self) -> None:
        if self.close_it:
            self.stream.close()


def write_bytes(out, data: bytes) -> None:
    """``data`` on a stream: a binary file directly, a text stream through its byte buffer when it
    has one (after what is pending), else decoded."""
    if isinstance(out, (io.RawIOBase, io.BufferedIOBase)):
        out.write(data)
        return
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(data.decode())
        return
    out.flush()
    buffer.write(data)


def with_output(work, output: OutputFile | None = None, out=None, err=None):
    """``work`` whose chunks' ``data`` go to ``output`` (before the chunk is committed; the
    cursor gains the file's end as ``offset`` and its CRC-32 as ``crc``) or, once the chunk is
    committed, to the stream ``out`` (not resumable), or nowhere; ``notes`` go to ``err`` once
    committed. Without ``output``, ``out`` and ``err`` it pickles when ``work`` does."""
    return partial(_with_output, work, output, out, err)


def _with_output(work, output, out, err, shard: str, cursor: Any):
    offset, crc = output.start(cursor) if output is not None else (0, 0)
    for item in work(shard, cursor):
        c = Chunk.of(item)
        if output is not None:
            if c.data:
                offset, crc = output.append(offset, crc, c.data)
            cur = dict(c.cursor, offset=offset, crc=crc)
        else:
            cur = dict(c.cursor, offset=0)
        yield Chunk(c.results, cur, c.done, c.count)
        # the chunk is committed
        if output is not None:
            output.committed_to(offset, crc)
        elif out is not None and c.data:
            write_bytes(out, c.data)
        if err is not None and c.notes:
            if out is not None:
                out.flush()
            err.write(c.notes)
