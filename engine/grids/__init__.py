"""Essentially different solution grids: random grids for tests and benchmarks (``random``);
next, the enumeration band 1 by band 1 in minlex order, prefix counts and rank <-> grid."""
from .enumeration import Enumerated, band1, enumerate_band1, prefixes, work

__all__ = ["Enumerated", "band1", "enumerate_band1", "prefixes", "work"]
