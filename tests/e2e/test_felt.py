"""The felt shows what happened, in the order it happened (issue 22), at normal pace.

A MutationObserver in the page takes a snapshot of the felt at each frame that changed
it: the dealer's cards, each hand's cards, the insurance lines, the status words, the
boxes row's scroll and every decision mark that overlaps a card (element boxes). From the
snapshots the test reads the order in which cards appeared and checks it against the
`dealt` lists of the round's answers: the dealer's hole card (at casino the second card)
never shows before the player's last card, the AI boxes' cards come in their place, and
insurance's outcome never shows before the dealer's second card.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from blackjack.fairness import shuffled_shoe
from tests.integration.seeds import CLIENT_SEED, find_seed

from .environment import Contexts, Stack, StackSeeds
from .helpers import (
    act,
    check_axe,
    check_results_in_view,
    deal,
    hard,
    natural,
    new_player,
    open_table,
    set_bet,
    tid,
    total,
)
from .viewport_helpers import MEASURE, Figures, decision_specs, measure

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True), "small-phone": (360, 640, True)}

FELT_LOG = (Path(__file__).parent / "felt_log.js").read_text()


def paced_page(contexts: Contexts, size: str) -> Page:
    width, height, mobile = SIZES[size]
    page = contexts.page(width=width, height=height, mobile=mobile, paced=True)
    page.add_init_script(FELT_LOG)
    return page


def start_log(page: Page) -> None:
    page.evaluate("window.__felt = []")


def felt_log(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__felt"))


def appearances(log: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The cards in the order they appeared: a new card on a place, or a face-down card turned."""
    events: list[tuple[Any, ...]] = []
    before: dict[tuple[str, int], str] = {}
    for snap in log:
        places = {("dealer", i): c for i, c in enumerate(snap["dealer"])}
        for testid, shown in snap["hands"].items():
            places.update({(testid, i): c for i, c in enumerate(shown)})
        for place, code in places.items():
            if before.get(place) == code:
                continue
            if place[0] == "dealer":
                turn = before.get(place) == "##"
                face = None if code == "##" else code
                events.append(("turned", code) if turn else ("dealer", face))
            else:
                events.append((place[0], code))
        before = places
    return events


