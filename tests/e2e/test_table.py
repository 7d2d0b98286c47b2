"""The table plays like a table: one screen per round at a laptop's and two phones' sizes,
the cards dealt at a pace with results only after the last card, and no accessibility
violation (axe-core) on any page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.integration.seeds import find_seed

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    LANGUAGES,
    VIEWPORTS,
    act,
    check_axe,
    deal,
    european_dealer_draws,
    hard,
    new_player,
    open_panel,
    open_table,
    play_out,
    posted,
    said,
    set_bet,
    shoes_by_size,
    tid,
    total,
    wait_round_shown,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

TABLES = ("classic", "bicycle", "casino", "european")


def casino_insurance_and_a_pair(shoe: list[str]) -> bool:
    """Boxes 0 and 1 mine, box 2 an AI's: the dealer's up card (the 4th) an ace, box 0 a
    pair of eights (1st and 5th cards) to split."""
    return shoe[3][0] == "A" and shoe[0][0] == "8" and shoe[4][0] == "8"


def in_view(page: Page, testid: str) -> None:
    """The element is wholly on screen, clipping by the felt's sideways scroll included."""
    expect(tid(page, testid)).to_be_in_viewport(ratio=1)


def check_one_screen(page: Page, view: dict[str, Any] | None) -> None:
    """Everything a player needs at this step is on one screen, without scrolling."""
    scroll = page.evaluate("[scrollY, document.documentElement.scrollHeight, innerHeight]")
    assert scroll[0] == 0 and scroll[1] <= scroll[2], f"the page scrolls: {scroll}"
    in_view(page, "dealer")
    if view is None or view["status"] == "settled":
        in_view(page, "deal")
        if view is not None:
            in_view(page, "round-result")
            in_view(page, "round-net")
        return
    in_view(page, "actions")
    for name in view["legal_actions"]:
        in_view(page, f"action-{name}")
    turn = view["turn"]
    in_view(page, f"box-{turn['box']}")
    in_view(page, f"hand-total-{turn['box']}-{turn['hand']}")
    in_view(page, f"hand-bet-{turn['box']}-{turn['hand']}")
    for box in view["boxes"]:  # every box in play is on the screen's height
        rect = tid(page, f"box-{box['box']}").bounding_box()
        assert rect is not None and rect["y"] >= 0 and rect["y"] + rect["height"] <= scroll[2]


def play_measuring(page: Page, table: str, view: dict[str, Any]) -> dict[str, Any]:
    """Decline insurance, split a pair, stand on the rest, measuring at every step."""
    for _ in range(16):
        check_one_screen(page, view)
        if view["status"] == "settled":
            return view
        legal = view["legal_actions"]
        if "decline_insurance" in legal:
            asked = "status.evenMoneyBox" if "even_money" in legal else "status.insuranceBox"
            words = said(page, asked, box=view["turn"]["box"] + 1)
            expect(tid(page, "round-status")).to_have_text(words)
            action = "decline_insurance"
        else:
            action = "split" if "split" in legal else "stand"
        view = act(page, table, action)
    raise AssertionError("the round did not settle")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_one_screen_per_round_at_every_table(
    size: str, language: str, contexts: Contexts, stack: Stack, seeds: StackSeeds
) -> None:
    seeds.use(find_seed(6, casino_insurance_and_a_pair))
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600, language=language)
    new_player(page, stack.api, "fit")
    saw = set()
    for table in ("casino", "classic", "bicycle", "european"):  # casino first: its seed
        open_table(page, table)
        if table in ("casino", "european"):
            set_bet(page, 0, 10, 10)
            set_bet(page, 1, 20, 10)
            tid(page, "ai-level-2").select_option("easy")
        check_one_screen(page, None)
        view = deal(page, table)
        saw |= {view["status"]}
        settled = play_measuring(page, table, view)
        saw |= {"split"} if len(settled["boxes"][0]["hands"]) > 1 else set()
        expect(tid(page, "deal")).to_be_focused()  # the main action, for Enter
    assert {"insurance", "split"} <= saw, saw


