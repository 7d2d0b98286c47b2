"""The marks, the Trainer and a graded round grade against the level the player coaches
with (issue 32, items 1 and 9), the counter's too (issue 34): a decision that took that
level's best is never a mistake there, every mark names the move it grades, and the
Trainer shows each level's figures side by side.

The server grades every decision at `hard` and `expert` (API.md, hand `decisions`); a spot
where they differ needs a shoe counted far from zero. One test plays such a shoe as the
`expert` coach says; the others rewrite the answers, so that each of the player's decisions
is such a spot: perfect play (`expert_best`, no `expert_loss`) that `hard` grades as a
mistake, as when the expert coach's ★ is followed at a high count.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import (
    ACTION_LABELS,
    VIEWPORTS,
    act,
    check_axe,
    climbs_to_plus_5,
    cut_at_the_earliest,
    deal,
    new_player,
    open_panel,
    open_table,
    play_out,
    set_bet,
    shoes_by_size,
    tid,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

HARD_LOSS = 0.25


def as_deviations(view: dict[str, Any]) -> dict[str, Any]:
    for box in view["boxes"]:
        for hand in box["hands"]:
            for d in hand.get("decisions", []):
                other = "hit" if d["action"] != "hit" else "stand"
                d.update(best=other, loss=HARD_LOSS, expert_best=d["action"], expert_loss=0)
    return view


def rewrite(route: Route) -> None:
    answer = route.fetch()
    body = answer.json()
    if isinstance(body.get("rounds"), list):
        body["rounds"] = [as_deviations(view) for view in body["rounds"]]
    elif body.get("round"):
        body["round"] = as_deviations(body["round"])
    elif "boxes" in body:
        body = as_deviations(body)
    elif "stats" in body:  # GET /v1/me: the server's own figures for these decisions
        n = body["stats"]["decisions"]
        body["stats"].update(mistakes=n, expert_mistakes=0, deviations=n, deviations_taken=n)
    route.fulfill(response=answer, json=body)


def set_level(page: Page, level: str) -> None:
    open_panel(page, "settings")
    tid(page, "coach-level").select_option(level)
    page.keyboard.press("Escape")


def graded_round(
    page: Page, stack: Stack, rewrite: Callable[[Route], None], login: str, level: str
) -> tuple[dict[str, Any], Locator]:
    """A new player's first classic round with decisions, its answers rewritten, coached
    at `level`: the round and its first hand's marks, each a tick."""
    for pattern in ("**/v1/tables/**", "**/v1/rounds?*", "**/v1/rounds/*", "**/v1/me"):
        page.route(pattern, rewrite)
    new_player(page, stack.api, login)
    open_table(page, "classic")
    set_level(page, level)
    view: dict[str, Any] = {"status": "player_turn"}
    while view["status"] != "settled" or not view["boxes"][0]["hands"][0]["decisions"]:
        view = play_out(page, "classic", deal(page, "classic"))
    decisions = view["boxes"][0]["hands"][0]["decisions"]
    marks = tid(page, "marks-0-0").get_by_test_id("mark")
    expect(marks).to_have_count(len(decisions))
    for i, d in enumerate(decisions):
        expect(marks.nth(i)).to_have_text(f"{ACTION_LABELS[d['action']]} ✓")
    expect(tid(page, "marks-note")).to_be_visible()  # what they grade against, at every size
    return view, marks


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_marks_grade_against_the_coach_level(
    contexts: Contexts, stack: Stack, artifacts: Any, name: str
) -> None:
    size = VIEWPORTS[name]
    page = contexts.page(*size, mobile=size[0] < 600)
    view, marks = graded_round(page, stack, rewrite, "grade", "expert")
    decisions, label = view["boxes"][0]["hands"][0]["decisions"], ACTION_LABELS
    expect(tid(page, "marks-note")).to_contain_text("against perfect play")
    page.screenshot(path=str(artifacts / f"grades-{size[0]}-expert.png"))

    set_level(page, "hard")  # the same marks, against exact play for a fresh shoe
    other = {"stand": "hit", "hit": "stand"}
    for i, d in enumerate(decisions):
        better = other.get(d["action"], "hit")
        expect(marks.nth(i)).to_have_text(
            f"{label[d['action']]} ✗ {better} was better: \u2212{HARD_LOSS:.2f} of the bet"
        )
    expect(tid(page, "marks-note")).to_contain_text("against exact play")

    set_level(page, "expert")
    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-no-mistakes")).to_be_visible()
    expect(tid(page, "trainer-mistakes-against")).to_contain_text("against perfect play")
    n = str(api_decisions(page))
    expect(tid(page, "trainer-mistake-count")).to_have_text(n)  # hard's, side by side
    expect(tid(page, "trainer-expert-mistakes")).to_have_text("0")
    expect(tid(page, "trainer-expert-mistakes")).to_have_class(re.compile("coach-level"))
    expect(tid(page, "trainer-deviations-taken")).to_have_text(n)
    check_axe(page, f"trainer, expert coach, {size[0]}")
    page.screenshot(path=str(artifacts / f"grades-{size[0]}-trainer.png"), full_page=True)
    # the figures' tables hold a phone's width: no column cut ("Accuracy" at 390)
    for table in ("trainer-levels", "trainer-by-kind"):
        widths = tid(page, table).evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert widths[0] <= widths[1], (table, widths)
    page.goto(f"/#/trainer/{view['round_id']}")
    expect(tid(page, "trainer-decisions-0-0")).not_to_contain_text("was better")
    expect(tid(page, "trainer-round-against")).to_contain_text("against perfect play")


