"""The named results of the canonical-form functions (tuples, so ``form, t, n = ...`` works,
always in this order: form, transformation, automorphism count)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..group.transform import Transform


class CanonBatch(NamedTuple):
    """``forms`` (N, 81) uint8, ``transforms`` (N, SIZE) uint8 with ``apply_batch(transforms,
    inputs) == forms``, ``automorphisms`` (N,) int64 counts."""

    forms: np.ndarray
    transforms: np.ndarray
    automorphisms: np.ndarray


class CanonOne(NamedTuple):
    """One sudoku: ``form`` (81,) uint8, ``transform`` onto it, ``automorphisms`` count."""

    form: np.ndarray
    transform: Transform
    automorphisms: int
