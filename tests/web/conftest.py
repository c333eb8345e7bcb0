"""Fixtures for the web UI tests: one real ``interboard serve`` process on a temporary SQLite file,
and Debian's Chromium driven by Playwright (``apt-get install chromium``; never ``playwright install``).

Without Chromium or Playwright the tests are skipped, unless ``$CI`` is set, where they fail instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.service.test_server_process import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

CHROMIUM = os.environ.get("INTERBOARD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"the web UI tests need {reason} when CI is set", pytrace=False)
    pytest.skip(f"web UI tests skipped: {reason}")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright (pip install playwright)")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("web")
    srv = Server(f"sqlite:///{tmp / 'web.sqlite'}", sweep=0.2, log=tmp / "server.log")
    try:
        yield srv.wait_ready()
    finally:
        srv.stop()
        print(f"==== server log\n{srv.output()[-4000:]}")


@pytest.fixture
def new_context(browser: Browser, server: Server) -> Iterator[Any]:
    """``new_context(viewport=LAPTOP, touch=False)``: a fresh browser profile (its own
    localStorage, so its own seats), closed after the test. Page errors fail the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] = LAPTOP, touch: bool = False) -> BrowserContext:
        # touch: a phone's browser (touch events, a coarse pointer, the mobile viewport).
        context = browser.new_context(
            viewport=viewport, base_url=server.url, has_touch=touch, is_mobile=touch
        )
        context.set_default_timeout(15_000)
        context.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the pages: {errors}"


@pytest.fixture
def api(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client
