"""The table's controls say what they can do: the balance flash is the round's net, what the
balance cannot cover is offered disabled with its reason, a key pressed out of turn says
why, the chips and Deal come early to the keyboard and chips and boxes have keys; the
Trainer filters by table. Axe at both widths, no sideways scroll at 360 px."""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.integration.seeds import find_seed, value

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    VIEWPORTS,
    check_axe,
    coins,
    european_dealer_draws,
    new_player,
    open_table,
    posted,
    signed,
    tid,
    wait_round_shown,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

CHIP_KEYS = "qwerty"  # the chips' keys, left to right (web/js/format.js CHIP_KEYS)


def two_card_total(cards: list[str]) -> int:
    total = sum(value(c) for c in cards)
    return total - 10 if total > 21 else total


def dealer_final(cards: list[str]) -> tuple[int, int]:
    """The casino dealer's total (stands on every 17) and how many cards it took."""
    total, aces = 0, 0
    for taken, card in enumerate(cards, start=1):
        total += value(card)
        aces += card[0] == "A"
        while total > 21 and aces:
            total, aces = total - 10, aces - 1
        if total >= 17 and taken >= 2:
            return total, taken
    raise AssertionError("the dealer ran out of cards")


def five_losses_then_a_pair_against_an_ace(shoe: list[str]) -> bool:
    """Casino, five boxes of 1,000 standing: every box loses to the dealer (no hole card:
    the up card 6th, the dealer's draws after the boxes' second cards); then the next
    round's box 1 holds a pair against an ace up."""
    boxes = [[shoe[i], shoe[i + 6]] for i in range(5)]
    if shoe[5][0] == "A" or any(two_card_total(b) == 21 for b in boxes):
        return False
    dealer, taken = dealer_final([shoe[5], *shoe[11:]])
    if dealer > 21 or any(two_card_total(b) >= dealer for b in boxes):
        return False
    k = 11 + taken - 1  # the next round's first card
    return value(shoe[k]) == value(shoe[k + 6]) and shoe[k + 5][0] == "A"


@functools.cache
def broke_seed() -> str:
    return find_seed(6, five_losses_then_a_pair_against_an_ace)


def no_sideways_scroll(page: Page, where: str) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"{where}: the page is {widths[0]} px wide at {widths[1]}"


def check_page(page: Page, size: str, where: str) -> None:
    if size == "small-phone":
        no_sideways_scroll(page, where)
    else:
        check_axe(page, where)


def tab_stops_to_deal(page: Page) -> int:
    """Tab presses from the page's first stop (the skip link) to Deal, the link counted."""
    tid(page, "skip-link").focus()
    for stops in range(1, 80):
        if page.evaluate("document.activeElement?.dataset?.testid") == "deal":
            return stops
        page.keyboard.press("Tab")
    raise AssertionError("Deal was never reached by Tab")


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"controls-{name}.png"))


def shown(page: Page, view: dict[str, Any]) -> None:
    """The round on screen; its legal actions offered (those the balance cannot cover
    disabled, unlike `wait_round_shown`); the table no longer busy, so keys count."""
    expect(tid(page, "round-status")).to_have_attribute("data-status", view["status"])
    expect(page.locator("#main")).to_have_attribute("aria-busy", "false")
    if view["status"] == "settled":
        expect(tid(page, "deal")).to_be_visible()
        return
    offered = tid(page, "actions").locator("button[data-testid^='action-']")
    expect(offered).to_have_count(len(view["legal_actions"]))


