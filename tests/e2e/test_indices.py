"""The Indices page (`#/indices/{table}`) end to end on the local stack: its index plays
equal GET …/indices at two tables, ranked by their `worth` with the top 18 first and the
rest on demand (issue 42), a table shuffled every round saying counting gains almost
nothing there, the edge plot has its 21 points, the Kelly bets follow a typed bankroll; no
axe violation and no sideways scroll at a laptop's and two phones' sizes, the page saved
in tests/artifacts/ to be looked at."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import VIEWPORTS, check_axe, index_words, new_player, posted, signed_count, tid

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

FIELDS = ("section", "row", "up", "play", "basic", "index", "direction")


def shown_indices(page: Page) -> list[dict[str, Any]]:
    """Every index play the page shows (the chart's and insurance's), as the API writes one."""
    entries: list[dict[str, Any]] = (
        tid(page, "indices")
        .locator(".index-entry")
        .evaluate_all("els => els.map(e => ({...e.dataset}))")
    )
    return [{**{k: e[k] for k in FIELDS}, "index": int(e["index"])} for e in entries]


def by_cell(index: dict[str, Any]) -> tuple[str, str, str, str]:
    return index["section"], index["row"], index["up"], index["direction"]


def kelly(bankroll: int, edge: float, variance: float) -> int:
    return math.floor(bankroll * edge / 100 / variance + 1e-9) if edge > 0 else 0


def check_kelly(page: Page, bankroll: int, edges: list[dict[str, Any]], variance: float) -> None:
    for point in edges:
        t = point["true_count"]
        expect(tid(page, f"kelly-bet-{t}")).to_have_text(
            f"{kelly(bankroll, point['edge'], variance):,}"
        )


@pytest.mark.parametrize("table", ["casino", "european"])
def test_the_page_shows_the_apis_index_plays_and_kelly_bets(
    table: str, contexts: Contexts, stack: Stack
) -> None:
    page = contexts.page(1280, 800)
    new_player(page, stack.api, "ixp")
    tid(page, f"indices-link-{table}").click()
    expect(tid(page, "indices")).to_have_attribute("data-table", table)
    data = stack.api.call("GET", f"/v1/tables/{table}/indices")
    variance = stack.api.call("GET", f"/v1/tables/{table}/strategy")["variance"]

    expected = [{k: ix[k] for k in FIELDS} for ix in data["indices"]]
    assert sorted(shown_indices(page), key=by_cell) == sorted(expected, key=by_cell)
    insurance = [ix for ix in data["indices"] if ix["section"] == "insurance"]
    if insurance:
        expect(tid(page, "indices-insurance")).to_have_text(
            f"Insurance: take it at +{insurance[0]['index']} or more (the card declines it)."
        )
    else:
        expect(tid(page, "indices-insurance")).to_contain_text("no index play")
    if table == "european":  # README's table: 16 v T stands at +2
        cell = tid(page, "index-hard-16-T-at_or_above")
        expect(cell).to_contain_text("16 v 10: stand at +2 or more (the card says hit)")

    points = tid(page, "edge-plot").locator("[data-testid='edge-point']")
    expect(points).to_have_count(21)
    assert [float(v) for v in points.evaluate_all("els => els.map(e => e.dataset.edge)")] == [
        p["edge"] for p in data["edge"]
    ]
    assert points.evaluate_all("els => els.map(e => +e.dataset.trueCount)") == list(range(-10, 11))
    expect(tid(page, "edge-zero")).to_have_count(1)
    expect(tid(page, "edge-plot")).to_contain_text("True count")
    expect(tid(page, "edge-plot")).to_contain_text("Edge, % of the bet")

    # the bankroll starts at the balance; the Kelly bets follow what is typed
    check_kelly(page, 10000, data["edge"], variance)
    tid(page, "bankroll").fill("250000")
    check_kelly(page, 250000, data["edge"], variance)
    assert any(kelly(250000, p["edge"], variance) > 0 for p in data["edge"])
    tid(page, "bankroll").fill("lots")
    expect(tid(page, "bankroll")).to_have_attribute("aria-invalid", "true")
    expect(tid(page, "bankroll-error")).to_contain_text("whole number")
    expect(tid(page, "kelly-bet-10")).to_have_text("—")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_indices_page_passes_axe_and_fits_a_phone(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    page.goto("/#/indices/casino")  # public, as the strategy card
    expect(tid(page, "edge-plot").locator("[data-testid='edge-point']")).to_have_count(21)
    check_axe(page, f"{size}: the indices page")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} px at {width})"
    page.screenshot(path=str(artifacts / f"indices-{size}.png"), animations="disabled")
    tid(page, "indices-edge").screenshot(
        path=str(artifacts / f"indices-edge-{size}.png"), animations="disabled"
    )

    # the lobby's card links to it, its buttons wrapping on a phone
    new_player(page, stack.api, "ixl")
    card = tid(page, "table-card-casino")
    expect(tid(page, "indices-link-casino")).to_be_visible()
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the lobby scrolls sideways ({scroll} px at {width})"
    card.screenshot(path=str(artifacts / f"lobby-card-{size}.png"), animations="disabled")


TOP = 18


def fits(page: Page, width: int, where: str) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{where} scrolls sideways ({scroll} px at {width})"


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_plays_open_ranked_by_worth_the_top_18_first(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """Issue 42, item 8: the plays in the order of what each adds per 100 rounds (the API's
    `worth`), the top 18 shown (insurance among the first three at casino, nothing at +-9
    or +-10 among them), coloured on the chart, the others there but grey; "Show all" lists
    and colours every one, and "Show the top 18" goes back."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    page.goto("/#/indices/casino")
    data = stack.api.call("GET", "/v1/tables/casino/indices")
    ranked = sorted(zip(data["indices"], data["worth"], strict=True), key=lambda p: -p[1])
    plays = tid(page, "ranked-play")
    expect(plays).to_have_count(len(ranked))
    expect(page.locator("[data-testid='ranked-play']:visible")).to_have_count(TOP)
    shown = plays.evaluate_all("els => els.map(e => ({...e.dataset, hidden: e.hidden}))")
    assert [by_cell(e) for e in shown] == [by_cell(ix) for ix, _ in ranked]
    assert [float(e["worth"]) for e in shown] == [w for _, w in ranked]
    assert [e["hidden"] for e in shown] == [i >= TOP for i in range(len(ranked))]
    assert "insurance" in [e["section"] for e in shown[:3]]
    assert all(abs(int(e["index"])) < 9 for e in shown[:TOP])
    worths = tid(page, "ranked-worth").all_text_contents()
    for text, (_, worth) in zip(worths[:TOP], ranked, strict=False):
        assert float(text) == pytest.approx(worth * 100, abs=0.006), (text, worth)
    expect(plays.first).to_contain_text(index_words(ranked[0][0]))
    expect(tid(page, "indices-ranked")).to_contain_text("coins per 100 rounds")

    # the chart: every play there, the top ones' cells in colour, the others grey
    tops = {by_cell(ix) for ix, _ in ranked[:TOP]}
    expect(tid(page, "indices")).to_have_attribute("data-shown", "top")
    for entry in shown:
        if entry["section"] == "insurance":
            continue
        key = "".join(f"[data-{k}='{entry[k]}']" for k in ("section", "row", "up", "direction"))
        cell = tid(page, "indices-chart").locator(f"td:has(.index-entry{key})")
        expect(cell).to_have_count(1)
        if by_cell(entry) in tops:
            expect(cell).to_have_class(re.compile(r"\bix-top\b"))
    grey = tid(page, "indices-chart").locator("td.ix-cell:not(.ix-top)").first
    coloured = tid(page, "indices-chart").locator("td.ix-top").first
    assert grey.evaluate("e => getComputedStyle(e).backgroundColor") != coloured.evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    check_axe(page, f"{size}: the top 18")
    fits(page, width, "the Indices page")
    for part in ("ranked", "chart"):
        tid(page, f"indices-{part}").screenshot(
            path=str(artifacts / f"indices-{part}-top-{size}.png"), animations="disabled"
        )

    toggle = tid(page, "indices-show-all")
    expect(toggle).to_have_text(f"Show all {len(ranked)} plays")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_text(f"Show the top {TOP}")
    expect(page.locator("[data-testid='ranked-play']:visible")).to_have_count(len(ranked))
    expect(tid(page, "indices")).to_have_attribute("data-shown", "all")
    assert grey.evaluate("e => getComputedStyle(e).backgroundColor") != "rgb(26, 44, 34)"
    check_axe(page, f"{size}: every play shown")
    fits(page, width, "the Indices page, every play shown")
    tid(page, "indices-chart").screenshot(
        path=str(artifacts / f"indices-chart-all-{size}.png"), animations="disabled"
    )
    toggle.click()
    expect(page.locator("[data-testid='ranked-play']:visible")).to_have_count(TOP)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_table_shuffled_every_round_says_counting_gains_almost_nothing(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """Issue 42, item 8: at classic (four decks) and bicycle (one), shuffled every round,
    the page opens on why counting gains almost nothing there: the count is of the round's
    own three cards; casino, dealt down to a cut card, says nothing of the kind."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    for table, bound, decks in (("classic", "0.76", "4 decks"), ("bicycle", "3.18", "1 deck")):
        page.goto(f"/#/indices/{table}")
        data = stack.api.call("GET", f"/v1/tables/{table}/indices")
        note = tid(page, "indices-shuffle-note")
        expect(note).to_contain_text("Counting gains almost nothing here.")
        expect(note).to_contain_text(f"at most ±{bound} (three cards of {decks})")
        expect(note).to_contain_text(f"All {len(data['indices'])} plays together add ")
        box = note.bounding_box()
        assert box is not None and box["y"] < height, ("not in view as the page opens", box)
        if table == "classic":
            assert set(data["worth"]) == {0}
            expect(note).to_contain_text("add 0 coins per 100 rounds")
            expect(tid(page, "indices-ranked")).to_contain_text("none adds anything here")
        check_axe(page, f"{size}: {table}'s Indices page")
        fits(page, width, f"{table}'s Indices page")
        page.screenshot(path=str(artifacts / f"indices-{table}-{size}.png"), animations="disabled")
    page.goto("/#/indices/casino")
    expect(tid(page, "ranked-play").first).to_be_visible()
    expect(tid(page, "indices-shuffle-note")).to_have_count(0)


def is_index_next(response: Response) -> bool:
    return (
        response.request.method == "GET"
        and "/drills/next" in response.url
        and "section=indices" in response.url
    )


def counter_play(index: dict[str, Any], true_count: int) -> str:
    """The counter's play at a true count: the index's play from its index on, else the card's."""
    if index["direction"] == "at_or_above":
        return str(index["play"] if true_count >= index["index"] else index["basic"])
    return str(index["play"] if true_count <= index["index"] else index["basic"])


def index_of(indices: list[dict[str, Any]], cell: dict[str, Any]) -> dict[str, Any]:
    for ix in indices:
        row = "insurance" if ix["section"] == "insurance" else f"{ix['section']} {ix['row']}"
        if (row, ix["up"], ix["direction"]) == (cell["row"], cell["up"], cell["direction"]):
            return ix
    raise AssertionError(f"no index for {cell}")


def index_drill_shown(page: Page, response: Response) -> dict[str, Any]:
    assert response.ok, (response.status, response.text())
    drill: dict[str, Any] = response.json()
    assert drill["cell"]["section"] == "indices" and isinstance(drill["true_count"], int), drill
    felt = tid(page, "drill-felt")
    expect(felt).to_have_attribute("data-row", drill["cell"]["row"])
    expect(felt).to_have_attribute("data-up", drill["cell"]["up"])
    t = drill["true_count"]
    words = f"True count {signed_count(t)}"
    expect(tid(page, "drill-true-count")).to_have_text(words)
    expect(tid(page, "drill")).not_to_contain_text("null")
    expect(tid(page, "drill-question")).to_contain_text(words)
    expect(tid(page, "drill-actions").get_by_role("button")).to_have_count(
        len(drill["legal_actions"])
    )
    return drill


def answer_index(page: Page, table: str, drill: dict[str, Any], action: str) -> dict[str, Any]:
    with page.expect_response(posted(f"/v1/tables/{table}/drills")) as info:
        tid(page, f"drill-action-{action}").click()
    assert info.value.ok, (info.value.status, info.value.text())
    body = info.value.request.post_data_json
    assert body == {
        "cards": drill["cards"],
        "up_card": drill["up_card"],
        "action": action,
        "true_count": drill["true_count"],
    }
    graded: dict[str, Any] = info.value.json()
    right = graded["action"] == graded["best"]
    expect(tid(page, "drill-verdict")).to_have_attribute("data-right", str(right).lower())
    expect(tid(page, "drill-next")).to_be_focused()
    return graded


def heat_square(page: Page, cell: dict[str, Any]) -> Any:
    name = "-".join(["indices", cell["row"].replace(" ", "-"), cell["up"], cell["direction"]])
    return tid(page, f"heat-{name}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_an_index_drill_answered_wrong_then_right(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    new_player(page, stack.api, "ixd")
    indices = stack.api.call("GET", "/v1/tables/casino/indices")["indices"]
    with page.expect_response(lambda r: "/drills/next" in r.url):
        tid(page, "nav-drills").click()
    tid(page, "drills-table").select_option("casino")
    with page.expect_response(is_index_next) as info:
        tid(page, "drills-section-indices").check()
    first = index_drill_shown(page, info.value)
    expect(heat_square(page, first["cell"])).to_have_attribute("data-state", "never")
    check_axe(page, f"{size}: an index drill")

    # wrong: a legal play other than the counter's at that true count
    best = counter_play(index_of(indices, first["cell"]), first["true_count"])
    wrong = next(a for a in first["legal_actions"] if a != best)
    graded = answer_index(page, "casino", first, wrong)
    assert graded["best"] == best, (graded, first)
    assert (graded["cell"]["box"], graded["cell"]["attempts"]) == (0, 1)
    expect(tid(page, "drill-verdict")).to_contain_text("✗ At ")
    expect(tid(page, "drill-verdict")).to_contain_text(
        index_words(index_of(indices, first["cell"]))
    )
    expect(heat_square(page, first["cell"])).to_have_attribute("data-state", "missed")
    check_axe(page, f"{size}: an index drill answered wrongly")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} px at {width})"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"index-drill-{size}.png"), animations="disabled")

    # right: the counter's play
    with page.expect_response(is_index_next) as info:
        page.keyboard.press("Enter")  # Next, focused
    second = index_drill_shown(page, info.value)
    best = counter_play(index_of(indices, second["cell"]), second["true_count"])
    graded = answer_index(page, "casino", second, best)
    assert graded["best"] == best and graded["cell"]["box"] == 1, graded
    expect(tid(page, "drill-verdict")).to_contain_text("✓ Right: at ")
    expect(heat_square(page, second["cell"])).to_have_attribute("data-state", "learning")
    expect(tid(page, "drill-accuracy-indices-value")).to_have_text("50.0%")
    tid(page, "heat-indices").scroll_into_view_if_needed()
    tid(page, "heat-indices").screenshot(
        path=str(artifacts / f"index-heatmap-{size}.png"), animations="disabled"
    )


