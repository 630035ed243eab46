"""Several drawings on one sheet: boards side by side in rows, each with a caption (a pattern and
the puzzles on it, say). The drawings are this package's SVG documents, nested as they are.

    >>> from sudoku_symmetry.pictures.svg import board_svg, pattern_svg
    >>> s = sheet_svg([pattern_svg("x" + "." * 80), board_svg("1" + "." * 80)], ["the pattern", "a puzzle"])
    >>> s.startswith("<svg") and s.count('class="cell"')
    162
"""
from __future__ import annotations

import re
from html import escape
from typing import Sequence

GAP = 18
CAPTION = 22


def _size(svg: str) -> tuple[float, float]:
    m = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    if not m:
        raise ValueError("a drawing without a width and a height")
    return float(m.group(1)), float(m.group(2))


def sheet_svg(drawings: Sequence[str], captions: Sequence[str] = (), *, columns: int = 4,
              title: str | None = None) -> str:
    """``drawings`` (SVG documents) in rows of ``columns``, each over its caption."""
    if not drawings:
        raise ValueError("a sheet needs at least one drawing")
    sizes = [_size(d) for d in drawings]
    w = max(s[0] for s in sizes)
    h = max(s[1] for s in sizes)
    columns = max(1, min(int(columns), len(drawings)))
    rows = (len(drawings) + columns - 1) // columns
    cell_h = h + (CAPTION if captions else 0)
    width = columns * w + (columns + 1) * GAP
    height = rows * cell_h + (rows + 1) * GAP
    body = []
    for k, svg in enumerate(drawings):
        r, c = divmod(k, columns)
        x = GAP + c * (w + GAP)
        y = GAP + r * (cell_h + GAP)
        inner = re.sub(r"^<svg ", f'<svg x="{x:g}" y="{y:g}" ', svg.strip(), count=1)
        body.append(inner)
        if k < len(captions) and captions[k]:
            body.append(f'<text x="{x + w / 2:g}" y="{y + h + CAPTION * 0.75:g}" font-size="13" text-anchor="middle" '
                        f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" fill="#1b1b1b">{escape(captions[k])}</text>')
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}">')
    t = [f"<title>{escape(title)}</title>"] if title else []
    return "\n".join([head, *t, f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>', *body, "</svg>"])
