"""The checkout at the table (issue 42, item 9): with the setting on, between rounds the
table now and then asks the running count, the true count and the bet, with the count
badge, the edge and the Kelly bet hidden until it is answered; it grades each answer
against GET /v1/tables/{id}/edge (the running count exactly, the true count within 0.5,
the bet within the tolerance set in Settings), shows the right answers with why, never
asks two rounds in a row, and the Trainer shows the count and bet accuracy beside the
decisions'. Enter answers, Escape skips. At a laptop's and two phones' sizes, axe finding
nothing and no sideways scroll. The page's Math.random is pinned to 0 here, so every round
the checkout may ask, it asks. Screenshots: tests/artifacts/checkout-*.png.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    VIEWPORTS,
    check_axe,
    coins,
    deal,
    new_player,
    open_panel,
    open_table,
    play_out,
    set_bet,
    shoes_by_size,
    tid,
)
from .test_edge import small_cards_first

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

TABLE = "casino"  # six decks, a cut card: the count is in play between rounds
MINUS = "\u2212"
ALWAYS = "Math.random = () => 0;"  # the checkout asks whenever it may


def count_text(value: float, decimals: int = 0) -> str:
    """web/js/hilo.js formatCount: "+3", "0", "+1.20", and a minus sign (U+2212) below 0."""
    text = f"{abs(value):.{decimals}f}"
    if float(text) == 0:
        return text
    return f"{'+' if value > 0 else MINUS}{text}"


def edge_now(stack: Stack, token: str) -> dict[str, Any]:
    return dict(stack.api.call("GET", f"/v1/tables/{TABLE}/edge", token=token))


def play_round(page: Page) -> None:
    """Deal (the bets as they stand) and stand on every hand; then, as a player would, wait
    for the edge (or the checkout, which hides it): a round whose edge never came (the next
    one dealt first) is not one the checkout counts."""
    play_out(page, TABLE, deal(page, TABLE))
    expect(tid(page, "edge").or_(tid(page, "checkout"))).to_be_visible()


def settings_on(page: Page, shot: Path) -> None:
    """The count badge and the checkout on, in the table's Settings, a bet right within
    ±20% (the default is ±10%); the drawer's picture in `shot`."""
    open_panel(page, "settings")
    tid(page, "count-toggle").check()
    expect(tid(page, "edge")).to_be_visible()  # asked for with the count: the page drawn again
    expect(tid(page, "checkout-toggle")).not_to_be_checked()  # off by default
    tid(page, "checkout-toggle").check()
    expect(tid(page, "checkout-tolerance")).to_have_value("10")
    tid(page, "checkout-tolerance").select_option("20")
    tid(page, "checkout-settings").scroll_into_view_if_needed()
    page.screenshot(path=str(shot))
    check_axe(page, "the settings with the checkout's")
    tid(page, "close-settings").click()


def check_asking(page: Page, where: str, artifacts: Path, name: str) -> None:
    """The checkout asks: its fields, the focus on the first; the count, the edge, the Kelly
    bet and Deal hidden; it fits the screen."""
    expect(tid(page, "checkout-form")).to_be_visible()
    expect(tid(page, "checkout-running")).to_be_focused()
    for hidden in ("count-badge", "edge", "kelly-bet", "deal"):
        expect(tid(page, hidden)).to_have_count(0)
    check_fits(page, where)
    page.screenshot(path=str(artifacts / f"checkout-{name}.png"))
    check_axe(page, where)


def check_fits(page: Page, where: str) -> None:
    """No sideways scroll, and the checkout's panel whole in view."""
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"{where}: the page scrolls sideways {widths}"
    box = page.evaluate(
        "(() => { const r = document.querySelector('[data-testid=\"checkout\"]')"
        ".getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]; })()"
    )
    left, top, right, bottom, width, height = box
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, f"{where}: {box}"


def answer(page: Page, running: str, true: str, bet: str) -> None:
    """Types the three answers and sends them with Enter."""
    for name, text in (("running", running), ("true", true), ("bet", bet)):
        tid(page, f"checkout-{name}").fill(text)
    page.keyboard.press("Enter")


