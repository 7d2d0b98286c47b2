"""Issue 42, items 1, 6, 7 and 10, at a laptop's and two phones' sizes, axe finding nothing:

1. the Kelly button bets Kelly's bet once (on the one box bet, else box 1) and says when it
   bets the table minimum because Kelly's bet is below it;
6. the Trainer says what each level grades against, and "By kind" grades at the coach's;
7. the counter coach, where an index does not apply, says what would change the play;
10. a toast never covers the dealer's cards; a drill that shows one card twice says why.

Screenshots of each screen go to tests/artifacts/felt-*.png.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from blackjack.rules import TABLES
from blackjack.variance import variance
from blackjack_service.edge import edge_of, kelly_bet
from tests.integration.seeds import value

from .drill_rng import first_pairs_drill, use_drill_seed
from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    VIEWPORTS,
    check_axe,
    coins,
    deal,
    new_player,
    open_table,
    play_out,
    set_bet,
    shoes_by_size,
    signed,
    tid,
    total,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

SIZES = list(VIEWPORTS)
STARTING_BALANCE = Decimal(10000)


def rank(card: str) -> str:
    return "T" if card[0] in "TJQK" else card[0]


def shot(page: Page, artifacts: Any, name: str) -> None:
    page.screenshot(path=str(artifacts / f"felt-{name}.png"))


def page_at(contexts: Contexts, size: str, *storage: tuple[str, str]) -> Page:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    for key, remembered in storage:
        page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(remembered)})")
    return page


def seated(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, size: str, shoe: Any, *storage: Any
) -> tuple[Page, str]:
    """A new player at casino, its first shoe one that satisfies `shoe` (each size its own),
    `storage` remembered; the page and the player's token."""
    seeds.use(shoes_by_size(shoe)[size])
    page = page_at(contexts, size, *storage)
    _, token = new_player(page, stack.api, "felt")
    open_table(page, "casino")
    return page, token


# ---- 1. the Kelly bet ----------------------------------------------------------------


def kelly_below_the_minimum(shoe: list[str]) -> bool:
    """Casino, one box standing on its first two cards (the 1st and 3rd; the up card the
    2nd, no hole card: the dealer draws from the 4th, standing on 17): once the round's
    cards are seen, the player's edge is positive but Kelly's bet at the starting balance is
    below the table minimum."""
    if "A" in (shoe[0][0], shoe[1][0]) or total([shoe[0], shoe[2]]) == 21:
        return False
    dealer, drawn = [shoe[1]], 3
    while total(dealer) < 17:
        dealer.append(shoe[drawn])
        drawn += 1
    if sum(1 if rank(c) in "23456" else -1 if rank(c) in "TA" else 0 for c in shoe[:drawn]) < 2:
        return False  # the edge stays the house's: not worth the analysis
    table = TABLES["casino"]
    edge = edge_of(table, shoe[:drawn])
    kelly, _ = kelly_bet(table, STARTING_BALANCE, edge, variance(table.id))
    return 0 < kelly < table.min_bet


