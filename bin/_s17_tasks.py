"""The work of ``s17-entry`` in module-level functions, so that the same code runs in this
process and, with ``--workers`` / ``--scheduler``, pickled into Dask workers.

Shard: a band 1, by its rank in the search order (``"K"``), the serial run's shards too, so a
run started in one process can be resumed on a cluster and the other way round. Cursor:
``{"b2": next band 2, "bands3": bands 3 so far}`` (the command adds the output file's
``offset``). The chunk that completes a band 1 stores its counts (``s17_entry_bands``).
"""
from __future__ import annotations


def format_lines(rank: int, b2s, counts, bands3, owner, start: int, variant: str) -> bytes:
    """The lines of one slice (bands 2 ``start..``): vectorized, one row of bytes per line."""
    import numpy as np

    n2 = len(counts)
    # each band 2 contributes max(1, count) lines: its bands 3, or one line with '-'
    lines_per = np.maximum(counts, 1)
    own = np.repeat(np.arange(n2), lines_per)
    has3 = np.repeat(counts > 0, lines_per)
    prefix = f"{rank} ".encode()
    width = len(prefix) + 27 + 1 + 27 + 1
    buf = np.full((len(own), width), ord(" "), np.uint8)
    buf[:, : len(prefix)] = np.frombuffer(prefix, np.uint8)
    buf[:, -1] = ord("\n")
    p2 = len(prefix)
    p3 = p2 + 28
    if variant == "B":
        p2, p3 = p3, p2
    buf[:, p2 : p2 + 27] = np.asarray(b2s)[start + own] + ord("0")
    b3_rows = np.full((len(own), 27), ord(" "), np.uint8)
    b3_rows[has3] = bands3 + ord("0")
    b3_rows[~has3, 0] = ord("-")
    buf[:, p3 : p3 + 27] = b3_rows
    text = buf.tobytes()
    # a '-' field is one character: drop the 26 padding blanks after it
    if (~has3).any():
        text = text.replace(b"-" + b" " * 26, b"-")
    return text


def work(shard: str, cursor, *, variant: str, chunk: int, emit: bool = False):
    """Band 1 at rank ``shard``, ``chunk`` bands 2 at a time: yields ([final], cursor, done,
    bands 3, lines) with ``final`` = (rank, index, bands 2, bands 3) on the last chunk (else
    None) and ``lines`` the chunk's lines as bytes (``emit``; else empty)."""
    from sudoku_symmetry.engine.search17 import entry

    rank = int(shard)
    cur = cursor or {"b2": 0, "bands3": 0}
    n3 = int(cur["bands3"])
    b2s = entry.bands2(rank)
    index = int(entry.band1(rank).index)
    kernel_variant = "A" if variant == "B" else variant
    for res, nxt, done in entry.work(kernel_variant, rank, cur["b2"], emit=emit, chunk=chunk):
        data = b""
        if emit and res.stop > res.start:
            data = format_lines(rank, b2s, res.counts, res.bands3, res.owner, res.start, variant)
        n3 += res.total
        final = (rank, index, len(b2s), n3) if done else None
        yield [final], {"b2": nxt, "bands3": n3}, done, res.total, data


def write(conn, rows, *, variant: str):
    """Store the counts of a completed band 1 (``functools.partial(write, variant=...)``)."""
    from sudoku_symmetry.catalog.search17 import store_entry_band

    final = rows[0]
    if final is None:
        return 0, 0
    new = store_entry_band(conn, variant, *final)
    return new, 1 - new
