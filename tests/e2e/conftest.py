"""End-to-end fixtures: the real local stack (repo's template.yaml and web/) on a free
loopback port, Debian's chromium driven by Playwright, and known shoes.

The stack runs in this process, in a thread, so a test can fix the server seeds the way
`tests/integration/seeds.py` does; each execution environment is a process with its own
copy of the engine layer (each Lambda environment has its own memory), so `StackSeeds`
has every one deal from the test's seeds, present and future (see environment.py).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from .environment import (
    CHROMIUM,
    CHROMIUM_ARGS,
    MISSING_CHROMIUM,
    Contexts,
    Stack,
    StackSeeds,
    chromium_missing,
)
from .helpers import E2E_TIMEOUT_MS, ROOT

ARTIFACTS = ROOT / "tests" / "artifacts"
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a browser test (`e2e`), run untraced (`no_cover`, tests/traced.py):
    the other tests run traced nearly every line they run, and the tracer on the local
    stack's threads made them take twice the CPU."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.no_cover)


@pytest.fixture(scope="session")
def stack(shared_stack: Stack) -> Stack:
    """The stack the browser tests share with the contract test (tests/conftest.py)."""
    return shared_stack


@pytest.fixture
def seeds(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Iterator[StackSeeds]:
    fixed = StackSeeds(stack, monkeypatch)
    yield fixed
    fixed.close()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if chromium_missing():
        pytest.skip(MISSING_CHROMIUM)
    launched = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, timeout=30_000
    )
    yield launched
    launched.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def contexts(request: pytest.FixtureRequest, browser: Browser, stack: Stack) -> Iterator[Contexts]:
    opened = Contexts(browser, stack.base_url)
    yield opened
    if request.node.stash.get(FAILED, False):  # what the pages showed, for the CI artefacts
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for i, context in enumerate(opened.opened):
            for j, page in enumerate(context.pages):
                name = f"failed-{request.node.name}-{i}-{j}.png"
                page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    opened.close()
    assert not opened.errors, f"uncaught errors in the page: {opened.errors}"


@pytest.fixture
def page(contexts: Contexts) -> Page:
    return contexts.page()


@pytest.fixture(scope="package", autouse=True)
def _expect_timeout() -> None:
    expect.set_options(timeout=E2E_TIMEOUT_MS)


@pytest.fixture(scope="package")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
