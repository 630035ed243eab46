"""One sudoku or many, in whatever form the caller holds them, to one (N, width) uint8 batch and
back: the results come out in the caller's form and order.

One: an 81-character string (``1``-``9`` given; ``.``, ``0``, ``*`` empty), 9 lines of 9
cells (spaces and ``|`` ``-`` ``+`` layout allowed), an array of shape (81,) or (9, 9), a
`Sudoku`. Many: a list or tuple of those, a NumPy array of strings, an
integer array of shape (N, 81) or (N, 9, 9), a pandas Series. Bands: the same with 27 cells,
(3, 9), 3 lines. A bad item raises ValueError naming it (``item 3: ...``; a Series item by its
index label) and what is wrong with it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .engine.text import SudokuFormatError, format_lines, format_sudoku, parse, parse_one

ONE_TEXT, ONE_ARRAY, ONE_SUDOKU, LIST, ARRAY_TEXT, BATCH, SERIES = range(7)


@dataclass
class Items:
    """The batch and how to give results back in the caller's form."""

    batch: np.ndarray  # (N, width) uint8, 0 = empty
    form: int  # ONE_TEXT ... SERIES
    shape: tuple = ()  # the array shape of one item as given: (81,), (9, 9), ...
    kinds: Sequence[int] = ()  # per item of a LIST: ONE_TEXT, ONE_ARRAY or ONE_SUDOKU
    series: Any = None  # the pandas Series (its index and name)

    @property
    def one(self) -> bool:
        return self.form in (ONE_TEXT, ONE_ARRAY, ONE_SUDOKU)

    def sudokus(self, out: np.ndarray, found: np.ndarray | None = None):
        """(N, width) uint8 results, one per item, in the caller's form: a string for a string,
        an array of the item's shape for an array, a Sudoku for a Sudoku; ``None`` where
        ``found`` is False."""
        ok = np.ones(len(out), bool) if found is None else np.asarray(found, bool)
        if self.form in (ONE_TEXT, ONE_ARRAY, ONE_SUDOKU):
            return _one(out[0], self.form, self.shape) if ok[0] else None
        if self.form == BATCH:
            res = out.reshape((len(out),) + self.shape)
            return res if found is None else _with_none(list(res), ok, object)
        if self.form == LIST:
            return [_one(o, k, s) if g else None for o, k, s, g in zip(out, self.kinds, self.shape, ok)]
        texts = format_lines(out)
        if self.form == ARRAY_TEXT:
            return np.array(texts) if ok.all() else _with_none(texts, ok, object)
        return self._series([t if g else None for t, g in zip(texts, ok)])

    def values(self, vals: Sequence, as_array: bool = True):
        """Per-item values (numbers, flags, objects): the value for one item, a list for a list,
        an array for an array (``as_array``; else a list), a Series for a Series."""
        if self.one:
            v = vals[0]
            return v.item() if isinstance(v, np.generic) else v
        if self.form == LIST or (self.form in (BATCH, ARRAY_TEXT) and not as_array):
            return [v.item() if isinstance(v, np.generic) else v for v in vals]
        if self.form == SERIES:
            return self._series(list(vals))
        return np.asarray(vals) if as_array else list(vals)

    def _series(self, data: list):
        import pandas as pd

        dtype = object if any(v is None for v in data) else None  # None stays None (not NaN)
        return pd.Series(data, index=self.series.index, name=self.series.name, dtype=dtype)


def _with_none(items: list, ok: np.ndarray, dtype) -> np.ndarray:
    out = np.empty(len(items), dtype)
    for k, (x, g) in enumerate(zip(items, ok)):
        out[k] = x if g else None
    return out


def _one(cells: np.ndarray, kind: int, shape: tuple):
    if kind == ONE_TEXT:
        return format_sudoku(cells)
    if kind == ONE_SUDOKU:
        from ._sudoku import Sudoku

        return Sudoku(cells)
    return cells.reshape(shape).copy()


def _label(k, series) -> str:
    return f"item {series.index[k]!r}" if series is not None else f"item {k}"


