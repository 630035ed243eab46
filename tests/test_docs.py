"""The docs run: every SQL query a page shows is run against a catalog made the way the docs say,
and must print the result shown under it; every shell example of the getting-started page and
of the command families' pages is run and must print what the page shows; the site builds in strict mode (a broken link, a missing
page or an API reference that does not resolve fails); the README stays short.

How a page marks what is checked (plain Markdown, readable as it is):

* a fenced ``sql`` block is one or more statements; the fenced ``text`` block right after it is
  their output as ``sqlite3`` prints it (columns joined by ``|``, NULL as nothing); a last line
  ``...`` shows the first rows only (the output must start with the lines above it);
* a fenced ``sh`` block of ``catalog.md`` and of the pages in ``RUN_PAGES`` is run by bash in
  the checkout's root, in order, with one fresh catalog (``$SUDOKU_CATALOG``) per page; the
  fenced ``text`` block right after it, when there is one, is its exact standard output; the
  SQL of every other page runs on the catalog that ``catalog.md``'s blocks make. The ``sh``
  blocks of the other pages (long runs, clusters, benchmarks) are shown, not run.
"""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA as SHARED_DATA

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
README_LIMIT = 12 * 1024
RUN_PAGES = ["getting-started.md", "grids.md", "solving.md", "patterns.md", "puzzles-in-a-grid.md",
             "making-puzzles.md", "pattern-puzzles.md"]
"""The pages whose shell blocks run (each with its own fresh catalog, its SQL on it too)."""


def blocks(page: Path) -> list[tuple[str, str, str | None]]:
    """(language, body, the text block right after it or None) for each fenced block."""
    found = [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(page.read_text())]
    out = []
    text = page.read_text()
    for k, (lang, body, _start, end) in enumerate(found):
        if lang == "text":
            continue
        after = None
        if k + 1 < len(found) and found[k + 1][0] == "text" and not text[end:found[k + 1][2]].strip():
            after = found[k + 1][1]
        out.append((lang, body, after))
    return out


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def sqlite3_output(rows) -> str:
    return "".join("|".join("" if v is None else str(v) for v in row) + "\n" for row in rows)


def run_sql(path: Path, sql: str) -> str:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out = []
        # comment lines go first: a comment may hold a ';'
        code = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
        for statement in [s.strip() for s in code.split(";") if s.strip()]:
            out.append(sqlite3_output(con.execute(statement).fetchall()))
        return "".join(out)
    finally:
        con.close()


def assert_output(got: str, expected: str, where: str) -> None:
    """``got`` is ``expected``, or starts with it when ``expected`` ends with a line ``...``."""
    if expected.endswith("...\n"):
        head = expected[: -len("...\n")]
        assert got.startswith(head) and len(got) > len(head), (where, got[: len(head) + 200])
    else:
        assert got == expected, (where, got)


def shell(cmd: str, env: dict) -> subprocess.CompletedProcess:
    """A page's block, run in the checkout. The pages name the shared files as a user of a checkout
    beside them does (``../shared/data``); a clone made elsewhere reads them where conftest found them."""
    if not (ROOT.parent / "shared" / "data").is_dir():
        cmd = cmd.replace("../shared/data", str(SHARED_DATA))
    return subprocess.run(["bash", "-euo", "pipefail", "-c", cmd], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1200)


