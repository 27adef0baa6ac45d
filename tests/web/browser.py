"""Playwright on Debian's Chromium (never a downloaded browser), and page recorders."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
TV = {"width": 1280, "height": 800}

# Every message the server pushes to a page is kept in window.__pushed (seq, main), and
# every live connection in window.__sources (a test drops one as a lost Wi-Fi would).
RECORD_PUSHES = """
(() => {
  const Real = window.EventSource;
  window.__pushed = [];
  window.__sources = [];
  window.EventSource = function (url, options) {
    const source = new Real(url, options);
    window.__sources.push(source);
    source.addEventListener("frame", (e) => window.__pushed.push(JSON.parse(e.data)));
    return source;
  };
  window.EventSource.prototype = Real.prototype;
})();
"""


def chromium_or_skip() -> str:
    """Chromium's path; in CI a missing browser fails (``.ci/run`` installs it)."""
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return CHROMIUM
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    pytest.skip("no Chromium here (apt-get install chromium)")


def screenshot_dir(tmp_path: Path) -> Path:
    """Where screenshots go: ``$COMPANION_SCREENSHOTS`` (docs/web when making the docs)."""
    target = os.environ.get("COMPANION_SCREENSHOTS")
    path = Path(target) if target else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_page(browser, url: str, token: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(RECORD_PUSHES)
    page = context.new_page()
    page.goto(f"{url}/pair/{token}")
    page.wait_for_selector("main")
    return context, page
