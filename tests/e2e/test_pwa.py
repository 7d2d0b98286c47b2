"""The installable web client in Debian's chromium: the manifest, the service worker, the
offline screen. A profile on disk (not an incognito context, where Chromium never offers
to install) and service workers allowed, unlike the other browser tests."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Playwright, expect

from .environment import CHROMIUM, CHROMIUM_ARGS, MISSING_CHROMIUM, Stack, chromium_missing
from .helpers import E2E_TIMEOUT_MS, ROOT


@pytest.fixture(scope="module")
def installed(
    playwright: Playwright, stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrowserContext]:
    if chromium_missing():
        pytest.skip(MISSING_CHROMIUM)
    context = playwright.chromium.launch_persistent_context(
        tmp_path_factory.mktemp("chromium_profile"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        base_url=stack.base_url,
        service_workers="allow",
        timeout=30_000,
    )
    context.set_default_timeout(E2E_TIMEOUT_MS)
    yield context
    context.close()


@pytest.fixture
def app(installed: BrowserContext) -> Iterator[Page]:
    """The web client, controlled by its service worker."""
    page = installed.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()  # the first visit is not controlled yet; since clients.claim() it is
    yield page
    installed.set_offline(False)
    page.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def cdp(page: Page, method: str) -> Any:
    return page.context.new_cdp_session(page).send(method)


def test_the_manifest_is_fetched_and_valid(app: Page, stack: Stack) -> None:
    manifest = cdp(app, "Page.getAppManifest")
    assert manifest["url"] == f"{stack.base_url}/manifest.webmanifest"
    assert manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert data["name"] and data["short_name"] == "Blackjack"
    assert data["display"] == "standalone"
    assert data["start_url"] == "./" and data["scope"] == "./"
    theme = re.search(
        r'name="theme-color" content="([^"]+)"', (ROOT / "web/index.html").read_text()
    )
    assert theme and data["theme_color"] == theme[1]
    assert {icon["purpose"] for icon in data["icons"]} == {"any", "maskable"}
    for url, kind in [("/manifest.webmanifest", "application/manifest+json")] + [
        (f"/{icon['src']}", icon["type"]) for icon in data["icons"]
    ]:
        response = app.request.get(url)
        assert response.status == 200 and response.headers["content-type"] == kind, url
    assert data["icons"][0]["type"] == "image/svg+xml"


def test_the_service_worker_is_active_and_chromium_would_install_the_client(app: Page) -> None:
    assert app.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)") == "activated"
    assert app.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    assert cdp(app, "Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_static_files_are_kept_by_version_and_api_calls_never(app: Page) -> None:
    app.goto("/#/strategy/casino")  # public: the API answers the strategy card
    responses: list[Any] = []
    app.on("response", lambda response: responses.append(response))
    app.reload()
    expect(app.get_by_test_id("strategy")).to_be_visible()
    api = [r for r in responses if "/v1/" in r.url]
    assert api and not any(r.from_service_worker for r in api)
    assert any(r.from_service_worker for r in responses if r.url.endswith("/js/app.js"))
    kept: dict[str, list[str]] = app.evaluate(
        """async () => Object.fromEntries(await Promise.all((await caches.keys()).map(
             async name => [name, (await (await caches.open(name)).keys()).map(r => r.url)])))"""
    )
    version = re.search(r'const VERSION = "([^"]+)"', (ROOT / "web/sw.js").read_text())
    assert version
    assert list(kept) == [f"blackjack-static-v{version[1]}"]
    urls = kept[f"blackjack-static-v{version[1]}"]
    assert not [url for url in urls if "/v1/" in url]
    assert {"/offline.html", "/js/offline.js", "/js/app.js"} <= {
        url.removeprefix(app.url.split("/#")[0]) for url in urls
    }


def test_an_offline_reload_shows_the_offline_screen_and_online_recovers(
    app: Page, installed: BrowserContext
) -> None:
    expect(app.get_by_test_id("nav-login")).to_be_visible()
    installed.set_offline(True)
    app.reload()
    expect(app.get_by_test_id("offline")).to_be_visible()
    expect(app).to_have_title("Offline · Blackjack")
    app.get_by_test_id("offline-retry").click()  # still no network: it says so, and waits
    expect(app.get_by_test_id("offline-status")).to_have_text("Waiting for the network…")
    expect(app.get_by_test_id("offline")).to_be_visible()

    installed.set_offline(False)  # nothing to press: the game comes back by itself
    expect(app.get_by_test_id("nav-login")).to_be_visible()
    expect(app.get_by_test_id("offline")).to_have_count(0)


def test_the_offline_screen_stands_on_its_own_files(stack: Stack) -> None:
    """What offline.html loads, and its modules import, is what the worker caches at install."""
    page = (ROOT / "web/offline.html").read_text()
    loaded = set(re.findall(r'(?:href|src)="([^"]+)"', page))
    modules = [file for file in loaded if file.endswith(".js")]
    while modules:
        module = modules.pop()
        source = (ROOT / "web" / module).read_text()
        for imported in re.findall(r'^import .*"(\.{1,2}/[^"]+)";$', source, re.M):
            file = posixpath.normpath(posixpath.join(posixpath.dirname(module), imported))
            if file not in loaded:
                loaded.add(file)
                modules.append(file)
    worker = (ROOT / "web/sw.js").read_text()
    offline_files = re.search(r"const OFFLINE_FILES = \[([^\]]+)\]", worker)
    assert offline_files
    cached = set(re.findall(r'"([^"]+)"', offline_files[1])) | {"offline.html"}
    assert loaded | {"offline.html"} == cached
    for file in cached:
        assert Path(ROOT / "web" / file).is_file(), file


def test_a_server_out_of_reach_shows_the_offline_screen_which_retries_by_itself(
    app: Page, installed: BrowserContext
) -> None:
    """The browser still says online (a server down, a captive network): the screen asks
    again every few seconds on its own, and loads the game once the server answers."""
    expect(app.get_by_test_id("nav-login")).to_be_visible()
    installed.route("**/*", lambda route: route.abort("connectionrefused"))
    try:
        app.reload()
        expect(app.get_by_test_id("offline")).to_be_visible()
    finally:
        installed.unroute("**/*")
    expect(app.get_by_test_id("nav-login")).to_be_visible(timeout=4 * E2E_TIMEOUT_MS)
