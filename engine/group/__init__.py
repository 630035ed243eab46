"""The group of validity-preserving transformations of a sudoku.

``transform``: :class:`Transform` (compose, inverse, apply, string form, human steps) and the
batch functions; ``_kernels``: the array layout's named offsets and the apply / compose /
invert kernels that every other kernel family uses.
"""
from .transform import (Step, Transform, apply_batch, compose, compose_all, compose_batch,
                        format_transforms, invert_batch, random_transforms)
from ._kernels import SIZE

__all__ = ["SIZE", "Step", "Transform", "apply_batch", "compose", "compose_all", "compose_batch",
           "format_transforms", "invert_batch", "random_transforms"]
