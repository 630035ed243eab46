"""The package as users install it: one import name, the directions of imports that must not
exist (checked on every import statement, those inside functions too), and a real wheel that
imports and runs a command from outside the checkout."""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("api", "engine", "catalog", "jobs", "migrations", "bin", "tests", "bench")
BARE = re.compile(r"^\s*(from|import)\s+(engine|catalog|migrations|sudoku_commands)\b", re.M)


def _sources():
    for d in SOURCE_DIRS:
        yield from (ROOT / d).rglob("*.py")


def test_no_generic_top_level_imports():
    offenders = [str(p.relative_to(ROOT)) for p in _sources() if BARE.search(p.read_text())]
    assert offenders == []


# the folders of the checkout and the import names they install as
PACKAGES = {"engine": "sudoku_symmetry.engine", "catalog": "sudoku_symmetry.catalog", "jobs": "sudoku_symmetry.jobs",
            "migrations": "sudoku_symmetry.migrations", "bin": "sudoku_symmetry.commands"}
ENGINE_SHARED = "core"  # the one engine subpackage every family may import kernels from


def _module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    parts = PACKAGES[folder].split(".") + rest
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source`` (the text of ``module``),
    relative ones resolved, ``from X import y`` counted as both X and X.y (y may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return out


def _offenders(folder: str, forbidden) -> list[str]:
    """``file:line module`` for each import in ``folder`` for which ``forbidden(module, file's
    module name)`` is true."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        me = _module_name(path)
        found += [f"{path.relative_to(ROOT)}:{line} {mod}"
                  for line, mod in imports_of(path.read_text(), me, path.name == "__init__.py") if forbidden(mod, me)]
    return found


def _under(mod: str, *packages: str) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in packages)


def test_the_import_checker_sees_relative_imports_and_imports_inside_functions():
    source = "from ..grids import _kernels\nfrom . import x\ndef f():\n    from ...catalog.db import open_catalog\n"
    got = [m for _, m in imports_of(source, "sudoku_symmetry.engine.canon.probe")]
    assert got == ["sudoku_symmetry.engine.grids", "sudoku_symmetry.engine.grids._kernels",
                   "sudoku_symmetry.engine.canon", "sudoku_symmetry.engine.canon.x",
                   "sudoku_symmetry.catalog.db", "sudoku_symmetry.catalog.db.open_catalog"]


def test_engine_imports_no_layer_above_it():
    above = ("sudoku_symmetry.catalog", "sudoku_symmetry.jobs", "sudoku_symmetry.commands", "sudoku_symmetry.migrations",
             "sqlalchemy", "alembic", "tqdm", "dask", "distributed")
    assert _offenders("engine", lambda mod, me: _under(mod, *above)) == []


FAMILIES = {d.name for d in (ROOT / "engine").iterdir() if (d / "__init__.py").exists()}


def _family(mod: str) -> str | None:
    """The engine family (subpackage) a module belongs to, None outside them."""
    parts = mod.split(".")
    if parts[:2] != ["sudoku_symmetry", "engine"] or len(parts) < 3 or parts[2] not in FAMILIES:
        return None
    return parts[2]


def _private_part(mod: str) -> bool:
    """A module private to its family: a name below the family starting with an underscore."""
    return any(p.startswith("_") for p in mod.split(".")[3:])


def test_no_engine_family_imports_another_familys_private_kernels():
    def forbidden(mod: str, me: str) -> bool:
        theirs, mine = _family(mod), _family(me)
        return theirs not in (None, mine, ENGINE_SHARED) and _private_part(mod)

    assert _offenders("engine", forbidden) == []


def test_the_engine_core_imports_no_family():
    core = f"sudoku_symmetry.engine.{ENGINE_SHARED}"

    def forbidden(mod: str, me: str) -> bool:
        return _under(me, core) and _family(mod) not in (None, ENGINE_SHARED)

    assert _offenders("engine", forbidden) == []


def test_outside_the_engine_no_one_reaches_into_a_familys_private_kernels():
    # tests and benchmarks may (they check the kernels themselves); the layers above may not
    for folder in ("catalog", "bin"):
        assert _offenders(folder, lambda mod, me: _family(mod) is not None and _private_part(mod)) == [], folder


def test_every_engine_subpackage_says_what_it_owns():
    import importlib

    for name in ("group", "bands", "canon", "solve", "grids", "search17", "patterns", "unavoidable"):
        module = importlib.import_module(f"sudoku_symmetry.engine.{name}")
        assert module.__doc__ and len(module.__doc__.split()) >= 10, name


def _readme_tour() -> list[str]:
    """The command lines of the README's tour (its first ``sh`` block after "A short tour")."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## A short tour.*?```sh\n(.*?)```", text, re.S).group(1)
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_wheel_installs_one_package_shares_the_kernels_and_runs_the_tour_elsewhere(tmp_path):
    """A wheel installed in a fresh environment (seeing our dependencies, not the checkout): one
    package with its data, the console script; a command that compiles nothing (the checkout's
    kernels are the wheel's: one cache per version, not per install); and every line of the
    README's tour, with ``sudoku COMMAND`` for ``bin/COMMAND``, run in another folder."""
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
    assert {"sudoku_symmetry/__init__.py", "sudoku_symmetry/py.typed", "sudoku_symmetry/data/17clue.txt.gz"} <= set(names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert wheel.stat().st_size < 30_000_000
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
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "SUDOKU_COMPILE_NOTICE")}
    env["SUDOKU_CATALOG"] = str(tmp_path / "catalog.sqlite")
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env['PATH']}"
    band = "123456789456789123789123456\n"
    checkout = subprocess.run([str(ROOT / "bin" / "band")], input=band, capture_output=True, text=True, env=env)
    assert checkout.returncode == 0, checkout.stderr  # the kernels of band, compiled (or found) by the checkout
    code = ("import sudoku_symmetry.engine as e, sudoku_symmetry.commands.main as m, sys; "
            "print(e.__file__); sys.exit(m.main(['band']))")
    r = subprocess.run([str(py), "-c", code], input=band, capture_output=True, text=True, cwd=outside, env=env)
    assert (r.returncode, r.stderr) == (0, ""), r.stderr  # nothing compiled, so nothing to say
    where, line = r.stdout.splitlines()
    assert where.startswith(str(site)) and not where.startswith(str(ROOT))
    assert line == "0 123456789456789123789123456 0:123456789:123456789:123456789" == checkout.stdout.strip()
    from sudoku_symmetry import __version__

    r = subprocess.run(["sudoku", "--version"], capture_output=True, text=True, cwd=outside, env=env)
    assert (r.returncode, r.stdout) == (0, f"sudoku (sudoku-symmetry) {__version__}\n"), r.stderr
    r = subprocess.run(["sudoku", "populate", "--step", "bands", "--step", "ed_grids"], capture_output=True, text=True,
                       cwd=outside, env=env)
    assert r.returncode == 0, r.stderr
    for line in _readme_tour():
        assert line.startswith(("echo ", "bin/")), line
        command = re.sub(r"\bbin/", "sudoku ", line)
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", command], capture_output=True, text=True, cwd=outside,
                           env=env, timeout=600)
        assert r.returncode == 0 and r.stdout, (command, r.stderr)
    assert (outside / "grids.svg").read_text().startswith("<?xml")
    r = subprocess.run(["sudoku", "solve", "@nope"], capture_output=True, text=True, cwd=outside, env=env)
    assert r.returncode == 2 and "`sudoku data` lists them" in r.stderr  # installed: named as installed


