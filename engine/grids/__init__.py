"""Essentially different solution grids: the enumeration band 1 by band 1 in minlex order with
counts per row-4 prefix (``enumeration``, kernels in ``_kernels``), catalog rank <-> grid from
those counts (``rank``), and random grids for tests and benchmarks (``random``)."""
from .enumeration import Enumerated, band1, band1_chunks, enumerate_band1, prefixes
from .rank import N_ED_GRIDS, MissingBand, RankIndex, grid_at, rank_of

__all__ = ["N_ED_GRIDS", "Enumerated", "MissingBand", "band1", "enumerate_band1", "grid_at", "prefixes",
           "RankIndex", "rank_of", "band1_chunks"]
