"""Issue 42, items 4, 3 and 2, at a laptop's and two phones' sizes, axe finding nothing:
five-box rounds at casino and european (the player's boxes 1, 3 and 5, AI players on 2 and
4, box 1 split to four hands), measured by the page at every frame that changes the felt,
from the deal to the next betting step:

4. the page is never wider than the screen and no box leaves it;
3. every decision mark reads: its words in type a player can read (the move and, when it
   was a mistake, the better move, not only the sign), whole; at the result no mark and no
   hand's result lies under the sticky chip bar;
2. every box the player bet on is whole in view (inside the screen, inside every ancestor
   that clips it, clear of the sticky bar), and the box in turn has the largest cards.

Screenshots go to tests/artifacts/viewport-*.png (the rounds of viewport_helpers.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import VIEWPORTS, check_axe, new_player
from .viewport_helpers import MEASURE, crowded_shoe_seeds, play_five_boxes

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.e2e

# The page's own measure at a frame: what does not fit, by item (empty when all does).
WATCH = """
window.__fitFrames = [];
window.__boxesFit = () => {
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  const bar = document.querySelector(".table-page > .controls")?.getBoundingClientRect();
  const status = document.querySelector('[data-testid="round-status"]')?.textContent || "";
  const settled = !!document.querySelector('[data-testid="round-net"]');
  const misses = { 2: [], 3: [], 4: [] };
  const whole = (el) => {
    const r = el.getBoundingClientRect();
    const c = window.__clipOf(el);  // viewport_helpers.MEASURE
    return r.left >= c.left - 1 && r.top >= c.top - 1
      && r.right <= c.right + 1 && r.bottom <= c.bottom + 1;
  };
  const underBar = (el) => {
    const r = el.getBoundingClientRect();
    return !!bar && r.bottom > bar.top + 1 && r.top < bar.bottom - 1;
  };
  const where = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
  };
  // 4: the page and every box inside the screen's width
  const page = document.scrollingElement.scrollWidth;
  if (page > width) misses[4].push(`page ${page} px wide`);
  for (const box of document.querySelectorAll('[data-testid="boxes"] > .box')) {
    const r = box.getBoundingClientRect();
    if (r.left < -1 || r.right > width + 1)
      misses[4].push(`${box.dataset.testid} at ${where(box)}`);
  }
  // 3: every mark in readable type, whole; at the result clear of the bar (results too)
  for (const mark of document.querySelectorAll('[data-testid="mark"]')) {
    const size = parseFloat(getComputedStyle(mark).fontSize);
    const text = mark.innerText.trim();
    const name = `"${text}" in ${mark.closest(".hand")?.dataset.testid}`;
    if (size < 9) misses[3].push(`${name}: ${size} px type`);
    else if (!/^\\S+( \\S+)? [✓✗]/.test(text) || (text.includes("✗") && !/✗ [a-z]/.test(text)))
      misses[3].push(`${name}: not the move and the better one`);
    if (!whole(mark) || mark.scrollWidth > mark.clientWidth + 1)
      misses[3].push(`${name} cut at ${where(mark)}`);
    if (settled && underBar(mark)) misses[3].push(`${name} under the chip bar`);
  }
  if (settled)
    for (const res of document.querySelectorAll('[data-testid^="hand-result-"]'))
      if (underBar(res)) misses[3].push(`${res.dataset.testid} under the chip bar`);
  // 2: the player's boxes whole in view, the box in turn's cards the largest
  const mine = '[data-testid="boxes"] > .box-user[data-testid^="box-"]';
  for (const box of document.querySelectorAll(mine)) {
    if (!whole(box)) misses[2].push(`${box.dataset.testid} cut at ${where(box)}`);
    else if (underBar(box)) misses[2].push(`${box.dataset.testid} under the bar at ${where(box)}`);
  }
  const turn = document.querySelector(".box-turn .card");
  if (turn) {
    const cards = [...document.querySelectorAll(".box .card")];
    const largest = Math.max(...cards.map((c) => c.offsetWidth));
    if (turn.offsetWidth < largest)
      misses[2].push(`the box in turn's cards ${turn.offsetWidth} px, others ${largest}`);
  }
  return { status, misses };
};
document.addEventListener("DOMContentLoaded", () => {
  let queued = false;
  const measure = () => {
    queued = false;
    if (document.querySelector('[data-testid="boxes"] > .box'))
      window.__fitFrames.push(window.__boxesFit());
  };
  new MutationObserver(() => {
    if (!queued) requestAnimationFrame(measure);
    queued = true;
  }).observe(document.getElementById("main"),
    { subtree: true, childList: true, characterData: true, attributes: true });
});
"""


def misses_by_item(frames: list[dict[str, Any]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"2": [], "3": [], "4": []}
    for n, frame in enumerate(frames):
        for item, missed in frame["misses"].items():
            out[item] += [f"frame {n + 1} ({frame['status']}): {m}" for m in missed]
    return out


# Issue 42's items 2 and 3 are not met yet on phones at the result step: box 1's hand with
# five marks grows tall and boxes 2 to 5 fall under the chip bar (12/45 and 52/43 of the
# frames' checks miss at 390x844 and 360x640). Strict, so the day they fit this says so.
_PHONES_AT_THE_RESULT = pytest.mark.xfail(
    strict=True, reason="issue 42 items 2-3: phones' result step still puts boxes under the bar"
)


@pytest.mark.parametrize(
    "size",
    [
        size if size == "laptop" else pytest.param(size, marks=_PHONES_AT_THE_RESULT)
        for size in VIEWPORTS
    ],
)
def test_five_boxes_with_splits_fit_and_read_at_every_step(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Any, size: str
) -> None:
    width, height = VIEWPORTS[size]
    seeds.use(*crowded_shoe_seeds())  # box 1 splits to four hands, box 3 to two or more
    page = contexts.page(width, height, mobile=width < 600, paced=True)
    page.add_init_script(MEASURE)
    page.add_init_script(WATCH)
    new_player(page, stack.api, "fit")
    for table in ("casino", "european"):
        play_five_boxes(page, table, size, artifacts)
        check_axe(page, f"{table}, five boxes settled, {size}")
    frames = page.evaluate("window.__fitFrames")
    misses = misses_by_item(frames)
    print(f"{size}: {len(frames)} frames; misses by item", {k: len(v) for k, v in misses.items()})
    for item, missed in misses.items():
        print(f"item {item}:", *missed[:8], sep="\n  ")
    assert not any(misses.values()), misses
