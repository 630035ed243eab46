"""Clue patterns and configurations: every essentially different one of n cells, their number
by Burnside's lemma, and the box-first canonical form (``ss.patterns``, ``ss.pattern_count``,
``ss.pattern_canon``). A pattern is written with ``x`` for a clue cell and ``.`` for an empty
one; a configuration with its digits."""
from __future__ import annotations

from typing import Any


def patterns(cells: int, digits: bool = False) -> list[str]:
    """Every essentially different clue pattern of ``cells`` cells (``digits=True``: every
    essentially different configuration of that many clues, digits placed with no row, column or
    box conflict), each once, in box-first canonical form, as ``bin/patterns --cells N`` prints
    them. Their number grows fast: 21 patterns of 3 cells, 2,499,689 of 10 (seconds).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> len(ss.patterns(3)), len(ss.patterns(2, digits=True))
        (21, 7)
        >>> ss.patterns(1)
        ['x................................................................................']
    """
    from .engine.patterns import enumerate_all, format_cells

    if isinstance(cells, bool) or not isinstance(cells, int) or not 0 <= cells <= 81:
        raise ValueError(f"cells must be a whole number from 0 to 81, got {cells!r}")
    return format_cells(enumerate_all(cells, digits=bool(digits)).cells, bool(digits))


def pattern_count(cells: int) -> int:
    """The number of essentially different clue patterns of ``cells`` cells (0-81), exact, by
    Burnside's lemma over the group's cycle types (no enumeration: milliseconds).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> [ss.pattern_count(n) for n in range(5)]
        [1, 1, 5, 21, 109]
        >>> ss.pattern_count(40) > 10**15
        True
    """
    from .engine.patterns import pattern_count as count

    if isinstance(cells, bool) or not isinstance(cells, int) or not 0 <= cells <= 81:
        raise ValueError(f"cells must be a whole number from 0 to 81, got {cells!r}")
    return int(count(cells))


def pattern_canon(x: Any) -> Any:
    """The box-first canonical form of each pattern (``x`` a clue, ``.`` or ``0`` empty) or
    configuration (digits), the same for every copy; one string in, one out; a list in, a list
    out. A puzzle's digits are kept as a configuration (relabelled in order of appearance).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.pattern_canon("x" + "." * 79 + "x") == ss.pattern_canon("." * 8 + "x" + "." * 63 + "x" + "." * 8)
        True
    """
    from .engine.patterns import canonical_forms, format_cells
    from .engine.patterns.canonical import parse_line

    one = isinstance(x, str)
    lines = [x] if one else list(x)
    out = []
    for k, line in enumerate(lines):
        try:
            cells, digits = parse_line(line)
        except ValueError as exc:
            raise ValueError(f"{exc}" if one else f"item {k}: {exc}") from None
        out.append(format_cells(canonical_forms(cells, digits=digits).cells, digits)[0])
    return out[0] if one else out
