"""Kernels that several engine families share, in one place: each family's ``_kernels.py`` is
private to it and imports only from here (and ``_bits``, ``_jit``), never from another family.

* ``layout``: the array layout of a transformation (``TRANSPOSE``, ``ROWS``, ``COLS``,
  ``DIGITS``, ``SIZE``) and ``write_transform``, ``copy_transform``, ``apply_into``;
* ``bandkey``: the key of a normalized band (``band_key``, ``rank3``) and the table ``gather``;
* ``chutes``: a grid's chutes judged by band index (``chute_keys``, ``key_verdict``,
  ``stack_verdicts``) and images of a band under automorphisms (``image_band_cmp``, ...);
* ``sets``: cell sets as two-word bit masks (``minimal_sets``).

The core imports no family (``tests/test_layout.py`` checks both rules).
"""