def _cells_of_text(text: str, width: int) -> np.ndarray:
    """One string: a line of ``width`` cells, or ``width // 9`` lines of 9 (layout allowed)."""
    body = [ln.strip() for ln in text.strip().splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if len(body) <= 1:
        return parse(text, width)
    if width == 81:
        return parse_one(text)
    cells = "".join(ch for ln in body for ch in ln if ch not in " \t|+-")
    return parse(cells, width)


def _cells_of_array(a: np.ndarray, width: int) -> np.ndarray:
    """One numeric array of ``width`` cells (or ``width // 9`` rows of 9) -> (width,) uint8."""
    if a.size != width or a.shape not in ((width,), (width // 9, 9)):
        raise ValueError(f"expected an array of shape ({width},) or ({width // 9}, 9), got shape {a.shape}")
    return _digits(a.reshape(1, width))[0]


def _digits(a: np.ndarray) -> np.ndarray:
    """(N, width) numbers -> uint8, each 0 (empty) or 1-9; raises naming the first bad cell."""
    if a.dtype.kind == "b" or a.dtype.kind not in "iuf":
        raise ValueError(f"expected whole numbers 0-9 as cells, got an array of {a.dtype}")
    bad = (a < 0) | (a > 9) | (a != np.floor(a)) if a.dtype.kind == "f" else (a < 0) | (a > 9)
    if bad.any():
        k, c = (int(x) for x in np.argwhere(bad)[0])
        raise _ItemError(k, f"cell {c + 1} holds {a[k, c].item()!r}; cells are 0 (empty) or 1-9")
    return a.astype(np.uint8)


class _ItemError(ValueError):
    def __init__(self, k: int, message: str):
        self.k, self.message = k, message
        super().__init__(message)


def _single(x, width: int):
    """(cells (width,), kind, shape) of one item, or None when ``x`` is not one."""
    from ._sudoku import Sudoku

    if isinstance(x, Sudoku):
        if width != 81:
            raise ValueError(f"expected a band of {width} cells, got a Sudoku")
        return x.cells.copy(), ONE_SUDOKU, (81,)  # writable: kernels compiled for read-only arrays differ
    if isinstance(x, str):
        return _cells_of_text(x, width), ONE_TEXT, ()
    if isinstance(x, bytes):
        return _cells_of_text(x.decode("ascii", "replace"), width), ONE_TEXT, ()
    return None


def items(x, width: int = 81, what: str = "sudoku") -> Items:
    """Read one or many sudokus (``width`` 81) or bands (27); see the module docstring."""
    try:
        one = _single(x, width)
    except _ItemError as e:
        raise ValueError(e.message) from None
    except SudokuFormatError as e:  # the words an item of a list has, without "item k: "
        raise ValueError(str(e)) from None
    if one is not None:
        cells, kind, shape = one
        return Items(cells[None, :], kind, shape)
    series = None
    if type(x).__module__.startswith("pandas") and hasattr(x, "index") and hasattr(x, "to_numpy"):
        series, x = x, x.to_numpy()
    if isinstance(x, (list, tuple)) and (not x or any(isinstance(v, (str, bytes, np.ndarray)) or hasattr(v, "cells")
                                                      for v in x)):
        return _many_objects(list(x), width, what, series)
    a = np.asarray(x)
    if a.ndim == 0:  # one item that is not a sudoku: the message it has inside a list, without "item k: "
        if a.dtype.kind in "US":
            return items(a.item(), width, what)
        raise ValueError(_not_one(x, width, what))
    if a.dtype.kind in "USO":
        return _many_objects(list(a.reshape(-1)), width, what, series,
                             form=SERIES if series is not None else ARRAY_TEXT)
    rows = width // 9
    listed = isinstance(x, (list, tuple))  # many as a list of lists: answered as a list
    try:
        if a.shape in ((width,), (rows, 9)):
            return Items(_cells_of_array(a, width)[None, :], ONE_ARRAY, a.shape)
        if a.ndim == 2 and a.shape[1] == width:
            batch = np.ascontiguousarray(_digits(a))
            return Items(batch, LIST, ((width,),) * len(a), [ONE_ARRAY] * len(a)) if listed else \
                Items(batch, BATCH, (width,))
        if a.ndim == 3 and a.shape[1:] == (rows, 9):
            batch = np.ascontiguousarray(_digits(a.reshape(len(a), width)))
            return Items(batch, LIST, ((rows, 9),) * len(a), [ONE_ARRAY] * len(a)) if listed else \
                Items(batch, BATCH, (rows, 9))
    except _ItemError as e:
        raise ValueError(f"{_label(e.k, series)}: {e.message}") from None
    raise ValueError(f"expected a {what} of shape ({width},) or ({rows}, 9), or many of shape (N, {width}) or "
                     f"(N, {rows}, 9), got an array of shape {a.shape}")


def _not_one(x, width: int, what: str) -> str:
    """What is wrong with ``x`` as one sudoku (or band): the same words alone or as an item."""
    return f"expected a {what} (a string of {width} cells or an array), got {type(x).__name__} {x!r}"


def _many_objects(xs: list, width: int, what: str, series, form: int = LIST) -> Items:
    batch = np.zeros((len(xs), width), np.uint8)
    kinds, shapes = [], []
    for k, v in enumerate(xs):
        try:
            one = _single(v, width)
            if one is None:
                a = np.asarray(v)
                if a.dtype.kind in "USO" or a.ndim == 0:
                    raise ValueError(_not_one(v, width, what))
                one = (_cells_of_array(a, width), ONE_ARRAY, a.shape)
        except _ItemError as e:
            raise ValueError(f"{_label(k, series)}: {e.message}") from None
        except (SudokuFormatError, ValueError) as e:
            raise ValueError(f"{_label(k, series)}: {e}") from None
        batch[k], kind, shape = one
        kinds.append(kind)
        shapes.append(shape)
    if series is not None:
        form = SERIES
    return Items(batch, form, tuple(shapes), kinds, series)


def map_items(x, fn: Callable[[np.ndarray], np.ndarray], width: int = 81, what: str = "sudoku"):
    """``fn`` on the batch of ``x``, the (N, width) result given back in ``x``'s form."""
    it = items(x, width, what)
    return it.sudokus(fn(it.batch))
