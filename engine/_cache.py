"""Where the engine keeps what it computes once: band tables (.npy), compiled kernels, and the
tables kernel modules would otherwise compute at every import (:func:`stored_tables`).

``cache_root()`` is $SUDOKU_CACHE_DIR, else the user's cache folder for ``sudoku-symmetry`` as
platformdirs names it (``~/.cache/sudoku-symmetry`` on Linux, ``$XDG_CACHE_HOME`` respected;
``~/Library/Caches/sudoku-symmetry`` on macOS; ``%LOCALAPPDATA%\\sudoku-symmetry\\Cache`` on
Windows); when that folder cannot be written, a warning is printed once and a folder under the
system's temporary directory is used instead (Numba would otherwise fall back to writing
``__pycache__`` folders into the source tree).

Whoever can write a cache folder decides what this process runs: Numba's cache files are
pickles, and the band tables are trusted answers. So the fallback, in a folder every user can
write (``/tmp``), is private: ``sudoku-symmetry-<uid>``, created with mode 0700 and used only
when it is a real folder (not a link), owned by this user and writable by nobody else; one that
fails the check (another user made it first, or opened it to others) is not used, not even
read: a fresh private folder from ``tempfile.mkdtemp`` takes its place for this process
(removed at exit; compiled kernels are then not kept between runs), with one warning. A folder
the user names (``SUDOKU_CACHE_DIR``) is trusted as given: share one only between users who
trust each other. In a shared folder made by another user, the Numba folder of these sources
may be someone else's and read-only: then the private fallback is used for compiled kernels.

Compiled kernels go in ``numba-<sources>-<numba>`` below it (unless NUMBA_CACHE_DIR is set): a
hash of every ``*.py`` file under ``engine/`` (subpackages included: Numba does not notice an
edit in another module that a kernel calls) and Numba's version. That is all that decides the
machine code besides the CPU, which Numba puts in the key of every entry (its name and
features), so one folder serves several machines sharing a home. The folder does not depend on
where the package is installed: ``_jit`` files each kernel under its module's path inside the
engine (``bands/``, ``canon/``, ...) and stamps it with a hash of its source file's contents,
where Numba's own locator uses the absolute path and the file's time. So every clone, virtual
environment or wheel of the same sources on a machine shares one compiled copy: the second one
compiles nothing. Folders of other sources are pruned, keeping the :data:`KEEP` most recently
used besides the current one.
"""
import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
KEEP = 4
"""Cache folders of other source versions or checkouts kept (a checkout switching branches, or
a second clone on the same machine, stays warm)."""


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def _private_problem(folder: Path) -> str | None:
    """Why ``folder`` may not hold this user's cache (None: a real folder, owned by this user,
    that nobody else can write)."""
    st = folder.lstat()
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder (a link or a file)"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"others can write to it (mode {stat.S_IMODE(st.st_mode):o})"
    return None


@lru_cache(maxsize=None)
def private_fallback() -> Path:
    """This user's cache folder under the temporary directory (see the module docstring), made
    and checked; a fresh private folder for this process when the usual one cannot be trusted."""
    fallback = Path(tempfile.gettempdir()) / f"sudoku-symmetry-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    try:
        fallback.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        return _fresh_private(f"{fallback} cannot be made ({exc.strerror or exc})")
    problem = _private_problem(fallback)
    if problem is not None:
        return _fresh_private(f"{fallback} is not used: {problem}")
    return fallback


def _fresh_private(why: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="sudoku-symmetry-"))  # mode 0700, a new name: nobody else's
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    print(f"sudoku-symmetry: warning: {why}; using the new private folder {folder} for this run", file=sys.stderr)
    return folder


@lru_cache(maxsize=None)
def _root_for(preferred: str) -> Path:
    folder = Path(preferred)
    if _writable(folder):
        return folder
    fallback = private_fallback()
    print(f"sudoku-symmetry: warning: cache folder {folder} is not writable; using {fallback}", file=sys.stderr)
    return fallback


