"""The 17-clue search entry: for each band 1, the bands 2 and 3 in the search's own band order
(variants A, B, C), each essentially different grid once (``entry``), and the band order itself:
valid 6- and 5-clue counts and minimum clues of the 416 bands (``order``); the search itself:
every 17-clue puzzle of a band-1 slice, pass A, B or C (``passes``, ``search``; one pair of bands
at a time, ``pair``); every puzzle of 16 to 18 clues of one grid (``grid``)."""
from .counters import STAT_NAMES
from .entry import SLICE, VARIANTS, Slice, band1, bands2, entry_chunks, entry_counts, entry_slice
from .order import BandOrder, band_order, valid_count
from .passes import PASSES, Pass, counted_variant, entry_variant, pass_splits
from .search import PassSlice, search_chunks, search_slice

__all__ = ["PASSES", "SLICE", "STAT_NAMES", "VARIANTS", "BandOrder", "Pass", "PassSlice", "Slice", "band1",
           "band_order", "bands2", "counted_variant", "entry_chunks", "entry_counts", "entry_slice", "entry_variant",
           "pass_splits", "search_chunks", "search_slice", "valid_count"]
