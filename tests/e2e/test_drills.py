"""The Drills page end to end on the local stack, by keyboard: a hand answered wrongly comes
back at the next drill but one (API.md "Drills") and the heat map marks its square missed;
no axe violation at a laptop's and two phones' sizes, no sideways scroll on a phone; the
page and its heat map saved in tests/artifacts/ to be looked at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import VIEWPORTS, Api, check_axe, new_player, posted, tid

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}
RANKS = "23456789TA"


def rank(card: str) -> str:
    return "T" if card[0] in "TJQK" else card[0]


def place(drill: dict[str, Any]) -> tuple[str, str, str]:
    cell = drill["cell"]
    return cell["section"], cell["row"], cell["up"]


def square(page: Page, cell: tuple[str, str, str]) -> Any:
    return tid(page, "heat-{}-{}-{}".format(*cell))


def card_evs(api: Api, table: str, drill: dict[str, Any]) -> dict[str, float]:
    """The strategy card's EV of each legal action of the drill's hand."""
    key = ",".join(sorted((rank(card) for card in drill["cards"]), key=RANKS.index))
    evs = api.call("GET", f"/v1/tables/{table}/strategy")["ev"][key][drill["cell"]["up"]]
    return {action: evs[action] for action in drill["legal_actions"]}


def is_next(response: Response) -> bool:
    return response.request.method == "GET" and "/drills/next" in response.url


def shown(page: Page, response: Response) -> dict[str, Any]:
    """The drill the API answered, once the felt shows it."""
    assert response.ok, (response.status, response.text())
    drill: dict[str, Any] = response.json()
    felt = tid(page, "drill-felt")
    expect(felt).to_have_attribute("data-row", drill["cell"]["row"])
    expect(felt).to_have_attribute("data-up", drill["cell"]["up"])
    hand = tid(page, "drill-hand").locator("[data-card]")
    expect(hand).to_have_count(2)
    for i, card in enumerate(drill["cards"]):
        expect(hand.nth(i)).to_have_attribute("data-card", card)
    expect(tid(page, "drill-dealer").locator("[data-card]")).to_have_attribute(
        "data-card", drill["up_card"]
    )
    expect(tid(page, "drill-actions").get_by_role("button")).to_have_count(
        len(drill["legal_actions"])
    )
    return drill


def open_drills(page: Page, table: str) -> dict[str, Any]:
    """The Drills page from the header, at another table than the first; its first drill.
    The first drill of a stack may start the drills function (`Api.warm_up` leaves it
    cold): it is given longer."""
    with page.expect_response(is_next, timeout=20_000) as info:
        tid(page, "nav-drills").click()
    shown(page, info.value)
    with page.expect_response(is_next) as info:
        tid(page, "drills-table").select_option(table)
    return shown(page, info.value)


def answer_by_key(page: Page, table: str, action: str) -> dict[str, Any]:
    with page.expect_response(posted(f"/v1/tables/{table}/drills")) as info:
        page.keyboard.press(KEYS[action])
    assert info.value.ok, (info.value.status, info.value.text())
    assert info.value.request.headers.get("idempotency-key")
    graded: dict[str, Any] = info.value.json()
    assert graded["action"] == action
    expect(tid(page, "drill-verdict")).to_have_attribute(
        "data-right", "true" if graded["loss"] < 0.0005 else "false"
    )
    expect(tid(page, "drill-next")).to_be_focused()
    return graded


def test_a_missed_hand_comes_back_at_the_next_drill_but_one(
    contexts: Contexts, stack: Stack
) -> None:
    page = contexts.page(1280, 800)
    api = stack.api
    _, token = new_player(page, api, "drl")
    first = open_drills(page, "casino")
    expect(square(page, place(first))).to_have_attribute("data-state", "never")

    evs = card_evs(api, "casino", first)
    wrong = min(evs, key=evs.__getitem__)
    graded = answer_by_key(page, "casino", wrong)
    assert graded["loss"] >= 0.0005, graded
    assert graded["ev"] == pytest.approx(evs)
    cell = graded["cell"]
    assert (cell["box"], cell["attempts"], cell["correct"]) == (0, 1, 0), cell
    best = graded["best"]
    expect(tid(page, "drill-verdict")).to_contain_text(f"{best.capitalize()} was better")
    expect(tid(page, "drill-evs").locator("tbody tr")).to_have_count(len(evs))
    expect(tid(page, f"drill-ev-{best}")).to_contain_text("★ best")
    expect(tid(page, f"drill-ev-{wrong}")).to_contain_text("your play")
    missed = square(page, place(first))
    expect(missed).to_have_attribute("data-state", "missed")
    expect(missed.locator("[aria-hidden='true']")).to_have_text("\u2717")
    expect(missed).to_contain_text("missed, 0 of 1 right.")

    with page.expect_response(is_next) as info:
        page.keyboard.press("Enter")  # Next, focused
    second = shown(page, info.value)
    assert place(second) != place(first), "never the cell answered last"
    evs = card_evs(api, "casino", second)
    graded = answer_by_key(page, "casino", max(evs, key=evs.__getitem__))
    assert graded["loss"] == 0 and graded["cell"]["box"] == 1, graded
    expect(square(page, place(second))).to_have_attribute("data-state", "learning")

    with page.expect_response(is_next) as info:
        page.keyboard.press("n")
    third = shown(page, info.value)
    assert place(third) == place(first), "the missed cell comes back at the next drill but one"
    assert third["cell"]["box"] == 0 and third["cell"]["attempts"] == 1

    # the heat map colours the missed square as its legend does, and not as a fresh one
    colour = "e => getComputedStyle(e).backgroundColor"
    legend = tid(page, "heat-legend-missed").locator(".heat-square").evaluate(colour)
    assert missed.evaluate(colour) == legend
    fresh = tid(page, "heatmap").locator("[data-state='never']").first.evaluate(colour)
    assert fresh != legend
    expect(tid(page, "drill-accuracy-all-value")).to_have_text("50.0%")
    progress = api.call("GET", "/v1/tables/casino/drills", token=token)
    assert (progress["attempts"], progress["correct"]) == (2, 1)
    stored = {(c["section"], c["row"], c["up"]): c["box"] for c in progress["cells"]}
    assert stored == {place(first): 0, place(second): 1}

    # the section by keyboard, remembered with the table
    tid(page, "drills-section-any").focus()
    with page.expect_response(is_next) as info:
        page.keyboard.press("ArrowRight")
    assert "section=hard" in info.value.url
    assert shown(page, info.value)["cell"]["section"] == "hard"
    with page.expect_response(is_next) as info:
        page.reload()
    assert "/tables/casino/" in info.value.url and "section=hard" in info.value.url
    expect(tid(page, "drills-table")).to_have_value("casino")
    expect(tid(page, "drills-section-hard")).to_be_checked()


def some_progress(api: Api, token: str, table: str) -> None:
    """Drills answered through the API: hands right and wrong, and a few answered right
    four times over (known), so that the heat map shows every kind of square."""
    for i in range(36):
        drill = api.call("GET", f"/v1/tables/{table}/drills/next", token=token)
        evs = card_evs(api, table, drill)
        pick = min if i % 3 == 2 else max
        times = 4 if i % 9 == 0 else 1
        body = {"cards": drill["cards"], "up_card": drill["up_card"]}
        for _ in range(times):
            body["action"] = pick(evs, key=evs.__getitem__)
            api.call("POST", f"/v1/tables/{table}/drills", body, token=token)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_drills_page_passes_axe_and_fits_a_phone(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "dra")
    some_progress(stack.api, token, "european")
    drill = open_drills(page, "european")
    expect(tid(page, "heatmap").locator("[data-state='known']")).not_to_have_count(0)
    expect(tid(page, "heatmap").locator("[data-state='missed']")).not_to_have_count(0)
    check_axe(page, f"{size}: a drill")
    evs = card_evs(stack.api, "european", drill)
    answer_by_key(page, "european", min(evs, key=evs.__getitem__))
    check_axe(page, f"{size}: a drill answered")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} px at {width})"
    if size != "small-phone":
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"drills-{size}.png"), animations="disabled")
        # from the whole page, where the sticky header stays at the top, clear of the map
        box = tid(page, "heatmap").bounding_box()
        assert box is not None
        top = page.evaluate("scrollY")
        page.screenshot(
            path=str(artifacts / f"drills-heatmap-{size}.png"),
            animations="disabled",
            full_page=True,
            clip={
                "x": box["x"],
                "y": box["y"] + top,
                "width": box["width"],
                "height": box["height"],
            },
        )
    else:
        # one screen holds the hand, the verdict and Next
        expect(tid(page, "drill-felt")).to_be_in_viewport(ratio=1)
        expect(tid(page, "drill-next")).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_key_the_hand_does_not_allow_says_why(
    contexts: Contexts, stack: Stack, size: str
) -> None:
    """Issue 32, item 8: a key for an action the drill's hand does not allow said nothing."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    new_player(page, stack.api, "drk")
    open_drills(page, "casino")
    with page.expect_response(is_next) as info:
        tid(page, "drills-section-hard").check()  # hard totals: never a pair to split
    drill = shown(page, info.value)
    assert "split" not in drill["legal_actions"], drill
    page.keyboard.press("p")
    note = tid(page, "drill-key-note")
    expect(note).to_contain_text("Split is not offered on this hand")
    expect(note).to_be_in_viewport(ratio=1)
    expect(tid(page, "drill-question")).to_be_visible()  # still asked: nothing was sent
    check_axe(page, f"drills, a key not allowed, {size}")


