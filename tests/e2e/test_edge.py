"""The edge of the shoe between rounds (issue 31): beside the count badge, with the same
setting, "Edge -0.51% · fresh -0.51%" (minus signs) as GET /v1/tables/{table_id}/edge
answers it, over a line saying it is this shoe's (issue 42: not the Indices page's figure
at the same true count, which says so too), and by the chips the advised bet one click
(or key) away, which bets `advised` once (on box 1 when several are bet) as the chips
would; neither shows during a round, nor with the badge off (and the edge is not even
asked for then). At a laptop's and two phones' sizes, axe finding nothing; and with the
badge on, a small phone's round still fits its screen as test_viewport.py measures it.
Screenshots: tests/artifacts/edge-*.png.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    VIEWPORTS,
    check_axe,
    coins,
    deal,
    hi_lo,
    new_player,
    open_panel,
    open_table,
    play_out,
    set_bet,
    shoes_by_size,
    tid,
    user_boxes,
)
from .viewport_helpers import MEASURE, RESULT, measure, play_five_boxes, shoe_seeds

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

TABLE = "casino"  # six decks, a cut card: the count moves the edge from round to round
BOXES = range(5)
SIZES = list(VIEWPORTS)
MINUS = "\u2212"
# Whose edge it is (issue 42): this shoe's, where the Indices page's is an average shoe's.
EDGE_NOTE = "This shoe's own cards, not the Indices page's average"


def small_cards_first(shoe: list[str]) -> bool:
    """Casino, five boxes (no hole card): the boxes' first cards, the up card and the boxes'
    second cards, 11 in all, nearly all of 2 to 6 (none an ace: no insurance). Once they are
    seen the player has the edge, and Kelly's bet is above the table minimum."""
    return sum(hi_lo(card) for card in shoe[:11]) >= 9 and shoe[5][0] != "A"


def percent(value: Any) -> str:
    """web/js/format.js formatEdgePercent: two decimals (Math.round's, half up), a sign
    (U+2212 for minus)."""
    cents = math.floor(float(value) * 100 + 0.5)
    if cents == 0:
        return "0.00%"
    return f"{'+' if cents > 0 else MINUS}{abs(cents) / 100:.2f}%"


def edge_line(answer: dict[str, Any]) -> str:
    return f"Edge {percent(answer['edge'])} · fresh {percent(answer['fresh_edge'])} {EDGE_NOTE}"


def kelly_label(bet: dict[str, Any]) -> str:
    """web/js/format.js kellyLabel: the table's limit where Kelly's bet is outside it."""
    kelly, advised = bet["kelly"], coins(bet["advised"])
    if kelly <= 0:
        return f"House edge: table minimum {advised}"
    if kelly < bet["advised"]:
        return f"Table minimum {advised}: Kelly bet {coins(kelly)} is below it"
    if kelly > bet["advised"]:
        return f"Table maximum {advised}: Kelly bet {coins(kelly)} is above it"
    return f"Kelly bet: {advised}"


def check_edge_shown(page: Page, stack: Stack, token: str) -> dict[str, Any]:
    """The edge and the Kelly button show what the API answers now; the answer."""
    answer = stack.api.call("GET", f"/v1/tables/{TABLE}/edge", token=token)
    expect(tid(page, "edge")).to_have_text(edge_line(answer))
    expect(tid(page, "edge")).to_have_attribute("data-edge", str(answer["edge"]))
    expect(tid(page, "kelly-bet")).to_have_text(kelly_label(answer["bet"]))
    expect(tid(page, "kelly-bet")).to_be_enabled()
    return dict(answer)


def check_nothing_shown(page: Page) -> None:
    for testid in ("edge", "kelly-bet"):
        expect(tid(page, testid)).to_have_count(0)


def show_count(page: Page, on: bool) -> None:
    open_panel(page, "settings")
    toggle = tid(page, "count-toggle")
    toggle.check() if on else toggle.uncheck()
    tid(page, "close-settings").click()
    expect(tid(page, "count-badge")).to_have_count(1 if on else 0)


@pytest.mark.parametrize("size", SIZES)
def test_the_edge_and_the_kelly_bet_between_rounds(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    width, height = VIEWPORTS[size]
    seeds.use(shoes_by_size(small_cards_first)[size])
    page = contexts.page(width, height, mobile=width < 600)
    asked: list[str] = []

    def note(request: Request) -> None:
        if request.url.split("?")[0].endswith("/edge"):
            asked.append(request.url)

    page.on("request", note)
    _, token = new_player(page, stack.api, "edge")

    # The badge off (the default): no edge, no Kelly button, and nothing asked.
    open_table(page, TABLE)
    expect(tid(page, "count-badge")).to_have_count(0)
    check_nothing_shown(page)
    assert not asked, asked

    # On, between rounds (a fresh shoe: the house's edge): what the API answers.
    show_count(page, True)
    fresh = check_edge_shown(page, stack, token)
    assert fresh["edge"] == fresh["fresh_edge"] < 0, fresh
    assert fresh["bet"] == {"kelly": 0, "advised": 10}, fresh
    page.screenshot(path=str(artifacts / f"edge-{size}-fresh.png"))
    check_axe(page, f"edge of a fresh shoe, {size}")

    # A round on five boxes: during it, neither shows.
    for box in BOXES:
        set_bet(page, box, 10, 10)
    view = deal(page, TABLE)
    assert view["status"] != "settled", view
    check_nothing_shown(page)
    expect(tid(page, "count-badge")).to_be_visible()
    view = play_out(page, TABLE, view)

    # Settled, the small cards seen: the player's edge, and Kelly's bet above the minimum.
    answer = check_edge_shown(page, stack, token)
    assert answer["edge"] > 0 and answer["bet"]["kelly"] > 10, answer
    assert answer["edge"] != answer["fresh_edge"], answer
    advised = answer["bet"]["advised"]
    page.screenshot(path=str(artifacts / f"edge-{size}-settled.png"))
    check_axe(page, f"edge after a round, {size}")

    # One key from the keyboard: Kelly's bet, one box's, on box 1 alone (issue 42), as
    # chips would; the other boxes cleared.
    tid(page, "kelly-bet").focus()
    page.keyboard.press("Enter")
    expect(tid(page, "bet-amount-0")).to_have_text(coins(advised))
    for box in BOXES[1:]:
        expect(tid(page, f"bet-clear-{box}")).to_have_count(0)
    expect(tid(page, "bet-total")).to_have_text(f"Total {coins(advised)}")
    expect(tid(page, "round-status")).to_have_attribute("data-status", "settled")  # no deal

    # A deal stakes it.
    rounds = f"/v1/tables/{TABLE}/rounds"
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(rounds)) as sent:
        view = deal(page, TABLE)
    body = json.loads(sent.value.post_data or "{}")
    assert body["bets"] == [{"box": 0, "amount": advised}], body
    assert [b["bet"] for b in user_boxes(view)] == [advised], view
    if view["status"] != "settled":
        check_nothing_shown(page)
        view = play_out(page, TABLE, view)
    check_edge_shown(page, stack, token)

    # The badge off again: the edge goes with it.
    show_count(page, False)
    check_nothing_shown(page)


