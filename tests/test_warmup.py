"""The first run: ``engine/warmup.py`` compiles what the commands use (every kernel they call from
Python, with their argument types), ``bin/populate`` runs it once per version with a line per
step, and a command that must compile says so on standard error before it starts."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

DUMP = """
import json, sys
from numba.core.registry import CPUDispatcher
sigs = {}
for name, mod in list(sys.modules.items()):
    if name.startswith("sudoku_symmetry.engine"):
        for obj in vars(mod).values():
            if isinstance(obj, CPUDispatcher) and obj.signatures:
                key = obj.py_func.__module__ + "." + obj.py_func.__qualname__
                sigs[key] = sorted({str(s) for s in obj.signatures} | set(sigs.get(key, ())))
print(json.dumps(sigs))
"""


def _signatures(code: str, tmp: Path) -> dict[str, list[str]]:
    """The kernels with a compiled specialization in a process that ran ``code``: every kernel
    called from Python (and those compiled there, when the cache lacked them)."""
    env = dict(ENV, SUDOKU_CATALOG=str(tmp / "catalog.sqlite"), PYTHONPATH=str(ROOT / "tests"))
    r = subprocess.run([sys.executable, "-c", code + DUMP], capture_output=True, text=True, env=env, cwd=tmp)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_warm_up_compiles_every_kernel_the_commands_call(tmp_path):
    warm = _signatures("from sudoku_symmetry.engine.warmup import STEPS\nfor _, step in STEPS: step()\n", tmp_path)
    (tmp_path / "cmd").mkdir()
    used = _signatures("from pathlib import Path\nfrom command_workloads import run_command, workloads\n"
                       "for name, runs in workloads(Path('.')).items():\n"
                       "    for argv in runs: run_command(name, argv)\n", tmp_path / "cmd")
    assert len(used) >= 20  # the commands do call kernels from Python
    missing = {k: sorted(set(v) - set(warm.get(k, ()))) for k, v in used.items() if set(v) - set(warm.get(k, ()))}
    assert missing == {}, "engine/warmup.py does not compile these (kernel: signatures the commands use)"


def test_a_command_that_must_compile_says_so_first(tmp_path):
    env = dict(ENV, SUDOKU_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SUDOKU_COMPILE_NOTICE", None)
    band = "123456789456789123789123456\n"
    first = subprocess.run([str(ROOT / "bin" / "band")], input=band, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert first.stdout == "0 123456789456789123789123456 0:123456789:123456789:123456789\n"
    notice = first.stderr.splitlines()  # before: what it does; after: how long it took
    assert len(notice) == 2 and notice[0].startswith("band: compiling the kernels this command needs, once for this "
                                                     "version"), notice
    assert re.fullmatch(r"band: compiled [1-9][0-9]* kernels? in [0-9]+ s; later runs load them from the cache", notice[1])
    again = subprocess.run([str(ROOT / "bin" / "band")], input=band, capture_output=True, text=True, env=env)
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, "")  # cached: nothing to say
    quiet = subprocess.run([str(ROOT / "bin" / "band")], input=band, capture_output=True, text=True,
                           env=dict(env, SUDOKU_CACHE_DIR=str(tmp_path / "other"), SUDOKU_COMPILE_NOTICE="0"))
    assert (quiet.returncode, quiet.stderr) == (0, "")


def test_populate_warms_up_once_per_cache_folder(tmp_path, monkeypatch, capsys):
    """The kernels step runs the warm-up with a line per step and marks the folder; the next run
    sees the marker and skips it (the steps are cut to one here: the others cost minutes cold)."""
    from sudoku_symmetry.commands import populate
    from sudoku_symmetry.engine import _cache, warmup

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kernels"))  # where the marker goes
    (tmp_path / "kernels").mkdir()
    monkeypatch.setattr(warmup, "STEPS", warmup.STEPS[:1])
    db = str(tmp_path / "c.sqlite")
    assert not _cache.is_warm()
    assert populate.main(["--db", db, "--step", "kernels"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("kernels: compiling every kernel the commands use") and "once per version" in out[1]
    assert out[2].startswith("kernels: bands (") and out[3].startswith("kernels: ready")
    assert _cache.is_warm()
    assert populate.main(["--db", db, "--step", "kernels"]) == 0
    assert f"kernels: compiled already ({tmp_path / 'kernels'})" in capsys.readouterr().out
