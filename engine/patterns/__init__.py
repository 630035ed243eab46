"""Clue patterns and configurations: restricted growth sequences, generic orbit filtering,
the box-first canonical order, enumeration of essentially different patterns, Burnside counts."""
