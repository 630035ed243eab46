"""An unusable cache folder: one warning, and the compiled kernels go to a temporary folder,
never into the source tree (Numba's own fallback is ``__pycache__`` beside the sources)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sudoku_symmetry.engine._cache import ENGINE_DIR

GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"

SCRIPT = f"""
from sudoku_symmetry.engine import _cache
from sudoku_symmetry.engine.validity import is_valid
first = _cache.cache_root()
assert _cache.cache_root() == first  # asked again: the same folder, no second warning
assert is_valid("{GRID}").tolist() == [True]  # compiles (and caches) a kernel
print(first)
"""


def _compiled_in_tree() -> set[Path]:
    return {p for p in ENGINE_DIR.rglob("*") if p.suffix in (".nbi", ".nbc")}


def test_unwritable_cache_folder_warns_once_and_stays_out_of_the_tree(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")  # a folder under a regular file cannot be made, even by root
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SUDOKU_NO_CACHE")}
    env.update(SUDOKU_CACHE_DIR=str(blocker / "sub"), TMPDIR=str(tmp))
    before = _compiled_in_tree()
    p = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    warnings = [ln for ln in p.stderr.splitlines() if "warning" in ln]
    assert len(warnings) == 1 and str(blocker / "sub") in warnings[0] and "not writable" in warnings[0], p.stderr
    used = Path(p.stdout.strip())
    assert used.parent == tmp and str(used) in warnings[0]
    assert _compiled_in_tree() == before  # nothing compiled landed under engine/
    cached = [q for q in used.rglob("*") if q.suffix in (".nbi", ".nbc")]
    assert any("validity" in q.name for q in cached), sorted(map(str, used.rglob("*")))
