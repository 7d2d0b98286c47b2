"""Every step of a round fits the screen (issue 22, item 4), at a laptop's and two phones'
sizes, at casino and european with five boxes (the player's 1, 3 and 5, AI players on 2
and 4) and a box split to four hands; and no logged-in page is wider than its viewport.

At each step (the bet, each decision, the dealer's play, the result) the page measures the
elements a player needs: the dealer's cards, the box in turn, the decisions (or the chips
and Deal at the result) and the status or result line. An element is in view when its
whole box is inside the viewport and inside every ancestor that clips it, and nothing lies
over it (a sticky bar, a toast). The dealer's play is measured in the page at every frame
that changes the felt while it says "The dealer plays…", every box of the player's with
it (issue 42: the boxes wrap into rows). The figures are printed per size and table;
screenshots of both rounds go to tests/artifacts/viewport-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    VIEWPORTS,
    check_axe,
    new_player,
    open_table,
    tid,
)
from .viewport_helpers import MEASURE, Figures, page_widths, play_five_boxes, shoe_seeds

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_step_of_a_five_box_round_is_in_view(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    width, height = VIEWPORTS[size]
    seeds.use(*shoe_seeds())  # the first shoe committed is casino's, the second european's
    page = contexts.page(width, height, mobile=width < 600, paced=True)
    page.add_init_script(MEASURE)
    _, token = new_player(page, stack.api, "fit")

    figures: dict[str, Figures] = {}
    views = {}
    for table in ("casino", "european"):
        figures[table], views[table] = play_five_boxes(page, table, size, artifacts)
        check_axe(page, f"{table}, five boxes settled, {size}")
    for table, f in figures.items():
        print(
            f"{size} {table}: {f.in_view} of {f.steps} steps in view; "
            f"decisions down to {f.lowest_actions} px of {height}"
        )
    misses = [f"{table} {miss}" for table, f in figures.items() for miss in f.misses]
    assert not misses, "\n".join(misses)

    # the drills function may not have run yet in this stack (Api.warm_up leaves it cold):
    # its first start is not the page's width to wait on
    stack.api.call("GET", "/v1/tables/classic/drills", token=token)
    widths = page_widths(page, views["casino"]["shoe_id"])
    print(f"{size} page widths (viewport {width}): {widths}")
    assert all(w <= width for w in widths.values()), widths


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_verify_page_fits_once_its_check_has_run(
    contexts: Contexts, stack: Stack, size: str
) -> None:
    """A retired shoe checked in the browser: its verdict's hash wraps (issue 32, item 5)."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "wrap")
    view = stack.api.play_round(token, "classic", 10)  # a fresh shoe every round: retired
    page.goto(f"/#/verify/{view['shoe_id']}")
    expect(tid(page, "verify-result")).to_have_attribute("data-verdict", "ok", timeout=20_000)
    scroll_width = int(page.evaluate("document.scrollingElement.scrollWidth"))
    assert scroll_width <= width, scroll_width
    check_axe(page, f"verify, checked, {size}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_ai_labels_stay_inside_their_betting_circles(
    contexts: Contexts, stack: Stack, size: str
) -> None:
    """Issue 32, item 11: "AI expert" spilled out of its circle."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    new_player(page, stack.api, "ailbl")
    open_table(page, "casino")
    for box in range(1, 5):
        tid(page, f"ai-level-{box}").select_option("expert")
        inside = tid(page, f"bet-amount-{box}").evaluate(
            """el => { const a = el.getBoundingClientRect();
                 const c = el.closest('.bet-circle').getBoundingClientRect();
                 return a.left >= c.left - 1 && a.right <= c.right + 1; }"""
        )
        assert inside, f"box {box + 1}'s label spills out of its circle at {size}"
