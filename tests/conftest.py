import glob
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# commands announce a compilation on standard error; tests compare standard error, and whether a
# kernel compiles depends on what ran before them (test_compile_notice checks the notice itself)
os.environ["SUDOKU_COMPILE_NOTICE"] = "0"

def _shared_data() -> Path:
    """The shared puzzle files: $SUDOKU_SHARED_DATA, else ../shared/data beside the checkout, else
    beside the checkout it was cloned from (a clone made elsewhere, `git clone . /tmp/x`)."""
    if os.environ.get("SUDOKU_SHARED_DATA"):
        return Path(os.environ["SUDOKU_SHARED_DATA"])
    root = Path(__file__).resolve().parent.parent
    beside = root.parent / "shared" / "data"
    if beside.is_dir():
        return beside
    try:
        origin = subprocess.run(["git", "-C", str(root), "config", "--get", "remote.origin.url"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        origin = ""
    if origin and Path(origin).is_dir():
        cloned_from = Path(origin).resolve().parent / "shared" / "data"
        if cloned_from.is_dir():
            return cloned_from
    return beside  # missing: the tests that need it say how to point at it


DATA = _shared_data()

# the two grids docs/design.md names: the catalog's first and last
RANK1_GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
LAST_GRID = "123456789457893612986217354274538196531964827698721435342685971715349268869172543"


def data_path(name: str) -> Path:
    """A shared data file; a missing one fails the test (the suite is meant to run on them)."""
    path = DATA / name
    if not path.exists():
        pytest.fail(f"shared data file {path} not found: set SUDOKU_SHARED_DATA to the data folder")
    return path


@pytest.fixture(scope="session")
def data_dir() -> Path:
    data_path("README.md")
    return DATA


def read_data_lines(name: str) -> list[str]:
    return [ln.strip() for ln in data_path(name).read_text().splitlines() if ln.strip() and not ln.startswith("#")]


# -- the heaviest kernels compiled in a second process while the first tests run ----------------
_WARMUP: list[subprocess.Popen] = []


def pytest_sessionstart(session):
    """On a cold cache most of a run is compiling: ``warmup.py`` compiles the heavy kernels into the
    shared Numba cache on the other core, in the order the test files need them (the cache folder
    is the one this process and every subprocess use). ``SUDOKU_TEST_WARMUP=0`` turns it off. Not
    with ``-n``: the workers keep both cores busy and compile what their tests need."""
    if os.environ.get("SUDOKU_TEST_WARMUP", "1") == "0" or session.config.option.collectonly:
        return
    if hasattr(session.config, "workerinput") or getattr(session.config.option, "numprocesses", None):
        return
    _WARMUP.append(subprocess.Popen([sys.executable, str(Path(__file__).with_name("warmup.py"))],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


def pytest_sessionfinish(session, exitstatus):
    for proc in _WARMUP:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


# -- PostgreSQL: a throwaway server on loopback, shared by the session's tests -------------------
def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).resolve().parent if on_path else None


def no_postgres(reason: str):
    """No PostgreSQL server for the tests: a skip that says so, a failure in CI (``CI=true``),
    where the server must be there (``apt-get install postgresql``)."""
    message = f"PostgreSQL tests not run: {reason}"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI=true: a PostgreSQL server is required)", pytrace=False)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory):
    """A throwaway PostgreSQL server on 127.0.0.1 (trust auth), stopped at the end."""
    bindir = _pg_bin()
    if bindir is None:
        no_postgres("no PostgreSQL server binary (/usr/lib/postgresql/*/bin/pg_ctl or pg_ctl on PATH)")
    # not under pytest's tmp folder: that one is private to root, and the server runs as postgres
    base = Path(tempfile.mkdtemp(prefix="sudoku-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        if not shutil.which("runuser"):
            no_postgres("running as root without runuser")
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(base, "postgres")
    data, port = base / "data", _free_port()
    try:
        for cmd in ([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
                    [str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(base / "log"),
                     "-o", f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -F", "start"]):
            r = subprocess.run(as_user + cmd, capture_output=True, text=True)
            if r.returncode != 0:
                no_postgres(f"could not start a PostgreSQL server: {r.stderr.strip()[-300:]}")
        yield bindir, port
    finally:
        subprocess.run(as_user + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _psql(pg, sql: str) -> str:
    bindir, port = pg
    r = subprocess.run([str(bindir / "psql"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-X", "-q",
                        "-A", "-t", "-v", "ON_ERROR_STOP=1"], input=sql, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def _pg_driver() -> str | None:
    for module, scheme in (("psycopg", "postgresql+psycopg"), ("psycopg2", "postgresql+psycopg2"),
                           ("pg8000", "postgresql+pg8000")):
        if importlib.util.find_spec(module):
            return scheme
    return None


def pg_database(pg, name: str) -> str:
    """A fresh, empty database on the throwaway server; its SQLAlchemy URL (skips without a driver)."""
    scheme = _pg_driver()
    if scheme is None:
        no_postgres("no PostgreSQL driver for Python (pip install 'sudoku-symmetry[postgres]')")
    _psql(pg, f"DROP DATABASE IF EXISTS {name}; CREATE DATABASE {name};")
    return f"{scheme}://postgres@127.0.0.1:{pg[1]}/{name}"


# -- a populated catalog, shared by the tests that only read it ------------------------------
@pytest.fixture(scope="session")
def populated_catalog(tmp_path_factory) -> Path:
    """A SQLite catalog made by ``bin/populate`` (bands, ED-grid counts, 17-clue entry), read-only
    for the tests that use it: copy it first to change it."""
    import contextlib
    import io

    from sudoku_symmetry.commands import populate

    path = tmp_path_factory.mktemp("populated") / "catalog.sqlite"
    with contextlib.redirect_stdout(io.StringIO()):
        assert populate.main(["--db", str(path)]) == 0
    return path
