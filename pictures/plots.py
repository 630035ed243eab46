"""Plots of catalog data with matplotlib (optional: the ``plot`` extra). Each function takes
plain numbers and returns a matplotlib ``Figure``; :func:`save` writes it as SVG or PNG.

The figures are ``matplotlib.figure.Figure`` objects made directly, never through pyplot: no
backend is chosen or switched, so the user's own plots (``plt.show()``, a notebook's inline
plots) behave as before, and a figure is not kept in pyplot's list of open figures. A notebook
shows one as a PNG (``_repr_png_``). matplotlib is imported at the first plot only, so
importing this module costs nothing and a missing matplotlib is one clear
:class:`MissingDependency` message.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence


def install_hint() -> str:
    """How to install matplotlib here: the plot extra of this checkout (an editable install), or
    from PyPI."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "pictures").is_dir():
        return f".venv/bin/pip install -e '.[plot]' in {checkout} (or: pip install matplotlib)"
    return "pip install 'sudoku-symmetry[plot]' (or: pip install matplotlib)"


class MissingDependency(RuntimeError):
    """matplotlib is not installed."""


@lru_cache(maxsize=None)
def figure_class():
    """``matplotlib.figure.Figure`` with a PNG drawing for notebooks (a figure made without
    pyplot has none)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependency(f"plots need matplotlib: {install_hint()}") from None

    class PlotFigure(Figure):
        """A matplotlib figure that a notebook shows (as PNG) when it is a cell's value."""

        def _repr_png_(self) -> bytes:
            import io

            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=100)
            return buf.getvalue()

    return PlotFigure


def _figure(width: float = 10.0, height: float = 4.0):
    fig = figure_class()(figsize=(width, height), layout="constrained")
    ax = fig.subplots()
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


def save(fig, path: str | Path) -> Path:
    """Write ``fig`` as SVG or PNG (by the file's suffix); returns the path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"{path}: the file name must end in .svg or .png")
    fig.savefig(path, format=suffix[1:], dpi=150 if suffix == ".png" else None)
    return path
