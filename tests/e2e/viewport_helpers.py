"""The measuring of test_viewport.py, shared by the tests that check a round fits its
screen: the page's own measure of what a player needs at each step, known five-box shoes,
and a five-box round played at casino or european with a box split to four hands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from tests.integration.seeds import value

from .helpers import (
    E2E_TIMEOUT_MS,
    check_cards_shown,
    check_results_in_view,
    deal,
    natural,
    open_table,
    posted,
    set_bet,
    tid,
    total,
    wait_round_shown,
)

USER_BOXES = (0, 2, 4)
AI_BOXES = (1, 3)
TEN = {"T", "J", "Q", "K"}

# Measured by the page: each name's element is "in view", or the reason it is not.
MEASURE = """
// The part of the screen where `el` can be seen: the viewport less what its ancestors clip.
window.__clipOf = (el) => {
  const clip = {
    left: 0, top: 0,
    right: document.documentElement.clientWidth, bottom: document.documentElement.clientHeight,
  };
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const c = a.getBoundingClientRect();
    clip.left = Math.max(clip.left, c.left);
    clip.top = Math.max(clip.top, c.top);
    clip.right = Math.min(clip.right, c.left + a.clientLeft + a.clientWidth);
    clip.bottom = Math.min(clip.bottom, c.top + a.clientTop + a.clientHeight);
  }
  return clip;
};
window.__inView = (specs) => {
  const name = (el) => el.dataset?.testid || el.className || el.tagName;
  const out = {};
  for (const [key, selector] of Object.entries(specs)) {
    const el = document.querySelector(selector);
    const r = el?.getBoundingClientRect();
    if (!el || !r.width || !r.height) {
      out[key] = { state: "not shown" };
      continue;
    }
    const clip = window.__clipOf(el);
    const where = { bottom: Math.round(r.bottom), right: Math.round(r.right) };
    const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    const inside = r.left >= clip.left - 1 && r.top >= clip.top - 1
      && r.right <= clip.right + 1 && r.bottom <= clip.bottom + 1;
    if (!inside) {
      const seen = [clip.left, clip.top, clip.right, clip.bottom].map(Math.round).join(",");
      out[key] = { ...where, state: `outside: ${box} in ${seen}` };
      continue;
    }
    // What lies on top at the middle of the element and of its top and bottom edges.
    const x = (r.left + r.right) / 2;
    const over = [r.top + 2, (r.top + r.bottom) / 2, r.bottom - 2]
      .map((y) => document.elementFromPoint(x, y))
      .find((top) => top && !el.contains(top));
    out[key] = { ...where, state: over ? `covered by ${name(over)}` : "in view" };
  }
  out.page = {
    state: document.scrollingElement.scrollWidth <= innerWidth ? "in view" : "page too wide",
    bottom: document.scrollingElement.scrollHeight,
    right: document.scrollingElement.scrollWidth,
  };
  return out;
};
// The player's boxes: every one whole in view (inside the screen and every ancestor that
// clips it, clear of the sticky bar of decisions or chips under the felt), or why not.
window.__underBar = (el) => {
  const bar = document.querySelector(".table-page > .controls")?.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return !!bar && r.bottom > bar.top + 1 && r.top < bar.bottom - 1;
};
window.__whole = (el) => {
  const r = el.getBoundingClientRect();
  const c = window.__clipOf(el);
  return r.left >= c.left - 1 && r.top >= c.top - 1
    && r.right <= c.right + 1 && r.bottom <= c.bottom + 1;
};
window.__where = (el) => {
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
};
window.__userBoxes = () => {
  const where = window.__where;
  const out = [];
  const mine = '[data-testid="boxes"] > .box-user[data-testid^="box-"]';
  for (const box of document.querySelectorAll(mine)) {
    const name = box.dataset.testid;
    if (!window.__whole(box)) out.push(`${name} cut at ${where(box)}`);
    else if (window.__underBar(box)) out.push(`${name} under the bar at ${where(box)}`);
  }
  return { state: out.length ? out.join("; ") : "in view" };
};
// The felt's words for the dealer's play, in the page's language (its own catalog module).
window.__dealerPlaysWords = "The dealer plays…";
import("/js/i18n.js").then((i18n) => { window.__dealerPlaysWords = i18n.t("felt.dealerPlays"); });
window.__dealerPlays = () =>
  document.querySelector('[data-testid="round-status"]')?.textContent === window.__dealerPlaysWords;
