"""Clue patterns and configurations: restricted growth sequences, generic orbit filtering,
the box-first canonical order, enumeration of essentially different patterns, Burnside counts.

``rgs``: relabel digits in order of first appearance (batch kernel), rank / unrank / enumerate
restricted growth sequences, their count S(n,1) + ... + S(n,9).
``orbits``: one representative (the extreme member under a key) and the size of each orbit of
a group given by generator permutations on 0..M-1, walking each orbit once with a visited
bitmap (10^7 elements in about half a second).
``canonical``: the box-first canonical form (occupancy, counts per box, cells box by box, digits
as an RGS) by a stabilizer chain, with automorphism counts and the map onto the form.
``enumeration``: every ED pattern of n cells and ED configuration of n clues, once each, in
canonical form, by orderly generation that drops non-canonical prefixes box by box.
``burnside``: the number of ED patterns of n cells for n = 0..81 from the cycle types of the
group's conjugacy classes (exact, in milliseconds). ``_kernels`` holds the chain's tables and
kernels, ``_rgs_kernels`` and ``_orbit_kernels`` the others.
"""
from .burnside import pattern_count, pattern_counts
from .canonical import BoxFirstForms, canonical_forms, format_cells, parse_line
from .enumeration import count, enumerate_all, occupancy_groups, pattern_chunks, units
from .orbits import Orbits, orbit_representatives
from .rgs import enumerate_rgs, rank, relabel, unrank

__all__ = ["BoxFirstForms", "Orbits", "canonical_forms", "count", "enumerate_all", "enumerate_rgs", "format_cells",
           "occupancy_groups", "orbit_representatives", "parse_line", "pattern_count", "pattern_counts", "rank",
           "relabel", "units", "unrank", "pattern_chunks"]
