"""Perfect play in the web client on the local stack (issue 24): the count badge against the
cards the felt showed through a casino shoe, the `expert` coach and AI players, the
Trainer's perfect-play figures against /v1/me (and each deviation spot's true count
against the count the server gave at that decision), the counting drill graded right and
wrong by keyboard; axe and screenshots (tests/artifacts/) at a laptop's and a phone's size."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import (
    ACTION_LABELS,
    Api,
    check_axe,
    coins,
    deal,
    hi_lo,
    new_player,
    open_panel,
    open_table,
    play_out,
    tid,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

VIEWPORTS = {"laptop": (1280, 800), "phone": (390, 844)}
SHOE = 6 * 52  # casino's six decks


def felt_cards(page: Page) -> list[str]:
    """Every face-up card on the felt now."""
    return [
        str(c)
        for c in tid(page, "felt")
        .locator("[data-card]")
        .evaluate_all("cards => cards.map(c => c.dataset.card)")
    ]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def check_badge(page: Page, running: int, seen: int) -> None:
    badge = tid(page, "count-badge")
    expect(badge).to_have_attribute("data-running", str(running))
    expect(badge).to_have_attribute("data-unseen", str(SHOE - seen))
    expect(tid(page, "badge-running")).to_have_text(signed(running))
    expect(tid(page, "badge-unseen")).to_have_text(str(SHOE - seen))


def show_the_count(page: Page) -> None:
    open_panel(page, "settings")
    tid(page, "count-toggle").check()
    tid(page, "coach-level").select_option("expert")
    tid(page, "close-settings").click()
    expect(tid(page, "count-badge")).to_be_visible()


def test_the_count_badge_follows_every_card_of_a_casino_shoe(
    contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    page = contexts.page(*VIEWPORTS["laptop"])
    api = stack.api
    _, token = new_player(page, api, "cnt")
    open_table(page, "casino")
    expect(tid(page, "count-badge")).to_have_count(0)  # hidden unless shown
    show_the_count(page)
    shoe_id = api.table(token, "casino")["shoe"]["shoe_id"]
    check_badge(page, 0, 0)
    tid(page, "ai-level-1").select_option("expert")  # an `expert` AI box plays too
    before: list[str] = []  # the cards of the shoe's settled rounds, as the felt showed them
    for n in range(6):
        view = deal(page, "casino")
        assert view["boxes"][1]["player"] == "ai:expert"
        if view["status"] != "settled":
            now = felt_cards(page)
            check_badge(page, sum(map(hi_lo, before + now)), len(before + now))
            if n == 0:
                with page.expect_response(lambda r: "/round/hint?level=expert" in r.url) as info:
                    page.keyboard.press("c")
                hint = info.value.json()
                label = ACTION_LABELS[hint["action"]]
                if hint["action"] == "decline_insurance" and "even_money" in view["legal_actions"]:
                    label = "Decline even money"
                expect(tid(page, "hint-output")).to_have_text(f"Coach (expert): {label}.")
                assert hint["count"]["running"] == sum(map(hi_lo, before + now))
                page.screenshot(
                    path=str(artifacts / "count-badge-laptop.png"), animations="disabled"
                )
                check_axe(page, "laptop: the felt with the count badge")
        view = play_out(page, "casino", view)
        before += felt_cards(page)
        check_badge(page, sum(map(hi_lo, before)), len(before))
        shoe = api.table(token, "casino")["shoe"]
        assert shoe["shoe_id"] == shoe_id, "the shoe retired: the test assumes it does not"
        assert shoe["count"]["running"] == sum(map(hi_lo, before))
        assert shoe["count"]["cards_unseen"] == SHOE - len(before)
    # the setting is remembered; the count, read from the seat again, is the same
    page.reload()
    check_badge(page, sum(map(hi_lo, before)), len(before))


def test_the_count_badge_on_a_phone_covers_no_card(
    contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    page = contexts.page(*VIEWPORTS["phone"], mobile=True)
    new_player(page, stack.api, "cnp")
    open_table(page, "casino")
    show_the_count(page)
    tid(page, "ai-level-1").select_option("expert")
    view = deal(page, "casino")
    before: list[str] = []
    if view["status"] == "settled":  # a natural: the next round has cards to decide on,
        # and the badge counts the shoe, this round's cards with them
        hands = (hand for box in view["boxes"] for hand in box["hands"])
        before = [card for hand in hands for card in hand["cards"]] + view["dealer"]["cards"]
        view = deal(page, "casino")
    counted = before + felt_cards(page)
    check_badge(page, sum(map(hi_lo, counted)), len(counted))
    badge = tid(page, "count-badge").bounding_box()
    assert badge is not None
    for card in tid(page, "felt").locator("[data-card], [data-testid='card-back']").all():
        box = card.bounding_box()
        assert box is not None
        apart = (
            box["y"] >= badge["y"] + badge["height"]
            or box["y"] + box["height"] <= badge["y"]
            or box["x"] >= badge["x"] + badge["width"]
            or box["x"] + box["width"] <= badge["x"]
        )
        assert apart, f"the badge {badge} covers a card {box}"
    expect(tid(page, "count-badge")).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(artifacts / "count-badge-phone.png"), animations="disabled")
    check_axe(page, "phone: the felt with the count badge")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= VIEWPORTS["phone"][0], f"the page scrolls sideways ({scroll} px)"


def play_casino(api: Api, token: str, rounds: int) -> dict[tuple[str, int, int, int], Any]:
    """Rounds of three boxes at casino, mostly by perfect play, now and then by basic
    strategy; the server's count at each decision, by (round, box, hand, decision)."""
    pick = random.Random(24)
    counts: dict[tuple[str, int, int, int], Any] = {}
    api.table(token, "casino")
    bets = {"bets": [{"box": box, "amount": 10} for box in range(3)]}
    for _ in range(rounds):
        view = api.call("POST", "/v1/tables/casino/rounds", bets, token)
        while view["status"] != "settled":
            turn = view["turn"]
            hand = view["boxes"][turn["box"]]["hands"][turn["hand"]]
            hint = api.call("GET", "/v1/tables/casino/round/hint?level=expert", token=token)
            counts[(view["round_id"], turn["box"], turn["hand"], len(hand["decisions"]))] = hint[
                "count"
            ]
            action = hint["action"]
            if pick.random() < 0.35:
                action = api.call("GET", "/v1/tables/casino/round/hint", token=token)["action"]
            path = "/v1/tables/casino/round/actions"
            view = api.call("POST", path, {"action": action}, token)
    return counts


