"""The header and the table's head on phones (issue 32, item 11), at a laptop's and two
phones' sizes: the balance's flash (a stake, a net) never lies over a control (it hung under
the header, over the table's Settings and Strategy), and the table's head holds its links
(at 360 px "Strategy" was cut, with no sign that the row scrolls); where it cannot, the
row shows a scroll cue. Screenshots go to tests/artifacts/header-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import LANGUAGES, VIEWPORTS, check_axe, new_player, open_table, posted, signed, tid

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

TABLES = ("classic", "bicycle", "casino", "european")

# Every control on screen whose box the flash meets, with what it is.
COVERED = """flash => {
  const f = flash.getBoundingClientRect();
  const meets = (r) => r.width > 0 && r.height > 0 && r.left < f.right && f.left < r.right
    && r.top < f.bottom && f.top < r.bottom;
  const controls = document.querySelectorAll(
    "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])");
  return [...controls].filter((c) => !c.contains(flash) && meets(c.getBoundingClientRect()))
    .map((c) => c.dataset.testid || c.textContent.trim());
}"""

# The flash's box inside the balance's pill, and the pill inside the header.
INSIDE = """flash => {
  const f = flash.getBoundingClientRect();
  const pill = flash.closest('.who').getBoundingClientRect();
  const head = document.querySelector('.topbar').getBoundingClientRect();
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  return {pill: within(f, pill), header: within(pill, head)};
}"""


def check_flash(page: Page, text: str, where: str) -> None:
    flash = tid(page, "balance-change")
    expect(flash).to_have_text(text)
    expect(flash).to_have_class(
        "bal-change neg flash" if text[0] == "\u2212" else "bal-change pos flash"
    )
    assert flash.evaluate(COVERED) == [], f"{where}: the flash lies over {flash.evaluate(COVERED)}"
    assert flash.evaluate(INSIDE) == {"pill": True, "header": True}, where


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_balance_flash_covers_no_control(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    # with motion: a fading flash was half read under axe (2:1 against the pill)
    page = contexts.page(width, height, mobile=width < 600, paced=True)
    new_player(page, stack.api, "flsh")
    open_table(page, "casino")
    while True:
        with page.expect_response(posted("/v1/tables/casino/rounds")) as info:
            tid(page, "deal").click()
        view: dict[str, Any] = info.value.json()
        # a natural settles the round at once: its net flashes, unless the dealer's
        # natural pushed it (the balance did not move, nothing flashes: deal again)
        if view["status"] != "settled" or signed(view["net"]) != "0":
            break
        expect(tid(page, "deal")).to_be_enabled()
    # the stake going out, or the natural's net
    stake = signed(view["net"]) if view["status"] == "settled" else signed(-10)
    check_flash(page, stake, f"{size}, the stake")
    page.screenshot(path=str(artifacts / f"header-flash-{size}.png"))
    check_axe(page, f"{size}: the stake's flash")
    while view["status"] != "settled":
        name = "stand" if "stand" in view["legal_actions"] else "decline_insurance"
        with page.expect_response(posted("/v1/tables/casino/round/actions")) as info:
            tid(page, f"action-{name}").click()
        view = info.value.json()
    expect(tid(page, "deal")).to_be_visible()
    if view["net"] and stake == signed(-10):  # the round's net flashes (an even round, none)
        check_flash(page, signed(view["net"]), f"{size}, the settlement")
    # once it has shown, the balance is read again: no fade, a cut
    expect(tid(page, "balance-change")).to_have_css("opacity", "0", timeout=4_000)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_tables_head_holds_its_links(
    size: str, language: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600, language=language)
    new_player(page, stack.api, "head")
    for table in TABLES:
        open_table(page, table)
        links = page.locator(".table-links")
        sizes = links.evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert sizes[0] <= sizes[1], f"{size} {language} {table}: the links scroll ({sizes})"
        expect(tid(page, "strategy-link")).to_be_in_viewport(ratio=1)
        inside = tid(page, "strategy-link").evaluate(
            "el => el.getBoundingClientRect().right <= "
            "el.closest('.table-links').getBoundingClientRect().right + 0.5"
        )
        assert inside, f"{size} {language} {table}: Strategy is cut"
        if table == "european":  # the longest name
            page.screenshot(path=str(artifacts / f"header-table-{size}-{language}.png"))
    check_axe(page, f"{size} {language}: the table's head")


def test_a_head_too_narrow_for_its_links_shows_that_they_scroll(
    contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """At 320 px the links cannot fit: a gold edge says there is more, and goes once the
    row is scrolled to its end."""
    page = contexts.page(320, 640, mobile=True)
    new_player(page, stack.api, "narr")
    open_table(page, "european")
    links = page.locator(".table-links")
    scroll, client = links.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll > client, (scroll, client)
    images = links.evaluate("el => getComputedStyle(el).backgroundImage")
    assert images.count("linear-gradient") == 4, images
    attachments = links.evaluate("el => getComputedStyle(el).backgroundAttachment")
    assert attachments.replace(" ", "") == "local,local,scroll,scroll", attachments
    page.screenshot(path=str(artifacts / "header-table-320.png"))
    links.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    expect(tid(page, "strategy-link")).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(artifacts / "header-table-320-scrolled.png"))
