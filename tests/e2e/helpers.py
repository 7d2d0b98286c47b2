"""Helpers for the browser tests: the API seen from the test (to check what the page
shows), money as the web client writes it, and the steps a player takes in the page."""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Response, expect

from tests.integration.local_stack.harness import Client
from tests.integration.seeds import find_seeds, value

ROOT = Path(__file__).resolve().parents[2]
# How long a page may take to do what a test waits for. Under make test's four workers on
# two cores, a function's cold start takes 1 to 2 s and waits its turn (two start at once):
# the Drills page's first look at a new table (its strategy, indices, drills and next
# drill, cold functions among them) once took more than 5 s.
E2E_TIMEOUT_MS = 15_000
PASSWORD = "secret123"
_counter = itertools.count(1)

RESULT_WORDS = {
    "win": "Win",
    "lose": "Lose",
    "push": "Push",
    "blackjack": "Blackjack!",
    "even_money": "Even money",
    "surrender": "Surrendered",
}


def new_login(prefix: str = "e2e") -> str:
    return f"{prefix}{next(_counter)}x{id(_counter) % 10_000}"


# ---- money as web/js/format.js writes it ----------------------------------------------


def coins(amount: Any) -> str:
    """formatCoins: thousands separated, at most two decimals, no trailing zeros."""
    text = f"{Decimal(str(amount)):,.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def signed(amount: Any) -> str:
    value = Decimal(str(amount))
    if value > 0:
        return f"+{coins(value)}"
    if value < 0:
        return f"\u2212{coins(-value)}"
    return "0"


def net_sentence(net: Any, page: Page | None = None) -> str:
    """The round's net in words: in English as written here, in another language as the
    page's catalog says it (`page` given)."""
    value = Decimal(str(net))
    if page is not None and not in_english(page):
        key = "net.won" if value > 0 else "net.lost" if value < 0 else "net.even"
        return said(page, key, count=float(abs(value)))
    unit = "coin" if abs(value) == 1 else "coins"
    if value > 0:
        return f"You won {coins(value)} {unit} this round."
    if value < 0:
        return f"You lost {coins(-value)} {unit} this round."
    return "Even round: no gain, no loss."


def result_label(hand: dict[str, Any], page: Page | None = None) -> str:
    """A settled hand's result and net, as the felt shows it ("Win +10"): in English as
    written here, in another language as the page's catalog says it (`page` given)."""
    net = Decimal(str(hand["payout"])) - Decimal(str(hand["bet"]))
    if page is not None and not in_english(page):
        words = said(page, f"result.{hand['result']}")
        return said(page, "result.withNet", result=words, net=shown(page, "formatSigned", net))
    return f"{RESULT_WORDS[hand['result']]} {signed(net)}"


# ---- the API, from the test's side ----------------------------------------------------


class ApiFailed(AssertionError):
    pass


class Api:
    def __init__(self, client: Client) -> None:
        self.client = client

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        reply = self.client.request(method, path, body, token=token)
        if reply.status >= 300:
            raise ApiFailed(f"{method} {path}: {reply.status} {reply.body.decode()[:300]}")
        return reply.json()

    def register(self, login: str, password: str = PASSWORD, nick: str | None = None) -> None:
        nick = nick or f"N{login}"[:32]
        self.call("POST", "/v1/users", {"login": login, "nick": nick, "password": password})

    def login(self, login: str, password: str = PASSWORD) -> str:
        return str(
            self.call("POST", "/v1/sessions", {"login": login, "password": password})["token"]
        )

    def me(self, token: str) -> Any:
        return self.call("GET", "/v1/me", token=token)

    def round(self, token: str, round_id: str) -> Any:
        return self.call("GET", f"/v1/rounds/{round_id}", token=token)

    def rounds(self, token: str) -> Any:
        return self.call("GET", "/v1/rounds?limit=100", token=token)["rounds"]

    def shoe(self, token: str, shoe_id: str) -> Any:
        return self.call("GET", f"/v1/shoes/{shoe_id}", token=token)

    def table(self, token: str, table: str) -> Any:
        return self.call("GET", f"/v1/tables/{table}", token=token)

    def play_round(self, token: str, table: str, bet: int, boxes: int = 1) -> Any:
        """A round played through the API alone, standing (declining insurance), at a
        table viewed first as the web client does (a bet needs its shoe committed)."""
        self.table(token, table)
        body = {"bets": [{"box": box, "amount": bet} for box in range(boxes)]}
        view = self.call("POST", f"/v1/tables/{table}/rounds", body, token=token)
        while view["status"] != "settled":
            legal = view["legal_actions"]
            action = "decline_insurance" if "decline_insurance" in legal else "stand"
            path = f"/v1/tables/{table}/round/actions"
            view = self.call("POST", path, {"action": action}, token=token)
        return view

    def warm_up(self) -> None:
        """Run every function that plays once, so each has imported its modules."""
        login = new_login("warm")
        self.register(login)
        token = self.login(login)
        self.call("GET", "/v1/tables/classic", token=token)
        self.call("GET", "/v1/rounds", token=token)
        self.call("GET", "/v1/me", token=token)
        self.call("GET", "/v1/tables/classic/drills", token=token)
        for path in ("/v1/tables/classic/round/hint", f"/v1/shoes/{'0' * 32}"):
            reply = self.client.request("GET", path, token=token)
            assert reply.status in (404, 409), (path, reply.status, reply.body)