def true_text(value: float) -> str:
    text = f"{abs(value):.2f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "\u2212") + text


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_trainer_shows_perfect_play_as_the_api_counts_it(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    api = stack.api
    _, token = new_player(page, api, "tpp")
    counts = play_casino(api, token, 40 if size == "laptop" else 12)
    stats = api.me(token)["stats"]
    spots = []  # latest first, as the Trainer lists them
    for r in api.rounds(token):
        in_round = [
            (r["round_id"], b["box"], h, i, d)
            for b in r["boxes"]
            for h, hand in enumerate(b["hands"])
            for i, d in enumerate(hand["decisions"])
        ]
        spots += [spot for spot in reversed(in_round) if spot[4]["expert_best"] != spot[4]["best"]]
    print(f"{size}: {stats['decisions']} decisions, {stats['deviations']} deviations")
    assert stats["deviations"] == len(spots)

    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-expert-mistakes")).to_have_text(str(stats["expert_mistakes"]))
    expect(tid(page, "trainer-expert-ev-lost")).to_have_text(coins(stats["expert_ev_lost"]))
    expect(tid(page, "trainer-deviations")).to_have_text(str(stats["deviations"]))
    expect(tid(page, "trainer-deviations-taken")).to_have_text(str(stats["deviations_taken"]))
    rows = tid(page, "trainer-deviation")
    if not spots:
        expect(tid(page, "trainer-no-deviations")).to_be_visible()
    # The spots load after the figures (their true counts read the shoes' earlier rounds).
    expect(rows).to_have_count(min(10, len(spots)), timeout=30_000)
    by_round: dict[str, list[Any]] = {}
    for spot in spots:
        by_round.setdefault(spot[0], []).append(spot)
    for i in range(min(10, len(spots))):
        row = rows.nth(i)
        round_id = str(row.get_attribute("data-round-id"))
        round_id_expected, box, hand, index, decision = spots[i]
        assert round_id == round_id_expected
        expect(row).to_contain_text(ACTION_LABELS[decision["expert_best"]])
        split = any(
            len(b["hands"]) > 1 for b in api.round(token, round_id)["boxes"] if b["box"] == box
        )
        truth = counts[(round_id, box, hand, index)]
        expected = (
            "\u2014" if split and decision["kind"] != "insurance" else true_text(truth["true"])
        )
        expect(row.get_by_test_id("trainer-deviation-true")).to_have_text(expected)
    section = tid(page, "trainer-perfect")
    section.scroll_into_view_if_needed()
    check_axe(page, f"{size}: the Trainer's perfect play")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} px at {width})"
    box_perfect = section.bounding_box()
    box_spots = tid(page, "trainer-deviations-box").bounding_box()
    assert box_perfect is not None and box_spots is not None
    top = page.evaluate("scrollY")
    page.screenshot(
        path=str(artifacts / f"trainer-perfect-{size}.png"),
        animations="disabled",
        full_page=True,
        clip={
            "x": 0,
            "y": box_perfect["y"] + top - 8,
            "width": width,
            "height": box_spots["y"] + box_spots["height"] - box_perfect["y"] + 16,
        },
    )
    if spots:
        rows.first.get_by_test_id("trainer-deviation-round").click()
        expect(tid(page, "trainer-round")).to_be_visible()
        expect(tid(page, "trainer-round-deviation").first).to_contain_text("perfect play")


