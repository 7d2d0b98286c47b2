"""The `counter` coach over a whole shoe (issue 34, item 4; issue 32's marks): casino's cut
card at its earliest, a known shoe whose true count climbs to +5, three of the player's
boxes and two `counter` AI boxes, every decision taken as the coach names it.

At each decision the hint's `index` is the index play GET …/indices holds for that hand's
chart cell at the hint's true count (RULES.md, "AI levels"), the coach says it in words,
and the mark of the decision taken is ✓ under the counter coach; at the end every index
the coach named is the Indices page's cell, and the Trainer counts every index spot taken.
At a laptop's and two phones' sizes, axe at 0; the screens saved in tests/artifacts/.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

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
    signed,
    tid,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

TABLE = "casino"
USER_BOXES = (0, 1, 2)
AI_BOXES = (3, 4)


def label(name: str, legal: list[str]) -> str:
    """js/format.js actionLabel: declining even money is named as such."""
    return (
        "Decline even money"
        if name == "decline_insurance" and "even_money" in legal
        else ACTION_LABELS[name]
    )


def chart_label(card: str) -> str:
    return "T" if card[0] in "TJQK" else card[0]


def points(cards: list[str]) -> tuple[int, bool]:
    total = sum(11 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in cards)
    aces = sum(c[0] == "A" for c in cards)
    while total > 21 and aces:
        total, aces = total - 10, aces - 1
    return total, aces > 0


def chart_cell(cards: list[str], up: str, chart: dict[str, Any]) -> tuple[str, str, str] | None:
    """RULES.md: the pair row of a two-card pair (casino splits by value), else the total's."""
    if len(cards) == 2 and chart_label(cards[0]) == chart_label(cards[1]):
        return "pairs", chart_label(cards[0]), chart_label(up)
    total, soft = points(cards)
    section = "soft" if soft else "hard"
    return (section, str(total), chart_label(up)) if str(total) in chart[section] else None


def applies(index: dict[str, Any], true: Decimal) -> bool:
    at = Decimal(str(index["index"]))
    return true >= at if index["direction"] == "at_or_above" else true <= at


def expected_index(
    view: dict[str, Any], true: Decimal, indices: list[dict[str, Any]], chart: dict[str, Any]
) -> dict[str, Any] | None:
    """The index play GET …/indices holds for the hand in turn at this true count, when its
    play is legal now (else the counter plays as `medium`, and names no index)."""
    legal = view["legal_actions"]
    if "decline_insurance" in legal:
        found = [ix for ix in indices if ix["section"] == "insurance" and applies(ix, true)]
        return found[0] if found else None
    turn = view["turn"]
    box = next(b for b in view["boxes"] if b["box"] == turn["box"])
    cell = chart_cell(box["hands"][turn["hand"]]["cards"], view["dealer"]["cards"][0], chart)
    if cell is None:
        return None
    found = [
        ix
        for ix in indices
        if (ix["section"], ix["row"], ix["up"]) == cell
        and applies(ix, true)
        and ix["play"] in legal
    ]
    return found[0] if found else None


def up_words(up: str) -> str:
    return {"T": "a ten", "A": "an ace", "8": "an 8"}.get(up, f"a {up}")


def row_words(index: dict[str, Any]) -> str:
    row = index["row"]
    if index["section"] == "soft":
        return f"soft\u00a0{row}"  # one word: a line never breaks it
    if index["section"] == "pairs":
        r = "10" if row == "T" else row
        return f"{r},{r}"
    return str(row)


def why_words(index: dict[str, Any], true: Decimal) -> str:
    """js/coach.js's sentence for an index play applied: issue 34's example."""
    where = "at or below" if index["direction"] == "at_or_below" else "at or above"
    of = (
        "the insurance index"
        if index["section"] == "insurance"
        else f"the index of {row_words(index)} against {up_words(index['up'])}"
    )
    return f"True count {signed(true)} is {where} {signed(index['index'])}, {of}."