def press_for(page: Page, table: str, key: str, action: str) -> dict[str, Any]:
    with page.expect_response(posted(f"/v1/tables/{table}/round/actions")) as info:
        page.keyboard.press(key)
    view: dict[str, Any] = info.value.json()
    sent = info.value.request.post_data_json or {}
    assert info.value.ok and sent.get("action") == action, view
    shown(page, view)
    return view


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_broke_player_is_told_what_the_balance_cannot_cover(
    size: str, contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Path
) -> None:
    seeds.use(broke_seed())
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "broke")
    first = stack.api.play_round(token, "casino", 1000, boxes=5)
    assert Decimal(str(first["balance"])) == 5000, first  # five boxes lost: 5,000 left

    open_table(page, "casino")
    stops = tab_stops_to_deal(page)
    print(f"\n{size}: {stops} Tab stops from the skip link to Deal at casino")
    assert stops <= 20, stops
    # the chips and the boxes by their keys: the 500 chip (the sixth), then each box twice
    chip = tid(page, "chip-500")
    expect(chip.locator("kbd")).to_have_text(CHIP_KEYS[5].upper())
    expect(tid(page, "bet-add-0").locator("kbd")).to_have_text("1")
    tid(page, "bets-clear").click()  # the last round's bets are the slip: from nothing
    page.keyboard.press(CHIP_KEYS[5])
    expect(chip).to_have_attribute("aria-pressed", "true")
    for box in range(5):
        page.keyboard.press(str(box + 1))
        page.keyboard.press(str(box + 1))
        expect(tid(page, f"bet-amount-{box}")).to_have_text("1,000")
    expect(tid(page, "bet-total")).to_have_text("Total 5,000")
    expect(tid(page, "bet-note")).to_have_count(0)  # nothing capped: 500 and 500 on each
    if size != "small-phone":
        shot(page, artifacts, f"betting-{size}")
    check_page(page, size, "betting with keys")

    with page.expect_response(posted("/v1/tables/casino/rounds")) as answer:
        tid(page, "deal").click()
    view = answer.value.json()
    shown(page, view)
    assert view["status"] == "insurance" and Decimal(str(view["balance"])) == 0, view
    expect(tid(page, "balance")).to_have_text("0")
    # insurance would cost 500: offered disabled, with its reason; its key says the same
    expect(tid(page, "action-insurance")).to_be_disabled()
    reason = "Not enough coins for insurance: it costs 500, your balance is 0."
    expect(tid(page, "action-blocked")).to_contain_text(reason)
    page.keyboard.press("i")
    expect(tid(page, "action-note")).to_have_text(reason)
    page.keyboard.press("p")  # not asked now: why
    expect(tid(page, "action-note")).to_have_text(re.compile(r"^First answer the insurance"))
    while view["status"] == "insurance":
        decline = "Decline even money" if "even_money" in view["legal_actions"] else "No insurance"
        expect(tid(page, "action-decline_insurance")).to_contain_text(decline)
        view = press_for(page, "casino", "n", "decline_insurance")

    # box 1's pair: double and split would cost 1,000 each
    assert view["turn"] == {"box": 0, "hand": 0} and "split" in view["legal_actions"], view
    for name, words in (("double", "double"), ("split", "split")):
        expect(tid(page, f"action-{name}")).to_be_disabled()
        expect(tid(page, "action-blocked")).to_contain_text(
            f"Not enough coins to {words}: it costs 1,000, your balance is 0."
        )
    page.keyboard.press("d")
    expect(tid(page, "action-note")).to_have_text(
        "Not enough coins to double: it costs 1,000, your balance is 0."
    )
    page.keyboard.press("e")
    expect(tid(page, "action-note")).to_have_text(re.compile(r"^Even money is offered only"))
    with page.expect_response(lambda r: "/round/hint" in r.url):
        tid(page, "hint").click()
    for ev in tid(page, "actions").locator("[data-testid^='action-ev-']").all():
        expect(ev).to_have_text(re.compile(r"^EV ([+\u2212]\d\.\d{3}|0\.000) of the bet$"))
    if size != "small-phone":
        shot(page, artifacts, f"no-coins-{size}")
    check_page(page, size, "a decision the balance cannot double")

    while view["status"] != "settled":
        view = press_for(page, "casino", "s", "stand")
    net = Decimal(str(view["net"]))
    flash = tid(page, "balance-change")
    print(f"{size}: round net {signed(net)}, the flash reads {flash.text_content()!r}")
    if net:  # an even round changes nothing over the round: no flash
        expect(flash).to_have_text(signed(net))
    expect(tid(page, "balance")).to_have_text(coins(view["balance"]))
    if size != "small-phone":
        shot(page, artifacts, f"settled-{size}")
    check_page(page, size, "settled, the net flashed")


