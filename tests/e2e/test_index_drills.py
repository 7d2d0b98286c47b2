"""Index drills on the Drills page (`#/drills`, section "Index plays") end to end on the
local stack, at a laptop's and two phones' sizes: each drill shows a hand of its index
cell, the up card and a true count within 3 of the index (API.md "Drills"); answered
wrongly, then rightly (the counter's play at that count, worked out here from
GET …/indices, never read off the page), its verdict and the EVs shown are the answer
route's, and the index plays' heat map marks each cell answered; the insurance square,
pressed, deals an insurance drill. No axe violation at any step, no sideways scroll on a
phone; the page saved in tests/artifacts/ at each size, to be looked at."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import (
    ACTION_LABELS,
    VIEWPORTS,
    Api,
    check_axe,
    index_words,
    new_player,
    posted,
    signed_count,
    tid,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

# Each size drills another table (casino and bicycle offer insurance, european does not).
TABLE_AT = {"laptop": "casino", "phone": "bicycle", "small-phone": "european"}
KEYS = {
    "hit": "h",
    "stand": "s",
    "double": "d",
    "split": "p",
    "surrender": "r",
    "insurance": "i",
    "decline_insurance": "n",
}
POINTS = {"T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}


# ---- what the page should say, worked out from the API ---------------------------------


def ev_text(ev: float) -> str:
    """js/format.js formatEv: three decimals, a sign, "\u2212" for a loss."""
    v = math.floor(ev * 1000 + 0.5) / 1000
    if v == 0:
        return "0.000"
    return f"+{v:.3f}" if v > 0 else f"\u2212{-v:.3f}"


def drill_cell(index: dict[str, Any]) -> dict[str, str]:
    """An index of GET …/indices as the drills name its cell (API.md "Drills")."""
    row = "insurance" if index["section"] == "insurance" else f"{index['section']} {index['row']}"
    return {"section": "indices", "row": row, "up": index["up"], "direction": index["direction"]}


def place(cell: dict[str, Any]) -> tuple[str, str, str]:
    return cell["row"], cell["up"], cell["direction"]


def index_of(indices: list[dict[str, Any]], cell: dict[str, Any]) -> dict[str, Any]:
    found = [ix for ix in indices if place(drill_cell(ix)) == place(cell)]
    assert len(found) == 1, (cell, found)
    return found[0]


def counter_play(indices: list[dict[str, Any]], index: dict[str, Any], t: int) -> str:
    """RULES.md "AI levels", `counter`: where the chart cell has an index (either way) that
    the true count reaches, its play replaces the card's."""
    for ix in indices:
        if (ix["section"], ix["row"], ix["up"]) != (index["section"], index["row"], index["up"]):
            continue
        reached = t >= ix["index"] if ix["direction"] == "at_or_above" else t <= ix["index"]
        if reached:
            return str(ix["play"])
    return str(index["basic"])


def points(card: str) -> int:
    return POINTS.get(card[0], 0) or int(card[0])


def hand_words(cards: list[str], pair: bool) -> str:
    """js/format.js decisionHandLabel: "hard 16", "soft 18", "pair of 8s"."""
    if pair:
        first = points(cards[0])
        return "pair of aces" if first == 11 else f"pair of {first}s"
    total = sum(points(c) for c in cards)
    soft = any(c[0] == "A" for c in cards)
    if total > 21:  # two aces
        total -= 10
    return f"{'soft' if soft else 'hard'} {total}"


def up_name(up: str) -> str:
    return "an ace" if up == "A" else "an 8" if up == "8" else f"a {'10' if up == 'T' else up}"


# ---- the page --------------------------------------------------------------------------


def is_index_next(response: Response) -> bool:
    return (
        response.request.method == "GET"
        and "/drills/next" in response.url
        and "section=indices" in response.url
    )


def heat_square(page: Page, cell: dict[str, Any]) -> Any:
    name = "-".join(["indices", cell["row"].replace(" ", "-"), cell["up"], cell["direction"]])
    return tid(page, f"heat-{name}")


