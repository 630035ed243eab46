"""The techniques of Sudoku Explainer's rating, as the rating kernels number them, with SE's names.

A step of a solution path carries a technique code and up to three technique-specific numbers
(``a``, ``b``, ``c``: a region, a digit or digit mask, a chain's kind and nesting level...);
:func:`technique_name` turns them into the name Sudoku Explainer prints."""
from __future__ import annotations

HIDDEN_SINGLE = 0
DIRECT_POINTING = 1
DIRECT_CLAIMING = 2
DIRECT_HIDDEN_PAIR = 3
NAKED_SINGLE = 4
DIRECT_HIDDEN_TRIPLET = 5
POINTING = 6
CLAIMING = 7
NAKED_PAIR = 8
X_WING = 9
HIDDEN_PAIR = 10
NAKED_TRIPLET = 11
SWORDFISH = 12
HIDDEN_TRIPLET = 13
XY_WING = 14
XYZ_WING = 15
UNIQUE_LOOP = 16  # a: type 1-4, b: cells in the loop
NAKED_QUAD = 17
JELLYFISH = 18
HIDDEN_QUAD = 19
BUG = 20  # a: type 1-4
ALIGNED_PAIR = 21
CYCLE = 22  # a: 1 X, 2 Y, 3 XY; b: cells (4 X-cells: "Generalized X-Wing")
FORCING_CHAIN = 23  # a: 1 X, 2 Y, 3 XY; b: 1 for a Turbot Fish
ALIGNED_TRIPLET = 24
NISHIO = 25  # the dynamic chains below: c = nesting level (0 none, 1 "+", 2-5 nested)
CELL_FORCING = 26  # b: 1 dynamic
REGION_FORCING = 27  # b: 1 dynamic
CONTRADICTION_FORCING = 28
DOUBLE_FORCING = 29

_PLAIN = {
    HIDDEN_SINGLE: "Hidden Single", DIRECT_POINTING: "Direct Pointing", DIRECT_CLAIMING: "Direct Claiming",
    DIRECT_HIDDEN_PAIR: "Direct Hidden Pair", NAKED_SINGLE: "Naked Single",
    DIRECT_HIDDEN_TRIPLET: "Direct Hidden Triplet", POINTING: "Pointing", CLAIMING: "Claiming",
    NAKED_PAIR: "Naked Pair", X_WING: "X-Wing", HIDDEN_PAIR: "Hidden Pair", NAKED_TRIPLET: "Naked Triplet",
    SWORDFISH: "Swordfish", HIDDEN_TRIPLET: "Hidden Triplet", XY_WING: "XY-Wing", XYZ_WING: "XYZ-Wing",
    NAKED_QUAD: "Naked Quad", JELLYFISH: "Jellyfish", HIDDEN_QUAD: "Hidden Quad",
    ALIGNED_PAIR: "Aligned Pair Exclusion", ALIGNED_TRIPLET: "Aligned Triplet Exclusion",
}

_NESTED = {1: " (+)", 2: " (+ Forcing Chains)", 3: " (+ Multiple Forcing Chains)", 4: " (+ Dynamic Forcing Chains)"}


def nested_suffix(level: int) -> str:
    """Sudoku Explainer's suffix of a chain's name for its nesting level."""
    if level >= 5:
        return " (+ Dynamic Forcing Chains" + nested_suffix(level - 3) + ")"
    return _NESTED.get(level, "")


def technique_name(code: int, a: int = 0, b: int = 0, c: int = 0) -> str:
    """Sudoku Explainer's name of a step."""
    if code in _PLAIN:
        return _PLAIN[code]
    if code == UNIQUE_LOOP:
        kind = "Rectangle" if b == 4 else "Loop"
        size = f" {b}" if b > 6 else ""
        return f"Unique {kind}{size} type {a}"
    if code == BUG:
        return f"BUG type {a}"
    if code == CYCLE:
        if a == 3:
            return "Bidirectional Cycle"
        if a == 2:
            return "Bidirectional Y-Cycle"
        return "Generalized X-Wing" if b == 4 else "Bidirectional X-Cycle"
    if code == FORCING_CHAIN:
        if a == 3:
            return "Forcing Chain"
        if a == 2:
            return "Forcing Y-Chain"
        return "Turbot Fish" if b else "Forcing X-Chain"
    dynamic = code in (NISHIO, CONTRADICTION_FORCING, DOUBLE_FORCING) or b == 1 or c > 0
    prefix = "Nishio " if code == NISHIO else ("Dynamic " if dynamic else "")
    kind = {NISHIO: "Forcing", CELL_FORCING: "Cell Forcing", REGION_FORCING: "Region Forcing",
            CONTRADICTION_FORCING: "Contradiction Forcing", DOUBLE_FORCING: "Double Forcing"}[code]
    return prefix + kind + " Chains" + nested_suffix(c)