@pytest.mark.parametrize("size", SIZES)
def test_the_kelly_bet_is_bet_once_and_names_the_minimum(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    page, token = seated(
        contexts, stack, seeds, size, kelly_below_the_minimum, ("blackjack.show_count", "on")
    )
    set_bet(page, 0, 10, 10)
    view = deal(page, "casino")
    play_out(page, "casino", view)

    answer = stack.api.call("GET", "/v1/tables/casino/edge", token=token)
    kelly, advised = answer["bet"]["kelly"], answer["bet"]["advised"]
    assert answer["edge"] > 0 and 0 < kelly < advised == 10, answer
    button = tid(page, "kelly-bet")
    expect(button).to_have_text(f"Table minimum 10: Kelly bet {kelly} is below it")

    # boxes 1 and 3 bet: Kelly's bet goes on box 1 alone, once
    set_bet(page, 2, 20, 10)
    expect(tid(page, "bet-total")).to_have_text("Total 30")
    button.click()
    expect(tid(page, "bet-amount-0")).to_have_text(coins(advised))
    expect(tid(page, "bet-clear-2")).to_have_count(0)
    expect(tid(page, "bet-total")).to_have_text(f"Total {coins(advised)}")
    expect(tid(page, "bet-note")).to_have_text("Kelly's bet is one box's: box 3 cleared.")
    width = VIEWPORTS[size][0]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    shot(page, artifacts, f"kelly-{size}")
    check_axe(page, f"the Kelly bet at the minimum, {size}")

    # box 3 alone bet: Kelly's bet goes on box 3, and a deal stakes just that
    tid(page, "bets-clear").click()
    set_bet(page, 2, 20, 10)
    button.click()
    expect(tid(page, "bet-amount-2")).to_have_text(coins(advised))
    expect(tid(page, "bet-total")).to_have_text(f"Total {coins(advised)}")
    expect(tid(page, "bet-note")).to_have_count(0)
    rounds = "/v1/tables/casino/rounds"
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(rounds)) as sent:
        deal(page, "casino")
    assert json.loads(sent.value.post_data or "{}")["bets"] == [{"box": 2, "amount": advised}]


# ---- 6. the Trainer's grades ----------------------------------------------------------

LEVEL_WORDS = {  # js/format.js GRADES' `words`
    "medium": "against the chart",
    "hard": "against exact play for a fresh shoe",
    "expert": "against perfect play for the shoe",
    "counter": "against the counter's indices",
}


LEVEL_NAMES = {  # js/settings.js COACH_LEVELS
    "medium": "Chart (medium)",
    "hard": "Exact, fresh shoe (hard)",
    "expert": "Perfect play for this shoe (expert)",
    "counter": "Index plays (counter)",
}


def eleven_against_a_ten(shoe: list[str]) -> bool:
    """European, one box: a 3 and an 8 (the 1st and 3rd cards) against a ten-value up card
    (the 2nd). The chart doubles; exact play without a hole card checked hits (issue 32)."""
    return rank(shoe[1]) == "T" and sorted((rank(shoe[0]), rank(shoe[2]))) == ["3", "8"]


