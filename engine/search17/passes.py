"""The three passes of the 17-clue search as data: one record per pass, the one place where they
differ.

A pass fixes how a puzzle's 17 clues fall on the bands of the entry's grids (band 1 rows 1-3,
band 2 rows 4-6, band 3 rows 7-9, as ``entry`` writes them):

* **A** (entry A): 5-6-6 or 6-5-6, no stack above 6 clues (so band 3 holds 6);
* **B** (entry B: A's grids with bands 2 and 3 exchanged, so band 2 has the higher rank):
  6-5-6, no stack above 6, which is A's 6-6-5 read in B's frame. A grid whose three bands all
  have band 1's index is not in B (exchanged, its pair may be another of the list): pass A
  searches its 6-6-5 too (``six_six_five``);
* **C** (entry C, band 3 free): band 3 holds 7 or more clues, any stacks. In entry C every band
  and stack of every ED grid is band 3 once, so this is every puzzle with a chute of 7+.

A puzzle with all chutes at most 6 has the clue counts 5, 6, 6 in some order on the bands of its
grid's entry representation, so it is in exactly one of A and B, at its grid's band-1 rank; a
puzzle with a chute of 7+ is in C at the rank of each such chute's parallel pair.

    >>> from sudoku_symmetry.engine.search17.passes import PASSES
    >>> PASSES["B"].splits, PASSES["B"].stack_cap
    (((6, 5, 6),), 6)
"""
from __future__ import annotations

from dataclasses import dataclass

STACK_CAP = 6
"""Most clues a stack may hold in passes A and B (and in the low arrangements of a grid)."""
NO_CAP = 99
"""No stack cap (pass C, the high arrangements)."""
K12 = 5
"""Digits per refilling up to which the pair's UAs are refilled cell by cell (2..5); larger
refillings come from the solver (``solver_digits``), much faster there."""


@dataclass(frozen=True)
class Pass:
    """One pass of the search.

    ``splits``: the clue counts (band 1, band 2, band 3) it searches, before the bands' fewest
    fixing clues cut them (:func:`pass_splits`); ``stack_cap``: the most clues a stack may hold;
    ``entry``: the entry variant whose grids it searches; ``counted``: the entry whose
    per-band-1 counts size it (the shipped table has A and C; B holds A's grids but a few);
    ``solver_digits``: the sizes (digits per refilling) of the pair's UAs that come from the
    solver, the smaller ones cell by cell; ``six_six_five``: the splits searched again, with
    bands 2 and 3 exchanged, on the grids whose three bands all have band 1's index (entry B
    leaves those out); ``exchange_from``: the band-1 rank from which the splits with more clues
    in band 1 than in band 2 are searched on the pair (band 2, band 1) (None: never)."""

    name: str
    splits: tuple
    stack_cap: int
    entry: str
    counted: str
    solver_digits: tuple
    six_six_five: tuple = ()
    exchange_from: int | None = None


PASSES = {
    "A": Pass("A", ((5, 6, 6), (6, 5, 6)), STACK_CAP, "A", "A", (K12, 6, 7),
              # each grid (band 1, band 2, band 3) searched as the pair (band 1, band 3) with band 2
              # as its one band 3: 6-5-6 there is 6-6-5 in A's layout (6+5 clues into the XY step:
              # 6+6 on A's own pair cost six times as much on A:411's grid)
              six_six_five=((6, 5, 6),)),
    "B": Pass("B", ((6, 5, 6),), STACK_CAP, "B", "A", (K12, 6, 7)),
    # C's splits put 10 clues or fewer in bands 1+2, so its XY step meets few pair UAs: the 6- and
    # 7-digit ones (about 27 ms a pair) leave the same candidates and cost more than they save.
    # Exchanged from rank 8 on: a split's cost grows with band 1's valid sets, each expanded into
    # band 2; below rank 8 band 1 has the fewest valid sets and the exchange (a second pair's UAs
    # per pair) costs more than it saves.
    "C": Pass("C", tuple((x, 17 - z - x, z) for z in range(7, 18) for x in range(0, 18 - z)), NO_CAP, "C", "C",
              (K12,), exchange_from=8),
}
"""The passes by name."""


def check_pass(pass_: str) -> str:
    """The pass's name in capitals, or ValueError."""
    p = str(pass_).upper()
    if p not in PASSES:
        raise ValueError(f"pass must be one of {', '.join(PASSES)}, got {pass_!r}")
    return p


def entry_variant(pass_: str) -> str:
    """The entry whose grids a pass searches."""
    return PASSES[check_pass(pass_)].entry


def counted_variant(pass_: str) -> str:
    """The entry whose per-band-1 counts size a pass: A's for A and B, C's for C."""
    return PASSES[check_pass(pass_)].counted


def fitting(splits, min1: int, min2: int) -> list[tuple[int, int, int]]:
    """The splits whose bands 1 and 2 get at least their fewest fixing clues (fewer can meet no
    band's fixing sets, so they cannot fix it)."""
    return [(x, y, z) for x, y, z in splits if x >= min1 and y >= min2]


def pass_splits(pass_: str, min1: int, min2: int) -> list[tuple[int, int, int]]:
    """Clue counts (band 1, band 2, band 3) a pass searches, given the fewest clues that fix
    bands 1 and 2."""
    return fitting(PASSES[check_pass(pass_)].splits, min1, min2)
