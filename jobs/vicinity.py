"""The job of ``vicinity --store FILE``: a {-n+m} walk from a file's puzzles, step by step.

A walk is a run per step, kind ``vicinity``, keyed on (the file's sha256, minus, plus, minimal,
clues, the sha256 of the ``--known`` classes, step, and the ER range when there is one: a step
then keeps, stores and walks on from the classes rated in it); step 0 reads the file and records its
puzzles' classes in ``vicinity_walks`` at step 0 (the walk's id is that run's id). Step S works
the classes first reached at step S - 1, in canonical order, cut into shards of ``chunk``
puzzles (``S:FIRST``); a checkpoint follows every puzzle, and its new classes (those not known
and not yet in the walk: ``ON CONFLICT DO NOTHING`` keeps the first step that reached a class)
are committed with it, to ``vicinity_walks`` and ``configurations``. A killed walk resumes at its
cursors with no class lost or repeated; a walk run again with more steps goes on from the last.
"""
from __future__ import annotations

import hashlib
import sys
from functools import partial
from typing import Iterable

from sudoku_symmetry.catalog.configurations import store_configurations
from sudoku_symmetry.catalog.explore import store_walk_forms, walk_counts, walk_frontier
from sudoku_symmetry.catalog.runs import finish_run, get_run, start_or_resume

from .chunk import Chunk, Job
from .inputs import hash_and_count
from .runner import run_job

KIND = "vicinity"

__all__ = ["KIND", "parameters", "store_walk", "work", "write"]


def parameters(digest: str, minus: int, plus: int, minimal: bool, clues: int | None, known: str | None,
               step: int, rating=None) -> dict:
    params = {"sha256": digest, "minus": int(minus), "plus": int(plus), "minimal": bool(minimal), "clues": clues,
              "known": known, "step": int(step)}
    if rating is not None:
        params["rating"] = list(rating)
    return params


def _known_digest(known: Iterable[str]) -> str | None:
    forms = sorted(known)
    if not forms:
        return None
    return hashlib.sha256("\n".join(forms).encode("ascii")).hexdigest()


def work(shard: str, cursor, *, pieces: dict, minus: int, plus: int, minimal: bool, clues: int | None,
         known: frozenset, rating=None):
    """The puzzles of one shard (``pieces[shard]``, canonical forms), one per chunk, from the
    cursor: each chunk's results are the classes of its neighbourhood not in ``known``."""
    from sudoku_symmetry.engine.explore import neighbourhood

    puzzles = pieces[shard]
    start = int((cursor or {}).get("next", 0))
    for k in range(start, len(puzzles)):
        near = neighbourhood(puzzles[k], minus, plus, minimal=minimal, clues=clues, rating=rating)
        forms = [f for f in near.forms if f not in known]
        yield Chunk(forms, {"next": k + 1}, k + 1 == len(puzzles), 1)


def write(conn, forms: list[str], *, walk: int, step: int, source: str | None) -> tuple[int, int]:
    """A chunk's classes into the walk at ``step`` and into ``configurations``: ``(new, known)``
    counted in the walk."""
    new = store_walk_forms(conn, walk, step, forms)
    store_configurations(conn, [{"canonical": f, "kind": "puzzle", "convention": "minlex", "source": source}
                                for f in forms], source=source)
    return new, len(forms) - new


def read_puzzles(path: str) -> tuple[list[str], list[tuple[int, str]]]:
    """The classes (minlex forms) of the puzzles in the file ``path``, and its bad lines."""
    import numpy as np

    from sudoku_symmetry.engine.canon import canon_puzzles
    from sudoku_symmetry.engine.explore import parse_puzzles
    from sudoku_symmetry.engine.text import format_lines

    with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as fh:
        lines = fh.read().splitlines()
    good, problems = parse_puzzles(lines, path, 1)
    forms = format_lines(canon_puzzles(np.array([p for _, p in good])).forms) if good else []
    return sorted(set(forms)), problems


def store_walk(catalog, path: str, minus: int, plus: int, minimal: bool, clues: int | None, steps: int,
               known: Iterable[str] = (), *, chunk: int = 8, read=None, rating=None, workers: int | None = None,
               scheduler: str | None = None) -> tuple[int, list[tuple[int, str]]]:
    """Walk ``steps`` steps from the puzzles of the file ``path`` (``read(path)`` gives its
    classes and its bad lines ``(line, reason)``), as the module docstring says. Returns the
    walk's id and the bad lines."""
    read = read or read_puzzles
    digest, n_lines, _ = hash_and_count(path)
    known = frozenset(known)
    kdig = _known_digest(known)
    source = path.rsplit("/", 1)[-1]
    first = start_or_resume(catalog, KIND, parameters(digest, minus, plus, minimal, clues, kdig, 0, rating),
                            items_total=n_lines)
    walk = first.id
    forms, problems = read(path)
    if first.status != "done":
        store_walk_forms(catalog, walk, 0, forms)
        finish_run(catalog, walk)
    for step in range(1, int(steps) + 1):
        frontier = walk_frontier(catalog, walk, step - 1)
        state = start_or_resume(catalog, KIND, {**parameters(digest, minus, plus, minimal, clues, kdig, step, rating),
                                                "walk": walk}, items_total=len(frontier))
        pieces = {f"{step}:{i}": frontier[i:i + chunk] for i in range(0, len(frontier), chunk)}
        job = Job(partial(work, pieces=pieces, minus=minus, plus=plus, minimal=minimal, clues=clues, known=known,
                          rating=rating),
                  partial(write, walk=walk, step=step, source=source))
        res = run_job(catalog, state.id, list(pieces), job, desc=f"{source} step {step}", unit=" puzzles",
                      workers=workers, scheduler=scheduler)
        counts = walk_counts(catalog, walk)
        again = " (already done)" if res.already_done else ""
        new = counts.get(step, 0)
        print(f"vicinity: {path}: step {step}: {new} new class{'' if new == 1 else 'es'} from {len(frontier)} "
              f"puzzle{'' if len(frontier) == 1 else 's'} "
              f"(walk {walk}, run {get_run(catalog, state.id).id}){again}", file=sys.stderr, flush=True)
        if not counts.get(step, 0):
            break
    return walk, problems
