"""Headless Chromium for the browser tests: Debian's (``apt-get install chromium``, /usr/bin/chromium; another
through DEALERPI_CHROMIUM), driven by the Python ``playwright`` package. Without it a test fails and says so:
it is never skipped."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Browser, sync_playwright
except ImportError as error:     # never skipped: say what to install
    raise ImportError("the browser test needs the playwright package: pip install -e '.[test]'") from error

CHROMIUM = os.environ.get("DEALERPI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> Iterator[Browser]:
    """The body of a module's ``browser`` fixture: a launched Chromium, closed afterwards."""
    if not Path(CHROMIUM).exists() and shutil.which(CHROMIUM) is None:
        pytest.fail(f"the browser test needs Chromium at {CHROMIUM}: `bash .ci/system-packages` installs it "
                    "(the README's test command runs it; or set DEALERPI_CHROMIUM to another Chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