def cache_root() -> Path:
    """$SUDOKU_CACHE_DIR, else the user's cache folder (see the module docstring), writable."""
    env = os.environ.get("SUDOKU_CACHE_DIR")
    if env:
        return _root_for(env)
    import platformdirs

    return _root_for(platformdirs.user_cache_dir("sudoku-symmetry", appauthor=False))


def source_hash(names=None) -> str:
    """Short hash of engine source files: every ``*.py`` under ``engine/`` (recursively) when
    ``names`` is None (read once per process), else those paths relative to ``engine/``."""
    if names is None:
        paths = sorted(p for p in ENGINE_DIR.rglob("*.py") if "__pycache__" not in p.parts)
        stamp = tuple((p.as_posix(), st.st_mtime_ns, st.st_size) for p, st in ((p, p.stat()) for p in paths))
        return _engine_hash(stamp)  # read again only when a file changed
    return _hash_of([ENGINE_DIR / n for n in names])


@lru_cache(maxsize=4)
def _engine_hash(stamp: tuple) -> str:
    return _hash_of([Path(p) for p, _, _ in stamp])


def _hash_of(paths) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.relative_to(ENGINE_DIR).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def prune(root: Path, prefix: str, current: str, keep: int = KEEP) -> list[Path]:
    """Remove ``root/prefix*`` folders other than ``current``, keeping the ``keep`` most
    recently modified; returns what was removed. Errors (another process pruning) are ignored."""
    try:
        others = [p for p in root.iterdir() if p.is_dir() and p.name.startswith(prefix) and p.name != current]
    except OSError:
        return []
    others.sort(key=lambda p: p.stat().st_mtime if p.exists() else 0, reverse=True)
    removed = []
    for p in others[keep:]:
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    return removed