def miss(api: Api, token: str, table: str, section: str) -> dict[str, Any]:
    """One drill of `section` answered wrongly through the API: its cell, marked missed."""
    drill = api.call("GET", f"/v1/tables/{table}/drills/next?section={section}", token=token)
    evs = card_evs(api, table, drill)
    body = {"cards": drill["cards"], "up_card": drill["up_card"]}
    body["action"] = min(evs, key=evs.__getitem__)
    graded: dict[str, Any] = api.call("POST", f"/v1/tables/{table}/drills", body, token=token)
    cell: dict[str, Any] = graded["cell"]
    assert cell["box"] == 0, graded
    return cell


def answer_right(page: Page, api: Api, table: str) -> dict[str, Any]:
    """The drill on screen answered with its best play, by key; the graded answer."""
    felt = tid(page, "drill-felt")
    cards = [
        c.get_attribute("data-card") for c in tid(page, "drill-hand").locator("[data-card]").all()
    ]
    up = tid(page, "drill-dealer").locator("[data-card]").get_attribute("data-card")
    drill = {"cards": cards, "cell": {"up": felt.get_attribute("data-up")}}
    legal = [
        b.get_attribute("data-testid").removeprefix("drill-action-")
        for b in tid(page, "drill-actions").get_by_role("button").all()
    ]
    evs = card_evs(api, table, {**drill, "legal_actions": legal})
    with page.expect_response(posted(f"/v1/tables/{table}/drills")) as info:
        page.keyboard.press(KEYS[max(evs, key=evs.__getitem__)])
    sent: dict[str, Any] = info.value.request.post_data_json or {}
    assert (sent["cards"], sent["up_card"]) == (cards, up), sent
    graded: dict[str, Any] = info.value.json()
    assert graded["loss"] == 0, graded
    expect(tid(page, "drill-verdict")).to_have_attribute("data-right", "true")
    return graded


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_square_pressed_drills_its_hand(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """Issue 32, item 8: the heat map's squares did nothing. Each is a button named by its
    cell and record; pressing one deals that very hand (API.md: any legal two-card hand
    with a cell may be answered), says its record, and the drills go on in its section."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "drq")
    missed = miss(stack.api, token, "casino", "soft")
    where = (missed["section"], missed["row"], missed["up"])
    open_drills(page, "casino")
    button = square(page, where)
    words = button.locator(".sr-only").inner_text()
    assert words.endswith("missed, 0 of 1 right."), words
    expect(page.get_by_role("button", name=words, exact=True)).to_have_count(1)

    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/drills/next" in r.url else None)
    button.click()
    felt = tid(page, "drill-felt")
    expect(felt).to_have_attribute("data-section", "soft")
    expect(felt).to_have_attribute("data-row", missed["row"])
    expect(felt).to_have_attribute("data-up", missed["up"])
    expect(tid(page, "drill-pick")).to_contain_text(f"{words} Here it is, then soft hands")
    expect(tid(page, "drills-section-soft")).to_be_checked()
    expect(tid(page, "drill-actions").get_by_role("button").first).to_be_focused()
    expect(square(page, where)).to_have_class(re.compile(r"\bheat-current\b"))
    assert sent == [], "the hand is dealt here, not drawn by the schedule"
    check_axe(page, f"{size}: a square's hand")
    if size != "laptop":
        expect(tid(page, "drill-felt")).to_be_in_viewport()
    page.screenshot(path=str(artifacts / f"drills-square-{size}.png"))

    graded = answer_right(page, stack.api, "casino")
    assert (graded["cell"]["row"], graded["cell"]["up"]) == (missed["row"], missed["up"])
    assert (graded["cell"]["box"], graded["cell"]["attempts"]) == (1, 2), graded
    expect(square(page, where)).to_have_attribute("data-state", "learning")
    with page.expect_response(is_next) as info:
        page.keyboard.press("n")
    assert "section=soft" in info.value.url
    assert shown(page, info.value)["cell"]["section"] == "soft"
    expect(tid(page, "drill-pick")).to_have_count(0)

    # by keyboard: a hard square never asked, reached by Tab and pressed with Enter
    fresh = ("hard", "16", "T")
    square(page, fresh).focus()
    expect(square(page, fresh)).to_be_focused()
    page.keyboard.press("Enter")
    expect(felt).to_have_attribute("data-row", "16")
    expect(felt).to_have_attribute("data-up", "T")
    expect(tid(page, "drill-pick")).to_contain_text("Hard 16 against 10: not asked yet.")
    expect(tid(page, "drills-section-hard")).to_be_checked()
    check_axe(page, f"{size}: a square pressed by keyboard")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_drill_my_misses_drills_each_missed_hand_until_it_is_right(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """Issue 32, item 8: there was no "drill my misses". Two missed cells at two sections:
    each is dealt in turn, answered right it leaves, then it says there are none left."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "drm")
    misses = {
        (c["section"], c["row"], c["up"])
        for c in (
            miss(stack.api, token, "european", "hard"),
            miss(stack.api, token, "european", "pairs"),
        )
    }
    open_drills(page, "european")
    expect(tid(page, "drill-misses")).to_have_text("Drill my misses (2)")
    tid(page, "drill-misses").click()
    left = tid(page, "drill-misses-left")
    expect(left).to_contain_text("Drilling your misses: 2 hands left.")
    expect(tid(page, "drill-misses-stop")).to_be_visible()
    expect(tid(page, "drill-actions").get_by_role("button").first).to_be_focused()
    check_axe(page, f"{size}: drilling the misses")
    page.screenshot(path=str(artifacts / f"drills-misses-{size}.png"))
    seen: set[tuple[str | None, ...]] = set()
    for n in (2, 1):
        expect(left).to_contain_text(f"{n} hand")
        felt = tid(page, "drill-felt")
        cell = (
            felt.get_attribute("data-section"),
            felt.get_attribute("data-row"),
            felt.get_attribute("data-up"),
        )
        assert cell in misses and cell not in seen, (cell, misses, seen)
        seen.add(cell)
        answer_right(page, stack.api, "european")
        if n == 2:
            page.keyboard.press("n")
    with page.expect_response(is_next) as info:
        page.keyboard.press("n")  # none left: the schedule's next hand
    shown(page, info.value)
    expect(tid(page, "drill-misses-none")).to_contain_text("No misses left")
    expect(tid(page, "drill-misses")).to_have_text("Drill my misses (0)")
    check_axe(page, f"{size}: no misses left")
    page.screenshot(path=str(artifacts / f"drills-misses-done-{size}.png"))

    # a player with none is told so, and the hand asked stays
    tid(page, "drill-misses").click()
    expect(tid(page, "drill-misses-none")).to_contain_text("No misses to drill")
    expect(tid(page, "drill-question")).to_be_visible()