def no_sideways_scroll(page: Page, width: int, where: str) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{where}: the page scrolls sideways ({scroll} px at {width})"


def check_index_drill(
    page: Page, indices: list[dict[str, Any]], drill: dict[str, Any]
) -> dict[str, Any]:
    """The drill (as the API or the page dealt it) on screen: its hand of the index's cell,
    the up card, the true count near the index; the drilled index."""
    cell = drill["cell"]
    assert cell["section"] == "indices", drill
    index = index_of(indices, cell)
    t = drill["true_count"]
    assert isinstance(t, int) and -10 <= t <= 10, drill
    assert abs(t - index["index"]) <= 3, f"true count {t} is not within 3 of {index}"
    cards, up = drill["cards"], drill["up_card"]
    assert len(cards) == 2, drill
    up_rank = "T" if up[0] in "TJQK" else up[0]
    assert up_rank == index["up"], (drill, index)
    pair = index["section"] == "pairs"
    if index["section"] == "insurance":
        assert drill["legal_actions"] == ["insurance", "decline_insurance"], drill
        assert sum(points(c) for c in cards) != 21, "an insurance drill's hand is no natural"
    elif pair:
        assert {points(c) for c in cards} == {int(POINTS.get(index["row"], 0) or index["row"])}
    else:
        assert hand_words(cards, False) == f"{index['section']} {index['row']}", (drill, index)
    assert index["play"] in drill["legal_actions"] and index["basic"] in drill["legal_actions"]

    felt = tid(page, "drill-felt")
    expect(felt).to_have_attribute("data-section", "indices")
    expect(felt).to_have_attribute("data-row", cell["row"])
    expect(felt).to_have_attribute("data-up", cell["up"])
    hand = tid(page, "drill-hand").locator("[data-card]")
    expect(hand).to_have_count(2)
    for i, card in enumerate(cards):
        expect(hand.nth(i)).to_have_attribute("data-card", card)
        expect(hand.nth(i)).to_be_visible()
    dealer = tid(page, "drill-dealer").locator("[data-card]")
    expect(dealer).to_have_count(1)
    expect(dealer).to_have_attribute("data-card", up)
    expect(dealer).to_be_visible()
    words = hand_words(cards, pair)
    expect(tid(page, "drill-hand-label")).to_have_text(words)
    count = tid(page, "drill-true-count")
    expect(count).to_be_visible()
    expect(count).to_have_text(f"True count {signed_count(t)}")
    expect(count).to_have_attribute("data-true-count", str(t))
    ask = "insurance?" if index["section"] == "insurance" else "what do you play?"
    expect(tid(page, "drill-question")).to_have_text(
        f"True count {signed_count(t)}. Your {words} against {up_name(up_rank)}: {ask}"
    )
    buttons = tid(page, "drill-actions").get_by_role("button")
    expect(buttons).to_have_count(len(drill["legal_actions"]))
    for action in drill["legal_actions"]:
        expect(tid(page, f"drill-action-{action}")).to_be_enabled()
    expect(tid(page, "drill")).not_to_contain_text("null")
    expect(tid(page, "drill")).not_to_contain_text("undefined")
    return index


def drill_from_page(page: Page) -> dict[str, Any]:
    """A drill the page dealt itself (a heat map square pressed), as it shows it."""
    felt = tid(page, "drill-felt")
    cards = [
        str(c.get_attribute("data-card"))
        for c in tid(page, "drill-hand").locator("[data-card]").all()
    ]
    legal = [
        str(b.get_attribute("data-testid")).removeprefix("drill-action-")
        for b in tid(page, "drill-actions").get_by_role("button").all()
    ]
    return {
        "cards": cards,
        "up_card": tid(page, "drill-dealer").locator("[data-card]").get_attribute("data-card"),
        "legal_actions": legal,
        "true_count": int(str(tid(page, "drill-true-count").get_attribute("data-true-count"))),
        "cell": {
            "section": "indices",
            "row": felt.get_attribute("data-row"),
            "up": felt.get_attribute("data-up"),
            "direction": next(
                d
                for d in ("at_or_above", "at_or_below")
                if "heat-current" in str(heat_square_class(page, felt, d))
            ),
        },
    }


