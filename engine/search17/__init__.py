"""The 17-clue search entry: for each band 1, the bands 2 and 3 in the search's own band order
(variants A, B, C), each essentially different grid once. Built on ``bands`` and ``group``."""
