"""Screenshots of the built docs site in headless Chromium, to look at: the home, API and
puzzles-inside-a-grid pages at 1200 px wide (a manual check of the site as a reader sees it).

    .venv/bin/mkdocs build --strict --site-dir build/site
    .venv/bin/python tests/browser_screenshots.py build/site OUT_FOLDER

Needs Chromium (Debian: ``apt-get install chromium``). The site is served on loopback by a
throwaway HTTP server; each page is shot by a fresh headless browser with its own profile folder.
"""
from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

PAGES = {"home": "", "api": "api/", "puzzles": "puzzles-in-a-grid/"}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def shoot(site: Path, out: Path, width: int = 1200, height: int = 2400) -> list[Path]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise SystemExit("no Chromium found (apt-get install chromium)")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    try:
        for name, path in PAGES.items():
            target = out / f"{name}.png"
            with tempfile.TemporaryDirectory() as profile:
                subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
                                f"--screenshot={target}", f"http://127.0.0.1:{server.server_port}/{path}"],
                               check=True, capture_output=True, timeout=120)
            shots.append(target)
    finally:
        server.shutdown()
    return shots


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1]), Path(sys.argv[2])):
        print(shot)
