"""The pictures of docs/making-puzzles.md, made again from the seeds and the committed shards.

    python bench/making_puzzles_figures.py [--out docs/img]

* ``making-puzzles-<symmetry>.svg``: the first puzzle of ``bin/generate --count 1 --seed 1
  --symmetry NAME`` for a few symmetries;
* ``making-puzzles-clues.svg``: the share of puzzles per clue count of the 1,000,000 of
  ``bench/berthier_topdown.py`` (seed 2026) from uniform grids and of the 1,000,000 from the
  randomised fill's grids, with Berthier's mean and standard deviation for 1,000,000 suexg
  puzzles drawn as the normal curve they define, for comparison.

Needs matplotlib (the ``plot`` extra); drawn on a Figure object, no backend is switched.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

from berthier_topdown import BERTHIER, OUT as SHARDS

ROOT = Path(__file__).resolve().parent.parent
SYMMETRIES = ("none", "rotate180", "diagonal", "dihedral")


def puzzles(out: Path) -> None:
    import sudoku_symmetry as ss
    from sudoku_symmetry.pictures.svg import board_svg

    for name in SYMMETRIES:
        p = ss.generate(1, seed=1, symmetry=name)[0]
        title = f"{81 - p.count('.')} givens, symmetry {name}"
        (out / f"making-puzzles-{name}.svg").write_text(board_svg(p, title=title))


def _hist(prefix: str) -> np.ndarray:
    shards = [json.loads(p.read_text()) for p in sorted(SHARDS.glob(f"{prefix}_*.json"))]
    return np.sum([s["hist"] for s in shards], axis=0)


def clue_plot(out: Path, seed: int = 2026) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4))
    ax = fig.add_subplot()
    k = np.arange(82)
    lo, hi = 81, 0
    for shift, prefix, what, color in ((-0.2, f"seed{seed}", "uniform grids", "#4c72b0"),
                                      (0.2, f"fill-seed{seed}", "a randomised fill's grids", "#55a868")):
        hist = _hist(prefix)
        n = int(hist.sum())
        ks = np.flatnonzero(hist)
        lo, hi = min(lo, ks.min()), max(hi, ks.max())
        mean = float((hist * k).sum() / n)
        sd = float(((hist * (k - mean) ** 2).sum() / (n - 1)) ** 0.5)
        ax.bar(ks + shift, hist[ks] / n, width=0.4, color=color,
               label=f"{n:,} puzzles from {what}: mean {mean:.3f}, sd {sd:.3f}")
    ks = np.arange(lo, hi + 1)
    xs = np.linspace(lo - 0.5, hi + 0.5, 200)
    m, s = BERTHIER["mean"], BERTHIER["sd"]
    ax.plot(xs, np.exp(-0.5 * ((xs - m) / s) ** 2) / (s * math.sqrt(2 * math.pi)), color="#dd8452",
            label=f"Berthier, 1,000,000 suexg puzzles: mean {m}, sd {s} (normal curve)")
    ax.set_xlabel("givens of a minimal puzzle made top-down")
    ax.set_ylabel("share of puzzles")
    ax.set_xticks(ks)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "making-puzzles-clues.svg", metadata={"Date": None})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs" / "img"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    puzzles(out)
    clue_plot(out)


if __name__ == "__main__":
    main()