def page_env(tmp_path: Path) -> dict:
    env = {**os.environ, "SUDOKU_CATALOG": str(tmp_path / "catalog.sqlite"),
           "SUDOKU_SHARED_DATA": str(SHARED_DATA)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    return env


def run_page(name: str, env: dict, sql_too: bool = True) -> int:
    """Run the ``sh`` blocks of a page in order (and its ``sql`` blocks), checking each output."""
    page = DOCS / name
    if not page.exists():
        pytest.fail(f"{page} is missing")
    checked = 0
    for lang, body, expected in blocks(page):
        if lang == "sh":
            r = shell(body, env)
            assert r.returncode == 0, f"{name}: {body}\n{r.stderr}"
            if expected is not None:
                assert_output(r.stdout, expected, f"{name}: {body}")
            checked += 1
        elif lang == "sql" and sql_too:
            assert expected is not None, f"{name}: an sql block without its result: {body}"
            assert_output(run_sql(Path(env["SUDOKU_CATALOG"]), body), expected, f"{name}: {body}")
            checked += 1
    return checked


@pytest.fixture(scope="module")
def docs_catalog(tmp_path_factory) -> Path:
    """The catalog the catalog page says how to make (its ``sh`` blocks, run here)."""
    env = page_env(tmp_path_factory.mktemp("docs"))
    assert run_page("catalog.md", env, sql_too=False)
    return Path(env["SUDOKU_CATALOG"])


@pytest.mark.parametrize("name", RUN_PAGES)
def test_page_runs_as_shown(name, tmp_path):
    assert run_page(name, page_env(tmp_path))


@pytest.mark.parametrize("name", [p.name for p in sorted(DOCS.glob("*.md")) if p.name not in RUN_PAGES])
def test_every_sql_block_prints_what_the_page_shows(name, docs_catalog):
    """Every SQL block of every page (but those of RUN_PAGES, run above on their own catalogs) runs on
    the catalog page's catalog and prints the result shown under it."""
    for lang, body, expected in blocks(DOCS / name):
        if lang == "sql":
            assert expected is not None, f"{name}: an sql block without its result: {body}"
            assert_output(run_sql(docs_catalog, body), expected, f"{name}: {body}")


def test_named_queries_are_on_the_catalog_page():
    from sudoku_symmetry.catalog.queries import QUERIES

    text = " ".join((DOCS / "catalog.md").read_text().split())
    missing = [q.name for q in QUERIES if " ".join(q.sql.split()) not in text]
    assert missing == []


def test_site_builds_in_strict_mode(tmp_path):
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    if mkdocs is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[test]' brings it")
    r = subprocess.run([mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=ROOT,
                       capture_output=True, text=True, timeout=600, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").exists()


def test_readme_is_short_and_names_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= README_LIMIT, len(readme.encode())
    assert "pip install -q -e . && bin/populate" in readme
    assert "pip install -q -e '.[test]' && .venv/bin/python -m pytest" in readme
    # every fence is closed: an odd count turns the rest of the page into one code block
    assert readme.count("```") % 2 == 0


DEVELOPMENT_LOG = re.compile(
    r"\bissues?\b|\bsessions?\b|\bthe lead\b|\b(evening|morning|afternoon|tonight|yesterday|overnight)\b"
    r"|\b20\d\d-\d\d-\d\d\b|\bwas \d[\d.,]*\s?(s|ms|us|x|%|MB|GB|min|minutes|seconds)\b|\b\d[\d.,]*\s?(s|ms|x|%)? -> \d"
    r"|\basked for\b|\bTODO\b|\bfor now\b|\btried again\b|\bremeasured\b|\bbefore the (change|fix)\b",
    re.I)
"""Words of a development log, not of a manual: work items, sessions, dated or before/after
measurements (today's figures live on the benchmarks page with their commands)."""


def development_log_lines(text: str) -> list[tuple[int, str]]:
    return [(n, m.group(0)) for n, line in enumerate(text.splitlines(), 1) for m in [DEVELOPMENT_LOG.search(line)] if m]


def test_the_development_log_check_sees_what_it_must():
    assert [w for _, w in development_log_lines("as the issue asks\nmeasured 2026-11-25\nwas 5.38 s\n2.23 -> 1.80 s\n"
                                                "that evening\nA -> B: 1:2\nrank <-> grid")] == \
        ["issue", "2026-11-25", "was 5.38 s", "2.23 -> 1", "evening"]


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"],
                         ids=lambda p: p.name)
def test_the_docs_read_as_a_manual_not_a_development_log(page):
    assert development_log_lines(page.read_text()) == []