def heat_square_class(page: Page, felt: Any, direction: str) -> str | None:
    cell = {"row": felt.get_attribute("data-row"), "up": felt.get_attribute("data-up")}
    square = heat_square(page, {**cell, "direction": direction})
    return square.get_attribute("class") if square.count() else None


def answer(
    page: Page, table: str, drill: dict[str, Any], action: str, by_key: bool
) -> dict[str, Any]:
    """One answer, by its button or its key: what was sent is the drill and its true count;
    the graded answer."""
    with page.expect_response(posted(f"/v1/tables/{table}/drills")) as info:
        if by_key:
            page.keyboard.press(KEYS[action])
        else:
            tid(page, f"drill-action-{action}").click()
    assert info.value.ok, (info.value.status, info.value.text())
    assert info.value.request.post_data_json == {
        "cards": drill["cards"],
        "up_card": drill["up_card"],
        "action": action,
        "true_count": drill["true_count"],
    }
    graded: dict[str, Any] = info.value.json()
    assert graded["action"] == action, graded
    return graded


def check_verdict(page: Page, graded: dict[str, Any], t: int, index: dict[str, Any]) -> None:
    """The verdict and the EVs on screen are the answer route's: right exactly when the
    action is its `best`, every legal action's EV, best first, the best starred."""
    right = graded["action"] == graded["best"]
    verdict = tid(page, "drill-verdict")
    expect(verdict).to_have_attribute("data-right", "true" if right else "false")
    best = ACTION_LABELS[graded["best"]].lower()
    head = (
        f"\u2713 Right: at {signed_count(t)}, {best}."
        if right
        else (f"\u2717 At {signed_count(t)}, {best}.")
    )
    expect(verdict).to_have_text(f"{head} {index_words(index)}.")
    rows = tid(page, "drill-evs").locator("tbody tr")
    order = sorted(graded["ev"], key=lambda a: -graded["ev"][a])
    expect(rows).to_have_count(len(order))
    for i, action in enumerate(order):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-testid", f"drill-ev-{action}")
        expect(row.locator("th")).to_have_text(ACTION_LABELS[action])
        expect(row.locator("td.ev")).to_have_text(ev_text(graded["ev"][action]))
        notes = [
            n
            for n, on in (
                ("★ best", action == graded["best"]),
                ("your play", action == graded["action"]),
            )
            if on
        ]
        expect(row.locator("td.note")).to_have_text(" · ".join(notes))
    expect(tid(page, "drill-next")).to_be_focused()


def check_graded(
    graded: dict[str, Any],
    indices: list[dict[str, Any]],
    drill: dict[str, Any],
    index: dict[str, Any],
    right: bool,
) -> None:
    best = counter_play(indices, index, drill["true_count"])
    assert graded["best"] == best, (graded, drill, index)
    assert (graded["action"] == best) is right, graded
    assert set(graded["ev"]) == set(drill["legal_actions"]), graded
    assert graded["loss"] == pytest.approx(
        round(graded["ev"][best] - graded["ev"][graded["action"]], 4), abs=1e-4
    ) or (right and graded["loss"] == 0), graded
    assert place(graded["cell"]) == place(drill["cell"]), graded


def record_words(record: dict[str, Any] | None) -> str:
    """The end of js/drillcells.js heatWords, a cell's record in words, from the record the API
    stores (None: never answered): "not asked yet.", "learning (1 in a row), 1 of 1 right." """
    if record is None or not record["attempts"]:
        return "not asked yet."
    box = record["box"]
    state = "known" if box >= 4 else "learning" if box > 0 else "missed"
    streak = f" ({box} in a row)" if state == "learning" else ""
    return f"{state}{streak}, {record['correct']} of {record['attempts']} right."


