"""What the page says when something goes wrong (issue 32, item 11): a problem code the
client does not know reads as its status says, not as the server's raw detail; its toast
leaves the table's Rules and Fair shoe in reach; registration names every field's problem
at once."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Route, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import VIEWPORTS, check_axe, new_player, open_table, tid

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)


def down(route: Route) -> None:
    problem = {"type": "about:blank", "title": "Service Unavailable", "status": 503}
    problem |= {"code": "maintenance", "detail": "Down."}
    route.fulfill(status=503, content_type="application/problem+json", body=json.dumps(problem))


def uncovered(page: Page, testid: str) -> bool:
    """Whether the element is on top at its own centre (nothing lies over it)."""
    return bool(
        tid(page, testid).evaluate(
            """el => { const r = el.getBoundingClientRect();
                 const x = (r.left + r.right) / 2;
                 const top = document.elementFromPoint(x, (r.top + r.bottom) / 2);
                 return el === top || el.contains(top); }"""
        )
    )


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_an_unknown_problem_reads_plainly_and_leaves_the_table_head_in_reach(
    contexts: Contexts, stack: Stack, size: str
) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    new_player(page, stack.api, "msg")
    open_table(page, "classic")
    page.route("**/v1/tables/classic/rounds", down)
    tid(page, "deal").click()
    toast = tid(page, "toast-error")
    expect(toast).to_be_visible()
    expect(toast).not_to_contain_text("Down.")
    expect(toast).to_contain_text("The server could not answer")
    for testid in ("open-rules", "open-fairness"):
        assert uncovered(page, testid), f"{testid} lies under the toast at {size}"
    check_axe(page, f"an error toast at the table, {size}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_registration_names_every_field_problem_at_once(contexts: Contexts, size: str) -> None:
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    page.goto("/#/login")
    tid(page, "register-login").fill("ab")
    tid(page, "register-nick").fill("")
    tid(page, "register-password").fill("no spaces here")
    tid(page, "register-submit").click()
    error = tid(page, "register-error")
    expect(error).to_contain_text("Login: 4 to 32")
    expect(error).to_contain_text("Nick is required.")
    expect(error).to_contain_text("Password: 4 to 32")
    expect(error).to_be_in_viewport(ratio=1)
    assert uncovered(page, "register-error"), f"the errors lie under something at {size}"
    assert int(page.evaluate("document.scrollingElement.scrollWidth")) <= width
    check_axe(page, f"registration errors, {size}")