def check_graded(page: Page, truth: dict[str, Any], right: bool, tolerance: int) -> None:
    """Each answer graded as `right` says, beside the service's figure and why."""
    count, advised = truth["count"], truth["bet"]["advised"]
    expected = {
        "running": count_text(count["running"]),
        "true": count_text(count["true"], 2),
        "bet": coins(advised),
    }
    for name, text in expected.items():
        expect(tid(page, f"checkout-grade-{name}")).to_have_attribute(
            "data-right", "true" if right else "false"
        )
        expect(tid(page, f"checkout-expected-{name}")).to_have_text(text)
    decks = f"{count['cards_unseen'] / 52:.2f}"
    expect(tid(page, "checkout-why-true")).to_have_text(
        f"Running {count_text(count['running'])} ÷ {decks} decks left "
        f"({count['cards_unseen']} cards unseen ÷ 52); right within ±0.5."
    )
    expect(tid(page, "checkout-why-running")).to_contain_text(" cards counted ")
    expect(tid(page, "checkout-why-bet")).to_contain_text(f"(±{tolerance}%)")
    expect(tid(page, "checkout-continue")).to_be_focused()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_checkout_asks_grades_and_the_trainer_counts(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Path, size: str
) -> None:
    width, height = VIEWPORTS[size]
    seeds.use(shoes_by_size(small_cards_first)[size])
    page = contexts.page(width, height, mobile=width < 600)
    page.add_init_script(ALWAYS)
    _, token = new_player(page, stack.api, "chk")

    # Nothing asked before a round, nor with the setting off (its default).
    open_table(page, TABLE)
    settings_on(page, artifacts / f"checkout-{size}-settings.png")
    expect(tid(page, "count-badge")).to_be_visible()
    expect(tid(page, "checkout")).to_have_count(0)

    # Round 1 on five boxes: the small cards give the player the edge, Kelly's bet above
    # the minimum. Then the checkout asks.
    for box in range(5):
        set_bet(page, box, 10, 10)
    play_round(page)
    check_asking(page, f"checkout asking, {size}", artifacts, f"{size}-asking")
    truth = edge_now(stack, token)
    assert truth["bet"]["kelly"] > 10 and truth["count"]["cards_seen"] > 0, truth
    advised = truth["bet"]["advised"]

    # An answer that does not read is said so, and nothing is graded.
    answer(page, "seven", str(truth["count"]["true"]), str(advised))
    expect(tid(page, "checkout-running-error")).to_have_text(
        f"A whole number with its sign, like +3 or {MINUS}2."
    )
    expect(tid(page, "checkout-running")).to_be_focused()
    expect(tid(page, "checkout-grade-running")).to_have_count(0)

    # Right answers: the running count exactly, the true count to a tenth, and a bet at the
    # top of the ±20% set in Settings (wrong at the default ±10%).
    count = truth["count"]
    within = math.floor(advised * 1.2 + 1e-9)
    assert within > advised * 1.1, truth
    answer(page, str(count["running"]), f"{count['true']:.1f}", str(within))
    check_graded(page, truth, right=True, tolerance=20)
    expect(tid(page, "checkout")).to_contain_text("3 of 3 right")
    check_fits(page, f"checkout graded right, {size}")
    page.screenshot(path=str(artifacts / f"checkout-{size}-right.png"))
    check_axe(page, f"checkout graded right, {size}")

    # Back to the bets (Enter on the focused button): the count and the Kelly bet return.
    page.keyboard.press("Enter")
    expect(tid(page, "checkout")).to_have_count(0)
    expect(tid(page, "count-badge")).to_be_visible()
    expect(tid(page, "kelly-bet")).to_be_visible()
    expect(tid(page, "deal")).to_be_focused()

    # Round 2: never two in a row (the edge shown means the checkout looked).
    play_round(page)
    expect(tid(page, "edge")).to_be_visible()
    expect(tid(page, "checkout")).to_have_count(0)

    # Round 3 asks again: wrong answers, each beside the right one.
    play_round(page)
    check_asking(page, f"checkout asking again, {size}", artifacts, f"{size}-asking-again")
    truth = edge_now(stack, token)
    count, advised = truth["count"], truth["bet"]["advised"]
    answer(page, str(count["running"] + 1), f"{count['true'] + 0.75:.2f}", str(advised * 2 + 10))
    check_graded(page, truth, right=False, tolerance=20)
    expect(tid(page, "checkout-grade-bet")).to_contain_text(f"you said {coins(advised * 2 + 10)}")
    check_fits(page, f"checkout graded wrong, {size}")
    page.screenshot(path=str(artifacts / f"checkout-{size}-wrong.png"))
    check_axe(page, f"checkout graded wrong, {size}")
    page.keyboard.press("Escape")
    expect(tid(page, "checkout")).to_have_count(0)

    # Rounds 4 and 5: the fifth asks, and Escape skips it (a skip is not counted).
    play_round(page)
    play_round(page)
    expect(tid(page, "checkout-running")).to_be_focused()
    page.keyboard.press("Escape")
    expect(tid(page, "checkout")).to_have_count(0)
    expect(tid(page, "count-badge")).to_be_visible()

    # A reload is not asked about the round it finds on the felt (it may not have been counted).
    page.reload()
    expect(tid(page, "edge")).to_be_visible()
    expect(tid(page, "checkout")).to_have_count(0)

    # The Trainer: the count and the bet beside the decisions, 1 of 2 right each.
    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-decisions")).to_be_visible()  # the figures above have loaded
    for name in ("running", "true", "bet", "all"):
        expect(tid(page, f"trainer-checkout-{name}-right")).to_have_text("1 of 2")
        expect(tid(page, f"trainer-checkout-{name}-accuracy")).to_have_text("50.0%")
    expect(tid(page, "trainer-checkout-note")).to_contain_text("last 2 checkouts")
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the Trainer scrolls sideways at {size}: {widths}"
    tid(page, "trainer-checkout").screenshot(path=str(artifacts / f"checkout-{size}-trainer.png"))
    check_axe(page, f"Trainer with the checkout's figures, {size}")


def test_the_checkout_never_asks_where_every_round_is_shuffled(
    contexts: Contexts, stack: Stack, seeds: StackSeeds
) -> None:
    """At classic (a fresh deck every round) the count is 0 before each round: nothing to ask."""
    page = contexts.page()
    page.add_init_script(ALWAYS)
    page.add_init_script("localStorage.setItem('blackjack.checkout', 'on')")
    page.add_init_script("localStorage.setItem('blackjack.show_count', 'on')")
    _, token = new_player(page, stack.api, "chkc")
    open_table(page, "classic")
    for _ in range(2):
        play_out(page, "classic", deal(page, "classic"))
        # the edge shows in the very render where the checkout would have asked (it hides it)
        expect(tid(page, "edge")).to_be_visible()
        expect(tid(page, "checkout")).to_have_count(0)
        edge = stack.api.call("GET", "/v1/tables/classic/edge", token=token)
        assert edge["count"]["cards_seen"] == 0, edge
    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-checkout-none")).to_be_visible()