# An AI box's words inside its circle, the level's word on one line ("AI counter" wrapped
# as "AI coun" / "ter" read badly).
INSIDE_ITS_CIRCLE = """el => {
  const circle = el.closest('.bet-circle').getBoundingClientRect();
  const text = el.firstChild;
  const words = document.createRange();
  words.selectNodeContents(el);
  const level = document.createRange();
  level.setStart(text, text.data.indexOf(' ') + 1);
  level.setEnd(text, text.data.length);
  const inside = [...words.getClientRects()].every(
    (r) => r.left >= circle.left - 1 && r.right <= circle.right + 1);
  return inside && level.getClientRects().length === 1;
}"""


def set_up_the_table(page: Page) -> None:
    """The counter coach picked, the cut at its earliest, three boxes of ours and two AI
    counters (coach mode is turned on with the first decision: its switch is under them)."""
    open_table(page, TABLE)
    open_panel(page, "settings")
    tid(page, "coach-level").select_option("counter")
    tid(page, "close-settings").click()
    cut_at_the_earliest(page)
    for box in USER_BOXES:
        set_bet(page, box, 10, 10)
    for box in AI_BOXES:
        tid(page, f"ai-level-{box}").select_option("counter")
        expect(tid(page, f"bet-amount-{box}")).to_have_text("AI counter")
        inside = tid(page, f"bet-amount-{box}").evaluate(INSIDE_ITS_CIRCLE)
        assert inside, f"'AI counter' spills out of box {box + 1}'s circle, or breaks mid-word"


def check_buttons_hold_their_words(page: Page) -> None:
    """No decision's word runs past its button ("★ Double" ran into "Surrender" at 360 px)."""
    spill = tid(page, "actions").evaluate(
        "el => [...el.querySelectorAll('button')]"
        ".filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent)"
    )
    assert spill == [], spill


def marks_of(page: Page, box: int, hand: int) -> Any:
    return tid(page, f"marks-{box}-{hand}").get_by_test_id("mark")


def read_hint(
    page: Page, stack: Stack, token: str, view: dict[str, Any], docs: dict[str, Any]
) -> dict[str, Any]:
    """The counter coach's hint for the decision in turn, once the page shows it: its index
    is GET …/indices's for the hand at the hint's true count, and the coach says it."""
    expect(tid(page, "hint-output")).to_have_text(re.compile(r"^Coach \(counter\): "))
    hint: dict[str, Any] = stack.api.call(
        "GET", f"/v1/tables/{TABLE}/round/hint?level=counter", token=token
    )
    legal = view["legal_actions"]
    true = Decimal(str(hint["count"]["true"]))
    assert hint["level"] == "counter" and hint["action"] in legal, hint
    assert hint["index"] == expected_index(view, true, docs["indices"], docs["chart"]), (hint, view)
    expect(tid(page, "hint-output")).to_have_text(
        f"Coach (counter): {label(hint['action'], legal)}."
    )
    why = tid(page, "hint-why")
    if hint["index"] is not None:
        expect(why).to_have_text(why_words(hint["index"], true))
    else:
        expect(why).to_contain_text("chart")
    return hint


