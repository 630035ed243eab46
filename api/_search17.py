"""The 17-clue search from Python: the entry's bands 2 and 3 of a band 1, and every 17-clue
puzzle of a slice of the search (``ss.s17_entry``, ``ss.search17``). Band 1 is given by its rank
in the search's band order (0-415, fewest valid 6-clue sub-puzzles first); a slice is a range of
its bands 2 (``bands2=(start, stop)``), the unit a long run checkpoints (64 bands 2)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


def _slice(bands2) -> tuple[int, int | None]:
    if bands2 is None:
        return 0, None
    try:
        start, stop = (int(v) if v is not None else None for v in bands2)
    except (TypeError, ValueError):
        raise ValueError(f"bands2 is (start, stop), e.g. (0, 64), or None for all; got {bands2!r}") from None
    if start < 0 or (stop is not None and stop < start):
        raise ValueError(f"bands2 must be 0 <= start <= stop, got {bands2!r}")
    return start, stop


def s17_entry(band1_rank: int, variant: str = "A", bands2: tuple[int, int] | None = (0, 64)) -> "pd.DataFrame":
    """The grids of the 17-clue search entry under a slice of bands 2 of one band 1, as
    ``bin/s17-entry`` lists them: a pandas frame with one row per grid (``band2`` and ``band3``,
    27 digits each; ``band3`` None for a band 2 without band 3). ``variant``: ``A`` (566/656),
    ``B`` (665) or ``C`` (a band of 7 or more clues); ``bands2=None`` takes them all (millions
    for most bands 1). The totals of every band 1 are in ``ss.query("s17_entry_table")``.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> entry = ss.s17_entry(0, "A", bands2=(0, 2))
        >>> entry.columns.tolist()
        ['band2', 'band3']
    """
    import pandas as pd

    from .engine.search17 import bands2 as all_bands2, entry_slice
    from .engine.text import format_lines

    start, stop = _slice(bands2)
    sl = entry_slice(variant, int(band1_rank), start, stop, emit=True)
    b2 = format_lines(all_bands2(int(band1_rank), stop=sl.stop)[sl.start:sl.stop])
    b3 = format_lines(sl.bands3) if len(sl.bands3) else []
    rows = []
    k = 0
    for i, n in enumerate(sl.counts.tolist()):
        if n == 0:
            rows.append((b2[i], None))
        for _ in range(n):
            rows.append((b2[i], b3[k]))
            k += 1
    return pd.DataFrame(rows, columns=["band2", "band3"])


def search17(band1_rank: int, variant: str = "A", bands2: tuple[int, int] | None = (0, 64)) -> list[str]:
    """Every 17-clue puzzle that one pass of the search finds under a slice of bands 2 of one
    band 1 (``bin/s17-search``), in canonical (minlex) form, sorted. ``variant`` is the pass:
    ``A`` (5-6-6 / 6-5-6 clues per band), ``B`` (6-6-5) or ``C`` (a chute of 7 or more). A slice of
    64 bands 2 takes seconds to a minute; the whole search is a long run (``bin/s17-search
    --store``, on Dask).

    Examples:
        >>> import sudoku_symmetry as ss
        >>> found = ss.search17(0, "A", bands2=(0, 1))
        >>> all(ss.count(p) == 1 and p.count(".") == 64 for p in found)
        True
    """
    from .engine.canon import canon_puzzles
    from .engine.search17 import search_slice
    from .engine.text import format_lines

    start, stop = _slice(bands2)
    found = search_slice(variant, int(band1_rank), start, stop).puzzles
    if not len(found):
        return []
    return sorted(set(format_lines(canon_puzzles(np.ascontiguousarray(found)).forms)))
