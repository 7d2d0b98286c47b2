"""Issue 42, items 2, 3 and 4, at a laptop's and two phones' sizes, axe finding nothing:
five-box rounds at casino and european (the player's boxes 1, 3 and 5, AI players on 2 and
4, box 1 split to four hands; on a wide screen box 3 split too, the nine hands or more that
ran past a 1280 px screen), measured by the page at every frame that changes the felt,
from the bet to the next betting step:

2. every box the player bet on is whole in view (inside the screen and every ancestor that
   clips it, clear of the sticky bar of decisions or chips), and the box in turn's cards
   are the largest on the felt;
3. every decision mark reads: in type a player can read, its words the move and, for a
   mistake, the better move (not only the sign), whole; at the result no mark and no
   hand's result lies under the chip bar, and the page is never taller than the screen;
4. the page is never wider than the screen and no box leaves it.

Each step of the rounds is in view besides (test_viewport.py's measure). Screenshots go to
tests/artifacts/viewport-*.png (the rounds of viewport_helpers.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from .environment import MISSING_CHROMIUM, Contexts, Stack, StackSeeds, chromium_missing
from .helpers import LANGUAGES, VIEWPORTS, check_axe, new_player
from .viewport_helpers import MEASURE, crowded_shoe_seeds, play_five_boxes, shoe_seeds

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

# The page's own measure at a frame: what does not fit, by item (empty when all does).
WATCH = """
window.__fitFrames = [];
window.__boxesFit = () => {
  const width = document.documentElement.clientWidth;
  const where = window.__where;
  const status = document.querySelector('[data-testid="round-status"]')?.textContent || "";
  const settled = !!document.querySelector('[data-testid="round-net"]');
  const misses = { 2: [], 3: [], 4: [] };
  // 4: the page and every box inside the screen's width
  const page = document.scrollingElement.scrollWidth;
  if (page > width) misses[4].push(`page ${page} px wide`);
  for (const box of document.querySelectorAll('[data-testid="boxes"] > .box')) {
    const r = box.getBoundingClientRect();
    if (r.left < -1 || r.right > width + 1)
      misses[4].push(`${box.dataset.testid} at ${where(box)}`);
  }
  // 3: the page one screen tall; every mark in readable type, its words whole; at the
  // result clear of the bar (results too)
  const tall = document.scrollingElement.scrollHeight;
  if (tall > innerHeight) misses[3].push(`page ${tall} px tall`);
  for (const mark of document.querySelectorAll('[data-testid="mark"]')) {
    const size = parseFloat(getComputedStyle(mark).fontSize);
    const text = mark.innerText.trim().replace(/\\s+/g, " ");
    const name = `"${text}" in ${mark.closest(".hand")?.dataset.testid}`;
    if (size < 9) misses[3].push(`${name}: ${size} px type`);
    else if (!/^\\S+( \\S+)? [✓✗]/.test(text) || (text.includes("✗") && !/✗ \\p{Ll}/u.test(text)))
      misses[3].push(`${name}: not the move and the better one`);
    if (mark.scrollWidth > mark.clientWidth + 1) misses[3].push(`${name} cut`);
    if (!window.__whole(mark)) misses[3].push(`${name} out of view at ${where(mark)}`);
    if (settled && window.__underBar(mark)) misses[3].push(`${name} under the chip bar`);
  }
  if (settled)
    for (const res of document.querySelectorAll('[data-testid^="hand-result-"]'))
      if (window.__underBar(res)) misses[3].push(`${res.dataset.testid} under the chip bar`);
  // 2: the player's boxes whole in view, the box in turn's cards the largest
  const boxes = window.__userBoxes().state;
  if (boxes !== "in view") misses[2].push(boxes);
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


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_five_boxes_with_splits_fit_and_read_at_every_step(
    contexts: Contexts,
    stack: Stack,
    seeds: StackSeeds,
    artifacts: Any,
    size: str,
    language: str,
) -> None:
    width, height = VIEWPORTS[size]
    # box 1 splits to four hands; on a wide screen box 3 to two or more too
    seeds.use(*(crowded_shoe_seeds() if width > 600 else shoe_seeds()))
    page = contexts.page(width, height, mobile=width < 600, paced=True, language=language)
    size = size if language == "en" else f"{size}-{language}"  # in the screenshots' names
    page.add_init_script(MEASURE)
    page.add_init_script(WATCH)
    new_player(page, stack.api, "fit")
    steps: list[str] = []
    try:
        for table in ("casino", "european"):
            figures, _ = play_five_boxes(page, table, size, artifacts)
            steps += [f"{table} {miss}" for miss in figures.misses]
            check_axe(page, f"{table}, five boxes settled, {size}")
    finally:  # what the frames measured, by item, even if a step failed
        frames = page.evaluate("window.__fitFrames")
        misses = misses_by_item(frames)
        counts = [len(v) for v in misses.values()]
        lines = [f"{size}: {len(frames)} frames; misses by item (2, 3, 4) {counts}"]
        lines += [f"item {item}: {miss}" for item, missed in misses.items() for miss in missed]
        lines += [f"step not in view: {miss}" for miss in steps]
        (artifacts / f"fit-{size}.txt").write_text("\n".join(lines) + "\n")
    assert not any(misses.values()) and not steps, "\n".join(lines[:40])