def stand_on_20_and_win(shoe: list[str]) -> bool:
    """European, one box (mine 1st and 3rd, the dealer's 2nd and 4th): a hard 20 of mine
    against a dealer's hard 17 to 19, which draws nothing."""
    dealer = [shoe[1], shoe[3]]
    no_aces = all(c[0] != "A" for c in shoe[:4])
    return no_aces and value(shoe[0]) + value(shoe[2]) == 20 and 17 <= sum(map(value, dealer)) <= 19


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_balance_flash_is_the_rounds_net(
    size: str, contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Path
) -> None:
    seeds.use(find_seed(6, stand_on_20_and_win))
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    new_player(page, stack.api, "flash")
    open_table(page, "european")
    with page.expect_response(posted("/v1/tables/european/rounds")) as answer:
        tid(page, "deal").click()
    shown(page, answer.value.json())
    expect(tid(page, "balance-change")).to_have_text(signed(-10))  # the stake going out
    view = press_for(page, "european", "s", "stand")
    payout = sum(Decimal(str(h["payout"])) for h in view["boxes"][0]["hands"])
    print(f"\n{size}: net {signed(view['net'])}, payout {coins(payout)}")
    assert Decimal(str(view["net"])) == 10 and payout == 20, view
    expect(tid(page, "balance-change")).to_have_text("+10")  # the net, not the payout's +20
    shot(page, artifacts, f"settled-net-{size}")
    check_axe(page, "settled, the net flashed")


def test_the_coach_is_quiet_while_nothing_is_asked(
    contexts: Contexts, stack: Stack, seeds: StackSeeds
) -> None:
    seeds.use(find_seed(6, european_dealer_draws))
    page = contexts.page(1280, 800, paced=True)
    new_player(page, stack.api, "quiet")
    open_table(page, "european")
    with page.expect_response(posted("/v1/tables/european/rounds")) as answer:
        tid(page, "deal").click()
    wait_round_shown(page, answer.value.json())
    expect(tid(page, "hint")).to_be_enabled()
    with page.expect_response(posted("/v1/tables/european/round/actions")):
        tid(page, "action-stand").click()
    expect(tid(page, "round-status")).to_have_text("The dealer plays…")
    expect(tid(page, "hint")).to_be_disabled()  # nothing is asked while the dealer plays
    expect(tid(page, "deal")).to_be_visible()


def test_the_trainer_filters_by_table(contexts: Contexts, stack: Stack) -> None:
    page = contexts.page(390, 844, mobile=True)
    _, token = new_player(page, stack.api, "filter")
    for table, rounds in (("classic", 2), ("european", 3)):
        for _ in range(rounds):
            stack.api.play_round(token, table, 10)
    graded = {"classic": 0, "european": 0}
    for r in stack.api.rounds(token):
        for box in r["boxes"]:
            for hand in box["hands"]:
                graded[r["table"]] += len(hand["decisions"])
    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-decisions")).to_have_text(str(sum(graded.values())))
    tid(page, "trainer-table-filter").select_option("european")
    expect(tid(page, "trainer-decisions")).to_have_text(str(graded["european"]))
    expect(tid(page, "trainer-stats")).to_contain_text("European")
    check_axe(page, "trainer, one table")
    no_sideways_scroll(page, "trainer, one table")
    tid(page, "trainer-table-filter").select_option("")
    expect(tid(page, "trainer-decisions")).to_have_text(str(sum(graded.values())))
