"""Draw the rating sample: a fixed-seed choice of puzzles from the shared data files, the
puzzles whose Sudoku Explainer ratings are kept as expected values in ``tests/data/``.

    python bench/rate_sample.py > tests/data/rate_sample.tsv

Each group is one shared file; ``random.Random(SEED).sample`` picks ``k`` distinct line numbers
of the file's puzzle lines (a fresh generator per group, seeded with ``SEED`` and the group's
name, so changing one group's size leaves the others' picks alone), written in file order.
Output: a header naming the seed and the rule, then ``group<TAB>line<TAB>puzzle``
(``line``: 1-based line number in the shared file, puzzle as written there).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

SEED = 45
# group: (shared file, how many); the easy groups first (they rate fast in SE), the forum's
# hardest last (SE takes minutes to hours on each of those)
GROUPS = {
    "norvig_easy50": ("norvig_easy50.txt", 15),
    "sudoku3m": ("sudoku3m_sample7034.txt", 120),
    "norvig_top95": ("norvig_top95.txt", 30),
    "norvig_hardest11": ("norvig_hardest11.txt", 11),
    "top1465": ("top1465.txt", 60),
    "17clue": ("17clue_49158.txt", 60),
    "forum_hardest_1106": ("forum_hardest_1106.txt", 40),
    "forum_hardest_1905_11plus": ("forum_hardest_1905_11plus.txt", 12),
}


def puzzle_lines(path: Path) -> list[tuple[int, str]]:
    """(1-based line number, puzzle) of each non-blank, non-comment line."""
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((number, line.split(":")[0][:81]))
    return out


def draw(data: Path, seed: int = SEED) -> list[tuple[str, int, str]]:
    rows = []
    for group, (name, k) in GROUPS.items():
        lines = puzzle_lines(data / name)
        rng = random.Random(f"{seed}:{group}")
        picks = sorted(rng.sample(range(len(lines)), min(k, len(lines))))
        rows += [(group, *lines[i]) for i in picks]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path,
                    default=Path(os.environ.get("SUDOKU_SHARED_DATA",
                                                Path(__file__).resolve().parent.parent.parent / "shared" / "data")))
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    rows = draw(args.data, args.seed)
    out = sys.stdout
    out.write(f"# rating sample: bench/rate_sample.py --seed {args.seed} over the shared data files\n")
    out.write("# per group: random.Random(f'{seed}:{group}').sample(range(n), k) of the file's n puzzle lines, "
              "in file order\n")
    out.write("# groups (file, k): " + ", ".join(f"{g} ({f}, {k})" for g, (f, k) in GROUPS.items()) + "\n")
    out.write("# group\tline\tpuzzle\n")
    for group, number, puzzle in rows:
        out.write(f"{group}\t{number}\t{puzzle}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
