"""The 416 minlex bands: the band index by table lookup with the transformation onto the
minlex band, automorphisms, gangster classes, random bands (``tables``; kernels in ``_kernels``)."""
from .tables import (N_BANDS, N_GANGSTER_CLASSES, ROW_PROBLEM, BandTables, InvalidBandError, band_compare,
                     band_index, band_index_one, band_tables, build_tables, position_maps, random_bands)

__all__ = ["N_BANDS", "N_GANGSTER_CLASSES", "ROW_PROBLEM", "BandTables", "InvalidBandError", "band_compare",
           "band_index", "band_index_one", "band_tables", "build_tables", "position_maps", "random_bands"]
