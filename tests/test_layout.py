"""The package as users install it: one import name, the engine never importing the catalog,
and a real wheel that imports and runs a command from outside the checkout."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("api", "engine", "catalog", "migrations", "bin", "tests", "bench")
BARE = re.compile(r"^\s*(from|import)\s+(engine|catalog|migrations|sudoku_commands)\b", re.M)


def _sources():
    for d in SOURCE_DIRS:
        yield from (ROOT / d).rglob("*.py")


def test_no_generic_top_level_imports():
    offenders = [str(p.relative_to(ROOT)) for p in _sources() if BARE.search(p.read_text())]
    assert offenders == []


def test_engine_never_imports_catalog():
    pattern = re.compile(r"^\s*(from|import)\s+(sudoku_symmetry\.catalog|\.\.+catalog)\b", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


def test_every_engine_subpackage_says_what_it_owns():
    import importlib

    for name in ("group", "bands", "canon", "solve", "grids", "search17", "patterns"):
        module = importlib.import_module(f"sudoku_symmetry.engine.{name}")
        assert module.__doc__ and len(module.__doc__.split()) >= 10, name


def test_wheel_installs_one_package_and_runs_a_command_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                        "-w", str(wheels), str(ROOT)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    (wheel,) = wheels.glob("sudoku_symmetry-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"sudoku_symmetry"}
    assert "sudoku_symmetry/migrations/script.py.mako" in names
    assert "sudoku_symmetry/engine/canon/_puzzle_kernels.py" in names
    assert {"sudoku_symmetry/__init__.py", "sudoku_symmetry/py.typed"} <= set(names)  # the flat API, typed
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    # a fresh environment that sees our dependencies but not the editable install of the checkout
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # .pth files there stay unread
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index",
                        str(wheel)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    env["SUDOKU_CACHE_DIR"] = str(tmp_path / "cache")
    code = ("import sudoku_symmetry.engine as e, sudoku_symmetry.commands.main as m, sys; "
            "print(e.__file__); sys.exit(m.main(['band']))")
    r = subprocess.run([str(py), "-c", code], input="123456789456789123789123456\n", capture_output=True,
                       text=True, cwd=outside, env=env)
    assert r.returncode == 0, r.stderr
    where, line = r.stdout.splitlines()
    assert where.startswith(str(site)) and not where.startswith(str(ROOT))
    assert line == "0 123456789456789123789123456 0:123456789:123456789:123456789"
    # the console script the wheel installs
    from sudoku_symmetry import __version__

    r = subprocess.run([str(env_dir / "bin" / "sudoku"), "--version"], capture_output=True, text=True, cwd=outside,
                       env=env)
    assert (r.returncode, r.stdout) == (0, f"sudoku (sudoku-symmetry) {__version__}\n"), r.stderr
