"""Plots of catalog data with matplotlib (optional: the ``plot`` extra). Each function takes
plain numbers and returns a matplotlib ``Figure``; :func:`save` writes it as SVG or PNG.

matplotlib is imported inside :func:`_pyplot` only, with the ``Agg`` backend (no display), so
importing this module costs nothing and a missing matplotlib is one clear
:class:`MissingDependency` message.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

INSTALL_HINT = "pip install 'sudoku-symmetry[plot]' (or: pip install matplotlib)"


class MissingDependency(RuntimeError):
    """matplotlib is not installed."""


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependency(f"plots need matplotlib: {INSTALL_HINT}") from None
    return plt


def _figure(width: float = 10.0, height: float = 4.0):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    ax.grid(True, axis="y", alpha=0.3)
    return fig, ax


def grids_per_band1(band1: Sequence[int], grids: Sequence[int]):
    """416 bars: the essentially different grids of each band 1 (log scale; bands with no grid
    are left empty and counted in the title)."""
    fig, ax = _figure()
    shown = [(b, g) for b, g in zip(band1, grids) if g > 0]
    ax.bar([b for b, _ in shown], [g for _, g in shown], width=1.0, color="#3b6ea8")
    ax.set_yscale("log")
    ax.set_xlim(-1, 416)
    ax.set_xlabel("band 1 (minlex index, 0-415)")
    ax.set_ylabel("ED grids")
    empty = len(band1) - len(shown)
    ax.set_title(f"Essentially different grids per band 1: {sum(grids):,} over {len(band1)} bands 1"
                 + (f" ({empty} with none)" if empty else ""))
    return fig


def automorphism_histogram(histogram: Mapping[int, int]):
    """Grids per automorphism group size (log scale), one bar per size that occurs."""
    fig, ax = _figure(8.0, 4.0)
    sizes = sorted(histogram)
    xs = range(len(sizes))
    bars = ax.bar(xs, [histogram[s] for s in sizes], color="#a84f3b")
    ax.bar_label(bars, labels=[f"{histogram[s]:,}" for s in sizes], fontsize=7, rotation=90, padding=2)
    ax.set_xticks(list(xs), [str(s) for s in sizes])
    ax.set_yscale("log")
    ax.set_ylim(top=max(histogram.values()) * 50)
    ax.set_xlabel("automorphisms of the grid")
    ax.set_ylabel("ED grids")
    ax.set_title(f"Automorphism histogram of {sum(histogram.values()):,} essentially different grids")
    return fig


def s17_entry(ranks: Sequence[int], bands2: Sequence[int], bands3_a: Sequence[int],
              bands3_c: Sequence[int | None]):
    """The 17-clue search entry by band-1 rank: bands 2, and bands 3 of variants A and C."""
    fig, ax = _figure()
    ax.plot(ranks, bands2, ".", ms=3, label=f"bands 2 ({sum(bands2):,})", color="#3b6ea8")
    ax.plot(ranks, bands3_a, ".", ms=3, label=f"A: bands 3 ({sum(bands3_a):,})", color="#a84f3b")
    c = [(r, v) for r, v in zip(ranks, bands3_c) if v is not None]
    if c:
        ax.plot([r for r, _ in c], [v for _, v in c], ".", ms=3,
                label=f"C: bands 3 ({sum(v for _, v in c):,})", color="#4f8a3b")
    ax.set_yscale("log")
    ax.set_xlabel("band-1 rank in the search order (fewest valid 6-clue sub-puzzles first)")
    ax.set_ylabel("count")
    ax.set_title(f"The 17-clue search entry, {len(ranks)} bands 1")
    ax.legend(loc="lower left")
    return fig


def pattern_counts(burnside: Mapping[int, int], stored: Mapping[int, int]):
    """ED clue patterns per number of cells: the exact count by Burnside's lemma (a line over
    0-81 cells) and the patterns the catalog holds (enumerated; points)."""
    fig, ax = _figure()
    cells = sorted(burnside)
    ax.plot(cells, [burnside[n] for n in cells], "-", color="#3b6ea8", label="Burnside (exact)")
    if stored:
        ks = sorted(stored)
        ax.plot(ks, [stored[n] for n in ks], "o", color="#a84f3b", label="enumerated, in the catalog")
    ax.set_yscale("log")
    ax.set_xlabel("cells in the pattern")
    ax.set_ylabel("essentially different patterns")
    peak = max(cells, key=lambda n: burnside[n])
    ax.set_title(f"Essentially different clue patterns (largest at {peak} cells: {burnside[peak]:.3e})")
    ax.legend(loc="upper left")
    return fig


def rating_histogram(er: Sequence[float], counts: Sequence[int], title: str = "stored puzzles"):
    """How many puzzles have each Sudoku Explainer rating (ER, in steps of 0.1), log scale."""
    fig, ax = _figure()
    ax.bar(list(er), list(counts), width=0.08, color="#3b6ea8")
    ax.set_yscale("log")
    ax.set_xlabel("ER (Sudoku Explainer rating)")
    ax.set_ylabel("puzzles")
    total = sum(counts)
    ax.set_title(f"Sudoku Explainer ratings of {total:,} {title}")
    return fig


def save(fig, path: str | Path) -> Path:
    """Write ``fig`` as SVG or PNG (by the file's suffix); returns the path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"{path}: the file name must end in .svg or .png")
    fig.savefig(path, format=suffix[1:], dpi=150 if suffix == ".png" else None)
    _pyplot().close(fig)
    return path