def api_decisions(page: Page) -> int:
    text = tid(page, "trainer-decisions").inner_text()
    return int(text.replace(",", ""))


def as_moves(view: dict[str, Any], best: str, followed: bool) -> dict[str, Any]:
    """Each of the player's decisions rewritten for a level graded by the move alone (its
    play under `best`: `counter_best`, `medium_best`): that play taken where hard and
    perfect play grade it a mistake (`followed`), or that play missed where both grade it
    right."""
    for box in view["boxes"]:
        for hand in box["hands"]:
            for d in hand.get("decisions", []):
                other = "hit" if d["action"] != "hit" else "stand"
                if followed:
                    d.update(best=other, loss=HARD_LOSS, expert_best=other, expert_loss=0.1)
                    d[best] = d["action"]
                else:
                    d.update(best=d["action"], loss=0, expert_best=d["action"], expert_loss=0)
                    d[best] = other
    return view


def moves_rewrite(best: str, mode: dict[str, bool]) -> Callable[[Route], None]:
    """The answers rewritten by `as_moves` as `mode["followed"]` says, /v1/me's own figures
    to match (the index spots all taken, or none)."""

    def rewrite(route: Route) -> None:
        answer = route.fetch()
        body = answer.json()
        if isinstance(body.get("rounds"), list):
            body["rounds"] = [as_moves(view, best, mode["followed"]) for view in body["rounds"]]
        elif body.get("round"):
            body["round"] = as_moves(body["round"], best, mode["followed"])
        elif "boxes" in body:
            body = as_moves(body, best, mode["followed"])
        elif "stats" in body:  # GET /v1/me: the server's own figures for these decisions
            n = body["stats"]["decisions"]
            wrong = n if mode["followed"] else 0  # hard and perfect play grade the level's play
            body["stats"].update(mistakes=wrong, expert_mistakes=wrong)
            body["stats"].update(index_spots=n, index_spots_taken=wrong)
        route.fulfill(response=answer, json=body)

    return rewrite