def record_cards(page: Page) -> None:
    """Every card the drill shows, kept in the page as it appears."""
    page.evaluate(
        """() => {
          window.__seen = [];
          new MutationObserver(() => {
            const felt = document.querySelector("[data-testid='count-felt']");
            if (!felt || felt.dataset.recorded) return;
            felt.dataset.recorded = "1";
            const shown = felt.querySelectorAll("[data-card]");
            for (const c of shown) window.__seen.push(c.dataset.card);
          }).observe(document.getElementById("main"), { childList: true, subtree: true });
        }"""
    )


def a_pass(page: Page) -> list[str]:
    """Enter starts the focused Start (or Another pass); the cards once the answer is asked."""
    page.evaluate("window.__seen = []")
    page.keyboard.press("Enter")
    expect(tid(page, "count-running")).to_be_focused(timeout=15_000)
    return [str(c) for c in page.evaluate("window.__seen")]


def test_the_counting_drill_grades_right_and_wrong_by_keyboard(
    contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    page = contexts.page(*VIEWPORTS["laptop"])
    new_player(page, stack.api, "drc")
    tid(page, "nav-counting").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Count")
    check_axe(page, "laptop: the counting drill, ready")
    for testid in ("count-cards-10", "count-group-4", "count-pace-fast"):
        tid(page, testid).focus()
        page.keyboard.press("Space")
        expect(tid(page, testid)).to_be_checked()
    tid(page, "count-start").focus()
    record_cards(page)

    cards = a_pass(page)
    assert len(cards) == 10, cards
    expect(tid(page, "count-left")).to_contain_text(f"{SHOE - 10} are left")
    running = sum(map(hi_lo, cards))
    page.keyboard.type(str(running))
    page.keyboard.press("Enter")
    verdict = tid(page, "count-verdict")
    expect(verdict).to_have_attribute("data-right", "true")
    expect(tid(page, "count-result-true")).to_have_attribute("data-right", "")
    expect(tid(page, "count-time")).to_contain_text("Answered in")
    expect(tid(page, "count-best-passes")).to_have_text("1 right of 1")
    expect(tid(page, "count-again")).to_be_focused()
    review = tid(page, "count-review").locator("[data-card]")
    assert review.evaluate_all("cs => cs.map(c => c.dataset.card)") == cards
    page.screenshot(path=str(artifacts / "counting-laptop.png"), animations="disabled")
    check_axe(page, "laptop: the counting drill, graded")

    cards = a_pass(page)
    running = sum(map(hi_lo, cards))
    page.keyboard.type(str(running + 1))
    page.keyboard.press("Tab")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    expect(verdict).to_have_attribute("data-right", "false")
    expect(tid(page, "count-result-running")).to_have_attribute("data-right", "false")
    expect(tid(page, "count-best-passes")).to_have_text("1 right of 2")
    expect(tid(page, "count-best-streak")).to_have_text("0 (best 1)")
    # the bests are the browser's: a reload keeps them
    page.reload()
    expect(tid(page, "count-best-passes")).to_have_text("1 right of 2")
    expect(tid(page, "count-cards-10")).to_be_checked()


@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
def test_the_counting_drill_fits_a_phone(
    size: tuple[int, int], contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = size
    page = contexts.page(width, height, mobile=True)
    new_player(page, stack.api, "drp")
    tid(page, "nav-counting").click()
    tid(page, "count-cards-10").check()
    tid(page, "count-pace-fast").check()
    check_axe(page, f"{width}: the counting drill, ready")
    tid(page, "count-start").click()
    expect(tid(page, "count-felt")).to_be_visible()
    if width == 390:
        page.screenshot(path=str(artifacts / "counting-dealing-phone.png"), animations="disabled")
    expect(tid(page, "count-running")).to_be_focused(timeout=15_000)
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    expect(tid(page, "count-verdict")).to_be_visible()
    check_axe(page, f"{width}: the counting drill, graded")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} px at {width})"
    header = tid(page, "nav-counting").bounding_box()
    logout = tid(page, "logout").bounding_box()
    assert header is not None and logout is not None
    assert abs(header["y"] - logout["y"]) < 12, "the header holds one row"
    if width == 390:
        page.screenshot(path=str(artifacts / "counting-phone.png"), animations="disabled")
