"""Compile the engine's kernels into the shared Numba cache (run by ``conftest.py`` in a second
process at the start of a test session, on the core pytest leaves idle).

A cold CI (fresh clone, empty cache) spent most of its time compiling, and pytest reached the
heaviest kernels only late. The steps are ``engine/warmup.py``'s (the ones ``bin/populate`` runs:
every kernel the commands use, one list for both), taken here in the order the test files need
them; the tests then load the kernels from the cache instead. A failing step is reported and
skipped (the test that needs the kernel then compiles it itself). Checks nothing: the tests do
(``tests/test_warmup.py`` checks the list).
"""
from __future__ import annotations

import sys

ORDER = ("canon", "solve", "explore", "grids", "generate", "search17", "patterns", "bands")
"""engine.warmup.STEPS by name, in the order the test files need them (the rest after)."""


def main() -> int:
    from sudoku_symmetry.engine.warmup import STEPS

    steps = dict(STEPS)
    for name in [*(n for n in ORDER if n in steps), *(n for n in steps if n not in ORDER)]:
        try:
            steps[name]()
        except Exception as exc:  # the test that needs it compiles it
            print(f"warm-up {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