def test_the_catalog_only_stores():
    # no engine, no jobs, no commands; no progress bars or clusters either
    above = ("sudoku_symmetry.engine", "sudoku_symmetry.jobs", "sudoku_symmetry.commands", "tqdm", "dask", "distributed",
             "numba")
    assert _offenders("catalog", lambda mod, me: _under(mod, *above)) == []


def test_jobs_never_import_the_commands():
    assert _offenders("jobs", lambda mod, me: _under(mod, "sudoku_symmetry.commands")) == []


def test_no_command_imports_another_command():
    # bin/ shares code through its helper modules (_common, _runs, _single) and main's dispatch only
    def forbidden(mod: str, me: str) -> bool:
        if not _under(mod, "sudoku_symmetry.commands") or me.endswith(".main"):
            return False
        name = mod.split(".")[2] if len(mod.split(".")) > 2 else ""
        return name not in ("", me.split(".")[-1]) and not name.startswith("_")

    assert _offenders("bin", forbidden) == []


def test_no_sql_in_the_commands():
    assert _offenders("bin", lambda mod, me: _under(mod, "sqlalchemy")) == []


def test_the_number_of_bands_is_defined_once_per_side():
    from sudoku_symmetry.catalog.bands import N_BANDS as catalog_side
    from sudoku_symmetry.engine.bands import N_BANDS as engine_side

    assert catalog_side == engine_side == 416
    defined = re.compile(r"^\s*N_BANDS\s*=", re.M)
    where = sorted(str(p.relative_to(ROOT)) for d in ("engine", "catalog", "jobs", "bin")
                   for p in (ROOT / d).rglob("*.py") if defined.search(p.read_text()))
    assert where == ["catalog/bands.py", "engine/bands/tables.py"]


def test_importing_the_one_line_commands_loads_no_kernel_and_no_progress_bar():
    # start-up (issue 26, docs/benchmarks.md): every kernel loaded costs a process milliseconds, so
    # importing a command loads none (tables are stored, not computed with kernels), and tqdm is
    # imported only when a progress bar is shown (standard error here is a pipe)
    from sudoku_symmetry.engine.canon import _puzzle_kernels  # noqa: F401  (stores the tables if missing)
    from sudoku_symmetry.engine.grids import _kernels  # noqa: F401

    code = ("import sys; from numba.core.registry import CPUDispatcher; "
            "from sudoku_symmetry.commands import band, canon, equiv, rank, solve; "
            "print('tqdm' in sys.modules, sorted(f'{m.__name__}.{k}' for m in list(sys.modules.values()) "
            "if m.__name__.startswith('sudoku_symmetry.') for k, v in vars(m).items() "
            "if isinstance(v, CPUDispatcher) and v.signatures))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout) == (0, "False []\n"), r.stderr
