"""The Count page's three drills end to end, by keyboard, at a laptop's and two phones' sizes:
the running count's pass, the true count from a running count and a discard tray, and the
decks left in a tray. Each is answered right and wrong and graded as web/js/countdrills.js
grades (the true count as API.md rounds it, half-even), the tray is drawn to scale, the
personal bests are kept over a reload, axe finds nothing and the page never scrolls
sideways. The pages are saved in tests/artifacts/ to be looked at."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import VIEWPORTS, check_axe, hi_lo, new_player, tid

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

DECK = 52
# Each size drills from another table's shoe, so that every shoe the tables deal from is drawn.
SHOES = {"laptop": 6, "phone": 4, "small-phone": 1}


def true_count(running: int, unseen: int) -> Decimal:
    """API.md: running / (unseen / 52), rounded half-even to two decimals."""
    exact = Fraction(running * DECK, unseen)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_EVEN
    )


def typed(value: Decimal | float) -> str:
    """A number as a player types it, a minus as the keyboard's hyphen."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def open_count(page: Page, drill: str) -> None:
    """The Count page from the header; the drill picked with the arrow keys."""
    tid(page, "nav-counting").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Count")
    expect(tid(page, "count-drill-running")).to_be_checked()  # the first drill on a fresh page
    order = ["running", "true", "decks"]
    tid(page, "count-drill-running").focus()
    for _ in range(order.index(drill)):
        page.keyboard.press("ArrowRight")
    expect(tid(page, f"count-drill-{drill}")).to_be_checked()


def pick_shoe(page: Page, decks: int) -> None:
    shoe = tid(page, "count-shoe")
    expect(shoe).to_be_enabled()  # once the tables are known
    shoe.focus()
    shoe.select_option(str(decks))
    expect(tid(page, "count-ready")).to_contain_text(f"A {decks}-deck shoe")
    expect(shoe).to_be_focused()  # the select is kept, not drawn again: arrows go on choosing


def ask(page: Page, first: bool) -> tuple[int, int]:
    """Start (or Next tray), by Enter on the focused button; the tray's decks and cards."""
    if first:
        tid(page, "count-start").focus()
    else:
        expect(tid(page, "count-next")).to_be_focused()
    page.keyboard.press("Enter")
    expect(tid(page, "count-estimate")).to_be_focused()
    tray = tid(page, "count-tray")
    decks = int(tray.get_attribute("data-decks"))
    dealt = int(tray.get_attribute("data-dealt"))
    check_to_scale(page, decks, dealt)
    return decks, dealt


def check_to_scale(page: Page, decks: int, dealt: int) -> None:
    """The stack's height is the share of the shoe dealt; a mark at every whole deck (one
    deck: at its half)."""
    well = page.locator(".tray-well").evaluate("e => e.clientHeight")
    stack = page.locator(".tray-stack").evaluate("e => e.getBoundingClientRect().height")
    assert abs(stack - well * dealt / (DECK * decks)) < 1.5, (stack, well, dealt, decks)
    expect(page.locator(".tray-mark")).to_have_count(max(decks - 1, 1))


def answer(page: Page, text: str) -> None:
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def check_verdict(page: Page, right: bool, words: str) -> None:
    verdict = tid(page, "count-verdict")
    expect(verdict).to_have_attribute("data-right", "true" if right else "false")
    expect(verdict).to_contain_text(("\u2713 Right: " if right else "\u2717 Wrong: ") + words)
    expect(tid(page, "count-time")).to_contain_text("Answered in")
    expect(tid(page, "count-next")).to_be_focused()


def check_bests(page: Page, right: int, answers: int, streak: str) -> None:
    expect(tid(page, "count-best-passes")).to_have_text(f"{right} right of {answers}")
    expect(tid(page, "count-best-streak")).to_have_text(streak)


def fits(page: Page, size: str, width: int, where: str) -> None:
    check_axe(page, f"{size}: {where}")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{where}: the page scrolls sideways ({scroll} px at {width})"


def phone(size: str) -> bool:
    return size != "laptop"


