"""SVG drawings of sudokus, written with no dependency: a grid or puzzle (givens bold, optional
candidates in the empty cells), a clue pattern, an unavoidable set on its grid, and two sudokus
side by side with the transformation between them.

Every board has exactly 81 ``<rect class="cell" data-cell="K">`` elements (K = 0..80, row-major),
then the box lines, so a test (or a stylesheet) can find each cell. Values are 81-character
strings: ``1``-``9`` a digit, ``.`` or ``0`` empty, ``x`` a pattern's clue cell.

    >>> s = board_svg("1" + "." * 80)
    >>> s.startswith("<svg") and s.count('class="cell"')
    81
"""
from __future__ import annotations

from html import escape
from typing import Iterable, Sequence

CELL = 36
"""Side of a cell in SVG units; a board is 9 * CELL plus a margin."""
MARGIN = 6
INK = "#1b1b1b"
SOFT = "#6b6b6b"
SHADE = "#f6d7a7"
PATTERN = "#3b6ea8"
FONT = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""


def _check(values: str, what: str = "sudoku") -> str:
    if len(values) != 81:
        raise ValueError(f"a {what} has 81 cells, got {len(values)}")
    return values.replace("0", ".")


def _board(values: str, x0: float, y0: float, *, bold: Iterable[int] = (), shaded: Iterable[int] = (),
           candidates: Sequence[str] | None = None, soft: Iterable[int] = ()) -> list[str]:
    """The SVG elements of one board at (x0, y0): cells, digits, candidates, lines."""
    bold, shaded, soft = set(bold), set(shaded), set(soft)
    out = []
    for k in range(81):
        r, c = divmod(k, 9)
        x, y = x0 + c * CELL, y0 + r * CELL
        v = values[k]
        fill = PATTERN if v == "x" else SHADE if k in shaded else "#ffffff"
        out.append(f'<rect class="cell" data-cell="{k}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                   f'fill="{fill}" stroke="#c8c8c8" stroke-width="0.6"/>')
        if v in "123456789":
            weight = "bold" if k in bold else "normal"
            color = SOFT if k in soft else INK
            out.append(f'<text x="{x + CELL / 2}" y="{y + CELL * 0.72}" font-size="{CELL * 0.62:.1f}" '
                       f'text-anchor="middle" font-weight="{weight}" fill="{color}" {FONT}>{v}</text>')
        elif candidates is not None and v == "." and candidates[k]:
            for d in candidates[k]:
                i = int(d) - 1
                cx, cy = x + CELL * (0.2 + 0.3 * (i % 3)), y + CELL * (0.3 + 0.3 * (i // 3))
                out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{CELL * 0.25:.1f}" text-anchor="middle" '
                           f'fill="{SOFT}" {FONT}>{d}</text>')
    for i in range(10):
        w = 2.2 if i % 3 == 0 else 0
        if w:
            out.append(f'<line x1="{x0}" y1="{y0 + i * CELL}" x2="{x0 + 9 * CELL}" y2="{y0 + i * CELL}" '
                       f'stroke="{INK}" stroke-width="{w}" stroke-linecap="square"/>')
            out.append(f'<line x1="{x0 + i * CELL}" y1="{y0}" x2="{x0 + i * CELL}" y2="{y0 + 9 * CELL}" '
                       f'stroke="{INK}" stroke-width="{w}" stroke-linecap="square"/>')
    return out


def _document(width: float, height: float, body: list[str], title: str | None) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}">')
    t = [f"<title>{escape(title)}</title>"] if title else []
    return "\n".join([head, *t, f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>', *body, "</svg>"])


def board_svg(values: str, *, candidates: Sequence[str] | None = None, title: str | None = None) -> str:
    """A grid or puzzle: every digit is a given and drawn bold; with ``candidates`` (81 strings of
    digits, '' for filled cells) the empty cells show them small, in a 3x3 keypad layout."""
    values = _check(values)
    if candidates is not None and len(candidates) != 81:
        raise ValueError(f"candidates: 81 entries expected, got {len(candidates)}")
    side = 9 * CELL + 2 * MARGIN
    givens = [k for k, v in enumerate(values) if v in "123456789"]
    return _document(side, side, _board(values, MARGIN, MARGIN, bold=givens, candidates=candidates), title)


def pattern_svg(pattern: str, *, title: str | None = None) -> str:
    """A clue pattern: clue cells filled (any of ``x`` or a digit marks a clue)."""
    pattern = _check(pattern, "pattern")
    cells = "".join("x" if v != "." else "." for v in pattern)
    side = 9 * CELL + 2 * MARGIN
    return _document(side, side, _board(cells, MARGIN, MARGIN), title)


def unavoidable_svg(grid: str, cells: Iterable[int] | str, *, title: str | None = None) -> str:
    """An unavoidable set on its grid: the set's cells shaded with their digits bold, the rest of
    the grid in grey. ``cells`` are indices 0..80, or an 81-character line with the set's digits
    and ``.`` elsewhere (``bin/unavoidable``'s output)."""
    grid = _check(grid, "grid")
    if isinstance(cells, str):
        cells = [k for k, v in enumerate(_check(cells, "set")) if v != "."]
    ua = sorted(set(int(k) for k in cells))
    if any(not 0 <= k < 81 for k in ua):
        raise ValueError("cells of a set are 0..80")
    side = 9 * CELL + 2 * MARGIN
    rest = [k for k in range(81) if k not in set(ua)]
    return _document(side, side, _board(grid, MARGIN, MARGIN, bold=ua, shaded=ua, soft=rest),
                     title or f"an unavoidable set of {len(ua)} cells")


def pair_svg(a: str, b: str, *, caption: Sequence[str] = (), title: str | None = None) -> str:
    """Two sudokus side by side, an arrow from the first to the second, and ``caption`` lines
    below (the transformation and its steps, say)."""
    a, b = _check(a), _check(b)
    side = 9 * CELL
    gap = 3 * CELL
    width = 2 * side + gap + 2 * MARGIN
    line_h = CELL * 0.5
    height = side + 2 * MARGIN + (len(caption) * line_h + CELL * 0.4 if caption else 0)
    body = _board(a, MARGIN, MARGIN, bold=[k for k, v in enumerate(a) if v != "."])
    body += _board(b, MARGIN + side + gap, MARGIN, bold=[k for k, v in enumerate(b) if v != "."])
    ax, ay = MARGIN + side + gap * 0.2, MARGIN + side / 2
    bx = MARGIN + side + gap * 0.8
    body.append(f'<line x1="{ax:g}" y1="{ay:g}" x2="{bx - 8:g}" y2="{ay:g}" stroke="{INK}" stroke-width="2.5"/>')
    body.append(f'<polygon points="{bx:g},{ay:g} {bx - 12:g},{ay - 7:g} {bx - 12:g},{ay + 7:g}" fill="{INK}"/>')
    for i, text in enumerate(caption):
        y = MARGIN + side + CELL * 0.4 + (i + 0.8) * line_h
        body.append(f'<text x="{MARGIN}" y="{y:g}" font-size="{CELL * 0.36:.1f}" fill="{INK}" '
                    f'font-family="DejaVu Sans Mono, monospace">{escape(text)}</text>')
    return _document(width, height, body, title)
