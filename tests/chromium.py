"""Debian's headless Chromium for the browser tests (pytest mark ``browser``), driven through
Playwright for Python given the browser's path: nothing downloads a browser.  A test module
imports :func:`browser` (a module-scoped fixture) and :data:`TIMEOUT` from here; the fixture
skips, saying so, only where no Chromium is installed."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

TIMEOUT = 60_000      # milliseconds a page's step may take (the machine may be busy)


def chromium_path() -> str | None:
    for candidate in (os.environ.get("GRIDSOLVE_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium installed: apt-get install chromium (or set GRIDSOLVE_CHROMIUM to its path)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        browser = playwright.chromium.launch(executable_path=path, args=args)
        yield browser
        browser.close()