def signed(value: Decimal, decimals: int = 2) -> str:
    """formatCount: "+2.66", "\u22121.50", "0.00"; "+3", "0" with no decimals."""
    text = f"{abs(value):.{decimals}f}"
    if value == 0:
        return text
    return f"{'+' if value > 0 else chr(0x2212)}{text}"


def said(value: Decimal) -> str:
    """A typed true count as the verdict repeats it: two decimals when it has any."""
    return signed(value, 0 if value == value.to_integral_value() else 2)


def decks_text(value: Fraction) -> str:
    """formatDecks: at most two decimals, "deck" for exactly one."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return f"{text} {'deck' if text == '1' else 'decks'}"


def tray_drill(contexts: Contexts, stack: Stack, size: str, drill: str) -> tuple[Page, int]:
    """A new player on the Count page at `size`, the tray drill picked with its size's shoe,
    ready; the page and its width."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=phone(size))
    new_player(page, stack.api, f"{drill[0]}cd")
    open_count(page, drill)
    pick_shoe(page, SHOES[size])
    fits(page, size, width, f"the {drill} drill, ready")
    return page, width


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_true_count_drill(size: str, contexts: Contexts, stack: Stack, artifacts: Path) -> None:
    page, width = tray_drill(contexts, stack, size, "true")

    decks, dealt = ask(page, first=True)
    assert decks == SHOES[size]
    running = int(tid(page, "count-given-running").get_attribute("data-running"))
    assert abs(running) > 1, "a count of about 0 is dealt again"
    exact = true_count(running, DECK * decks - dealt)
    left = decks_text(Fraction(DECK * decks - dealt, DECK))
    fits(page, size, width, "a true-count question")
    if size == "small-phone":  # one short screen holds the tray, the count and Check
        for testid in ("count-tray", "count-given-running", "count-check"):
            expect(tid(page, testid)).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(artifacts / f"counting-true-{size}.png"), animations="disabled")

    # within 0.5 of the exact figure is right: 0.4 off here
    answer(page, typed(exact - Decimal("0.4")))
    check_verdict(page, True, f"the true count is {signed(exact)} (")
    expect(tid(page, "count-verdict")).to_contain_text(f" \u00f7 {left} left).")
    expect(tid(page, "count-new-best")).to_be_visible()
    check_bests(page, 1, 1, "1 (best 1)")
    fits(page, size, width, "a true count graded right")
    page.screenshot(path=str(artifacts / f"counting-true-right-{size}.png"), animations="disabled")

    decks, dealt = ask(page, first=False)
    running = int(tid(page, "count-given-running").get_attribute("data-running"))
    exact = true_count(running, DECK * decks - dealt)
    answer(page, typed(exact + Decimal("0.75")))  # 0.75 off: wrong
    check_verdict(page, False, f"you said {said(exact + Decimal('0.75'))}; the true count")
    expect(tid(page, "count-new-best")).to_have_count(0)
    check_bests(page, 1, 2, "0 (best 1)")
    fits(page, size, width, "a true count graded wrong")

    # a word that is no number is said, and nothing is graded
    ask(page, first=False)
    answer(page, "lots")
    expect(tid(page, "count-estimate-error")).to_contain_text("The true count is a number")
    expect(tid(page, "count-estimate")).to_be_focused()
    check_bests(page, 1, 2, "0 (best 1)")

    # the drill, its shoe and its bests are the browser's: a reload keeps them
    page.reload()
    expect(tid(page, "count-drill-true")).to_be_checked()
    expect(tid(page, "count-shoe")).to_have_value(str(SHOES[size]))
    check_bests(page, 1, 2, "0 (best 1)")
    expect(tid(page, "count-best-fastest")).to_contain_text(" s")
    kept = page.evaluate("JSON.parse(localStorage.getItem('blackjack.counting_bests'))")
    assert kept[f"true:{SHOES[size]}"]["passes"] == 2, kept


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_decks_left_drill(size: str, contexts: Contexts, stack: Stack, artifacts: Path) -> None:
    page, width = tray_drill(contexts, stack, size, "decks")
    step = Fraction(1, 4) if SHOES[size] == 1 else Fraction(1, 2)
    words = "quarter" if step == Fraction(1, 4) else "half"

    decks, dealt = ask(page, first=True)
    left = Fraction(DECK * decks - dealt, DECK)
    nearest = round(left / step) * step
    fits(page, size, width, "a decks-left question")
    if size == "small-phone":
        for testid in ("count-tray", "count-estimate", "count-check"):
            expect(tid(page, testid)).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(artifacts / f"counting-decks-{size}.png"), animations="disabled")
    answer(page, typed(Decimal(nearest.numerator) / nearest.denominator))
    check_verdict(page, True, f"{decks_text(left)} {'is' if left == 1 else 'are'} left, ")
    expect(tid(page, "count-verdict")).to_contain_text(f"to the {words} deck.")
    expect(tid(page, "count-tray-words")).to_have_text(
        f"{dealt} of {DECK * decks} cards dealt: {decks_text(Fraction(dealt, DECK))} gone, "
        f"{decks_text(left)} left."
    )
    check_bests(page, 1, 1, "1 (best 1)")
    fits(page, size, width, "decks left graded right")
    page.screenshot(path=str(artifacts / f"counting-decks-right-{size}.png"), animations="disabled")

    decks, dealt = ask(page, first=False)
    left = Fraction(DECK * decks - dealt, DECK)
    nearest = round(left / step) * step
    wrong = nearest + 2 * step if nearest + 2 * step <= decks else nearest - 2 * step
    answer(page, typed(Decimal(wrong.numerator) / wrong.denominator))
    check_verdict(page, False, "you said ")
    check_bests(page, 1, 2, "0 (best 1)")
    fits(page, size, width, "decks left graded wrong")

    # more decks than the shoe holds is said, and not graded
    ask(page, first=False)
    answer(page, str(decks + 1))
    expect(tid(page, "count-estimate-error")).to_contain_text(f"A {decks}-deck shoe holds")
    check_bests(page, 1, 2, "0 (best 1)")

    page.reload()
    expect(tid(page, "count-drill-decks")).to_be_checked()
    check_bests(page, 1, 2, "0 (best 1)")
    # each drill keeps its own bests
    tid(page, "count-drill-true").check()
    expect(tid(page, "count-no-best")).to_be_visible()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_running_count_drill(
    size: str, contexts: Contexts, stack: Stack, artifacts: Path
) -> None:
    """The running count's pass still runs beside the tray drills, graded against the
    cards it showed."""
    width, height = VIEWPORTS[size]
    page = contexts.page(width, height, mobile=phone(size))
    new_player(page, stack.api, "rcd")
    open_count(page, "running")
    for testid in ("count-cards-10", "count-group-4", "count-pace-fast"):
        tid(page, testid).check()
        expect(tid(page, testid)).to_be_focused()
    expect(tid(page, "count-ready")).to_have_text("10 cards, 4 at a time, 0.35 s each group.")
    fits(page, size, width, "the running-count drill, ready")
    for guess in (0, None):
        tid(page, "count-start" if guess == 0 else "count-again").focus()
        page.keyboard.press("Enter")
        expect(tid(page, "count-running")).to_be_focused(timeout=15_000)
        answer(page, "0" if guess == 0 else "99")
        expect(tid(page, "count-verdict")).to_be_visible()
        cards = (
            tid(page, "count-review")
            .locator("[data-card]")
            .evaluate_all("cs => cs.map(c => c.dataset.card)")
        )
        assert len(cards) == 10, cards
        running = sum(map(hi_lo, cards))
        right = guess == running
        expect(tid(page, "count-verdict")).to_have_attribute(
            "data-right", "true" if right else "false"
        )
        expect(tid(page, "count-again")).to_be_focused()
    fits(page, size, width, "the running-count drill, graded")
    expect(tid(page, "count-best-passes")).to_contain_text("right of 2")
    page.screenshot(path=str(artifacts / f"counting-running-{size}.png"), animations="disabled")