def test_a_small_phone_round_fits_with_the_badge_on(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any
) -> None:
    """test_viewport.py's five-box rounds (a split to four hands, insurance, the dealer's
    play) at 360x640 with the count badge on; between rounds the edge and the Kelly button
    too are in view with the chips, Deal and the result."""
    width, height = VIEWPORTS["small-phone"]
    seeds.use(*shoe_seeds())
    page = contexts.page(width, height, mobile=True, paced=True)
    page.add_init_script(MEASURE)
    page.add_init_script("localStorage.setItem('blackjack.show_count', 'on')")
    new_player(page, stack.api, "edgefit")
    misses = []
    for table in ("casino", "european"):
        figures, _ = play_five_boxes(page, table, "small-phone-badge", artifacts)
        misses += [f"{table} {miss}" for miss in figures.misses]
        expect(tid(page, "edge")).to_be_visible()
        specs = {
            **RESULT,
            "badge": '[data-testid="count-badge"]',
            "edge": '[data-testid="edge"]',
            "kelly": '[data-testid="kelly-bet"]',
        }
        out = {k: v["state"] for k, v in measure(page, specs).items() if v["state"] != "in view"}
        if out:
            misses.append(f"{table} result with the edge: {out}")
        page.screenshot(path=str(artifacts / f"edge-small-phone-{table}-result.png"))
        check_axe(page, f"{table}, five boxes settled, the edge shown")
    assert not misses, "\n".join(misses)


@pytest.mark.parametrize("size", SIZES)
def test_the_edge_says_whose_it_is_and_the_indices_page_why_it_differs(
    contexts: Contexts, stack: Stack, artifacts: Any, size: str
) -> None:
    """Issue 42, item 5: beside the count, a line a touch screen shows (not a title) says
    the edge is this shoe's own cards; the Indices page says its edge by true count is an
    average shoe's, and why the table's differs at the same true count."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    page.add_init_script("localStorage.setItem('blackjack.show_count', 'on')")
    _, token = new_player(page, stack.api, "edgenote")
    open_table(page, TABLE)
    check_edge_shown(page, stack, token)
    note = tid(page, "edge-note")
    expect(note).to_be_visible()
    expect(note).to_have_text(EDGE_NOTE)
    box = note.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)
    assert box["y"] + box["height"] <= height, (box, height)  # in view as the table opens
    clipped = note.evaluate("e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight")
    assert not clipped, "the note is cut"
    badge = tid(page, "count-badge").bounding_box()
    assert badge is not None
    apart = (
        box["y"] >= badge["y"] + badge["height"] - 1
        or box["x"] >= badge["x"] + badge["width"] - 1
        or box["y"] + box["height"] <= badge["y"] + 1
    )
    assert apart, ("the note overlaps the badge", box, badge)
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the table scrolls sideways ({scroll} px at {width})"
    check_axe(page, f"the edge and its note, {size}")
    page.screenshot(path=str(artifacts / f"edge-note-{size}.png"))

    # The Indices page, from the rules drawer: its edge is an average shoe's, and says so.
    open_panel(page, "rules")
    tid(page, "indices-link").click()
    explained = tid(page, "indices-edge-note")
    expect(explained).to_contain_text("An average shoe at each true count (3 decks unseen)")
    expect(explained).to_contain_text("The edge beside the count at the table is your shoe's own")
    expect(explained).to_contain_text("at the same true count it can differ")
    expect(explained).to_be_visible()
    check_axe(page, f"the Indices page's edge note, {size}")
    tid(page, "indices-edge").screenshot(
        path=str(artifacts / f"edge-note-indices-{size}.png"), animations="disabled"
    )


def test_the_strategy_page_gives_the_variance(contexts: Contexts, stack: Stack) -> None:
    page = contexts.page()
    new_player(page, stack.api, "var")
    card = stack.api.call("GET", f"/v1/tables/{TABLE}/strategy")
    page.goto(f"/#/strategy/{TABLE}")
    variance = f"{float(card['variance']):.2f}"  # toFixed(2)
    expect(tid(page, "strategy-variance")).to_have_text(f"variance {variance} per round")
    expect(tid(page, "strategy-player-ev")).to_contain_text("house edge")
    check_axe(page, "strategy card")