@pytest.mark.parametrize("size", SIZES)
def test_the_trainer_grades_by_kind_at_the_coachs_level_and_says_how(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    seeds.use(shoes_by_size(eleven_against_a_ten)[size])
    page = page_at(contexts, size)
    _, token = new_player(page, stack.api, "kind")
    api = stack.api
    api.table(token, "european")  # commits the known shoe
    body = {"bets": [{"box": 0, "amount": 100}]}
    api.call("POST", "/v1/tables/european/rounds", body, token)
    view = api.call("POST", "/v1/tables/european/round/actions", {"action": "double"}, token)
    assert view["status"] == "settled", view
    [decision] = view["boxes"][0]["hands"][0]["decisions"]
    # the chart's play, a mistake against exact play, perfect play and the counter
    assert decision["medium_best"] == "double" != decision["best"], decision
    assert decision["counter_best"] != "double" and decision["loss"] >= 0.0005, decision
    mistakes = {"medium": "0", "hard": "1", "expert": "1", "counter": "1"}
    ev_lost = {
        "medium": "—",
        "hard": coins(Decimal(str(decision["loss"])) * 100),
        "expert": coins(Decimal(str(decision["expert_loss"])) * 100),
        "counter": "—",
    }
    for level in LEVEL_WORDS:
        page.evaluate(f"localStorage.setItem('blackjack.coach_level', '{level}')")
        page.goto("/#/lobby")
        page.goto("/#/trainer")
        intro = tid(page, "trainer-intro")
        expect(intro.locator("p")).to_contain_text(
            f"grade at your coach's level (a table's settings): {LEVEL_NAMES[level]}, by "
        )
        intro.locator("summary").click()
        expect(tid(page, f"trainer-grading-{level}")).to_contain_text("(your coach)")
        expect(intro.locator(".coach-level")).to_have_count(1)
        expect(tid(page, "trainer-grading-medium")).to_contain_text("by the move alone")
        expect(tid(page, "trainer-grading-hard")).to_contain_text("0.0005 of the bet")
        expect(tid(page, "trainer-by-kind-title")).to_have_text(
            f"By kind, {LEVEL_WORDS[level]} ({level}, your coach)"
        )
        expect(tid(page, "trainer-kind-hard-decisions")).to_have_text("1")
        expect(tid(page, "trainer-kind-hard-mistakes")).to_have_text(mistakes[level])
        expect(tid(page, "trainer-kind-hard-ev-lost")).to_have_text(ev_lost[level])
        width = VIEWPORTS[size][0]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        if level == "medium":
            shot(page, artifacts, f"trainer-{size}")
            tid(page, "trainer-by-kind").scroll_into_view_if_needed()
            shot(page, artifacts, f"trainer-by-kind-{size}")
            check_axe(page, f"the Trainer at the chart's level, {size}")


# ---- 7. the counter's sentence where no index applies ---------------------------------


def twelve_against_a_3(shoe: list[str]) -> bool:
    """Casino, one box: hard 12 of two unequal cards (the 1st and 3rd, no ace) against a 3
    (the 2nd): the chart hits, its index stands at +2 or above, far above a fresh shoe's."""
    first, second = shoe[0], shoe[2]
    return (
        rank(shoe[1]) == "3"
        and "A" not in (first[0], second[0])
        and rank(first) != rank(second)
        and value(first) + value(second) == 12
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_counter_says_what_would_change_the_play(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    coach = ("blackjack.coach_level", "counter")  # the coach's level, remembered
    page, token = seated(contexts, stack, seeds, size, twelve_against_a_3, coach)
    [index] = [
        ix
        for ix in stack.api.call("GET", "/v1/tables/casino/indices")["indices"]
        if (ix["section"], ix["row"], ix["up"]) == ("hard", "12", "3")
    ]
    assert (index["play"], index["index"], index["direction"]) == ("stand", 2, "at_or_above")
    set_bet(page, 0, 10, 10)
    view = deal(page, "casino")
    tid(page, "coach-toggle").check()
    hint = stack.api.call("GET", "/v1/tables/casino/round/hint?level=counter", token=token)
    assert hint["index"] is None and hint["action"] == "hit", hint
    true = signed(Decimal(str(hint["count"]["true"])))
    expect(tid(page, "hint-why")).to_have_text(
        f"The chart's play for 12 against a 3: stand only at +2 or above, "
        f"and the true count is {true}."
    )
    shot(page, artifacts, f"counter-why-{size}")
    check_axe(page, f"the counter's sentence, {size}")
    play_out(page, "casino", view)


# ---- 10. the toast and the drills' cards ----------------------------------------------

# The dealer's cards that something other than the dealer's area lies over, at their
# middle or their top corner (where the rank is: the cards overlap each other).
DEALER_COVERED = """() => [...document.querySelectorAll('[data-testid="dealer"] .card')]
  .filter((card) => {
    const dealer = card.closest('[data-testid="dealer"]');
    const r = card.getBoundingClientRect();
    const corner = [3, 8, 14].map((y) => [r.left + 8, r.top + y]);
    return [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], ...corner]
      .map(([x, y]) => document.elementFromPoint(x, y))
      .some((top) => top && !dealer.contains(top));
  })
  .map((card) => card.dataset.card || "a card's back")"""


@pytest.mark.parametrize("size", SIZES)
def test_the_offline_toast_leaves_the_dealers_cards_in_view(
    contexts: Contexts, stack: Stack, artifacts: Any, size: str
) -> None:
    page = page_at(contexts, size)
    new_player(page, stack.api, "off")
    open_table(page, "classic")
    set_bet(page, 0, 10, 10)
    play_out(page, "classic", deal(page, "classic"))
    expect(tid(page, "dealer").locator("[data-card]").first).to_be_visible()
    page.context.set_offline(True)
    tid(page, "deal").click()
    expect(tid(page, "banner")).to_have_text(
        "Could not deal: you are offline. Actions will be sent again when you retry."
    )
    covered = page.evaluate(DEALER_COVERED)
    shot(page, artifacts, f"toast-{size}")
    assert covered == [], f"the dealer's cards lie under something at {size}: {covered}"
    check_axe(page, f"offline at the table, {size}")
    page.context.set_offline(False)


def test_a_toast_at_a_wide_table_stands_beside_the_dealers_cards(
    contexts: Contexts, stack: Stack, artifacts: Any
) -> None:
    """Online, a problem's toast (the server down) at 1280x800: beside the dealer's cards,
    under the table's head (its Rules and Fair shoe in reach). A phone has no room beside
    them: there the toast spans the screen under the head, as before."""
    page = page_at(contexts, "laptop")
    new_player(page, stack.api, "side")
    open_table(page, "european")
    for box in range(5):
        set_bet(page, box, 10, 10)
    play_out(page, "european", deal(page, "european"))
    page.route("**/v1/tables/european/rounds", server_down)
    tid(page, "deal").click()
    expect(tid(page, "toast-error")).to_contain_text("The server could not answer")
    covered = page.evaluate(DEALER_COVERED)
    shot(page, artifacts, "toast-beside-laptop")
    assert covered == [], f"the dealer's cards lie under the toast: {covered}"
    for testid in ("open-rules", "open-fairness"):
        expect(tid(page, testid)).to_be_visible()
        box = tid(page, testid).bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        on_top = page.evaluate(f"document.elementFromPoint({x}, {y})?.dataset?.testid")
        assert on_top == testid, f"{testid} lies under {on_top}"
    check_axe(page, "a toast beside the dealer's cards")


def server_down(route: Route) -> None:
    problem = {"type": "about:blank", "title": "Service Unavailable", "status": 503}
    problem |= {"code": "maintenance", "detail": "Down."}
    route.fulfill(status=503, content_type="application/problem+json", body=json.dumps(problem))


SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}  # js/format.js
LABELS = {"T": "10"}


@pytest.mark.parametrize("size", SIZES)
def test_a_drill_dealing_one_card_twice_says_why(
    contexts: Contexts, stack: Stack, artifacts: Any, size: str
) -> None:
    seed = next(s for s in range(10_000) if len(set(first_pairs_drill("casino", s)[0])) == 1)
    (card, _), up = first_pairs_drill("casino", seed)
    restore = use_drill_seed(stack.stack, seed)
    try:
        choice = json.dumps({"table": "casino", "section": "pairs"})
        page = page_at(contexts, size, ("blackjack.drills", choice))
        new_player(page, stack.api, "same")
        page.goto("/#/drills")
        hand = tid(page, "drill-hand").locator("[data-card]")
        expect(hand).to_have_count(2)
        expect(hand.nth(0)).to_have_attribute("data-card", card)
        expect(hand.nth(1)).to_have_attribute("data-card", card)
        expect(tid(page, "drill-dealer").locator("[data-card]")).to_have_attribute("data-card", up)
        expect(tid(page, "drill-same-card")).to_have_text(
            f"Two {LABELS.get(card[0], card[0])}{SUITS[card[1]]}: six decks hold six of each card."
        )
        shot(page, artifacts, f"drill-same-card-{size}")
        check_axe(page, f"a drill showing one card twice, {size}")
        # answered, one screen still holds the hand (and the line), the verdict and Next
        tid(page, "drill").locator("[data-testid^='drill-action-']").first.click()
        for testid in ("drill-felt", "drill-same-card", "drill-next"):
            expect(tid(page, testid)).to_be_in_viewport(ratio=1)
        shot(page, artifacts, f"drill-same-card-answered-{size}")
    finally:
        restore()
