"""The client in the players' languages (issue 41).

- In the test language (`qps`) every catalog message shows between ⟦ and ⟧: each page is
  walked, and any visible text or attribute with letters outside those marks is a string
  that does not come from the catalogs. Names that stay the same in every language (a
  nick, an id, a seed) sit in `translate="no"` elements and are skipped.
- With the browser set to Russian and to Croatian at 360 by 640, each page shows at most 2 % of
  its visible strings in English, sets `<html lang>`, and never scrolls sideways.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing, update_screenshot
from .helpers import (
    PSEUDO_LANGUAGE,
    ROOT,
    check_axe,
    deal,
    new_player,
    open_panel,
    open_table,
    play_out,
    set_bet,
    tid,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

# Every visible string on the page (text, the attributes people and screen readers read,
# option texts, the document's title) with the element it sits in; `translate="no"` skipped.
VISIBLE_STRINGS = """() => {
  const found = [];
  const shown = (el) => {
    if (el.closest('[translate="no"]')) return false;
    if (el.tagName === 'OPTION') el = el.closest('select') || el;
    return (el.closest('svg') || el).checkVisibility();
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName) || !shown(el)) continue;
    if (node.data.trim()) found.push(node.data.trim());
  }
  const names = ['aria-label', 'title', 'placeholder', 'alt', 'aria-description',
    'aria-roledescription'];
  for (const el of document.body.querySelectorAll(names.map((n) => `[${n}]`).join(','))) {
    if (!shown(el)) continue;
    for (const name of names) if (el.hasAttribute(name)) found.push(el.getAttribute(name).trim());
  }
  found.push(document.title);
  return found.filter(Boolean);
}"""


_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[^\W\d_]{2,}")  # two letters of any script


def uncatalogued(page: Page) -> list[str]:
    """The visible strings with a word (two letters or more) outside the catalog's marks."""
    strings: list[str] = page.evaluate(VISIBLE_STRINGS)
    left = []
    for text in strings:
        bare = text
        while True:  # a message inside a message: take the innermost first
            stripped = _MARKED.sub(" ", bare)
            if stripped == bare:
                break
            bare = stripped
        if _WORD.search(bare):
            left.append(text)
    return sorted(set(left))


def check_catalogued(page: Page, where: str) -> None:
    page.wait_for_timeout(300)  # the last request's words drawn
    left = uncatalogued(page)
    assert not left, f"{where}: {len(left)} strings in no catalog: {left}"


@pytest.fixture
def pseudo(contexts: Contexts) -> Callable[..., Page]:
    def opened(width: int = 1280, height: int = 800) -> Page:
        return contexts.page(width, height, mobile=width < 600, language=PSEUDO_LANGUAGE)

    return opened


def test_the_pages_before_a_login_speak_catalog_words(pseudo: Callable[..., Page]) -> None:
    page = pseudo()
    page.goto("/#/login")
    expect(tid(page, "login-form")).to_be_visible()
    check_catalogued(page, "login")
    page.goto("/#/verify")  # by hand: a shoe's own page needs a login
    expect(tid(page, "manual-verify")).to_be_visible()
    check_catalogued(page, "verify")
    page.goto("/offline.html")
    expect(tid(page, "offline")).to_be_visible()
    check_catalogued(page, "offline")


def test_the_lobby_history_and_trainer_speak_catalog_words(
    pseudo: Callable[..., Page], stack: Stack
) -> None:
    page = pseudo()
    new_player(page, stack.api, "qps")
    expect(tid(page, "table-list")).to_be_visible()
    check_catalogued(page, "lobby")
    open_table(page, "european")
    play_out(page, "european", deal(page, "european"))
    for name, ready in (("history", "history-item"), ("trainer", "trainer")):
        page.goto(f"/#/{name}")
        expect(tid(page, ready)).to_be_visible()
        check_catalogued(page, name)
    page.goto("/#/history")
    tid(page, "history-verify").first.click()  # the round's shoe, still in play
    expect(tid(page, "verify-result")).to_have_attribute("data-verdict", "in_play")
    check_catalogued(page, "a shoe's verify page")


def test_a_table_speaks_catalog_words_at_every_step(
    pseudo: Callable[..., Page], stack: Stack
) -> None:
    page = pseudo()
    new_player(page, stack.api, "qps")
    open_table(page, "european")
    check_catalogued(page, "betting")
    for panel in ("rules", "fairness", "settings"):
        open_panel(page, panel)
        check_catalogued(page, f"the {panel} drawer")
        page.keyboard.press("Escape")  # closed again: a drawer covers the next one's button
        expect(tid(page, f"panel-{panel}")).to_be_hidden()
    view = deal(page, "european")
    if view["status"] != "settled":
        check_catalogued(page, "a decision")
        tid(page, "action-stand").click()
    expect(tid(page, "round-result")).not_to_be_empty()
    check_catalogued(page, "the result")