def follow(page: Page, view: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """The hint's action taken: graded as the counter's best, and marked ✓; the view after."""
    turn = view["turn"]
    after = act(page, TABLE, hint["action"])
    box = next(b for b in after["boxes"] if b["box"] == turn["box"])
    decision = box["hands"][turn["hand"]]["decisions"][-1]
    assert decision["action"] == decision["counter_best"] == hint["action"], decision
    taken = label(decision["action"], [decision["action"], decision["best"]])
    expect(marks_of(page, turn["box"], turn["hand"]).last).to_have_text(f"{taken} ✓")
    return dict(after)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_shoe_with_the_counter_coach(
    size: str, contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Path
) -> None:
    width, height = VIEWPORTS[size]
    seed = shoes_by_size(climbs_to_plus_5)[size]
    seeds.use(seed)
    page = contexts.page(width, height, mobile=width < 600)
    _, token = new_player(page, stack.api, "ctr")
    docs = {
        "indices": stack.api.call("GET", f"/v1/tables/{TABLE}/indices")["indices"],
        "chart": stack.api.call("GET", f"/v1/tables/{TABLE}/strategy")["chart"],
    }
    set_up_the_table(page)
    first = stack.api.table(token, TABLE)["shoe"]["shoe_id"]
    named: list[dict[str, Any]] = []  # every index play the coach named
    decisions = 0
    looked = False
    for _ in range(30):
        view = deal(page, TABLE)
        assert [b["player"] for b in view["boxes"] if b["box"] in AI_BOXES] == ["ai:counter"] * 2
        if view["status"] != "settled" and not tid(page, "coach-toggle").is_checked():
            tid(page, "coach-toggle").check()  # remembered for the tab
        while view["status"] != "settled":
            hint = read_hint(page, stack, token, view, docs)
            if not looked and hint["index"] is not None:  # the coach names an index: look once
                check_axe(page, f"{size}: the counter coach names an index")
                check_buttons_hold_their_words(page)
                page.screenshot(path=str(artifacts / f"counter-coach-{size}-index.png"))
                looked = True
            if decisions == 0:
                page.screenshot(path=str(artifacts / f"counter-coach-{size}.png"))
            view = follow(page, view, hint)
            decisions += 1
            if hint["index"] is not None:
                named.append(hint["index"])
        # every decision of the round followed the counter: each mark is a tick
        for box in (b for b in view["boxes"] if b["player"] == "user"):
            for h, hand in enumerate(box["hands"]):
                marks = marks_of(page, box["box"], h)
                expect(marks).to_have_count(len(hand["decisions"]))
                for i in range(len(hand["decisions"])):
                    expect(marks.nth(i)).to_have_class(re.compile(r"\bmark-ok\b"))
        if stack.api.table(token, TABLE)["shoe"]["shoe_id"] != first:
            break
    else:
        raise AssertionError("the shoe was never retired")
    expect(tid(page, "marks-note")).to_have_text(
        "Marks against the counter's indices (coach: counter)."
    )
    expect(tid(page, "marks-note")).to_be_visible()
    check_axe(page, f"{size}: a settled round, marked against the counter")
    page.screenshot(path=str(artifacts / f"counter-marks-{size}.png"))
    assert stack.api.shoe(token, first)["server_seed"] == seed, "not the known shoe"
    assert named, "a shoe at a true count of +5 met no index play"

    stats = stack.api.me(token)["stats"]
    assert stats["index_spots"] == stats["index_spots_taken"] == len(named), stats
    assert stats["decisions"] == decisions

    # the table's rules drawer leads to the Indices page: each index the coach named is there
    open_panel(page, "rules")
    tid(page, "indices-link").click()
    expect(tid(page, "indices")).to_have_attribute("data-table", TABLE)
    for index in named:
        key = "".join(f"[data-{k}='{index[k]}']" for k in ("section", "row", "up", "direction"))
        cell = tid(page, "indices").locator(f".index-entry{key}")
        expect(cell).to_have_count(1)
        expect(cell).to_have_attribute("data-play", index["play"])
        expect(cell).to_have_attribute("data-index", str(index["index"]))

    # the Trainer: no mistake against the counter, every index spot taken
    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-counter-mistakes")).to_have_text("0")
    expect(tid(page, "trainer-counter-mistakes")).to_have_class(re.compile("coach-level"))
    expect(tid(page, "trainer-counter-accuracy")).to_have_text("100.0%")
    n = len(named)
    expect(tid(page, "trainer-index-spots")).to_have_text(f"{n} of {n} (100.0%)")
    expect(tid(page, "trainer-mistakes-against")).to_contain_text("against the counter's indices")
    expect(tid(page, "trainer-no-mistakes")).to_be_visible()
    check_axe(page, f"{size}: the Trainer, counter coach")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the Trainer scrolls sideways ({scroll} px at {width})"
    widths = tid(page, "trainer-levels").evaluate(
        "t => [t.scrollWidth, t.parentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    tid(page, "trainer-levels").screenshot(
        path=str(artifacts / f"counter-trainer-levels-{size}.png")
    )
    print(f"{size}: {decisions} decisions, {n} index plays named: {named}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_counter_coach_and_the_indices_are_a_click_away(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """Settings offers the counter coach; the rules drawer and the strategy card link to the
    table's Indices page; nothing is wider than the screen."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=width < 600)
    new_player(page, stack.api, "ctl")
    open_table(page, TABLE)
    open_panel(page, "settings")
    levels = tid(page, "coach-level").locator("option")
    expect(levels).to_have_count(4)
    assert levels.evaluate_all("os => os.map(o => o.value)") == [
        "medium",
        "hard",
        "expert",
        "counter",
    ]
    tid(page, "coach-level").select_option("counter")
    fits(page, tid(page, "panel-settings"), width)
    check_axe(page, f"{size}: Settings, the counter coach picked")
    tid(page, "panel-settings").screenshot(path=str(artifacts / f"counter-settings-{size}.png"))
    tid(page, "close-settings").click()
    open_panel(page, "rules")
    expect(tid(page, "indices-link")).to_be_visible()
    fits(page, tid(page, "panel-rules"), width)
    tid(page, "panel-rules").screenshot(path=str(artifacts / f"counter-rules-{size}.png"))
    tid(page, "close-rules").click()

    tid(page, "strategy-link").click()
    expect(tid(page, "strategy-indices-link")).to_be_visible()
    fits(page, tid(page, "strategy"), width)
    page.screenshot(path=str(artifacts / f"counter-strategy-head-{size}.png"))
    tid(page, "strategy-indices-link").click()
    expect(tid(page, "indices")).to_have_attribute("data-table", TABLE)


def fits(page: Page, region: Any, width: int) -> None:
    """No sideways scroll: the page's, or inside the region."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} px at {width})"
    inner = region.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert inner[0] <= inner[1] + 1, inner


WHY_AT = {  # js/coach.js: what each level's sentence rests on
    "medium": re.compile(r"^(Hard|Soft) \d+ against (a|an) \w+: the chart says [\w ]+\.$|^A pair"),
    "hard": re.compile(r"^The highest EV for your hand off a fresh shoe(, .+)?\.$"),
    "expert": re.compile(r"^The highest EV for the cards not yet seen(, .+)?\.$"),
    "counter": re.compile(r"chart|index"),
}


def test_the_coach_says_why_at_every_level(
    contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """Issue 34, item 4: each level's hint comes with its reason, in one sentence."""
    page = contexts.page(*VIEWPORTS["laptop"])
    new_player(page, stack.api, "why")
    open_table(page, TABLE)
    set_bet(page, 0, 10, 10)
    view = deal(page, TABLE)
    while view["status"] != "player_turn":  # insurance or a natural: the next round
        view = play_out(page, TABLE, view)
        view = deal(page, TABLE)
    for level, words in WHY_AT.items():
        open_panel(page, "settings")
        tid(page, "coach-level").select_option(level)
        tid(page, "close-settings").click()
        with page.expect_response(f"**/round/hint?level={level}"):
            tid(page, "hint").click()
        expect(tid(page, "hint-output")).to_have_text(re.compile(rf"^Coach \({level}\): "))
        expect(tid(page, "hint-why")).to_have_text(words)
        page.screenshot(path=str(artifacts / f"coach-why-{level}.png"))
    check_axe(page, "the coach's why")