ACTION_LABELS = {  # web/js/format.js's ACTIONS
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double",
    "split": "Split",
    "surrender": "Surrender",
    "insurance": "Insurance",
    "even_money": "Even money",
    "decline_insurance": "No insurance",
}


def hi_lo(card: str) -> int:
    """API.md: 2-6 count +1; 7, 8, 9 count 0; ten-value cards and aces -1."""
    rank = card[:-1]
    if rank in "23456":
        return 1
    return 0 if rank in "789" else -1


def climbs_to_plus_5(shoe: list[str]) -> bool:
    """A six-deck shoe whose true count (over the cards dealt) reaches +5 within its first
    110 cards: index plays, and perfect play's departures from the chart, come up in it."""
    running = 0
    for dealt, card in enumerate(shoe[:110], start=1):
        running += hi_lo(card)
        if dealt > 20 and running / ((len(shoe) - dealt) / 52) >= 5:
            return True
    return False


def signed_count(t: int) -> str:
    """A true count as the client writes it: "+3", "0", "\u22122"."""
    return f"+{t}" if t > 0 else f"\u2212{-t}" if t < 0 else "0"


def index_words(index: dict[str, Any]) -> str:
    """js/indexplays.js's words for an index play."""
    t = index["index"]
    at = f"at {signed_count(t)} " + (
        "or less" if index["direction"] == "at_or_below" else "or more"
    )
    if index["section"] == "insurance":
        return f"Insurance: take it {at} (the card declines it)"
    row, up = index["row"], "10" if index["up"] == "T" else index["up"]
    if index["section"] == "soft":
        row = f"A,{int(row) - 11}"
    elif index["section"] == "pairs":
        r = "10" if row == "T" else row
        row = f"{r},{r}"
    return f"{row} v {up}: {index['play']} {at} (the card says {index['basic']})"


# ---- the player's steps in the page --------------------------------------------------


def tid(page: Page, testid: str) -> Any:
    return page.get_by_test_id(testid)


def said(page: Page, key: str, **values: Any) -> str:
    """The catalog's message `key` as the page says it, in its language (web/js/i18n.js)."""
    words: str = page.evaluate(
        "async ([key, values]) => (await import('/js/i18n.js')).t(key, values)", [key, values]
    )
    return words


def in_english(page: Page) -> bool:
    """Whether the page speaks English (the tests' own words are English)."""
    return bool(
        page.evaluate("async () => (await import('/js/i18n.js')).currentLanguage() === 'en'")
    )


def shown(page: Page, formatter: str, amount: Any) -> str:
    """`amount` as js/format.js's `formatter` writes it in the page's language."""
    words: str = page.evaluate(
        "async ([name, n]) => (await import('/js/format.js'))[name](n)",
        [formatter, float(Decimal(str(amount)))],
    )
    return words


def session_token(page: Page) -> str:
    return str(page.evaluate("JSON.parse(sessionStorage.getItem('blackjack.session')).token"))


def login_ui(page: Page, login: str, password: str = PASSWORD, nick: str | None = None) -> None:
    page.goto("/#/login")
    tid(page, "login-login").fill(login)
    tid(page, "login-password").fill(password)
    tid(page, "login-submit").click()
    expect(tid(page, "table-list")).to_be_visible()
    expect(tid(page, "user-nick")).to_have_text(nick or f"N{login}"[:32])


def new_player(page: Page, api: Api, prefix: str = "p", nick: str | None = None) -> tuple[str, str]:
    """A new account (registered through the API), logged in through the page."""
    login = new_login(prefix)
    api.register(login, nick=nick)
    login_ui(page, login, nick=nick)
    return login, session_token(page)


def open_table(page: Page, table_id: str) -> None:
    if not tid(page, f"table-link-{table_id}").is_visible():
        tid(page, "nav-lobby").click()
    tid(page, f"table-link-{table_id}").click()
    expect(tid(page, "table-page")).to_have_attribute("data-table", table_id)
    expect(tid(page, "deal").or_(tid(page, "actions"))).to_be_visible()


