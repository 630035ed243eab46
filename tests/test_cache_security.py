"""Cache folders made by other users (issue 23 items 3 and 4), with real users, no mocks.

* A shared cache folder (``SUDOKU_CACHE_DIR``, world-writable, as on a cluster) where another
  user ran first: every command still works (it crashed on ``os.utime`` with explicit times on a
  folder the caller does not own, and Numba cannot write into the other user's folder).
* The fallback under the temporary directory, when it was made by another user, is open to
  others or is a link: never used, not even read (band tables planted there made ``bin/band``
  print a wrong minlex band; Numba's cache files are pickles: code run as the victim).

Running a command as another user, or giving a folder to another owner, needs root: the tests
skip otherwise, saying so; "another user" is then a folder given to another uid, and the command
runs as this user without root's override capabilities (``setpriv``), so the kernel checks
permissions as for anyone. Each run starts from an empty kernel cache (it compiles)."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.engine import _cache
from sudoku_symmetry.engine.bands import tables as band_tables_mod

ROOT = Path(__file__).resolve().parent.parent
BAND = "123456789456789123789123456"
OTHER_UID = 54321  # an owner that is not the user running the command (no account needed)


def _needs_root(why: str) -> None:
    if os.geteuid() != 0:
        pytest.skip(f"needs root: {why}")


def _as_plain_user() -> list[str]:
    """A prefix that runs a command as this user without root's power over other users' files
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER): the kernel's own permission checks,
    as any other user meets them (a non-root account could not run this environment's Python,
    which lives under /root)."""
    _needs_root("makes a folder owned by another user (os.chown)")
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("no setpriv (util-linux) to drop root's override capabilities")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


def _env(**extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SUDOKU_TABLES_DIR",
                                                             "SUDOKU_NO_CACHE", "PYTHONWARNINGS")}
    env.update(extra)
    return env


def _band(env, prefix=()) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, "-m", "sudoku_symmetry.commands.band"], input=BAND + "\n",
                          capture_output=True, text=True, env=env, timeout=900)


def _expected_band_line() -> str:
    from sudoku_symmetry.engine.bands import band_index_one

    index, _ = band_index_one(BAND)
    return f"{index} "


@pytest.mark.parametrize("mode", [0o755, 0o777])
def test_a_shared_cache_folder_where_another_user_ran_first(tmp_path, mode):
    """``SUDOKU_CACHE_DIR`` is a world-writable folder (mode 1777, as an administrator makes one
    for a cluster) in which another user (uid 54321) already made the Numba folder of these
    sources, read-only to others (0755) or open to all (0777): ``band`` gives the right answer,
    exit 0, no traceback (issue 23 item 3: ``os.utime`` with explicit times raised EPERM)."""
    prefix = _as_plain_user()
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    theirs = shared / _cache.numba_folder_name()
    theirs.mkdir()
    os.chown(theirs, OTHER_UID, OTHER_UID)
    theirs.chmod(mode)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    r = _band(_env(SUDOKU_CACHE_DIR=str(shared), TMPDIR=str(tmp)), prefix)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.startswith(_expected_band_line()) and BAND in r.stdout, r.stdout
    private = tmp / f"sudoku-symmetry-{os.getuid()}"
    if mode == 0o777:  # theirs, but open to all: used as it is
        assert any(p.suffix == ".nbi" for p in theirs.rglob("*")) and not private.exists()
        return
    assert list(theirs.iterdir()) == []  # nothing could be written there: the private folder took it
    assert f"Numba cache folder {theirs} is not writable" in r.stderr
    st = private.lstat()
    assert st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) == 0o700
    assert any(p.suffix == ".nbi" for p in private.rglob("*")), "the kernels were cached in the private folder"


def _plant_wrong_tables(folder: Path) -> None:
    """Band tables that are valid arrays with a wrong minlex band 0 (what an attacker plants)."""
    t = band_tables_mod.band_tables()
    planted = folder / f"bands-{band_tables_mod._source_tag()}"
    planted.mkdir(parents=True)
    for name in band_tables_mod._SAVED:
        a = np.array(getattr(t, name))
        if name == "minlex":
            a[0] = a[0][::-1]
        np.save(planted / f"{name}.npy", a)


@pytest.mark.parametrize("how", ["another owner", "open to others", "a link"])
def test_the_temporary_fallback_is_used_only_when_it_is_private(tmp_path, how):
    """The cache folder cannot be written, so the fallback ``$TMPDIR/sudoku-symmetry-<uid>`` is
    due; someone else made it first, with planted band tables: it is not used, the answer is
    right, one warning says why (issue 23 item 4: the planted table was printed, exit 0)."""
    if how == "another owner":
        _needs_root("gives a folder to another owner (os.chown)")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")  # the cache folder under a file: unwritable, even by root
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    fallback = tmp / f"sudoku-symmetry-{os.getuid()}"
    if how == "a link":
        attacker = tmp_path / "attacker"
        attacker.mkdir(mode=0o700)
        _plant_wrong_tables(attacker)
        fallback.symlink_to(attacker)
        watched = attacker
    else:
        fallback.mkdir()
        _plant_wrong_tables(fallback)
        for p in [fallback, *fallback.rglob("*")]:
            if how == "another owner":
                os.chown(p, OTHER_UID, OTHER_UID)
        fallback.chmod(0o755 if how == "another owner" else 0o777)
        watched = fallback
    before = sorted((str(p), p.stat().st_mtime_ns) for p in watched.rglob("*"))
    r = _band(_env(SUDOKU_CACHE_DIR=str(blocker / "sub"), TMPDIR=str(tmp)))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.startswith(_expected_band_line()) and BAND in r.stdout, r.stdout  # not the planted band
    reason = {"another owner": f"it belongs to another user (uid {OTHER_UID})",
              "open to others": "others can write to it (mode 777)",
              "a link": "it is not a folder (a link or a file)"}[how]
    assert f"{fallback} is not used: {reason}" in r.stderr, r.stderr
    assert sorted((str(p), p.stat().st_mtime_ns) for p in watched.rglob("*")) == before  # nothing added
    leftovers = [p for p in tmp.iterdir() if p != fallback]
    assert leftovers == [], leftovers  # the private folder of the run was removed at its exit


def test_the_fallback_is_made_private(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    code = "from sudoku_symmetry.engine import _cache; print(_cache.cache_root())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=_env(SUDOKU_CACHE_DIR=str(blocker / "sub"), TMPDIR=str(tmp)))
    assert r.returncode == 0, r.stderr
    used = Path(r.stdout.strip())
    assert used == tmp / f"sudoku-symmetry-{os.getuid()}"
    st = used.lstat()
    assert stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) == 0o700
