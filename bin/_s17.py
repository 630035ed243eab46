"""What the two 17-clue commands share (``s17-entry``, ``s17-search``): their argument types."""
from __future__ import annotations

import argparse

from sudoku_symmetry.engine.bands import N_BANDS

from ._common import decimal


def parse_ranks(text: str) -> list[int]:
    """``K[,L-M]`` -> band-1 ranks in the order given, without repeats (argparse type). A range
    has both ends (``1-`` is refused, not read as 1)."""
    out: list[int] = []
    try:
        for part in text.split(","):
            lo, dash, hi = part.strip().partition("-")
            a, b = decimal(lo), decimal(hi) if dash else decimal(lo)
            if not (0 <= a <= b < N_BANDS):
                raise ValueError
            out.extend(r for r in range(a, b + 1) if r not in out)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected band-1 ranks 0-415 like 0,5,10-20 (a range K-M has both ends), "
                                         f"got {text!r}") from None
    return out


def parse_variant(text: str) -> str:
    v = text.strip().upper()
    if v not in ("A", "B", "C"):
        raise argparse.ArgumentTypeError(f"variant must be A, B or C, got {text!r}")
    return v
