"""An input file as the shards of a run: identified by its content, cut into pieces of lines.

A run over a file is keyed on the file's sha256 (the same content is the same run, whatever the
file's name). Serially the whole file is one shard, its key the sha256 itself; a distributed
run cuts it into pieces of ``lines_per_piece`` lines, ``SHA256:LINE:START-END`` (the piece's
first line, 0-based, and its byte range), found by one pass over the file. Lines are what
reading the file line by line gives (ended by ``\\n``); a byte-order mark at the start of the
file is dropped. ``canon --store`` uses this; so can any job whose shard is a slice of an
input file (e.g. the search of each grid of a file for its puzzles).
"""
from __future__ import annotations

import hashlib
import os
import stat
from itertools import islice
from typing import Iterator

BOM = "\ufeff"


def is_regular(path: str) -> bool:
    """True for a regular file (or a link to one): what can be read twice, so a resumable run's
    input. A pipe, a FIFO, a process substitution (``/dev/fd/N``), a terminal or ``-`` (standard
    input) can be read only once."""
    if path == "-":
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def hash_and_count(path: str) -> tuple[str, int, int]:
    """(sha256 hex of the content, number of lines, size in bytes), in one pass."""
    h, lines, size, last = hashlib.sha256(), 0, 0, b"\n"
    with open(path, "rb") as fh:
        for buf in iter(lambda: fh.read(1 << 20), b""):
            h.update(buf)
            lines += buf.count(b"\n")
            size += len(buf)
            last = buf[-1:]
    return h.hexdigest(), lines + (last != b"\n"), size


def piece_keys(path: str, digest: str, lines_per_piece: int) -> list[str]:
    """Keys of the pieces of ``lines_per_piece`` lines (the last one shorter)."""
    keys, line, start, pos, in_piece = [], 0, 0, 0, 0
    with open(path, "rb") as fh:
        for raw in fh:
            pos += len(raw)
            in_piece += 1
            if in_piece == lines_per_piece:
                keys.append(f"{digest}:{line}:{start}-{pos}")
                line, start, in_piece = line + in_piece, pos, 0
    if in_piece:
        keys.append(f"{digest}:{line}:{start}-{pos}")
    return keys


def parse_piece(key: str) -> tuple[int, int, int | None]:
    """``SHA:LINE:START-END`` -> (line, start, end); a bare ``SHA`` (the whole file) -> (0, 0, None)."""
    if ":" not in key:
        return 0, 0, None
    _, line, rng = key.split(":")
    start, _, end = rng.partition("-")
    return int(line), int(start), int(end)


def line_chunks(path: str, offset: int, end: int | None, size: int) -> Iterator[tuple[list[bytes], list[str]]]:
    """From byte ``offset`` to ``end`` (None: the end of the file), chunks of up to ``size``
    lines: (raw bytes of each line, its text: UTF-8, undecodable bytes as U+FFFD, the file's
    byte-order mark dropped)."""
    with open(path, "rb") as fh:
        if end is None:
            end = os.fstat(fh.fileno()).st_size
        fh.seek(offset)
        while offset < end:
            raw = list(islice(fh, size))
            if not raw:
                break
            keep, took = [], 0
            for b in raw:  # a piece ends at its byte range, whatever the chunk size
                if offset + took >= end:
                    break
                keep.append(b)
                took += len(b)
            lines = [b.decode("utf-8", "surrogateescape") for b in keep]
            if offset == 0 and lines and lines[0].startswith(BOM):
                lines[0] = lines[0][1:]
            offset += took
            yield keep, lines
