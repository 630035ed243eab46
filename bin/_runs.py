"""What the four commands that run long jobs share (``canon --store``, ``enumerate``,
``s17-entry``, ``patterns``): where a run's lines go (``--out``), the start of a run and the
``--status`` listing (the cluster options are in ``_common.py``, so that parsing them imports
no catalog). The jobs themselves and their runner are in ``jobs/``; the commands only parse,
call and print.
"""
from __future__ import annotations

from sudoku_symmetry.catalog.db import resolve_url
from sudoku_symmetry.catalog.runs import list_runs, start_or_resume
from sudoku_symmetry.jobs.output import command_line, open_output, output_target

from ._common import CommandError, distributed


def refuse_distributed_output(args, what: str = "lines") -> None:
    """``--workers``/``--scheduler`` run count-only runs: raise :class:`CommandError` unless
    ``--count-only`` (what is printed or written to ``--out`` comes out in order from one process)."""
    if distributed(args) and not args.count_only:
        raise CommandError(f"--workers and --scheduler need --count-only ({what} printed or written to a file "
                           f"come out in order from one process)")


def out_target(args):
    """Where the run's lines go: None with ``--count-only``, else ``jobs.output.output_target`` of
    ``--out`` (checked before the catalog is opened: never the catalog's own files)."""
    if args.count_only:
        return None
    return output_target(args.out, resolve_url(args.db))


def out_parameters(target) -> dict:
    """The run parameters that say where its lines go: ``out`` (a file, or a stream's path) and
    ``stdout`` (not resumable: a new run each time)."""
    if target is None:
        return {"out": None, "stdout": False}
    return {"out": target.path, "stdout": not target.resumable}


def start_run(catalog, kind: str, params: dict, target, *, items_total=None, prog: str, argv=None):
    """(run state, output) of a run whose lines go to ``target``: the run resumed when it can be
    (same kind and parameters, output a file or nothing), its ``--out`` file opened (cut back to
    the last checkpoint, checked; made again when it was deleted)."""
    restart = target is not None and not target.resumable
    state = start_or_resume(catalog, kind, params, items_total=items_total, restart=restart)
    output, state = open_output(target, catalog, state, command_line(prog, argv))
    return state, output


def print_runs(catalog, kind: str, out, *, shards: str, what: str, unit: str, label=None,
               no_lines: str = "count only") -> None:
    """``--status``: one line per run of ``kind``: its status, the ``what`` it covers (the list
    ``parameters[shards]``, one shard each, or ``parameters["shard_count"]`` shards when the run
    cut them finer), where its output goes (``no_lines``: what a run without lines does), the
    shards done and pending, the items done (``unit``). ``label(parameters)``: text put after the
    run's number. A run not done that no live process works (killed, stopped by a signal, its
    machine gone: no lease held by a process that still runs) is listed as stopped, with the age
    of its last checkpoint."""
    from sudoku_symmetry.catalog.models import utcnow
    from sudoku_symmetry.jobs.leases import holders

    now = utcnow()
    for r in list_runs(catalog, kind):
        params = r.parameters
        n = len(params.get(shards, []))
        count = int(params.get("shard_count", n))
        cut = f" in {count:,} shards" if "shard_count" in params else ""
        target = params.get("out") or ("standard output" if params.get("stdout") else no_lines)
        status = r.status
        if status == "running":
            workers = {w for w, _ in holders(catalog, r.id).values()}
            age = _age((now - r.updated_at).total_seconds()) if r.updated_at is not None else "unknown"
            if workers:
                status = f"running ({len(workers)} process{'es' if len(workers) > 1 else ''} at work; last " \
                         f"checkpoint {age} ago)"
            else:
                again = "starts over when run again" if params.get("stdout") else "the same command resumes it"
                status = f"stopped (no process works it; last checkpoint {age} ago; {again})"
        out.write(f"run {r.id}: {label(params) if label else ''}{status}, {n} {what}{cut} ({target}), "
                  f"{r.shards_done} done, {count - r.shards_done} pending, {r.items_done:,} {unit}\n")


def _age(seconds: float) -> str:
    """``42 s``, ``7 min``, ``3 h 5 min``, ``2 days 4 h``."""
    s = max(0, int(seconds))
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    if s < 2 * 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} days {s % 86400 // 3600} h"