def set_bet(page: Page, box: int, amount: int, chip: int) -> None:
    assert amount % chip == 0
    if tid(page, f"bet-clear-{box}").count():
        tid(page, f"bet-clear-{box}").click()
    tid(page, f"chip-{chip}").click()
    expect(tid(page, f"chip-{chip}")).to_have_attribute("aria-pressed", "true")
    for _ in range(amount // chip):
        tid(page, f"bet-add-{box}").click()
    expect(tid(page, f"bet-amount-{box}")).to_have_text(coins(amount))


def _json(response: Response) -> Any:
    assert response.ok, (
        f"{response.request.method} {response.url}: {response.status} {response.text()}"
    )
    return response.json()


def posted(suffix: str) -> Callable[[Response], bool]:
    return lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith(suffix)


def deal(page: Page, table_id: str) -> Any:
    """Click Deal; the round view the API answered (the page also shows it)."""
    with page.expect_response(posted(f"/v1/tables/{table_id}/rounds")) as info:
        tid(page, "deal").click()
    view = _json(info.value)
    wait_round_shown(page, view)
    return view


def act(page: Page, table_id: str, action: str, key: str | None = None) -> Any:
    """One decision, by its button (or its keyboard shortcut); the API's round view."""
    view_before = tid(page, "round-status").get_attribute("data-status")
    assert view_before in ("insurance", "player_turn"), view_before
    button = tid(page, f"action-{action}")
    expect(button).to_be_enabled()
    with page.expect_response(posted(f"/v1/tables/{table_id}/round/actions")) as info:
        if key is None:
            button.click()
        else:
            page.keyboard.press(key)
    view = _json(info.value)
    sent = json.loads(info.value.request.post_data or "{}")
    assert sent.get("action") == action, sent
    wait_round_shown(page, view)
    return view


def wait_round_shown(page: Page, view: dict[str, Any]) -> None:
    expect(tid(page, "round-status")).to_have_attribute("data-status", view["status"])
    if view["status"] == "settled":  # Deal, or the checkout in its place once the edge came
        expect(tid(page, "deal").or_(tid(page, "checkout"))).to_be_visible()
    else:
        # only the legal actions are offered
        expect(tid(page, "actions").locator("button[data-testid^='action-']")).to_have_count(
            len(view["legal_actions"])
        )
        for name in view["legal_actions"]:
            expect(tid(page, f"action-{name}")).to_be_enabled()


def user_boxes(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in view["boxes"] if b["player"] == "user"]


# The cards on the felt, read in one call: the dealer's (and its face-down cards) and each
# named hand's, by their data-card.
_FELT_CARDS = """(hands) => {
  const cards = (testid) => [...document.querySelectorAll(`[data-testid="${testid}"] [data-card]`)]
    .map((card) => card.getAttribute("data-card"));
  return {
    dealer: cards("dealer"),
    hidden: document.querySelectorAll('[data-testid="dealer"] [data-testid="card-back"]').length,
    hands: Object.fromEntries(hands.map((hand) => [hand, cards(hand)])),
  };
}"""


def check_cards_shown(page: Page, view: dict[str, Any]) -> None:
    """The felt shows the view's cards, face-down ones included, within E2E_TIMEOUT_MS: read
    in one call a try (a check per card took a round trip to the browser each)."""
    wanted = {
        "dealer": view["dealer"]["cards"],
        "hidden": view["dealer"]["hidden"],
        "hands": {
            f"hand-{box['box']}-{h}": hand["cards"]
            for box in view["boxes"]
            for h, hand in enumerate(box["hands"])
        },
    }
    for _ in range(E2E_TIMEOUT_MS // 50):
        shown = page.evaluate(_FELT_CARDS, list(wanted["hands"]))
        if shown == wanted:
            return
        page.wait_for_timeout(50)
    assert shown == wanted


def check_settled(page: Page, api: Api, token: str, view: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of a settled round is the API's round view; returns it as
    `GET /v1/rounds/{id}` gives it."""
    assert view["status"] == "settled"
    stored = api.round(token, view["round_id"])
    for key in ("round_id", "status", "boxes", "dealer", "net", "shoe_id"):
        assert stored[key] == view[key], key
    check_cards_shown(page, view)
    for box in user_boxes(view):
        for h, hand in enumerate(box["hands"]):
            expect(tid(page, f"hand-{box['box']}-{h}")).to_have_attribute(
                "data-result", hand["result"]
            )
            expect(tid(page, f"hand-result-{box['box']}-{h}")).to_have_text(
                result_label(hand, page)
            )
    expect(tid(page, "round-result")).to_have_text(net_sentence(view["net"], page))
    balance = (
        coins(view["balance"]) if in_english(page) else shown(page, "formatCoins", view["balance"])
    )
    expect(tid(page, "balance")).to_have_text(balance)
    assert Decimal(str(api.me(token)["balance"])) == Decimal(str(view["balance"]))
    return dict(stored)


def check_results_in_view(page: Page, view: dict[str, Any]) -> None:
    """Every hand of the player's shows its result whole on the screen (on a phone too: the
    boxes wrap into rows, issue 42), each insured box its insurance's; they add up to the
    round's net."""
    for box in user_boxes(view):
        for h, hand in enumerate(box["hands"]):
            result = tid(page, f"hand-result-{box['box']}-{h}")
            expect(result).to_have_text(result_label(hand, page))
            expect(result).to_be_in_viewport(ratio=1)
        if box["insurance"] is not None:
            expect(tid(page, f"box-insurance-{box['box']}")).to_be_in_viewport(ratio=1)
    assert net_of(view) == Decimal(str(view["net"])), view


def net_of(view: dict[str, Any]) -> Decimal:
    """The round's net from its hands and insurance (what `net` must be)."""
    total = Decimal(0)
    for box in user_boxes(view):
        for hand in box["hands"]:
            total += Decimal(str(hand["payout"])) - Decimal(str(hand["bet"]))
        if box["insurance"] is not None:
            total += Decimal(str(box["insurance_payout"] or 0)) - Decimal(str(box["insurance"]))
    return total


def play_out(page: Page, table_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """Stand on every hand still to play (declining insurance); the settled view."""
    for _ in range(12):
        if view["status"] == "settled":
            return view
        legal = view["legal_actions"]
        action = "decline_insurance" if "decline_insurance" in legal else "stand"
        assert action in legal, legal
        view = act(page, table_id, action)
    raise AssertionError("the round did not settle")


def open_panel(page: Page, name: str) -> None:
    """Open one of the table's drawers: `rules`, `fairness` or `settings`."""
    if tid(page, f"open-{name}").get_attribute("aria-expanded") != "true":
        tid(page, f"open-{name}").click()
    expect(tid(page, f"panel-{name}")).to_be_visible()


EARLIEST_CUT = "0.5"  # of the shoe: at casino, 156 cards of 312


def cut_at_the_earliest(page: Page) -> None:
    """The next shoe's cut card placed at its earliest, in the table's fairness drawer."""
    open_panel(page, "fairness")
    tid(page, "cut").fill(EARLIEST_CUT)
    page.keyboard.press("Escape")


def shoe_text(page: Page) -> str:
    return str(tid(page, "shoe-hash").inner_text())


HEX64 = re.compile(r"^[0-9a-f]{64}$")


def check_axe(page: Page, where: str) -> None:
    results = Axe().run(page)
    assert results.violations_count == 0, f"{where}: {results.generate_report()}"


# The sizes the browser tests look at: a laptop, a phone and a small phone.
VIEWPORTS = {"laptop": (1280, 800), "phone": (390, 844), "small-phone": (360, 640)}
# The browser's language for each of the client's (the layout tests run in each), and the
# client's test language (test_languages.py).
BROWSER_LOCALES = {"en": "en-US", "ru": "ru-RU", "hr": "hr-HR"}
LANGUAGES = list(BROWSER_LOCALES)
PSEUDO_LANGUAGE = "qps"


@functools.cache
def shoes_by_size(wanted: Callable[[list[str]], bool]) -> dict[str, str]:
    """For each size, the server seed of a six-deck shoe that satisfies `wanted`, each
    size's a shoe of its own; found on first use, not when the tests are collected."""
    return dict(zip(VIEWPORTS, find_seeds(len(VIEWPORTS), 6, wanted), strict=True))


def total(cards: list[str]) -> int:
    points = sum(value(c) for c in cards)
    aces = sum(c[0] == "A" for c in cards)
    while points > 21 and aces:
        points -= 10
        aces -= 1
    return points


def natural(a: str, b: str) -> bool:
    return {a[0], b[0]} & {"A"} != set() and total([a, b]) == 21


def hard(cards: list[str]) -> bool:
    return all(c[0] != "A" for c in cards)


def european_dealer_draws(shoe: list[str]) -> bool:
    """European, one box (the player's cards 1st and 3rd, the dealer's up card 2nd and hole
    card 4th): no ace, and the dealer holds a hard 11 or less, so draws after the player
    stands, at the pace of the cards."""
    no_aces = all(card[0] != "A" for card in shoe[:4])
    return no_aces and value(shoe[1]) + value(shoe[3]) <= 11