def check_step(page: Page, size: str, width: int, where: str) -> None:
    check_axe(page, f"{size}: {where}")
    if width < 600:
        no_sideways_scroll(page, width, f"{size}: {where}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_index_drills_right_and_wrong_on_the_drills_page(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    table = TABLE_AT[size]
    page = contexts.page(width, height, mobile=width < 600)
    api: Api = stack.api
    _, token = new_player(page, api, "ixe")
    indices: list[dict[str, Any]] = api.call("GET", f"/v1/tables/{table}/indices")["indices"]

    # the Drills page, the table, then the Index plays section
    with page.expect_response(lambda r: "/drills/next" in r.url, timeout=20_000):
        tid(page, "nav-drills").click()
    with page.expect_response(lambda r: "/drills/next" in r.url):
        tid(page, "drills-table").select_option(table)
    with page.expect_response(is_index_next) as info:
        tid(page, "drills-section-indices").check()
    expect(tid(page, "drills-section-indices")).to_be_checked()
    expect(tid(page, "heat-indices")).to_be_visible()
    squares = tid(page, "heat-indices").locator("button.heat-square")
    expect(squares).to_have_count(len(indices))
    expect(tid(page, "heat-indices").locator("[data-state='never']")).to_have_count(len(indices))

    # 1: answered wrongly, by its button: a legal play other than the counter's
    assert info.value.ok, (info.value.status, info.value.text())
    first: dict[str, Any] = info.value.json()
    index = check_index_drill(page, indices, first)
    expect(heat_square(page, first["cell"])).to_have_class(re.compile(r"\bheat-current\b"))
    check_step(page, size, width, "an index drill")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"index-drills-asked-{size}.png"), animations="disabled")
    best = counter_play(indices, index, first["true_count"])
    wrong = next(a for a in first["legal_actions"] if a != best)
    graded = answer(page, table, first, wrong, by_key=False)
    check_graded(graded, indices, first, index, right=False)
    assert (graded["cell"]["box"], graded["cell"]["attempts"], graded["cell"]["correct"]) == (
        0,
        1,
        0,
    ), graded
    check_verdict(page, graded, first["true_count"], index)
    missed = heat_square(page, first["cell"])
    expect(missed).to_have_attribute("data-state", "missed")
    expect(missed.locator("[aria-hidden='true']")).to_have_text("\u2717")
    expect(missed.locator(".sr-only")).to_contain_text(index_words(index))
    expect(missed.locator(".sr-only")).to_contain_text("missed, 0 of 1 right.")
    expect(tid(page, "drill-accuracy-indices-value")).to_have_text("0.0%")
    check_step(page, size, width, "an index drill answered wrongly")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"index-drills-wrong-{size}.png"), animations="disabled")

    # 2: another cell, answered rightly by its key
    with page.expect_response(is_index_next) as info:
        page.keyboard.press("Enter")  # Next, focused
    assert info.value.ok, (info.value.status, info.value.text())
    second: dict[str, Any] = info.value.json()
    assert place(second["cell"]) != place(first["cell"]), "never the cell answered last"
    index = check_index_drill(page, indices, second)
    check_step(page, size, width, "a second index drill")
    best = counter_play(indices, index, second["true_count"])
    graded = answer(page, table, second, best, by_key=True)
    check_graded(graded, indices, second, index, right=True)
    assert (graded["cell"]["box"], graded["cell"]["attempts"]) == (1, 1), graded
    check_verdict(page, graded, second["true_count"], index)
    expect(heat_square(page, second["cell"])).to_have_attribute("data-state", "learning")
    expect(heat_square(page, second["cell"]).locator("[aria-hidden='true']")).to_have_text("1")
    expect(tid(page, "drill-accuracy-indices-value")).to_have_text("50.0%")
    check_step(page, size, width, "an index drill answered rightly")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"index-drills-right-{size}.png"), animations="disabled")

    # 3: the missed cell comes back at the next drill but one; right this time
    with page.expect_response(is_index_next) as info:
        page.keyboard.press("n")
    assert info.value.ok, (info.value.status, info.value.text())
    third: dict[str, Any] = info.value.json()
    assert place(third["cell"]) == place(first["cell"]), "the missed cell comes back"
    index = check_index_drill(page, indices, third)
    best = counter_play(indices, index, third["true_count"])
    graded = answer(page, table, third, best, by_key=False)
    check_graded(graded, indices, third, index, right=True)
    assert (graded["cell"]["box"], graded["cell"]["attempts"], graded["cell"]["correct"]) == (
        1,
        2,
        1,
    ), graded
    check_verdict(page, graded, third["true_count"], index)
    expect(missed).to_have_attribute("data-state", "learning")
    expect(missed.locator(".sr-only")).to_contain_text("learning (1 in a row), 1 of 2 right.")
    check_step(page, size, width, "the missed index drill answered rightly")

    # 4: the insurance square pressed deals an insurance drill here; answered wrongly. The
    # schedule may have dealt the insurance index already (as the first or the second
    # drill), so the square's words are worked out from the record the API keeps of it.
    insurance = [ix for ix in indices if ix["section"] == "insurance"]
    if insurance:
        cell = drill_cell(insurance[0])
        kept = api.call("GET", f"/v1/tables/{table}/drills", token=token)["cells"]
        record = next(
            (c for c in kept if c["section"] == "indices" and place(c) == place(cell)), None
        )
        words = record_words(record)
        expect(heat_square(page, cell).locator(".sr-only")).to_contain_text(words)
        heat_square(page, cell).click()
        expect(tid(page, "drill-felt")).to_have_attribute("data-row", "insurance")
        expect(tid(page, "drill-pick")).to_contain_text(f"Insurance index: {words}")
        fourth = drill_from_page(page)
        assert place(fourth["cell"]) == place(cell), fourth
        index = check_index_drill(page, indices, fourth)
        check_step(page, size, width, "an insurance drill")
        best = counter_play(indices, index, fourth["true_count"])
        wrong = next(a for a in fourth["legal_actions"] if a != best)
        graded = answer(page, table, fourth, wrong, by_key=False)
        check_graded(graded, indices, fourth, index, right=False)
        check_verdict(page, graded, fourth["true_count"], index)
        expect(heat_square(page, cell)).to_have_attribute("data-state", "missed")
        check_step(page, size, width, "an insurance drill answered wrongly")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(
            path=str(artifacts / f"index-drills-insurance-{size}.png"), animations="disabled"
        )

    # the heat map marks exactly the cells answered, as the API stores them
    progress = api.call("GET", f"/v1/tables/{table}/drills", token=token)
    stored = {place(c): c for c in progress["cells"] if c["section"] == "indices"}
    assert set(stored) == {place(first["cell"]), place(second["cell"])} | (
        {place(drill_cell(insurance[0]))} if insurance else set()
    ), stored
    marked = tid(page, "heat-indices").locator("button.heat-square:not([data-state='never'])")
    expect(marked).to_have_count(len(stored))
    for where, c in stored.items():
        square = heat_square(page, {"row": where[0], "up": where[1], "direction": where[2]})
        state = "missed" if c["box"] == 0 else "learning"
        expect(square).to_have_attribute("data-state", state)
        expect(square).to_have_attribute("data-box", str(c["box"]))
    # from the whole page, where the sticky header stays at the top, clear of the map
    box = tid(page, "heat-indices").bounding_box()
    assert box is not None
    top = page.evaluate("scrollY")
    page.screenshot(
        path=str(artifacts / f"index-drills-heatmap-{size}.png"),
        animations="disabled",
        full_page=True,
        clip={"x": box["x"], "y": box["y"] + top, "width": box["width"], "height": box["height"]},
    )
    if width < 600:
        no_sideways_scroll(page, width, f"{size}: the index heat map")
