"""The project's ratings against Sudoku Explainer's own, on every committed expected value:

- ``tests/data/se_ratings_1213.tsv``: serate 1.2.1.3's ER/EP/ED of the rating sample, per group;
- ``tests/data/se_paths_1213.tsv``: SE's solution paths (every step: technique, difficulty, action);
- ``tests/data/hardest_db_110626_se1213.tsv`` and ``hardest_db_110626.tsv``: the forum's hardest
  database, rated by SE here and as published;
- ``tests/data/se_ratings_2022.tsv`` with ``--line 2022``.

    python bench/rate_check.py [--group G ...] [--max-level N] [--paths] [--hardest N] [--line 2022]

Prints per group: puzzles, ER/EP/ED all equal, within 0.1, CPU seconds; then every difference
(puzzle, ours, SE's). ``--paths``: the first step where a path differs. ``--hardest N``: the N
lowest-ER rows of the published hardest database too (minutes each). Exit 1 if a group is under
99 % exact or a rating is off by more than 0.1.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import se_expected  # noqa: E402  (the readers of the committed expected values)


def rate_one(puzzle: str, max_level: int, line: str, steps: bool = False):
    from sudoku_symmetry.engine.rate import rate
    from sudoku_symmetry.engine.text import parse

    t = time.process_time()
    r = rate(parse(puzzle)[None], max_level=max_level, line=line, steps=steps)[0]
    return r, time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--group", action="append", help="only these groups (repeat)")
    ap.add_argument("--max-level", type=int, default=5)
    ap.add_argument("--line", choices=("1.2.1.3", "2022"), default="1.2.1.3")
    ap.add_argument("--paths", action="store_true", help="compare the solution paths too")
    ap.add_argument("--hardest", type=int, default=0, metavar="N",
                    help="also the N lowest-ER rows of the published hardest database")
    args = ap.parse_args(argv)
    rows = se_expected.ratings("se_ratings_1213.tsv" if args.line == "1.2.1.3" else "se_ratings_2022.tsv")
    if args.line == "1.2.1.3":
        rows += se_expected.ratings("hardest_db_110626_se1213.tsv")
    if args.hardest:
        pub = se_expected.published_hardest()
        pub.sort(key=lambda r: tuple(float(x) for x in r[2].split("/")))
        rows += pub[:args.hardest]
    if args.group:
        rows = [r for r in rows if r[0] in args.group]
    paths = se_expected.paths() if args.paths else {}
    stats: dict[str, list] = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    diffs = []
    bad_path = []
    for group, puzzle, want in rows:
        r, secs = rate_one(puzzle, args.max_level, args.line, steps=puzzle in paths)
        got = str(r)
        s = stats[group]
        s[0] += 1
        s[3] += secs
        if not r.complete:
            s[4] += 1
            diffs.append((group, puzzle, got, want, "bound"))
            continue
        if got == want:
            s[1] += 1
            s[2] += 1
        else:
            if se_expected.off_by(got, want) <= 0.1 + 1e-9:
                s[2] += 1
            diffs.append((group, puzzle, got, want, ""))
        if puzzle in paths:
            mine = [(f"{st.difficulty:.1f}", st.technique, st.action) for st in r.steps]
            d = se_expected.first_difference(mine, paths[puzzle])
            if d is not None:
                bad_path.append((puzzle, *d))
        print(f"{group}\t{puzzle}\t{got}\t{want}\t{secs:.2f}", file=sys.stderr, flush=True)
    failed = False
    print(f"{'group':28s} {'puzzles':>7s} {'exact':>6s} {'<=0.1':>6s} {'bound':>6s} {'CPU-s':>8s}")
    for group, (n, exact, near, secs, bound) in stats.items():
        print(f"{group:28s} {n:7d} {exact:6d} {near:6d} {bound:6d} {secs:8.1f}")
        if bound == 0 and (exact < 0.99 * n or near < n):
            failed = True
    for d in diffs:
        print("differs:", *d)
    if args.paths:
        print(f"paths compared: {sum(1 for _, p, _ in rows if p in paths)}, differ: {len(bad_path)}")
        for b in bad_path:
            print("path differs:", *b)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
