"""What the e2e tests run against, for the fixtures (conftest.py) and the tests: the
running local stack and its known shoes, and Debian's chromium and its pages."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

from blackjack_service import factories as own_factories
from blackjack_service import game as own_game
from local_stack.stack import LocalStack
from tests.integration.local_stack.harness import Client
from tests.integration.seeds import FixedSeeds, use_stack_seeds

from .helpers import BROWSER_LOCALES, E2E_TIMEOUT_MS, PSEUDO_LANGUAGE, Api

# Debian's chromium as Playwright runs headless tests: the headless shell (the same Blink,
# without the whole browser's windowing, some 40 % less CPU a test).
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MISSING_CHROMIUM = (
    f"{CHROMIUM} is missing: `make test` installs Debian's chromium headless shell (`apt-get "
    "install -y chromium-headless-shell`); the e2e tests never download a browser"
)


def chromium_missing() -> bool:
    return shutil.which(str(CHROMIUM)) is None


class Stack:
    """The running local stack: its base URL, an HTTP client and the stack itself."""

    def __init__(self, stack: LocalStack, base_url: str, port: int) -> None:
        self.stack = stack
        self.base_url = base_url
        self.api = Api(Client(port))


class StackSeeds:
    """`use_seeds` for the local stack: known server seeds for the next shoes committed.

    `use_seeds` replaces `blackjack_service.factories.game` in this process; the local
    stack runs each function in execution environments that are processes with their own
    copy of the layer, so the same replacement is made in this process's copy, in every
    environment started so far and in each one started later
    (`LocalStack.add_environment_setup`), all drawing from one list of seeds.
    """

    def __init__(self, stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
        self.stack = stack
        self.monkeypatch = monkeypatch
        self._removers: list[Callable[[], None]] = []

    def use(self, *server_seeds: str) -> None:
        source = FixedSeeds(list(server_seeds))
        # This process's own copy reads its settings from the environment a function of
        # the stack has.
        function = next(iter(self.stack.stack.functions.values()))
        for name in ("TABLE_NAME", "TOKEN_SECRET_ARN"):
            self.monkeypatch.setenv(name, function.lambda_environment()[name])
        game = own_game.GameService(own_factories.store(), seeds=source)
        self.monkeypatch.setattr(own_factories, "game", lambda: game)
        self._removers.append(use_stack_seeds(self.stack.stack, source))

    def close(self) -> None:
        """Environments started from now on keep the system's seeds."""
        for remove in self._removers:
            remove()


class Contexts:
    """New browser contexts (each its own sessionStorage), closed after the test."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.opened: list[BrowserContext] = []
        self.errors: list[str] = []  # uncaught exceptions in any page

    def page(
        self,
        width: int = 1280,
        height: int = 900,
        mobile: bool = False,
        paced: bool = False,
        language: str = "en",
    ) -> Page:
        """A new page; the cards land at once (reduced motion) unless `paced`. Its browser
        speaks `language` ("en", "ru", "hr"; "qps", the test language, speaks English
        with every catalog message marked, see test_languages.py)."""
        context = self.browser.new_context(
            locale=BROWSER_LOCALES.get(language, "en-US"),
            base_url=self.base_url,
            viewport={"width": width, "height": height},
            device_scale_factor=1 if not mobile else 2,
            is_mobile=mobile,
            has_touch=mobile,
            service_workers="block",
            reduced_motion="no-preference" if paced else "reduce",
        )
        context.set_default_timeout(E2E_TIMEOUT_MS)
        context.set_default_navigation_timeout(E2E_TIMEOUT_MS)
        self.opened.append(context)
        if language == PSEUDO_LANGUAGE:
            context.add_init_script(f"localStorage.setItem('blackjack.lang', '{PSEUDO_LANGUAGE}')")
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._csp_violation)  # the page runs under the template's CSP
        return page

    def _csp_violation(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def close(self) -> None:
        for context in self.opened:
            # A test's route handler may be fetching as its page closes; its error would
            # surface in the next test's first call on the browser.
            for page in context.pages:
                page.unroute_all(behavior="ignoreErrors")
            context.close()


def update_screenshot() -> bool:
    return os.environ.get("UPDATE_SCREENSHOT") == "1"