def test_the_strategy_card_and_the_indices_in_croatian_and_russian(contexts: Contexts) -> None:
    """Issue 41: a phone in Croatian reads the card's plays and sections, a picked cell, the
    index plays and the Kelly bets in its words (a bankroll typed "10.000" as it writes
    ten thousand); in Russian a table shuffled every round says why counting gains nothing.
    No axe violation, no sideways scroll."""
    page = contexts.page(360, 640, mobile=True, language="hr")
    page.goto("/#/strategy/european")
    expect(page.locator("html")).to_have_attribute("lang", "hr")
    expect(tid(page, "strategy-chart-hard").locator("caption")).to_have_text("Tvrde ruke")
    expect(tid(page, "legend-hit")).to_contain_text("karta")
    expect(tid(page, "legend-stand")).to_contain_text("dosta")
    page.locator(".cell-btn").first.click()  # hard 5 against a 2: hit, at every table
    expect(tid(page, "strategy-ev").locator("h2")).to_contain_text(" protiv 2: karta")
    check_axe(page, "the strategy card in Croatian")
    fits(page, 360, "the strategy card in Croatian")

    page.goto("/#/indices/european")
    words = re.compile(
        r"^\S+ protiv \S+: .+ na (0|[+\u2212]\d+) ili (više|manje) \(tablica kaže: .+\)$"
    )
    expect(tid(page, "ranked-play").first.locator("span span").first).to_have_text(words)
    expect(tid(page, "ranked-worth").first).to_have_text(re.compile(r"^(\d+,\d\d|<0,01|0)$"))
    expect(tid(page, "edge-plot").locator("title").first).to_have_text(
        "Prednost igrača, u postotku uloga, na svakom pravom broju od \u221210 do +10"
    )
    tid(page, "bankroll").fill("10000")
    kelly = tid(page, "kelly-bet-10").inner_text()
    tid(page, "bankroll").fill("10.000")
    expect(tid(page, "kelly-bet-10")).to_have_text(kelly)
    expect(tid(page, "bankroll-error")).to_be_empty()
    check_axe(page, "the indices page in Croatian")
    fits(page, 360, "the indices page in Croatian")

    page = contexts.page(360, 640, mobile=True, language="ru")
    page.goto("/#/indices/classic")
    note = tid(page, "indices-shuffle-note")
    expect(note).to_contain_text("Счёт здесь почти ничего не даёт.")
    expect(note).to_contain_text("в шузе 4 колоды)")
    fits(page, 360, "the indices page in Russian")