def test_cards_land_one_at_a_time_and_the_result_after_the_last(
    contexts: Contexts, stack: Stack, seeds: StackSeeds
) -> None:
    seeds.use(find_seed(6, european_dealer_draws))
    page = contexts.page(1280, 800, paced=True)
    new_player(page, stack.api, "pace")
    open_table(page, "european")
    page.evaluate(RECORDER)
    with page.expect_response(posted("/v1/tables/european/rounds")) as answer:
        tid(page, "deal").click()
    view = answer.value.json()
    wait_round_shown(page, view)
    expect(tid(page, "action-stand")).to_be_visible()
    dealt = page.evaluate("window.__felt.splice(0)")
    steps = [(r["hand"], r["dealer"]) for r in dealt]
    # mine, the up card, mine, the hole card: one at a time, in that order
    assert dedupe(steps)[-4:] == [(1, 0), (1, 1), (2, 1), (2, 2)], dedupe(steps)

    with page.expect_response(posted("/v1/tables/european/round/actions")) as answer:
        tid(page, "action-stand").click()
    view = answer.value.json()
    expect(tid(page, "round-result")).not_to_be_empty()
    records = page.evaluate("window.__felt")
    final = len(view["dealer"]["cards"])
    assert final >= 3
    faces = dedupe([r["faces"] for r in records])
    assert faces == list(range(faces[0], final + 1)), faces  # the flip, then each draw
    early = [r for r in records if r["result"] and r["faces"] < final]
    assert not early, f"a result was shown before the dealer's last card: {early}"

    # settled, the focus on Rebet: Enter deals the same bets again
    expect(tid(page, "deal")).to_be_focused()
    expect(tid(page, "deal")).to_have_text("Rebet")
    with page.expect_response(posted("/v1/tables/european/rounds")) as answer:
        page.keyboard.press("Enter")
    assert answer.value.status == 201


def dedupe(items: list[Any]) -> list[Any]:
    return [x for i, x in enumerate(items) if i == 0 or items[i - 1] != x]


# Records, at every change of the felt, its cards and whether a result is shown.
RECORDER = """() => {
  window.__felt = [];
  const felt = () => document.querySelector('[data-testid="felt"]');
  const snap = () => {
    const f = felt();
    if (!f) return;
    const dealer = f.querySelector('[data-testid="dealer"]');
    window.__felt.push({
      hand: f.querySelectorAll('[data-testid="hand-0-0"] .card').length,
      dealer: dealer.querySelectorAll('.card').length,
      faces: dealer.querySelectorAll('[data-card]').length,
      result: (document.querySelector('[data-testid="round-result"]')?.textContent || '')
        + (f.querySelector('[data-testid^="hand-result-"]')?.textContent || ''),
    });
  };
  const watch = {subtree: true, childList: true, characterData: true};
  new MutationObserver(snap).observe(document.getElementById('main'), watch);
}"""


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_every_page_passes_axe(size: str, contexts: Contexts, stack: Stack) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    page.goto("/#/login")
    expect(tid(page, "login-form")).to_be_visible()
    check_axe(page, "login")
    page.goto("/#/verify")
    expect(tid(page, "manual-verify")).to_be_visible()
    check_axe(page, "verify by hand")
    new_player(page, stack.api, "axe")
    check_axe(page, "lobby")
    open_table(page, "european")
    check_axe(page, "table, betting")
    for panel in ("rules", "fairness", "settings"):
        open_panel(page, panel)
        check_axe(page, f"table, {panel} drawer")
        page.keyboard.press("Escape")
    open_panel(page, "settings")
    tid(page, "sound-toggle").check()  # the round below plays its sounds (Web Audio)
    page.keyboard.press("Escape")
    view = deal(page, "european")
    check_axe(page, "table, in play")
    view = play_out(page, "european", view)
    check_axe(page, "table, settled")
    tid(page, "strategy-link").click()
    expect(tid(page, "strategy-chart-hard")).to_be_visible()
    check_axe(page, "strategy card")
    tid(page, "nav-history").click()
    expect(tid(page, "history-item")).to_have_count(1)
    check_axe(page, "history")
    tid(page, "history-verify").click()
    expect(tid(page, "verify-result")).to_have_attribute(
        "data-verdict", re.compile("^(ok|in_play)$")
    )
    check_axe(page, "verify a shoe")


MARK = re.compile(r"^[A-Z][a-z ]+ (✓|✗ [a-z ]+ was better: \u2212\d\.\d{2,4} of the bet)$")


def with_trainer_fields(view: dict[str, Any]) -> dict[str, Any]:
    """API.md's `decisions`, `started_at` and `settled_at` where a response lacks them (the
    backend that serves them is another branch's): every user decision graded "hit"."""
    view.setdefault("started_at", "2026-11-30T12:34:56.789Z")
    settled = view["status"] == "settled"
    view.setdefault("settled_at", "2026-11-30T12:35:06.789Z" if settled else None)
    for box in view["boxes"]:
        for hand in box["hands"]:
            taken = len(hand["cards"]) - 2 + (hand["status"] != "playing")
            graded = [{"action": "stand", "best": "hit", "loss": 0.0612}] * max(taken, 0)
            hand.setdefault("decisions", graded if box["player"] == "user" else [])
    return view