def test_the_strategy_and_indices_pages_speak_catalog_words(
    pseudo: Callable[..., Page],
) -> None:
    page = pseudo()
    for name in ("strategy", "indices"):
        page.goto(f"/#/{name}/european")
        expect(tid(page, name)).to_be_visible()
        check_catalogued(page, name)


def test_the_drills_and_count_pages_speak_catalog_words(
    pseudo: Callable[..., Page], stack: Stack
) -> None:
    page = pseudo()
    new_player(page, stack.api, "qps")
    for name, ready in (("drills", "drill"), ("counting", "count-setup")):
        page.goto(f"/#/{name}")
        expect(tid(page, ready)).to_be_visible()
        check_catalogued(page, name)


# ---- Russian and Croatian at 360 by 640 -------------------------------------------------

# The words of the English catalog that are not also words of the language's (a word in
# Latin letters that the Russian catalog does not use is English too): a visible string is
# English when most of its words are such words.
ENGLISH_WORDS = """async (lang) => {
  const words = async (name) => {
    const catalog = (await import(`/i18n/${name}.js`)).default;
    const text = Object.values(catalog)
      .map((m) => (typeof m === 'object' ? Object.values(m).join(' ') : m)).join(' ');
    return new Set(text.replace(/\\{\\w+\\}/g, ' ').toLowerCase().match(/\\p{L}{3,}/gu) || []);
  };
  const [english, own] = [await words('en'), await words(lang)];
  return [[...english].filter((w) => !own.has(w)), [...own]];
}"""


def english_share(page: Page, lang: str) -> tuple[float, list[str]]:
    english_words, own_words = page.evaluate(ENGLISH_WORDS, lang)
    english, own = set(english_words), set(own_words)

    def is_english(word: str) -> bool:
        latin = lang == "ru" and word.isascii() and word not in own
        return word in english or latin

    strings = [s for s in page.evaluate(VISIBLE_STRINGS) if _WORD.search(s)]
    found = []
    for text in strings:
        words = [w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)]
        if words and sum(map(is_english, words)) * 2 > len(words):
            found.append(text)
    return len(found) / max(len(strings), 1), found


PAGES: dict[str, tuple[str, str]] = {
    "lobby": ("/#/lobby", "table-list"),
    "strategy": ("/#/strategy/european", "strategy"),
    "indices": ("/#/indices/european", "indices"),
    "history": ("/#/history", "history-item"),
    "trainer": ("/#/trainer", "trainer"),
    "drills": ("/#/drills", "drill"),
    "counting": ("/#/counting", "count-setup"),
}


@pytest.mark.parametrize("lang", ["ru", "hr"])
def test_a_phone_in_russian_or_croatian_shows_almost_no_english(
    lang: str, contexts: Contexts, stack: Stack
) -> None:
    page = contexts.page(360, 640, mobile=True, language=lang)
    new_player(page, stack.api, lang)
    open_table(page, "european")
    play_out(page, "european", deal(page, "european"))
    shares: dict[str, Any] = {"table": english_share(page, lang)}
    for name, (path, ready) in PAGES.items():
        page.goto(path)
        expect(tid(page, ready)).to_be_visible()
        page.wait_for_timeout(300)
        assert page.evaluate("document.documentElement.lang") == lang
        wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert wide <= 0, f"{name} scrolls sideways by {wide} px"
        shares[name] = english_share(page, lang)
        check_axe(page, f"{lang}: {name}")
        page.screenshot(path=f"tests/artifacts/lang-{lang}-{name}.png")
    over = {name: share for name, share in shares.items() if share[0] > 0.02}
    assert not over, f"pages with more than 2 % of their strings in English: {over}"


@pytest.mark.parametrize("lang", ["ru", "hr"])
def test_the_table_mid_round_in_russian_and_croatian(
    lang: str, contexts: Contexts, stack: Stack
) -> None:
    """The README's screenshots of the table in Russian and in Croatian (UPDATE_SCREENSHOT=1
    writes them), the coach's hint showing; axe at 0."""
    page = contexts.page(1280, 800, language=lang)
    new_player(page, stack.api, lang, nick="Lovelace")
    open_table(page, "european")
    set_bet(page, 0, 50, 50)
    tid(page, "ai-level-1").select_option("easy")
    tid(page, "ai-level-2").select_option("hard")
    view = deal(page, "european")
    while view["status"] == "settled":  # a natural: the next round
        view = deal(page, "european")
    with page.expect_response(lambda r: "/round/hint" in r.url):
        tid(page, "hint").click()
    expect(tid(page, "hint-why")).not_to_be_empty()
    assert english_share(page, lang)[0] <= 0.02
    check_axe(page, f"{lang}: the table mid-round")
    page.mouse.move(0, 0)
    path = ROOT / "docs" if update_screenshot() else ROOT / "tests" / "artifacts"
    page.screenshot(path=str(path / f"screenshot-{lang}.png"), animations="disabled")
