"""The table's drawers, the checkout and a shared table in the players' languages (issue 41).

- In the test language (`qps`, see test_languages.py) the drawers, the checkout asking and
  graded, and a shared table betting, asking a decision and settled show no word outside
  the catalogs.
- In Russian and in Croatian, on a phone and on a laptop, the same screens never scroll
  sideways; their pictures are tests/artifacts/lang-panels-<screen>-<lang>-<width>.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import PSEUDO_LANGUAGE, ROOT, new_player, open_panel, open_table, tid
from .test_checkout import ALWAYS, TABLE, answer, play_round
from .test_languages import check_catalogued
from .test_rooms import make_room

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

DRAWERS = ("rules", "fairness", "settings")
SIZES = {360: 640, 1280: 800}


def checkout_on(page: Page) -> None:
    """The count badge and the checkout on, in the table's Settings."""
    open_panel(page, "settings")
    tid(page, "count-toggle").check()
    tid(page, "checkout-toggle").check()
    tid(page, "close-settings").click()


def walk_the_table(page: Page, stack: Stack, seen: Any) -> None:
    """A player at the casino table (the checkout asking every time it may): each drawer,
    the checkout asking, an answer it cannot read, the answers graded. `seen(where)` is
    called at each of those screens."""
    page.add_init_script(ALWAYS)
    new_player(page, stack.api, "lgp")
    open_table(page, TABLE)
    for name in DRAWERS:
        open_panel(page, name)
        seen(f"the {name} drawer")
        tid(page, f"close-{name}").click()
    checkout_on(page)
    play_round(page)
    expect(tid(page, "checkout-form")).to_be_visible()
    seen("the checkout asking")
    answer(page, "seven", "x", "")
    expect(tid(page, "checkout-running-error")).to_be_visible()
    seen("the checkout's errors")
    answer(page, "+1", "0.5", "10")
    expect(tid(page, "checkout-continue")).to_be_visible()
    seen("the checkout graded")


def walk_a_room(page: Page, stack: Stack, seen: Any) -> None:
    """A shared table of one player: betting, a decision asked, the round settled."""
    _, token = new_player(page, stack.api, "lgr")
    made = make_room(stack.api, token, [0])
    page.goto(f"/#/room/{made['room_id']}")
    expect(tid(page, "live-state")).to_have_attribute("data-state", "live")
    seen("a shared table, betting")
    for control in ("deal", "pass"):  # a room's Bet and Pass, whole, however long their words
        expect(tid(page, control)).to_be_in_viewport(ratio=1)
    tid(page, "deal").click()
    phase = page.locator("[data-testid=room-page]")
    expect(phase).not_to_have_attribute("data-phase", "waiting")
    # Stand on every hand asked until the round settles, each step waiting for one or the
    # other (a button seen a moment ago may be gone: the page renders as the round moves).
    asked = page.locator(
        "[data-testid=action-decline_insurance]:enabled, [data-testid=action-stand]:enabled"
    )
    settled = page.locator("[data-testid=room-page][data-phase=settled]")
    for _ in range(12):
        expect(asked.or_(settled).first).to_be_visible()
        if settled.count():
            break
        seen(f"a shared table, {phase.get_attribute('data-phase')}")
        asked.first.click()
    expect(settled).to_have_count(1)
    seen("a shared table, settled")


def test_the_drawers_and_the_checkout_speak_catalog_words(contexts: Contexts, stack: Stack) -> None:
    page = contexts.page(1280, 800, language=PSEUDO_LANGUAGE)
    walk_the_table(page, stack, lambda where: check_catalogued(page, where))


def test_a_shared_table_speaks_catalog_words(contexts: Contexts, stack: Stack) -> None:
    page = contexts.page(1280, 800, language=PSEUDO_LANGUAGE)
    walk_a_room(page, stack, lambda where: check_catalogued(page, where))


@pytest.mark.parametrize("width", list(SIZES))
@pytest.mark.parametrize("lang", ["ru", "hr"])
def test_the_drawers_checkout_and_a_shared_table_hold_in_russian_and_croatian(
    lang: str, width: int, contexts: Contexts, stack: Stack
) -> None:
    shots = ROOT / "tests" / "artifacts"
    for walk in (walk_the_table, walk_a_room):
        page = contexts.page(width, SIZES[width], mobile=width < 600, language=lang)

        def seen(where: str, page: Page = page) -> None:
            assert page.evaluate("document.documentElement.lang") == lang
            wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert wide <= 0, f"{where} scrolls sideways by {wide} px"
            name = where.removeprefix("the ").replace(" ", "-").replace(",", "").replace("'", "")
            page.screenshot(path=str(shots / f"lang-panels-{name}-{lang}-{width}.png"))

        walk(page, stack, seen)
