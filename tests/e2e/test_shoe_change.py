"""A shoe's last round, as a player at the felt sees it (issue 32, item 2): the felt says the
cut card is out and, once the round is over, that a new shoe begins; the count badge
counts the old shoe's cards until the last of them has landed, and only then the next
shoe's.

Casino's cut card placed at its earliest (156 of 312 cards); rounds through the API up to
some 16 cards before it, then one box at a time in the page at the cards' pace, the badge
shown, a log of the badge and the status at every frame that changes the page. Each size
plays a shoe of its own whose cut card comes out in a deal that asks the player to play
(`cut_in_play`), so that the felt has a last round in play to say so.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from blackjack.actions import Action, Phase
from blackjack.fairness import cut_index
from blackjack.round import Round
from blackjack.rules import TABLES
from blackjack.shoe import Shoe

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    EARLIEST_CUT,
    VIEWPORTS,
    act,
    check_axe,
    cut_at_the_earliest,
    deal,
    new_player,
    open_panel,
    open_table,
    play_out,
    shoes_by_size,
    tid,
)
from .viewport_helpers import (
    DEALER_PLAY,
    MEASURE,
    RESULT,
    Figures,
    decision_specs,
    measure,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

SHOE = 312
NEWS = '[data-testid="shoe-news"]'
CUT = Decimal(EARLIEST_CUT)

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


def boxes_to_bet(position: int) -> int | None:
    """How many boxes `to_the_cut_card` bets through the API at this position (None: it
    is near enough, the page plays on with one)."""
    return None if position >= 140 else 5 if position < 110 else 1


def cut_in_play(cards: list[str]) -> bool:
    """Whether the shoe, played as this test plays it (one box in the page, then
    `boxes_to_bet` through the API, then one box a round in the page; every hand stands,
    insurance declined), deals its cut card in a round that then asks the player."""
    table = TABLES["casino"]
    shoe = Shoe("", "", 1, table.rules.decks, cut_index(table.rules.decks, CUT), cards)
    boxes: int | None = 1
    while not shoe.cut_card_out:
        round_ = Round.deal(table, shoe, dict.fromkeys(range(boxes or 1), Decimal(10)))
        if shoe.cut_card_out:
            return round_.phase is not Phase.SETTLED
        while round_.phase is not Phase.SETTLED:
            legal = round_.legal_actions()
            round_.act(
                Action.DECLINE_INSURANCE if Action.DECLINE_INSURANCE in legal else Action.STAND
            )
        boxes = boxes_to_bet(shoe.position) if boxes else None
    return False


def to_the_cut_card(page: Page, stack: Stack, token: str) -> None:
    open_table(page, "casino")
    cut_at_the_earliest(page)
    play_out(page, "casino", deal(page, "casino"))
    for _ in range(40):
        boxes = boxes_to_bet(SHOE - stack.api.table(token, "casino")["shoe"]["cards_remaining"])
        if boxes is None:
            return
        stack.api.play_round(token, "casino", 10, boxes=boxes)
    raise AssertionError("the shoe never came near its cut card")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_felt_says_the_shoe_changes_and_the_badge_waits_for_its_last_card(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    width, height = VIEWPORTS[size]
    seeds.use(shoes_by_size(cut_in_play)[size])
    page = contexts.page(width, height, mobile=width < 600, paced=True)
    page.add_init_script(BADGE_LOG)
    page.add_init_script(MEASURE)
    _, token = new_player(page, stack.api, "shoe")
    to_the_cut_card(page, stack, token)
    page.reload()  # the seat as the API has it now
    open_table(page, "casino")
    open_panel(page, "settings")
    tid(page, "count-toggle").check()
    tid(page, "close-settings").click()
    first = stack.api.table(token, "casino")["shoe"]["shoe_id"]
    saw_last_round = False
    figures = Figures()  # the last round's steps, in view
    for _ in range(12):
        page.evaluate("window.__badge = []")
        view = deal(page, "casino")
        if view["status"] != "settled" and stack.api.table(token, "casino")["shoe"]["cut_card_out"]:
            expect(tid(page, "shoe-news")).to_have_attribute("data-news", "last-round")
            expect(tid(page, "shoe-news")).to_be_visible()
            saw_last_round = True
            page.screenshot(path=str(artifacts / f"shoe-{size}-last-round.png"))
            page.evaluate(
                "(specs) => window.__watchDealerPlay(specs)", {**DEALER_PLAY, "news": NEWS}
            )
            while view["status"] != "settled":
                step = f"last round, {view['status']}"
                figures.add(step, measure(page, {**decision_specs(view), "news": NEWS}))
                legal = view["legal_actions"]
                view = act(
                    page, "casino", "decline_insurance" if "decline_insurance" in legal else "stand"
                )
            drawing = page.evaluate("window.__dealerPlay")
            assert drawing, "the dealer drew: the felt says so while it plays"
            for n, frame in enumerate(drawing):
                figures.add(f"last round, dealer's play, frame {n + 1} of {len(drawing)}", frame)
        else:
            view = play_out(page, "casino", view)
        if stack.api.table(token, "casino")["shoe"]["shoe_id"] != first:
            break
        expect(tid(page, "shoe-news")).to_have_count(0)
    else:
        raise AssertionError("the shoe was never retired")
    assert view["shoe_id"] == first
    assert saw_last_round, "the cut card came out in a round in play: the felt says so"
    # while the old shoe's cards landed, the badge counted them, never the next shoe
    frames: list[dict[str, Any]] = page.evaluate("window.__badge")
    landing = [f for f in frames if not f["betting"]]
    assert landing and all(f["unseen"] < SHOE for f in landing), frames
    news = tid(page, "shoe-news")
    expect(news).to_have_attribute("data-news", "new-shoe")
    expect(news).to_have_text(re.compile("new shoe begins"))
    expect(news).to_be_visible()
    expect(tid(page, "count-badge")).to_have_attribute("data-unseen", str(SHOE))
    figures.add("the new shoe said", measure(page, {**RESULT, "news": NEWS}))
    print(f"{size}: {figures.in_view} of {figures.steps} steps of the last round in view")
    assert not figures.misses, "\n".join(figures.misses)
    page.screenshot(path=str(artifacts / f"shoe-{size}-new-shoe.png"))
    check_axe(page, f"a new shoe begins, {size}")