window.__dealerPlay = [];
window.__watchDealerPlay = (specs) => {
  window.__dealerPlay = [];
  if (window.__watching) return;
  window.__watching = true;
  let queued = false;
  const measure = () => {
    queued = false;
    if (window.__dealerPlays())
      window.__dealerPlay.push({ ...window.__inView(specs), boxes: window.__userBoxes() });
  };
  const watch = { subtree: true, childList: true, characterData: true };
  new MutationObserver(() => {
    if (!queued) requestAnimationFrame(measure);
    queued = true;
  }).observe(document.getElementById("main"), watch);
};
"""

DEALER = '[data-testid="dealer"]'
STATUS = '[data-testid="round-status"]'
BETTING = {
    "dealer": DEALER,
    "chips": ".bet-panel .chips",
    "deal": '[data-testid="deal"]',
    "bet total": '[data-testid="bet-total"]',
}
DEALER_PLAY = {"dealer": DEALER, "status": STATUS}
RESULT = {
    **BETTING,
    "result": '[data-testid="round-result"]',
    "net": '[data-testid="round-net"]',
}

# The logged-in pages, each by its hash and an element that shows once it has loaded.
PAGES = {
    "lobby": ("#/lobby", "table-list"),
    "table": ("#/table/european", "table-page"),
    "history": ("#/history", "history-list"),
    "trainer": ("#/trainer", "trainer"),
    "drills": ("#/drills", "drills"),
    "counting": ("#/counting", "counting"),
    "strategy": ("#/strategy/european", "strategy-chart-hard"),
}


def ten(card: str) -> bool:
    return card[0] in TEN


def four_hands(shoe: list[str], later: tuple[int, ...]) -> bool:
    """Box 1 a pair of ten-value cards (the 1st and 7th cards: one to each of five boxes,
    then the up card), and ten-value cards next off the shoe for it: split, it splits
    again to four hands (both tables split any two ten-value cards)."""
    return ten(shoe[0]) and ten(shoe[6]) and all(ten(shoe[i]) for i in later)


def casino_shoe(shoe: list[str]) -> bool:
    # no hole card: the up card (6th) an ace, so insurance; the boxes' second cards 7th to
    # 11th, then box 1's cards from the 12th
    return shoe[5][0] == "A" and four_hands(shoe, (11, 12, 13))


def european_shoe(shoe: list[str]) -> bool:
    # the hole card is the 12th, box 1's cards from the 13th; the dealer draws, so plays
    dealer = [shoe[5], shoe[11]]
    return four_hands(shoe, (12, 13, 14)) and not natural(*dealer) and total(dealer) < 17


@functools.cache
def shoe_seeds() -> tuple[str, str]:
    from tests.integration.seeds import find_seed

    return find_seed(6, casino_shoe), find_seed(6, european_shoe)


@dataclass
class Figures:
    """The steps of one round measured at one size, and what was not in view."""

    steps: int = 0
    in_view: int = 0
    misses: list[str] = field(default_factory=list)
    lowest_actions: int = 0  # how far down the decisions reached

    def add(self, step: str, measured: dict[str, Any]) -> None:
        self.steps += 1
        out = {k: v["state"] for k, v in measured.items() if v["state"] != "in view"}
        if out:
            self.misses.append(f"{step}: {out}")
        else:
            self.in_view += 1
        self.lowest_actions = max(self.lowest_actions, measured.get("actions", {}).get("bottom", 0))


def measure(page: Page, specs: dict[str, str]) -> dict[str, Any]:
    return dict(page.evaluate("(specs) => window.__inView(specs)", specs))


def decision_specs(view: dict[str, Any]) -> dict[str, str]:
    turn = view["turn"]
    box, hand = turn["box"], turn["hand"]
    specs = {
        "dealer": DEALER,
        "box in turn": f'[data-testid="box-{box}"]',
        "total": f'[data-testid="hand-total-{box}-{hand}"]',
        "bet": f'[data-testid="hand-bet-{box}-{hand}"]',
        "actions": '[data-testid="actions"]',
        "status": STATUS,
    }
    specs |= {name: f'[data-testid="action-{name}"]' for name in view["legal_actions"]}
    return specs


def decide(view: dict[str, Any]) -> str:
    """Insure box 1 only (declining even money), split whatever may be split, stand on the
    rest."""
    legal = view["legal_actions"]
    if view["status"] == "insurance":
        return (
            "insurance"
            if "insurance" in legal and view["turn"]["box"] == 0
            else "decline_insurance"
        )
    return "split" if "split" in legal else "stand"


def shot(page: Page, artifacts: Any, size: str, table: str, step: str) -> None:
    page.screenshot(path=str(artifacts / f"viewport-{size}-{table}-{step}.png"))


def play_five_boxes(page: Page, table: str, size: str, artifacts: Any) -> tuple[Figures, Any]:
    """The round at `table`, measured at every step; its figures and the settled view."""
    figures = Figures()
    open_table(page, table)
    for box in USER_BOXES:
        set_bet(page, box, 10, 10)
    for box in AI_BOXES:
        tid(page, f"ai-level-{box}").select_option("easy")
    figures.add("bet", measure(page, BETTING))
    shot(page, artifacts, size, table, "bet")

    page.evaluate("(specs) => window.__watchDealerPlay(specs)", DEALER_PLAY)
    # The deal's cards and a split's land at once (the instant speed): each step is measured
    # once its cards are all down, and neither ends the player's decisions. Any other
    # answer may, so its cards and the dealer's play come at the normal pace: the dealer
    # plays long enough to be seen from here, a round trip a look.
    dealing_speed(page, "instant")
    view = deal(page, table)
    split_shown = False
    while view["status"] != "settled":
        check_cards_shown(page, view)
        action = decide(view)
        step = f"{action} box {view['turn']['box'] + 1} hand {view['turn']['hand'] + 1}"
        figures.add(step, measure(page, decision_specs(view)))
        if view["status"] == "insurance" and view["turn"]["box"] == 0:
            shot(page, artifacts, size, table, "insurance")
        if len(view["boxes"][0]["hands"]) == 4 and not split_shown:
            shot(page, artifacts, size, table, "split")
            split_shown = True
        dealing_speed(page, "instant" if action == "split" else "normal")
        view = act_watching(
            page, table, action, lambda: shot(page, artifacts, size, table, "dealer")
        )
    assert len(view["boxes"][0]["hands"]) == 4, view["boxes"][0]

    frames = page.evaluate("window.__dealerPlay")
    assert frames, "the dealer drew: the felt says so while it plays"
    # every frame of the dealer's play: the dealer, the status and the player's boxes
    for n, frame in enumerate(frames):
        figures.add(f"dealer's play, frame {n + 1} of {len(frames)}", frame)
    figures.add("result", measure(page, RESULT))
    shot(page, artifacts, size, table, "result")
    # every hand's result and the insurance (casino's box 1) in view, adding up to the net
    check_results_in_view(page, view)
    return figures, view


def dealing_speed(page: Page, speed: str) -> None:
    """The felt's dealing speed from its next card on (the player's setting, read at each)."""
    page.evaluate("(speed) => localStorage.setItem('blackjack.speed', speed)", speed)


def act_watching(page: Page, table: str, action: str, dealer_plays: Callable[[], None]) -> Any:
    """`act`, except that once the answer settles the round, `dealer_plays` is called while
    the dealer plays on the felt; then the round is shown."""
    expect(tid(page, f"action-{action}")).to_be_enabled()
    with page.expect_response(posted(f"/v1/tables/{table}/round/actions")) as info:
        tid(page, f"action-{action}").click()
    view = info.value.json()
    if view["status"] == "settled":
        # polled from here: the page's CSP forbids the eval a wait_for_function needs
        for _ in range(E2E_TIMEOUT_MS // 10):
            if page.evaluate("window.__dealerPlays()"):
                break
            page.wait_for_timeout(10)
        else:
            raise AssertionError("the felt never said the dealer plays")
        dealer_plays()
    wait_round_shown(page, view)
    return view


def page_widths(page: Page, shoe_id: str) -> dict[str, int]:
    """Each logged-in page's width (document.scrollingElement.scrollWidth) once loaded."""
    widths = {}
    for name, (where, shown) in {**PAGES, "verify": (f"#/verify/{shoe_id}", "verify")}.items():
        page.goto(f"/{where}")
        expect(tid(page, shown).first).to_be_visible()
        expect(page.locator(".loading")).to_have_count(0)
        widths[name] = int(page.evaluate("document.scrollingElement.scrollWidth"))
    return widths


def box_three_splits(shoe: list[str]) -> bool:
    """Box 3's two cards (the 3rd and the 9th) a pair of one value: it splits too."""
    return value(shoe[2]) == value(shoe[8])


@functools.cache
def crowded_shoe_seeds() -> tuple[str, str]:
    """As shoe_seeds, box 3 split as well: nine hands or more over the five boxes."""
    from tests.integration.seeds import find_seed

    return (
        find_seed(6, lambda shoe: casino_shoe(shoe) and box_three_splits(shoe)),
        find_seed(6, lambda shoe: european_shoe(shoe) and box_three_splits(shoe)),
    )
