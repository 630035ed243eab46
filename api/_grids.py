"""Bands and the catalog's grids beyond rank <-> grid: a band's minlex form with the
transformation onto it (``ss.band``), and every essentially different grid of a band 1 in
catalog order (``ss.ed_grids``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ._inputs import items

if TYPE_CHECKING:
    from .engine.group.transform import Transform


class BandForm(NamedTuple):
    """A band's index (0-415), its minlex band (27 digits) and a transformation taking the band
    onto it (rows 4-9 untouched)."""

    index: int
    minlex: str
    transform: "Transform"


def band(x: Any) -> Any:
    """The index, minlex form and transformation onto it of each band (27 cells: 3 full rows), as
    ``bin/band`` prints them: a `BandForm` for one band, a list for many.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> b = ss.band("123456789457893612986217354")
        >>> b.index, b.minlex
        (415, '123456789457893612986217354')
        >>> str(ss.band("456789123789123456123456789").transform)
        '0:123456789:123456789:789123456'
    """
    from ._functions import _bands
    from .engine.bands import band_tables
    from .engine.group.transform import Transform

    it = items(x, 27, "band")
    got, transforms = _bands(it)
    T = band_tables()
    out = [BandForm(int(i), T.minlex_string(int(i)), Transform.from_array(t)) for i, t in zip(got, transforms)]
    return it.values(out, as_array=False)


def ed_grids(band1: int) -> list[str]:
    """Every essentially different grid whose band 1 is minlex band ``band1`` (0-415), in catalog
    order (ranks ``first .. first + count - 1``), as ``bin/enumerate --band1`` writes them; band 0
    has 1,007,170 of them (seconds), band 415 one, 15 bands none.

    Examples:
        >>> import sudoku_symmetry as ss
        >>> ss.ed_grids(415) == [ss.grid(5_472_730_538)]
        True
        >>> len(ss.ed_grids(410))
        3
    """
    from .engine.grids import enumerate_band1
    from .engine.text import format_lines

    if isinstance(band1, bool) or not isinstance(band1, (int, np.integer)) or not 0 <= band1 <= 415:
        raise ValueError(f"band1 must be a minlex band index from 0 to 415, got {band1!r}")
    return format_lines(enumerate_band1(int(band1), emit=True).grids)
