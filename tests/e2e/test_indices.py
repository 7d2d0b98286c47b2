"""The Indices page (`#/indices/{table}`) end to end on the local stack: its index plays
equal GET …/indices at two tables, the edge plot has its 21 points, the Kelly bets follow a
typed bankroll; no axe violation and no sideways scroll at a laptop's and two phones' sizes,
the page saved in tests/artifacts/ to be looked at."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import VIEWPORTS, check_axe, new_player, tid

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.e2e

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