@lru_cache(maxsize=None)
def numba_version() -> str:
    """Numba's version, from the name of its ``numba-VERSION.dist-info`` folder beside the package
    (every command asks: importing Numba, or ``importlib.metadata``, costs tens of milliseconds);
    from the module itself where there is no such folder (a source tree of Numba)."""
    import importlib.util

    spec = importlib.util.find_spec("numba")
    if spec is not None and spec.origin:
        found = list(Path(spec.origin).parent.parent.glob("numba-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len("numba-"):-len(".dist-info")]
    import numba

    return numba.__version__


def numba_folder_name() -> str:
    """``numba-<sources>-<numba>``: a hash of the engine's sources (:func:`source_hash`) and
    Numba's version; not the install path (see the module docstring)."""
    return f"numba-{source_hash()}-{numba_version()}"


def configure_numba_cache() -> None:
    """Point Numba's cache at a folder keyed on the engine's sources and Numba's version, unless
    the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = cache_root()
    name = numba_folder_name()
    folder = root / name
    if not _writable(folder):  # e.g. made by another user in a shared folder
        root = private_fallback()
        print(f"sudoku-symmetry: warning: Numba cache folder {folder} is not writable; using {root / name}",
              file=sys.stderr)
        folder = root / name
        folder.mkdir(exist_ok=True)
    try:
        os.utime(folder)  # "recently used", for prune (the current time: no ownership needed)
    except OSError:
        pass
    prune(root, "numba-", name)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # imported before us: its config was already read
        sys.modules["numba"].config.CACHE_DIR = str(folder)


# -- compilation: a notice before the first one, the time it took --------------------------
_first_compile = None  # the callback of on_first_compile, until it has run
_depth = 0  # compilations in progress (a kernel compiles the kernels it calls inside its own)
_started = 0.0
_compiled = [0, 0.0]  # kernels compiled from Python by this process, seconds spent


def on_first_compile(callback) -> None:
    """Call ``callback()`` once, just before the first kernel this process compiles (a cache hit
    compiles nothing, so a warm process never calls it). The commands print a notice with it."""
    global _first_compile
    _first_compile = callback


def compile_started() -> None:
    """Called by ``_jit``'s listener at every compilation start; runs the callback the first time."""
    global _first_compile, _depth, _started
    callback, _first_compile = _first_compile, None
    if callback is not None:
        callback()
    if _depth == 0:
        import time

        _started = time.perf_counter()
    _depth += 1


def compile_ended() -> None:
    """Called by ``_jit``'s listener at every compilation end."""
    global _depth
    _depth -= 1
    if _depth == 0:
        import time

        _compiled[0] += 1
        _compiled[1] += time.perf_counter() - _started


def compiled() -> tuple[int, float]:
    """(kernels this process compiled, wall seconds it spent compiling them): (0, 0.0) when every
    kernel it used came from the cache."""
    return _compiled[0], _compiled[1]


WARM_MARKER = "warm"
"""File in the Numba cache folder written once :mod:`..warmup` compiled every kernel into it."""


def kernel_cache_dir() -> Path:
    return Path(os.environ.get("NUMBA_CACHE_DIR") or cache_root())


def is_warm() -> bool:
    """True when this cache folder (one per version of the engine's sources) holds every kernel
    the commands use: a file test, no kernel loaded."""
    return (kernel_cache_dir() / WARM_MARKER).exists()


def mark_warm() -> None:
    try:
        (kernel_cache_dir() / WARM_MARKER).write_text("every kernel the commands use is compiled here\n")
    except OSError:
        pass


BUILDING = threading.RLock()
"""Held while a table missing from the cache folder is built and stored: the threads of a process
build each table once (a second build would cost its time and memory again)."""


def stored_arrays(name: str, build, prefix: str | None = None) -> dict:
    """Arrays computed once and kept as ``.npy`` files in the folder ``cache_root() / name``,
    loaded memory-mapped and read-only: a process maps them in about a millisecond and its
    memory holds only the pages it reads.

    ``build()`` returns ``{array name: ndarray}``; it runs when the folder is missing. It is
    written to a temporary folder renamed into place, so a reader never sees half of one and two
    processes building at once both succeed (the loser's copy is dropped). ``name`` should carry
    a key of everything the arrays depend on (e.g. ``rank-<hash>``); older folders starting with
    ``prefix`` are pruned (:data:`KEEP` kept). Where the cache cannot be written, the arrays are
    built and returned in memory."""
    folder = cache_root() / name
    try:
        arrays = _mapped(folder)
        if arrays:
            return arrays
        with BUILDING:  # threads: one builds, the others then map what it stored
            return _mapped(folder) or _store(folder, build(), prefix)
    except (OSError, ValueError):  # unreadable: build them in memory
        return build()


def stored_tables(name: str, sources: list[str], build) -> dict:
    """Tables a module computes at import (``build()``: ``{name: ndarray}``), computed once per
    version of ``sources`` (paths under ``engine/``, as :func:`source_hash` takes them; None, what
    every caller passes, is the whole engine: a hand-written list goes stale silently when a file
    it forgets changes, and a rebuild costs at most seconds) and kept
    with :func:`stored_arrays` in ``name-<hash>``; returned as ordinary writable arrays, the
    dtypes, shapes and flags a fresh ``build()`` gives (kernels that read them as globals or take
    them as arguments see the same types). Loading them costs about 0.1 ms a table."""
    import numpy as np

    stored = stored_arrays(f"{name}-{source_hash(sources)}", build, prefix=f"{name}-")
    return {key: np.array(a) for key, a in stored.items()}


def _mapped(folder: Path) -> dict:
    import numpy as np

    return {p.stem: np.load(p, mmap_mode="r") for p in sorted(folder.glob("*.npy"))}


def _store(folder: Path, arrays: dict, prefix: str | None) -> dict:
    import numpy as np

    tmp = folder.with_name(f".{folder.name}.tmp{os.getpid()}-{threading.get_ident()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        for key, a in arrays.items():
            np.save(tmp / f"{key}.npy", np.ascontiguousarray(a))
        try:
            os.replace(tmp, folder)
        except OSError:  # another process stored it first
            shutil.rmtree(tmp, ignore_errors=True)
        if prefix:
            prune(folder.parent, prefix, folder.name)
        return _mapped(folder)
    except (OSError, ValueError):
        shutil.rmtree(tmp, ignore_errors=True)
        return arrays
