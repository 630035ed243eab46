"""The distributed form of ``canon --store FILE``: the file cut into pieces of ``--chunk`` lines,
one shard each, with ``work`` / ``write`` that pickle (module-level) for Dask workers.

Shard key ``SHA256:LINE:START-END``: the piece's first line (0-based) and its byte range, found
by one pass over the file. The cursor is the serial run's (``line``, ``offset``, ``read``,
``malformed``) plus ``problems``: the piece's malformed lines as ``[line number, reason]``
(at most :data:`MAX_PROBLEMS`), which the command prints on standard error at the end, so no bad
line goes unreported; the forms themselves are stored, not printed.
"""
from __future__ import annotations

import io

MAX_PROBLEMS = 1000


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


def parse_piece(key: str) -> tuple[int, int, int]:
    """``SHA:LINE:START-END`` -> (line, start, end)."""
    _, line, rng = key.split(":")
    start, _, end = rng.partition("-")
    return int(line), int(start), int(end)


def rows_of(lines: list[str], source: str, first: int, pattern_first: bool):
    """(catalog rows, problems) of a chunk of raw lines: the canonical forms of the valid sudokus,
    and ``(line number, reason)`` of the others (as ``canon`` reports them)."""
    import numpy as np

    from sudoku_symmetry.engine.canon import canonicalize
    from sudoku_symmetry.engine.text import format_lines, parse_lines
    from sudoku_symmetry.engine.validity import conflicts, is_valid

    parsed = parse_lines(lines, source=source, errors="collect", first_lineno=first)
    ok = is_valid(parsed.sudokus) if len(parsed) else np.zeros(0, bool)
    forms, _, counts, is_grid = canonicalize(parsed.sudokus[ok], pattern_first)
    convention = "pattern_first" if pattern_first else "minlex"
    rows = [{"canonical": f, "kind": "grid" if g else "puzzle", "convention": convention, "automorphism_count": c}
            for f, g, c in zip(format_lines(forms), is_grid.tolist(), counts.tolist())]
    problems = [(e.lineno, e.message) for e in parsed.errors]
    problems += [(n, str(conflicts(cells)[0])) for n, cells in zip(parsed.linenos[~ok].tolist(), parsed.sudokus[~ok])]
    return rows, sorted(problems)


def work(shard: str, cursor, *, path: str, pattern_first: bool):
    """The piece in one chunk: yields (rows, cursor, True, lines)."""
    from sudoku_symmetry.commands._common import BOM

    line, start, end = parse_piece(shard)
    if cursor is not None and cursor.get("offset", start) >= end:
        return
    with open(path, "rb") as fh:
        fh.seek(start)
        data = fh.read(end - start)
    raw = io.BytesIO(data).readlines()  # lines end at b"\n" only, as in the serial run (not bytes.splitlines)
    lines = [b.decode("utf-8", "surrogateescape") for b in raw]
    if start == 0 and lines and lines[0].startswith(BOM):
        lines[0] = lines[0][1:]
    rows, problems = rows_of(lines, path, line + 1, pattern_first)
    cur = {"line": line + len(raw), "offset": end, "read": len(rows) + len(problems), "malformed": len(problems),
           "problems": [list(p) for p in problems[:MAX_PROBLEMS]]}
    yield rows, cur, True, len(raw)


def write(conn, rows, *, source: str):
    from sudoku_symmetry.catalog.configurations import store_configurations

    return store_configurations(conn, rows, source=source)


def store_file(args, catalog, path: str, digest: str, n_lines: int, name: str, convention: str, err):
    """``canon --store FILE --workers N | --scheduler ADDRESS``: a run of kind ``canon-store``
    keyed on (sha256, convention, lines per piece), one shard per piece. Returns (read,
    malformed, new, known) for the whole file; prints the malformed lines on ``err``."""
    from functools import partial

    from sudoku_symmetry.catalog.runs import get_run, start_or_resume
    from sudoku_symmetry.commands._common import drive_shards

    from .canon import RUN_KIND

    run = start_or_resume(catalog, RUN_KIND, {"sha256": digest, "convention": convention, "pieces": args.chunk},
                          items_total=n_lines)
    keys = piece_keys(path, digest, args.chunk)
    res = drive_shards(args, catalog, run.id, keys, partial(work, path=path, pattern_first=args.pattern_first),
                       partial(write, source=name), desc=name, unit=" lines")
    if res.already_done:
        print(f"canon: {path}: already stored (run {run.id}); nothing to do", file=err)
    state = get_run(catalog, run.id)
    read = bad = 0
    for key in keys:
        cur = state.cursor(key) or {}
        read, bad = read + int(cur.get("read", 0)), bad + int(cur.get("malformed", 0))
        shown = cur.get("problems", [])
        err.write("".join(f"error: {path}:{n}: {reason}\n" for n, reason in shown))
        if int(cur.get("malformed", 0)) > len(shown):
            err.write(f"error: {path}: {int(cur['malformed']) - len(shown)} more malformed lines in lines "
                      f"{parse_piece(key)[0] + 1}-{cur['line']} (run without --workers to see them all)\n")
    return read, bad, state.items_new, read - bad - state.items_new
