"""A shoe's last round, as a player at the felt sees it (issue 32, item 2): the felt says the
cut card is out and, once the round is over, that a new shoe begins; the count badge
counts the old shoe's cards until the last of them has landed, and only then the next
shoe's.

Casino's cut card placed at its earliest (156 of 312 cards); rounds through the API up to
some 16 cards before it, then one box at a time in the page at the cards' pace, the badge
shown, a log of the badge and the status at every frame that changes the page.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import (
    VIEWPORTS,
    check_axe,
    deal,
    new_player,
    open_panel,
    open_table,
    play_out,
    tid,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.e2e

SHOE = 312

# Each frame that changes the page: the badge's cards left and the status words.
BADGE_LOG = """
window.__badge = [];
new MutationObserver(() => {
  const badge = document.querySelector('[data-testid="count-badge"]');
  const status = document.querySelector('[data-testid="round-status"]');
  if (!badge || !status) return;
  const snap = { unseen: Number(badge.dataset.unseen), words: status.textContent,
                 betting: !!document.querySelector('[data-testid="deal"]') };
  const last = window.__badge.at(-1);
  if (!last || JSON.stringify(last) !== JSON.stringify(snap)) window.__badge.push(snap);
}).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
"""


def to_the_cut_card(page: Page, stack: Stack, token: str) -> None:
    open_table(page, "casino")
    open_panel(page, "fairness")
    tid(page, "cut").fill("0.5")  # the earliest cut: 156 cards of 312
    page.keyboard.press("Escape")
    play_out(page, "casino", deal(page, "casino"))
    for _ in range(40):
        position = SHOE - stack.api.table(token, "casino")["shoe"]["cards_remaining"]
        if position >= 140:
            return
        stack.api.play_round(token, "casino", 10, boxes=5 if position < 110 else 1)
    raise AssertionError("the shoe never came near its cut card")


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_felt_says_the_shoe_changes_and_the_badge_waits_for_its_last_card(
    contexts: Contexts, stack: Stack, artifacts: Any, size: str
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600, paced=True)
    page.add_init_script(BADGE_LOG)
    _, token = new_player(page, stack.api, "shoe")
    to_the_cut_card(page, stack, token)
    page.reload()  # the seat as the API has it now
    open_table(page, "casino")
    open_panel(page, "settings")
    tid(page, "count-toggle").check()
    tid(page, "close-settings").click()
    first = stack.api.table(token, "casino")["shoe"]["shoe_id"]
    saw_last_round = False
    for _ in range(12):
        page.evaluate("window.__badge = []")
        view = deal(page, "casino")
        if view["status"] != "settled":
            if stack.api.table(token, "casino")["shoe"]["cut_card_out"]:
                expect(tid(page, "shoe-news")).to_have_attribute("data-news", "last-round")
                expect(tid(page, "shoe-news")).to_be_visible()
                saw_last_round = True
                page.screenshot(path=str(artifacts / f"shoe-{size}-last-round.png"))
            view = play_out(page, "casino", view)
        if stack.api.table(token, "casino")["shoe"]["shoe_id"] != first:
            break
        expect(tid(page, "shoe-news")).to_have_count(0)
    else:
        raise AssertionError("the shoe was never retired")
    assert view["shoe_id"] == first
    # while the old shoe's cards landed, the badge counted them, never the next shoe
    frames: list[dict[str, Any]] = page.evaluate("window.__badge")
    landing = [f for f in frames if not f["betting"]]
    assert landing and all(f["unseen"] < SHOE for f in landing), frames
    news = tid(page, "shoe-news")
    expect(news).to_have_attribute("data-news", "new-shoe")
    expect(news).to_have_text(re.compile("new shoe begins"))
    expect(news).to_be_visible()
    expect(tid(page, "count-badge")).to_have_attribute("data-unseen", str(SHOE))
    page.screenshot(path=str(artifacts / f"shoe-{size}-new-shoe.png"))
    check_axe(page, f"a new shoe begins, {size}")
    print(f"{size}: the cut card said in play: {saw_last_round}; {len(frames)} frames")