def add_trainer_fields(route: Route) -> None:
    answer = route.fetch()
    body = answer.json()
    if isinstance(body.get("rounds"), list):
        body["rounds"] = [with_trainer_fields(view) for view in body["rounds"]]
    elif body.get("round"):
        body["round"] = with_trainer_fields(body["round"])
    elif "boxes" in body:
        body = with_trainer_fields(body)
    route.fulfill(response=answer, json=body)


def test_decision_marks_and_round_times(contexts: Contexts, stack: Stack) -> None:
    page = contexts.page(390, 844, mobile=True)
    page.route("**/v1/tables/**", add_trainer_fields)
    page.route("**/v1/rounds?*", add_trainer_fields)
    new_player(page, stack.api, "mark")
    open_table(page, "classic")
    view = play_out(page, "classic", deal(page, "classic"))
    hand = view["boxes"][0]["hands"][0]
    marks = tid(page, "marks-0-0").get_by_test_id("mark")
    expect(marks).to_have_count(len(hand["decisions"]))
    for i in range(len(hand["decisions"])):
        expect(marks.nth(i)).to_have_text(MARK)
    # held back to the end of the round: none while it is in play
    open_panel(page, "settings")
    tid(page, "hold-marks").check()
    page.keyboard.press("Escape")
    view = deal(page, "classic")
    if view["status"] != "settled":
        view = act(page, "classic", "hit")  # a graded decision, held back while in play
    if view["status"] != "settled":
        assert view["boxes"][0]["hands"][0]["decisions"]
        expect(tid(page, "marks-0-0")).to_have_count(0)
    tid(page, "nav-history").click()
    expect(tid(page, "history-time").first).to_have_text(re.compile(r"2026"))


def test_bets_on_the_felt_say_when_they_are_capped(contexts: Contexts, stack: Stack) -> None:
    page = contexts.page(390, 844, mobile=True)
    new_player(page, stack.api, "chip")
    open_table(page, "casino")  # bets 10 to 1,000
    tid(page, "chip-500").click()
    for _ in range(3):  # the third 500 would make 1,500
        tid(page, "bet-add-0").click()
    expect(tid(page, "bet-amount-0")).to_have_text("1,000")
    expect(tid(page, "bet-note")).to_have_text("Box 1: capped at the table maximum, 1,000.")
    expect(tid(page, "bet-box-0").locator(".stack-chip")).to_have_count(2)  # two 500s
    tid(page, "chip-25").click()
    tid(page, "bet-add-1").click()
    tid(page, "bets-double").click()  # twice every bet: box 1 capped again
    expect(tid(page, "bet-amount-1")).to_have_text("50")
    expect(tid(page, "bet-note")).to_have_text("Box 1: capped at the table maximum, 1,000.")
    expect(tid(page, "bet-total")).to_have_text("Total 1,050")
    tid(page, "bet-clear-0").click()
    expect(tid(page, "bet-note")).to_have_count(0)
    expect(tid(page, "deal")).to_have_text("Deal")
    expect(tid(page, "deal")).to_be_focused()  # the main action, for Enter


def player_twenty_beats_a_hard_seventeen_to_nineteen(shoe: list[str]) -> bool:
    # european, one box: the player's cards 1st and 3rd, the up card 2nd, the hole card 4th
    dealer = [shoe[1], shoe[3]]
    return total([shoe[0], shoe[2]]) == 20 and hard(dealer) and 17 <= total(dealer) <= 19


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_reloaded_tab_does_not_flash_a_round_settled_elsewhere(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, size: str
) -> None:
    """A round dealt in this tab and won in another (here, the API): the reloaded tab shows
    the balance as it is, not a flash of its payout, which nothing on the felt explains
    (issue 32, item 4: "+180" beside "You won 90"). A shoe of its own at each size."""
    seeds.use(shoes_by_size(player_twenty_beats_a_hard_seventeen_to_nineteen)[size])
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "reload")
    open_table(page, "european")
    set_bet(page, 0, 90, 10)
    view = deal(page, "european")
    assert view["status"] == "player_turn", view
    view = stack.api.call(
        "POST", "/v1/tables/european/round/actions", {"action": "stand"}, token=token
    )
    assert view["net"] == 90, view
    page.reload()
    expect(tid(page, "round-result")).to_have_text("You won 90 coins this round.")
    expect(tid(page, "balance")).to_have_text("10,090")
    page.wait_for_timeout(300)  # a flash would have started at the first render
    flash = tid(page, "balance-change")
    assert "flash" not in (flash.get_attribute("class") or ""), flash.inner_text()
