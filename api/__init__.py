"""Sudoku symmetry engine: canonical forms, copies with the steps between them, the 416 bands,
every essentially different grid by rank, solving and set logic, the unavoidable sets and the
puzzles inside a grid, clue patterns, the 17-clue search, and an SQL catalog behind it all.

Examples:
    >>> import sudoku_symmetry as ss
    >>> puzzle = ss.datasets.load("17clue")[0]
    >>> ss.count(puzzle)                                   # solutions, counted up to 2
    1
    >>> ss.rank(ss.solve(puzzle))                          # its solution's catalog rank
    804894942
    >>> ss.grid(1)                                         # the catalog's first grid
    '123456789456789123789123456214365897365897214897214365531642978642978531978531642'

One sudoku in gives one result (a string for a string, an array for an array, a ``Sudoku`` for a
``Sudoku``); many in (a list, a NumPy array of strings or of shape (N, 81) or (N, 9, 9), a pandas
Series) give many, in order, from one compiled call. Bad input raises ValueError naming the item
and what is wrong. Results that a picture explains draw themselves in a notebook (a ``Sudoku``,
an equivalence, an unavoidable set, what logic alone reaches); tables come as pandas frames.

Importing the package is cheap (no NumPy, no Numba, no SQLAlchemy): a public name is imported at
its first use, and the engine's compiled kernels are loaded at the first call that needs them.
"""
from typing import TYPE_CHECKING as _TYPE_CHECKING

# The public API: every name imported in this block, and nothing else (``dir()`` and ``__all__``
# list exactly these). Nothing in it is imported with the package: ``__getattr__`` below reads
# these lines and imports a name's module at its first use. To publish names, add one line
# ``from ._module import name, ...`` (or ``from . import module`` for a public submodule).
if _TYPE_CHECKING:
    from . import datasets
    from ._catalog import plot, query
    from ._functions import band_index, canon, count, equivalent, grid, rank, solve
    from ._generate import generate, minimize, random_grids
    from ._grids import band, ed_grids
    from ._patterns import pattern_canon, pattern_count, patterns
    from ._patterns_game import puzzles_on_pattern, vicinity
    from ._puzzles import UnavoidableSet, puzzles_in_grid, unavoidable_sets
    from ._rate import rate
    from ._search17 import s17_entry, search17
    from ._solving import Elimination, LogicState, is_minimal, setlogic, solutions, solve_logic
    from ._sudoku import Equivalence, Sudoku
    from .engine.group.transform import Transform


def _public() -> dict[str, tuple[str, str | None]]:
    """``{name: (module, attribute or None for a submodule)}`` from the block above."""
    import ast

    names = {}
    tree = ast.parse(__loader__.get_source(__name__))  # noqa: F821 (set by the import system)
    block = next(node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "_TYPE_CHECKING")
    for node in block.body:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if node.module is None:  # from . import datasets
                names[alias.asname or alias.name] = (module + alias.name, None)
            else:
                names[alias.asname or alias.name] = (module, alias.name)
    return names


def __getattr__(name: str):
    """A public name, imported at its first use (``import sudoku_symmetry`` stays cheap)."""
    import importlib

    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("sudoku-symmetry")
        except PackageNotFoundError:  # the sources on sys.path, not installed
            value = "0+unknown"
    elif name == "__all__":
        value = sorted(_public())
    else:
        where = _public().get(name)
        if where is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module = importlib.import_module(where[0], __name__)
        value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(_public()) + ["__version__"]