def expected(views: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The answers' `dealt`, in the form of `appearances`."""
    out: list[tuple[Any, ...]] = []
    for view in views:
        for entry in view["dealt"]:
            if entry["to"] == "box":
                out.append((f"hand-{entry['box']}-{entry['hand']}", entry["card"]))
            elif "turned" in entry:
                out.append(("turned", entry["turned"]))
            else:
                out.append(("dealer", entry["card"]))
    return out


def check_order(log: list[dict[str, Any]], views: list[dict[str, Any]], user: set[int]) -> None:
    shown = appearances(log)
    assert shown == expected(views), (shown, expected(views))
    # Spelled out: the dealer's second card shows its face after the player's last card.
    second = second_card_shown(shown)
    mine = [i for i, e in enumerate(shown) if e[0].startswith("hand-") and box_of(e[0]) in user]
    if second is not None:
        assert second > max(mine), shown


def box_of(testid: str) -> int:
    return int(testid.split("-")[1])


def second_card_shown(shown: list[tuple[Any, ...]]) -> int | None:
    """Where the dealer's second card first shows its face: turned, or dealt face up."""
    places = 0
    for i, (where, code) in enumerate(shown):
        if where == "turned":
            return i
        if where == "dealer":
            places += 1
            if places == 2 and code is not None:
                return i
    return None


def check_marks(log: list[dict[str, Any]]) -> int:
    assert all(s["overlaps"] == 0 for s in log), [s for s in log if s["overlaps"]]
    return int(max(s["marks"] for s in log))


def check_insurance_waits(log: list[dict[str, Any]]) -> None:
    """Insurance's outcome shows once the dealer's second card is up, or the round is over."""
    for snap in log:
        decided = [
            t for t in snap["insurance"] if t.startswith(("Insurance won", "Insurance lost"))
        ]
        if decided:
            faces = [c for c in snap["dealer"] if c != "##"]
            assert len(faces) >= 2 or snap["betting"], snap


def shot(page: Page, artifacts: Any, size: str, step: str) -> None:
    page.screenshot(path=str(artifacts / f"felt-{size}-{step}.png"))


# ---- european: five boxes, AI players between the player's, two doubles ---------------


def european_shoe(shoe: list[str]) -> bool:
    # boxes 0 (user), 1, 2 (AI easy), 3 (user): shoe[0..3] first cards, shoe[4] up card,
    # shoe[5..8] second cards, shoe[9] the hole card.
    first = [shoe[0], shoe[5]]
    fourth = [shoe[3], shoe[8]]
    return (
        hard(first)
        and total(first) in (10, 11)
        and hard(fourth)
        and total(fourth) in (10, 11)
        and total([shoe[4], shoe[9]]) < 17
        and total([shoe[1], shoe[6]]) < 17
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_european_deal_lands_in_dealt_order(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    seeds.use(find_seed(6, european_shoe))
    page = paced_page(contexts, size)
    new_player(page, stack.api, "felt")
    open_table(page, "european")
    set_bet(page, 3, 10, 10)
    tid(page, "ai-level-1").select_option("easy")
    tid(page, "ai-level-2").select_option("easy")
    shot(page, artifacts, size, "betting")
    check_axe(page, f"european betting, {size}")

    start_log(page)
    views = [deal(page, "european")]
    assert views[0]["turn"] == {"box": 0, "hand": 0}
    views.append(act(page, "european", "double"))
    assert views[-1]["turn"]["box"] == 3  # the AI boxes played between
    with page.expect_response(lambda r: r.url.endswith("/round/actions")) as info:
        tid(page, "action-double").click()  # the last card of the player's, then the dealer's
    expect(tid(page, "round-status")).to_have_text("The dealer plays…")
    shot(page, artifacts, size, "dealer-play")
    views.append(info.value.json())
    expect(tid(page, "deal")).to_be_visible()
    shot(page, artifacts, size, "result")
    log = felt_log(page)

    check_order(log, views, user={0, 3})
    marks = check_marks(log)
    assert marks >= 2, marks  # both doubles', at the result
    drawing = [s for s in log if s["words"] == "The dealer plays…"]
    assert drawing, "the dealer drew: the status says so"
    # the boxes wrap into rows: none scrolls out of view during the dealer's play (issue 42:
    # the row scrolled sideways on a phone), and each hand's result is in view
    assert not any(s["overflows"] for s in drawing), [s["scroll"] for s in drawing]
    check_results_in_view(page, views[-1])
    check_axe(page, f"european result, {size}")
    print(f"{size}: {len(log)} frames, {len(appearances(log))} cards, marks up to {marks}")


# ---- casino: insurance, a bust that loses it, then one the second card decides ----------


def casino_shoe(shoe: list[str]) -> bool:
    # round 1: shoe[0], shoe[2] the box, shoe[1] an ace up, shoe[3] the hit that busts;
    # round 2: shoe[4], shoe[6] the box, shoe[5] an ace up, shoe[7] the second card.
    first = [shoe[0], shoe[2]]
    return (
        shoe[1][0] == "A"
        and hard(first)
        and 12 <= total(first) <= 16
        and total([*first, shoe[3]]) > 21
        and shoe[5][0] == "A"
        and not natural(shoe[4], shoe[6])
        and total([shoe[4], shoe[6]]) >= 17
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_casino_insurance_waits_for_the_second_card(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    seed = find_seed(6, casino_shoe)
    shoe = shuffled_shoe(seed, CLIENT_SEED, 1, 6)
    seeds.use(seed)
    page = paced_page(contexts, size)
    new_player(page, stack.api, "ins")
    open_table(page, "casino")

    start_log(page)
    views = [deal(page, "casino")]
    assert views[0]["status"] == "insurance"
    shot(page, artifacts, size, "insurance")
    check_axe(page, f"casino insurance, {size}")
    views.append(act(page, "casino", "insurance"))
    views.append(act(page, "casino", "hit"))
    assert views[-1]["status"] == "settled" and views[-1]["dealer"]["cards"] == [shoe[1]]
    log = felt_log(page)
    check_order(log, views, user={0})
    check_insurance_waits(log)
    lost = "Insurance lost \u22125: every insured hand busted."
    expect(tid(page, "box-insurance-0")).to_have_text(lost)
    phone = SIZES[size][2]
    check_results_in_view(page, views[-1])  # the hand lost, and the insurance: as the net
    assert not any(s["words"] == "The dealer plays…" for s in log)  # no card for the dealer

    start_log(page)
    views = [deal(page, "casino")]
    views.append(act(page, "casino", "insurance"))
    with page.expect_response(lambda r: r.url.endswith("/round/actions")) as info:
        tid(page, "action-stand").click()
    expect(tid(page, "deal")).to_be_visible()
    views.append(info.value.json())
    assert views[-1]["dealer"]["cards"][:2] == [shoe[5], shoe[7]]
    log = felt_log(page)
    check_order(log, views, user={0})
    check_insurance_waits(log)
    check_marks(log)
    expect(tid(page, "box-insurance-0")).to_contain_text("Insurance ")
    check_results_in_view(page, views[-1])
    if phone:
        shot(page, artifacts, size, "insured-result")
    check_axe(page, f"casino result, {size}")


# ---- european: two cards of one face in a box; an AI box drawing after the player -------


def identical_pair_shoe(shoe: list[str]) -> bool:
    # one box: the player's cards 1st and 3rd, one card of six decks dealt twice (8♣ 8♣);
    # the up card 2nd, the hole card 4th; no ace, so no natural and no insurance
    return shoe[0] == shoe[2] and all(card[0] != "A" for card in shoe[:4])


def ai_draws_shoe(shoe: list[str]) -> bool:
    # boxes 0 (the player's) and 1 (AI easy): their first cards 1st and 2nd, the up card
    # 3rd, their second cards 4th and 5th, the hole card 6th; box 2 holds a hard 12 to 16
    # and hits after the player stands, then the dealer (under 17) draws
    mine, ai, dealer = [shoe[0], shoe[3]], [shoe[1], shoe[4]], [shoe[2], shoe[5]]
    no_ace = all(card[0] != "A" for card in shoe[:6])
    return no_ace and 12 <= total(ai) <= 16 and total(dealer) < 17 and total(mine) >= 12


@pytest.mark.parametrize("size", list(SIZES))
def test_two_identical_cards_land_one_at_a_time(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    seed = find_seed(6, identical_pair_shoe)
    shoe = shuffled_shoe(seed, CLIENT_SEED, 1, 6)
    seeds.use(seed)
    page = paced_page(contexts, size)
    page.add_init_script(MEASURE)
    new_player(page, stack.api, "twin")
    open_table(page, "european")
    start_log(page)
    view = deal(page, "european")
    assert view["boxes"][0]["hands"][0]["cards"] == [shoe[0], shoe[2]]
    log = felt_log(page)
    check_order(log, [view], user={0})
    shot(page, artifacts, size, "identical-pair")
    # both cards shown, and the box, its total and the decisions in view
    expect(tid(page, "hand-0-0").locator(f'[data-card="{shoe[0]}"]')).to_have_count(2)
    figures = Figures()
    figures.add("the identical pair dealt", measure(page, decision_specs(view)))
    assert not figures.misses, figures.misses


@pytest.mark.parametrize("size", list(SIZES))
def test_the_status_names_the_ai_box_that_draws_before_the_dealer(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    seeds.use(find_seed(6, ai_draws_shoe))
    page = paced_page(contexts, size)
    new_player(page, stack.api, "aidraw")
    open_table(page, "european")
    tid(page, "ai-level-1").select_option("easy")
    start_log(page)
    dealt = deal(page, "european")
    with page.expect_response(lambda r: r.url.endswith("/round/actions")) as info:
        tid(page, "action-stand").click()
    expect(tid(page, "deal")).to_be_visible()
    view = info.value.json()
    log = felt_log(page)
    check_order(log, [dealt, view], user={0})
    ai_cards = len(view["boxes"][1]["hands"][0]["cards"])
    assert ai_cards > 2, view["boxes"][1]
    # each frame's words say who is drawing: the AI box while its cards land, then the dealer
    ai_frames = [s for s in log if len(s["hands"].get("hand-1-0", [])) > 2 and not s["betting"]]
    dealer_frames = [s for s in log if len(s["dealer"]) > 2]
    before_dealer = [s for s in ai_frames if len(s["dealer"]) == 2 and "##" in s["dealer"]]
    assert before_dealer, log
    assert all(s["words"] == "Box 2 (AI easy) plays…" for s in before_dealer), before_dealer
    assert any(s["words"] == "The dealer plays…" for s in dealer_frames), dealer_frames
