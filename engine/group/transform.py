"""The validity-preserving transformations of a 9x9 sudoku (see docs/design.md, "The group").

A transformation is ``(transpose, rows, cols, digits)`` with

    out[i][j] = digits[src[rows[i]][cols[j]]],   src = input, or its transpose if ``transpose``

``rows[i]`` is the input row that becomes output row ``i`` (0-based), likewise ``cols``;
``digits`` has 10 entries with ``digits[0] == 0`` so empty cells stay empty. ``rows`` and
``cols`` must keep bands and stacks together (band permutation, then row order inside each band).

Array form (what kernels take): ``uint8[SIZE]`` with named offsets, see :mod:`..core.layout`.
String form (round-trips, 1-based): ``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD`` with ``T`` 0 or 1 and
``DDDDDDDDD`` = digits[1..9], e.g. the identity is ``0:123456789:123456789:123456789``.

``compose(a, b)`` means "apply ``a``, then ``b``".
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np

from . import _kernels as K
from ..core.layout import COLS, DIGITS, ROWS, SIZE, TRANSPOSE

IDENTITY9 = tuple(range(9))
_REV = (8, 7, 6, 5, 4, 3, 2, 1, 0)
_PERM3 = tuple(permutations(range(3)))


def _is_chute_map(m) -> bool:
    """True if ``m`` (length 9) permutes the 3 chutes and the 3 lines inside each chute."""
    if sorted(m) != list(range(9)):
        return False
    return all(len({m[3 * b + k] // 3 for k in range(3)}) == 1 for b in range(3))


@dataclass(frozen=True)
class Transform:
    transpose: bool
    rows: tuple
    cols: tuple
    digits: tuple  # 10 entries, digits[0] == 0

    def __post_init__(self):
        object.__setattr__(self, "transpose", bool(self.transpose))
        object.__setattr__(self, "rows", tuple(int(x) for x in self.rows))
        object.__setattr__(self, "cols", tuple(int(x) for x in self.cols))
        d = tuple(int(x) for x in self.digits)
        if len(d) == 9:
            d = (0,) + d
        object.__setattr__(self, "digits", d)
        if not _is_chute_map(self.rows):
            raise ValueError(f"row map {self.rows} does not keep bands together")
        if not _is_chute_map(self.cols):
            raise ValueError(f"column map {self.cols} does not keep stacks together")
        if len(d) != 10 or d[0] != 0 or sorted(d[1:]) != list(range(1, 10)):
            raise ValueError(f"digit map {d[1:]} is not a permutation of 1-9")

    # -- construction -------------------------------------------------------------------
    @classmethod
    def identity(cls) -> "Transform":
        return cls(False, IDENTITY9, IDENTITY9, range(10))

    @classmethod
    def random(cls, rng: np.random.Generator | None = None) -> "Transform":
        """A uniformly random element of the group (2 x 6^8 position maps x 9! relabelings)."""
        rng = rng if rng is not None else np.random.default_rng()

        def chute_map():
            order = rng.permutation(3)
            return [3 * order[b] + int(p) for b in range(3) for p in rng.permutation(3)]

        digits = [0] + [int(x) + 1 for x in rng.permutation(9)]
        return cls(bool(rng.integers(2)), chute_map(), chute_map(), digits)

    @classmethod
    def from_array(cls, a) -> "Transform":
        a = [int(x) for x in a]
        return cls(bool(a[TRANSPOSE]), a[ROWS : ROWS + 9], a[COLS : COLS + 9], a[DIGITS : DIGITS + 10])

    @classmethod
    def parse(cls, text: str) -> "Transform":
        parts = text.strip().split(":")
        if len(parts) != 4 or parts[0] not in ("0", "1") or any(len(p) != 9 or not (p.isascii() and p.isdigit()) for p in parts[1:]):
            raise ValueError(f"not a transformation string (T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD): {text!r}")
        rows = [int(ch) - 1 for ch in parts[1]]
        cols = [int(ch) - 1 for ch in parts[2]]
        return cls(parts[0] == "1", rows, cols, [0] + [int(ch) for ch in parts[3]])

    @classmethod
    def rotation(cls, n: int = 1) -> "Transform":
        """Rotate 90 degrees clockwise ``n`` times."""
        t = cls.identity()
        quarter = cls(True, IDENTITY9, _REV, range(10))  # out[i][j] = in[8-j][i]
        for _ in range(n % 4):
            t = t.then(quarter)
        return t

    # -- forms --------------------------------------------------------------------------
    def as_array(self) -> np.ndarray:
        a = np.empty(SIZE, np.uint8)
        a[TRANSPOSE] = int(self.transpose)
        a[ROWS : ROWS + 9] = self.rows
        a[COLS : COLS + 9] = self.cols
        a[DIGITS : DIGITS + 10] = self.digits
        return a

    def __str__(self) -> str:
        return ":".join(
            (
                "1" if self.transpose else "0",
                "".join(str(x + 1) for x in self.rows),
                "".join(str(x + 1) for x in self.cols),
                "".join(str(x) for x in self.digits[1:]),
            )
        )

    # -- algebra ------------------------------------------------------------------------
    def then(self, other: "Transform") -> "Transform":
        """``self`` followed by ``other`` (same as ``compose(self, other)``)."""
        return compose(self, other)

    def inverse(self) -> "Transform":
        rinv = _invert(self.rows)
        cinv = _invert(self.cols)
        dinv = _invert(self.digits)
        if self.transpose:  # x[p][q] = dinv[y[rinv[q]][cinv[p]]]
            return Transform(True, cinv, rinv, dinv)
        return Transform(False, rinv, cinv, dinv)

    @property
    def is_identity(self) -> bool:
        return self == Transform.identity()

    # -- action -------------------------------------------------------------------------
    def apply(self, sudokus: np.ndarray) -> np.ndarray:
        """Apply to one sudoku (81,) or a batch (N, 81); returns a new array."""
        arr = np.ascontiguousarray(sudokus, dtype=np.uint8)
        one = arr.ndim == 1
        batch = arr.reshape(-1, 81)
        out = np.empty_like(batch)
        K.apply_one_to_batch(self.as_array(), batch, out)
        return out[0] if one else out

    def apply_band(self, band: np.ndarray) -> np.ndarray:
        """Apply to a band (27,) or (N, 27); needs a map that keeps rows 1-3 in rows 1-3."""
        if self.transpose or sorted(self.rows[:3]) != [0, 1, 2]:
            raise ValueError("this transformation does not map band 1 to itself")
        arr = np.ascontiguousarray(band, dtype=np.uint8)
        one = arr.ndim == 1
        full = np.zeros((arr.reshape(-1, 27).shape[0], 81), dtype=np.uint8)
        full[:, :27] = arr.reshape(-1, 27)
        out = self.apply(full)[:, :27]
        return out[0] if one else out

    # -- people -------------------------------------------------------------------------
    def steps(self) -> list["Step"]:
        """The transformation as steps a person applies in order; composing them gives ``self``.

        Of the two ways to write the rotation (n or n+2 quarter turns), the one with fewer
        steps is chosen.
        """
        best = None
        for n in ((1, 3) if self.transpose else (0, 2)):
            rot = Transform.rotation(n)
            rest = compose(rot.inverse(), self)
            steps = ([Step(f"rotate 90 degrees clockwise {n} time{'s' if n > 1 else ''}", rot)] if n else [])
            steps += _position_steps(rest)
            if best is None or len(steps) < len(best):
                best = steps
        return best


@dataclass(frozen=True)
class Step:
    """One human step: a sentence and the transformation it stands for."""

    text: str
    transform: Transform

    def __str__(self) -> str:
        return self.text


def compose(a: Transform, b: Transform) -> Transform:
    """Apply ``a`` first, then ``b``."""
    d = tuple(b.digits[a.digits[k]] for k in range(10))
    if b.transpose:
        rows = tuple(a.cols[b.rows[i]] for i in range(9))
        cols = tuple(a.rows[b.cols[j]] for j in range(9))
    else:
        rows = tuple(a.rows[b.rows[i]] for i in range(9))
        cols = tuple(a.cols[b.cols[j]] for j in range(9))
    return Transform(a.transpose != b.transpose, rows, cols, d)


def compose_all(transforms) -> Transform:
    t = Transform.identity()
    for x in transforms:
        t = compose(t, x)
    return t


def _invert(m):
    inv = [0] * len(m)
    for i, x in enumerate(m):
        inv[x] = i
    return tuple(inv)


def _one_based(seq) -> str:
    return ",".join(str(x + 1) for x in seq)


def _line_map_transform(kind: str, m) -> Transform:
    if kind == "rows":
        return Transform(False, m, IDENTITY9, range(10))
    return Transform(False, IDENTITY9, m, range(10))


def _position_steps(t: Transform) -> list[Step]:
    """Steps for a transformation without transpose, in the order a person applies them:
    bands, stacks, rows inside bands, columns inside stacks, digits."""
    assert not t.transpose
    chute_steps: list[Step] = []
    line_steps: list[Step] = []
    for kind, lines, line_word, chute_word in (("rows", t.rows, "rows", "bands"), ("cols", t.cols, "columns", "stacks")):
        # lines[3b + k] = 3 * order[b] + inner_b[k]: first the chutes move, then lines inside them
        order = tuple(lines[3 * b] // 3 for b in range(3))
        if order != (0, 1, 2):
            m = tuple(3 * order[b] + k for b in range(3) for k in range(3))
            chute_steps.append(Step(f"reorder {chute_word} to {_one_based(order)}", _line_map_transform(kind, m)))
        for b in range(3):
            inner = tuple(lines[3 * b + k] % 3 for k in range(3))
            if inner != (0, 1, 2):
                m = tuple(3 * b + inner[k] if bb == b else 3 * bb + k for bb in range(3) for k in range(3))
                first = 3 * b + 1
                text = f"reorder {line_word} {first}-{first + 2} to {_one_based(3 * b + x for x in inner)}"
                line_steps.append(Step(text, _line_map_transform(kind, m)))
    steps = chute_steps + line_steps
    if t.digits != tuple(range(10)):
        pairs = " ".join(f"{k}>{t.digits[k]}" for k in range(1, 10) if t.digits[k] != k)
        steps.append(Step(f"relabel digits {pairs}", Transform(False, IDENTITY9, IDENTITY9, t.digits)))
    return steps


def format_transforms(transforms: np.ndarray) -> list[str]:
    """(N, SIZE) array forms -> their string forms, vectorized (same as ``str(Transform.from_array(t))``)."""
    tr = np.asarray(transforms, dtype=np.uint8).reshape(-1, SIZE)
    out = np.empty((len(tr), 31), np.uint8)
    out[:, 0] = tr[:, TRANSPOSE] + ord("0")
    out[:, [1, 11, 21]] = ord(":")
    out[:, 2:11] = tr[:, ROWS : ROWS + 9] + ord("1")
    out[:, 12:21] = tr[:, COLS : COLS + 9] + ord("1")
    out[:, 22:31] = tr[:, DIGITS + 1 : DIGITS + 10] + ord("0")
    blob = out.tobytes().decode("ascii")
    return [blob[k : k + 31] for k in range(0, len(blob), 31)]


def random_transforms(n: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """``n`` uniformly random transformations in array form, shape (n, SIZE)."""
    rng = rng if rng is not None else np.random.default_rng()
    return np.stack([Transform.random(rng).as_array() for _ in range(n)]) if n else np.zeros((0, SIZE), np.uint8)


def apply_batch(transforms: np.ndarray, sudokus: np.ndarray) -> np.ndarray:
    """Apply ``transforms[k]`` (array form, (N, SIZE)) to ``sudokus[k]`` ((N, 81))."""
    t = np.ascontiguousarray(transforms, dtype=np.uint8)
    s = np.ascontiguousarray(sudokus, dtype=np.uint8)
    if t.ndim != 2 or t.shape[1] != SIZE or s.ndim != 2 or s.shape[1] != 81 or len(t) != len(s):
        raise ValueError(f"expected transforms (N, {SIZE}) and sudokus (N, 81)")
    out = np.empty_like(s)
    K.apply_each(t, s, out)
    return out


def compose_batch(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row ``a[k]`` then ``b[k]`` for array forms (N, SIZE)."""
    a = np.ascontiguousarray(a, dtype=np.uint8).reshape(-1, SIZE)
    b = np.ascontiguousarray(b, dtype=np.uint8).reshape(-1, SIZE)
    if len(a) != len(b):
        raise ValueError("compose_batch needs as many transformations on both sides")
    out = np.empty_like(a)
    K.compose_each(a, b, out)
    return out


def invert_batch(t: np.ndarray) -> np.ndarray:
    """Inverses of array forms (N, SIZE)."""
    t = np.ascontiguousarray(t, dtype=np.uint8).reshape(-1, SIZE)
    out = np.empty_like(t)
    K.invert_each(t, out)
    return out
