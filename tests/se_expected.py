"""Readers of Sudoku Explainer's expected values committed in ``tests/data`` (made by SE itself,
built from its public sources; each file's header names the SE commit and the exact command):

- ``se_ratings_1213.tsv``: ``serate`` 1.2.1.3's ER/EP/ED of the rating sample (``rate_sample.tsv``);
- ``se_ratings_2022.tsv``: the same puzzles rated by SE's 2022 line;
- ``hardest_db_110626_se1213.tsv``: rows of the forum's hardest database of 2011-06 rated by the
  same ``serate`` (their published figures are in ``hardest_db_110626.tsv``);
- ``se_paths_1213.tsv``: SE 1.2.1.3's solution paths of a sample, step by step.

Used by ``tests/test_rate_se.py`` and ``bench/rate_check.py``.
"""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def ratings(name: str) -> list[tuple[str, str, str]]:
    """``(group, puzzle, "ER/EP/ED")`` of an expected-ratings file (columns ``group line puzzle er
    ep ed``), in file order; rows SE did not finish (empty figures) are left out."""
    rows = []
    for ln in (DATA / name).read_text().splitlines():
        if ln and not ln.startswith("#"):
            f = ln.split("\t")
            if len(f) >= 6 and f[3]:
                rows.append((f[0], f[2], "/".join(f"{float(x):.1f}" for x in f[3:6])))
    return rows


def published_hardest() -> list[tuple[str, str, str]]:
    """``("hardest_db_published", puzzle, "ER/EP/ED")`` of the forum's hardest database rows that
    carry a published rating."""
    rows = []
    for ln in (DATA / "hardest_db_110626.tsv").read_text().splitlines():
        if ln and not ln.startswith("#"):
            f = ln.split("\t")
            if f[4] and f[5] and f[6]:
                rows.append(("hardest_db_published", f[1], "/".join(f"{float(x):.1f}" for x in f[4:7])))
    return rows


def paths() -> dict[str, list[tuple[str, str, str]]]:
    """``{puzzle: [(difficulty "x.y", technique, action), ...]}``: SE's path of each puzzle of
    ``se_paths_1213.tsv``, in step order."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    steps = None
    for ln in (DATA / "se_paths_1213.tsv").read_text().splitlines():
        if ln.startswith("P\t"):
            steps = out.setdefault(ln.split("\t")[3], [])
        elif ln.startswith("S\t") and steps is not None:
            f = ln.split("\t")
            steps.append((f[2], f[3], f[4]))
    return out


def first_difference(mine: list[tuple[str, str, str]], theirs: list[tuple[str, str, str]]):
    """``None`` when two paths are equal step by step, else ``(step number, ours, SE's)`` at the
    first step that differs (a missing step is ``None``)."""
    for i in range(max(len(mine), len(theirs))):
        a = mine[i] if i < len(mine) else None
        b = theirs[i] if i < len(theirs) else None
        if a != b:
            return i + 1, a, b
    return None


def off_by(got: str, want: str) -> float:
    """The largest difference between two ``ER/EP/ED`` strings (a ``>=`` bound read as its value)."""
    return max(abs(float(x.lstrip(">=")) - float(y.lstrip(">="))) for x, y in zip(got.split("/"), want.split("/")))
