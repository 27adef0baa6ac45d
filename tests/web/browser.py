"""Playwright on Debian's Chromium (never a downloaded browser), and page recorders."""

from __future__ import annotations

import os
import random
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


# -- what a person does on a page -------------------------------------------------------


def playwright_timeout() -> type[Exception]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


def prompt_of(page) -> str:
    """What the table asks, as the page shows it now (read at once: pages redraw)."""
    return page.evaluate("document.querySelector('p.prompt')?.innerText || ''")


def offer_id(page) -> int | None:
    found = page.evaluate("document.querySelector('section.offer[data-offer]')?.dataset.offer")
    return int(found) if found else None


def choose(page, rng: random.Random) -> int | None:
    """Tap one of the seat's choices (a random one), as a person would; returns its offer."""
    offer = offer_id(page)
    buttons = page.locator(f'section.offer[data-offer="{offer}"] button.act[data-kind="action"]')
    if not buttons.count():  # the page was redrawn meanwhile
        return None
    button = buttons.nth(rng.randrange(buttons.count()))
    button.evaluate("b => { const d = b.closest('details'); if (d) d.open = true; }")
    button.click()
    return offer


def press(page, button: str) -> None:
    page.click(f'section.buttons button.press[data-button="{button}"]')


def tap(page, rng: random.Random) -> int:
    """Tap a choice and wait until the question is gone (1), or give up (0): a tap on a
    page redrawn at that moment is lost, and the person taps again."""
    offer = choose(page, rng)
    if offer is None:
        return 0
    try:
        page.wait_for_function(
            f"!document.querySelector('section.offer[data-offer=\"{offer}\"]')", timeout=3000
        )
    except playwright_timeout():
        return 0
    return 1


def shown(page) -> tuple[str, int]:
    """The prompt a page shows and the number of its frame, read together (a page redraws
    between two reads: a prompt read before a redraw and a number after it were the cause
    of a flake, a press sent for a prompt the page no longer showed)."""
    prompt, seq = page.evaluate(
        "[document.querySelector('p.prompt')?.innerText || '',"
        " Number(document.getElementById('main').dataset.seq)]"
    )
    return prompt, int(seq)
