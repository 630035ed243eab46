"""The 17-clue search entry: for each band 1, the bands 2 and 3 in the search's own band order
(variants A, B, C), each essentially different grid once (``entry``), and the band order itself:
valid 6- and 5-clue counts and minimum clues of the 416 bands (``order``)."""
from .entry import SLICE, VARIANTS, Slice, band1, bands2, entry_chunks, entry_counts, entry_slice
from .order import BandOrder, band_order, valid_count

__all__ = ["SLICE", "VARIANTS", "BandOrder", "Slice", "band1", "band_order", "bands2", "entry_counts",
           "entry_slice", "valid_count", "entry_chunks"]
