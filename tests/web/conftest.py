"""The web tests need the web extra (``pip install -e '.[test]'`` installs it)."""

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright, one per test module (skipped without it,
    failed in CI)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from browser import FLAGS, chromium_or_skip

    path = chromium_or_skip()
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=FLAGS)
        yield b
        b.close()
