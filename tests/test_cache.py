"""The Numba cache folder: keyed on every file under engine/ (subpackages too), old folders
pruned, and an edit of a kernel that another module's kernel calls is really recompiled."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from sudoku_symmetry.engine import _cache

ROOT = Path(__file__).resolve().parent.parent


def test_prune_keeps_the_current_and_the_newest_others(tmp_path):
    for k in range(5):
        d = tmp_path / f"numba-{k}"
        d.mkdir()
        os.utime(d, (time.time() - 100 * k, time.time() - 100 * k))
    (tmp_path / "bands-x").mkdir()
    removed = _cache.prune(tmp_path, "numba-", "numba-4", keep=2)
    assert sorted(p.name for p in removed) == ["numba-2", "numba-3"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bands-x", "numba-0", "numba-1", "numba-4"]


def _run_copy(pkg_root: Path, cache: Path) -> tuple[str, str]:
    """In a fresh process on the copied tree: the cache folder used, and the transpose byte of the
    transformation that canon_grids writes through core.layout.write_transform."""
    code = (
        "import os, numpy as np\n"
        "import sudoku_symmetry.engine as e\n"
        "assert e.__file__.startswith(os.environ['COPY']), e.__file__\n"
        "from sudoku_symmetry.engine.canon import canon_grids\n"
        "g = '123456789456789123789123456214365897365897214897214365531642978642978531978531642'\n"
        "f, t, c = canon_grids(g)\n"
        "print(os.path.basename(os.environ['NUMBA_CACHE_DIR']), int(t[0, 0]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    env.update(PYTHONPATH=str(pkg_root), SUDOKU_CACHE_DIR=str(cache), COPY=str(pkg_root))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=pkg_root)
    assert r.returncode == 0, r.stderr
    folder, transpose = r.stdout.split()
    return folder, transpose


def test_an_edit_in_a_called_module_recompiles(tmp_path):
    pkg_root = tmp_path / "pkg"
    engine = pkg_root / "sudoku_symmetry" / "engine"
    shutil.copytree(ROOT / "engine", engine, ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    first_folder, first = _run_copy(pkg_root, cache)
    assert first in ("0", "1")
    # write_transform lives in core/layout.py; canon_grids' kernel (canon/_grid_kernels.py)
    # calls it, so Numba's own per-file check would serve the stale compiled code
    kern = engine / "core" / "layout.py"
    text = kern.read_text()
    edited = text.replace("t[TRANSPOSE] = 1 if transposed else 0", "t[TRANSPOSE] = 7")
    assert edited != text
    kern.write_text(edited)
    second_folder, second = _run_copy(pkg_root, cache)
    assert second == "7"
    assert second_folder != first_folder
    assert (cache / first_folder).is_dir()  # kept: pruning leaves the most recent others


def test_hash_covers_subpackages(tmp_path, monkeypatch):
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_cache, "ENGINE_DIR", copy)
    before = _cache.source_hash()
    target = copy / "solve" / "_kernels.py"
    target.write_text(target.read_text() + "\n# an edit deep in a subpackage\n")
    assert _cache.source_hash() != before


def _compiled_in_copy(pkg_root: Path, cache: Path) -> tuple[str, int]:
    """In a fresh process on a copy of the package: the Numba folder used and how many kernels the
    process compiled to check one sudoku (0: every one came from the cache)."""
    code = ("import os, numpy as np\n"
            "import sudoku_symmetry.engine as e\n"
            "assert e.__file__.startswith(os.environ['COPY']), e.__file__\n"
            "from sudoku_symmetry.engine import _cache\n"
            "from sudoku_symmetry.engine.validity import is_valid\n"
            "assert is_valid(np.zeros((1, 81), np.uint8)).all()\n"
            "print(os.path.basename(os.environ['NUMBA_CACHE_DIR']), _cache.compiled()[0])\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    env.update(PYTHONPATH=str(pkg_root), SUDOKU_CACHE_DIR=str(cache), COPY=str(pkg_root))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=pkg_root)
    assert r.returncode == 0, r.stderr
    folder, compiled = r.stdout.split()
    return folder, int(compiled)


def test_a_second_install_of_the_same_sources_compiles_nothing(tmp_path):
    """Two copies of the package at different paths, their files written at different times (a
    second clone, another virtual environment, a wheel): the second loads the first's kernels."""
    cache = tmp_path / "cache"
    first, second = tmp_path / "one" / "pkg", tmp_path / "two" / "elsewhere"
    shutil.copytree(ROOT / "engine", first / "sudoku_symmetry" / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    time.sleep(0.01)
    shutil.copytree(ROOT / "engine", second / "sudoku_symmetry" / "engine", ignore=shutil.ignore_patterns("__pycache__"),
                    copy_function=shutil.copyfile)  # new file times
    folder_one, compiled_one = _compiled_in_copy(first, cache)
    folder_two, compiled_two = _compiled_in_copy(second, cache)
    assert compiled_one >= 1 and compiled_two == 0
    assert folder_one == folder_two == _cache.numba_folder_name()
    assert sorted(p.name for p in cache.iterdir()) == [folder_one]