def trainer_without_mistakes(page: Page, level: str, against: str) -> str:
    """The Trainer of a player who took every play of `level`, a level graded by the move
    alone: none of its mistakes, no EV lost, every decision a mistake at `hard` beside it.
    The number of decisions."""
    tid(page, "nav-trainer").click()
    n = str(api_decisions(page))
    expect(tid(page, "trainer-no-mistakes")).to_be_visible()
    expect(tid(page, "trainer-mistakes-against")).to_contain_text(against)
    expect(tid(page, f"trainer-{level}-mistakes")).to_have_text("0")
    expect(tid(page, f"trainer-{level}-mistakes")).to_have_class(re.compile("coach-level"))
    expect(tid(page, f"trainer-{level}-ev-lost")).to_have_text("—")
    expect(tid(page, "trainer-mistake-count")).to_have_text(n)
    return n


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_marks_under_the_counter_coach(
    contexts: Contexts, stack: Stack, artifacts: Any, name: str
) -> None:
    size = VIEWPORTS[name]
    page = contexts.page(*size, mobile=size[0] < 600)
    mode = {"followed": True}
    counter_rewrite = moves_rewrite("counter_best", mode)

    # the counter's play taken: a tick, whatever hard says
    view, marks = graded_round(page, stack, counter_rewrite, "cgrade", "counter")
    decisions, label = view["boxes"][0]["hands"][0]["decisions"], ACTION_LABELS
    for i in range(len(decisions)):
        expect(marks.nth(i)).to_have_class(re.compile("mark-ok"))
    expect(tid(page, "marks-note")).to_have_text(
        re.compile(r"against the counter's indices \(coach: counter\)")
    )
    check_axe(page, f"marks under the counter coach, {size[0]}")
    page.screenshot(path=str(artifacts / f"grades-{size[0]}-counter.png"))

    set_level(page, "counter")
    n = trainer_without_mistakes(page, "counter", "against the counter's indices")
    expect(tid(page, "trainer-expert-mistakes")).to_have_text(n)
    expect(tid(page, "trainer-index-spots")).to_have_text(f"{n} of {n} (100.0%)")
    check_axe(page, f"trainer, counter coach, {size[0]}")
    page.screenshot(path=str(artifacts / f"grades-{size[0]}-counter-trainer.png"), full_page=True)
    page.goto(f"/#/trainer/{view['round_id']}")
    expect(tid(page, "trainer-round-against")).to_contain_text("against the counter's indices")
    expect(tid(page, "trainer-decisions-0-0")).not_to_contain_text("counter's play")

    # the counter's play missed where hard and perfect play grade the move right: a mistake
    mode["followed"] = False
    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-counter-mistakes")).to_have_text(n)
    expect(tid(page, "trainer-mistake-count")).to_have_text("0")
    expect(tid(page, "trainer-index-spots")).to_have_text(f"0 of {n} (0.0%)")
    expect(tid(page, "trainer-mistake")).to_have_count(min(10, int(n)))
    expect(tid(page, "trainer-mistake").first.locator(".loss")).to_contain_text("— (the counter")
    page.goto(f"/#/trainer/{view['round_id']}")
    expect(tid(page, "trainer-decisions-0-0")).to_contain_text("is the counter's play")
    open_table(page, "classic")
    d = decisions[0]
    other = "hit" if d["action"] != "hit" else "stand"
    expect(tid(page, "marks-0-0").get_by_test_id("mark").first).to_have_text(
        f"{label[d['action']]} ✗ {other} is the counter's play"
    )
    page.unroute_all(behavior="ignoreErrors")  # the table's own reads may still be in flight


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_marks_under_the_chart_coach(
    contexts: Contexts, stack: Stack, artifacts: Any, name: str
) -> None:
    """A player coached by the chart (`medium`) who follows it is marked right, wherever
    exact play differs; one who leaves it is told the chart's play."""
    size = VIEWPORTS[name]
    page = contexts.page(*size, mobile=size[0] < 600)
    mode = {"followed": True}
    view, marks = graded_round(page, stack, moves_rewrite("medium_best", mode), "mgrade", "medium")
    expect(tid(page, "marks-note")).to_have_text(re.compile(r"against the chart \(coach: medium\)"))
    page.screenshot(path=str(artifacts / f"grades-{size[0]}-medium.png"))
    n = trainer_without_mistakes(page, "medium", "against the chart")
    check_axe(page, f"trainer, chart coach, {size[0]}")
    page.screenshot(path=str(artifacts / f"grades-{size[0]}-medium-trainer.png"), full_page=True)
    for table in ("trainer-levels", "trainer-by-kind"):
        widths = tid(page, table).evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert widths[0] <= widths[1], (table, widths)
    # the recent accuracy's figures ("100.0%") inside the chart, not cut at its edge
    ends = tid(page, "trainer-chart").evaluate(
        "c => [...c.querySelectorAll('.chart-value')].map(t => t.getBBox().x + t.getBBox().width)"
    )
    width = tid(page, "trainer-chart").evaluate("c => c.viewBox.baseVal.width")
    assert ends and max(ends) <= width, (ends, width)

    mode["followed"] = False  # the chart's play missed where exact play grades the move right
    page.reload()
    expect(tid(page, "trainer-medium-mistakes")).to_have_text(n)
    expect(tid(page, "trainer-mistake-count")).to_have_text("0")
    expect(tid(page, "trainer-mistake").first.locator(".loss")).to_contain_text("— (the chart")
    page.goto(f"/#/trainer/{view['round_id']}")
    expect(tid(page, "trainer-decisions-0-0")).to_contain_text("is the chart's play")
    open_table(page, "classic")
    d = view["boxes"][0]["hands"][0]["decisions"][0]
    other = "hit" if d["action"] != "hit" else "stand"
    expect(marks.first).to_have_text(f"{ACTION_LABELS[d['action']]} ✗ {other} is the chart's play")
    page.unroute_all(behavior="ignoreErrors")  # the table's own reads may still be in flight


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_a_shoe_played_as_the_expert_coach_says_is_marked_right(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, name: str
) -> None:
    """Issue 32, item 1, on the server's own grades: a casino shoe counted high, three boxes
    played as the `expert` hint says to its cut card. Every mark is a tick at the `expert`
    coach, the spots where perfect play leaves exact play among them; the Trainer counts
    them as deviations taken, none of them a mistake at that level; at `hard` a graded
    round says what exact play would have done."""
    size = VIEWPORTS[name]
    seeds.use(shoes_by_size(climbs_to_plus_5)[name])
    page = contexts.page(*size, mobile=size[0] < 600)
    _, token = new_player(page, stack.api, "xgrade")
    open_table(page, "casino")
    set_level(page, "expert")
    cut_at_the_earliest(page)
    for box in range(3):
        set_bet(page, box, 10, 10)
    first = stack.api.table(token, "casino")["shoe"]["shoe_id"]
    spots: list[tuple[str, dict[str, Any]]] = []  # (round, decision) where the levels differ
    for _ in range(40):
        view = deal(page, "casino")
        while view["status"] != "settled":
            path = "/v1/tables/casino/round/hint?level=expert"
            view = act(page, "casino", stack.api.call("GET", path, token=token)["action"])
        for box in view["boxes"]:
            for h, hand in enumerate(box["hands"]):
                marks = tid(page, f"marks-{box['box']}-{h}").get_by_test_id("mark")
                expect(marks).to_have_count(len(hand["decisions"]))
                for i, d in enumerate(hand["decisions"]):
                    assert d["action"] == d["expert_best"], d
                    expect(marks.nth(i)).to_have_class(re.compile(r"\bmark-ok\b"))
                    if d["expert_best"] != d["best"]:
                        spots.append((view["round_id"], d))
        if stack.api.table(token, "casino")["shoe"]["shoe_id"] != first:
            break
    else:
        raise AssertionError("the shoe was never retired")
    stats = stack.api.me(token)["stats"]
    print(f"{name}: {stats['decisions']} decisions, {len(spots)} where perfect play left hard's")
    assert spots, "a shoe counted to +5 met no spot where perfect play leaves exact play"
    assert stats["deviations"] == stats["deviations_taken"] == len(spots), stats
    assert stats["expert_mistakes"] == 0, stats

    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-expert-mistakes")).to_have_text("0")
    expect(tid(page, "trainer-deviations-taken")).to_have_text(str(len(spots)))
    expect(tid(page, "trainer-mistake-count")).to_have_text(str(stats["mistakes"]))
    expect(tid(page, "trainer-no-mistakes")).to_be_visible()
    check_axe(page, f"trainer after an expert shoe, {size[0]}")

    # the round of the play that exact play grades the worst mistake, at each level
    plays = [spot for spot in spots if spot[1]["kind"] != "insurance"]
    round_id, d = max(plays, key=lambda spot: spot[1]["loss"])
    assert d["loss"] >= 0.0005, d  # a mistake at hard
    page.goto(f"/#/trainer/{round_id}")
    expect(tid(page, "trainer-round-against")).to_contain_text("against perfect play")
    expect(tid(page, "trainer-round")).not_to_contain_text("was better")
    open_table(page, "casino")
    set_level(page, "hard")
    page.goto(f"/#/trainer/{round_id}")
    expect(tid(page, "trainer-round-against")).to_contain_text("against exact play")
    better = re.compile(f"{ACTION_LABELS[d['best']]} was better", re.IGNORECASE)
    expect(tid(page, "trainer-round")).to_contain_text(better)
