"""The web client in a real headless Chromium against the real local stack.

Rounds are deterministic: each scenario picks server seeds (`find_seed`) whose shoe deals
the user what the scenario needs, and fixes them before the first view of the table (the
view commits the shoe). Deal order (RULES.md), one user box and no AI: shoe[0] the
user's first card, shoe[1] the dealer's up card, shoe[2] the user's second card, shoe[3]
the hole card where the table deals one, then every later card in turn.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from blackjack.fairness import seed_hash, shuffled_shoe
from tests.integration.seeds import CLIENT_SEED, find_seed, value

from .environment import (
    MISSING_CHROMIUM,
    Contexts,
    Stack,
    StackSeeds,
    chromium_missing,
    update_screenshot,
)
from .helpers import (
    PASSWORD,
    act,
    check_cards_shown,
    check_settled,
    coins,
    cut_at_the_earliest,
    deal,
    hard,
    login_ui,
    natural,
    net_of,
    new_login,
    new_player,
    open_panel,
    open_table,
    play_out,
    posted,
    session_token,
    set_bet,
    signed,
    tid,
    total,
    user_boxes,
    wait_round_shown,
)

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)

DOCS = Path(__file__).resolve().parents[2] / "docs"  # the README's screenshots
TEN = {"T", "J", "Q", "K"}
HINT_TEXT = re.compile(
    r"^Coach \(hard\): "
    r"(Hit|Stand|Double|Split|Surrender|Insurance|Even money|No insurance|Decline even money)\.$"
)
EV_TEXT = re.compile(r"^EV ([+\u2212]\d\.\d{3}|0\.000) of the bet$")


def cards_of(view: dict[str, Any]) -> list[str]:
    dealt = list(view["dealer"]["cards"])
    for box in view["boxes"]:
        for hand in box["hands"]:
            dealt += hand["cards"]
    return dealt


def check_hint(page: Page, key: str | None = None) -> str:
    """Ask the coach (button or C key): an action in words, EVs where the server gives them."""
    with page.expect_response(lambda r: "/round/hint" in r.url) as info:
        if key:
            page.keyboard.press(key)
        else:
            tid(page, "hint").click()
    hint = info.value.json()
    assert info.value.ok, hint
    expect(tid(page, "hint-output")).to_have_text(HINT_TEXT)
    expect(tid(page, f"action-{hint['action']}")).to_contain_text("★")
    evs = tid(page, "actions").locator("[data-testid^='action-ev-']")
    if hint["ev"]:  # EVs land with the strategy module: accept their absence
        expect(evs).to_have_count(len(hint["ev"]))
        for i in range(evs.count()):
            expect(evs.nth(i)).to_have_text(EV_TEXT)
    else:
        expect(evs).to_have_count(0)
    return str(hint["action"])


def check_fresh_shoe(page: Page, seed: str, nonce: int) -> None:
    expect(tid(page, "shoe-hash")).to_have_text(seed_hash(seed))
    expect(tid(page, "shoe-client-seed")).to_have_text(CLIENT_SEED)
    expect(tid(page, "shoe-nonce")).to_have_text(str(nonce))


def verify_in_browser(page: Page, shoe: dict[str, Any]) -> None:
    expect(tid(page, "verify")).to_be_visible()
    expect(tid(page, "verify-shoe-id")).to_have_text(shoe["shoe_id"])
    expect(tid(page, "verify-hash")).to_have_text(shoe["server_seed_hash"])
    expect(tid(page, "verify-server-seed")).to_have_text(shoe["server_seed"])
    expect(tid(page, "verify-result")).to_have_attribute("data-verdict", "ok")
    expect(tid(page, "verify-result")).to_contain_text(f"all {len(shoe['cards'])} dealt cards")
    dealt = tid(page, "verify-order").locator(".dealt")
    expect(dealt).to_have_count(len(shoe["cards"]))


# ---- accounts ------------------------------------------------------------------------


def test_register_log_in_and_errors_in_words(page: Page, stack: Stack) -> None:
    login = new_login("reg")
    # public pages: the verifier by hand (FAIRNESS.md's check values) and a strategy card
    page.goto("/#/verify")
    tid(page, "manual-server-seed").fill("00" * 32)
    tid(page, "manual-client-seed").fill("player")
    tid(page, "manual-nonce").fill("1")
    tid(page, "manual-decks").fill("1")
    tid(page, "manual-verify").click()
    expect(tid(page, "manual-result")).to_contain_text(seed_hash("00" * 32))
    first_ten = tid(page, "manual-result").locator("[data-card]")
    expect(first_ten).to_have_count(52)
    dealt = [first_ten.nth(i).get_attribute("data-card") for i in range(10)]
    assert dealt == ["8H", "TD", "9D", "QD", "7C", "4S", "2C", "5D", "9H", "JD"]
    page.goto("/#/strategy/bicycle")
    expect(tid(page, "strategy").or_(tid(page, "strategy-unavailable"))).to_be_visible()

    page.goto("/")
    expect(tid(page, "login-form")).to_be_visible()
    tid(page, "register-login").fill(login)
    tid(page, "register-nick").fill("Alice" + login[-4:])
    tid(page, "register-password").fill(PASSWORD)
    tid(page, "register-submit").click()
    expect(tid(page, "table-list")).to_be_visible()
    expect(tid(page, "user-nick")).to_have_text("Alice" + login[-4:])
    expect(tid(page, "balance")).to_have_text("10,000")
    for table in ("classic", "bicycle", "casino", "european"):
        expect(tid(page, f"table-card-{table}")).to_be_visible()

    tid(page, "logout").click()
    expect(tid(page, "login-form")).to_be_visible()
    expect(tid(page, "nav-login")).to_be_visible()

    # errors in words: the API's detail, as a sentence, never a code or a JSON document
    taken = stack.api.client.request(
        "POST", "/v1/users", {"login": login, "nick": "Other", "password": PASSWORD}
    )
    assert taken.status == 409
    tid(page, "register-login").fill(login.upper())
    tid(page, "register-nick").fill("Other1")
    tid(page, "register-password").fill(PASSWORD)
    tid(page, "register-submit").click()
    assert taken.json()["code"] == "login_taken"
    expect(tid(page, "register-error")).to_have_text("That login is taken: choose another.")

    wrong = stack.api.client.request(
        "POST", "/v1/sessions", {"login": login, "password": "wrong" + PASSWORD}
    )
    assert wrong.status == 401
    tid(page, "login-login").fill(login)
    tid(page, "login-password").fill("nottheone1")
    tid(page, "login-submit").click()
    assert wrong.json()["code"] == "bad_credentials"
    expect(tid(page, "login-error")).to_have_text("Wrong login or password.")
    expect(tid(page, "login-error")).not_to_contain_text("bad_credentials")

    # five failures lock a login for a while: the page says so, and for how long
    ghost = new_login("ghost")
    tid(page, "login-login").fill(ghost)
    for attempt in range(1, 7):
        tid(page, "login-password").fill(f"wrong{attempt}")
        with page.expect_response(posted("/v1/sessions")) as answer:
            tid(page, "login-submit").click()
        assert answer.value.status == (401 if attempt <= 5 else 429), attempt
    locked = answer.value.json()
    assert locked["code"] == "too_many_attempts" and answer.value.headers.get("retry-after")
    expect(tid(page, "login-error")).to_contain_text("this login is locked for a while")
    expect(tid(page, "login-error")).to_contain_text(re.compile(r"Try again in \d+ s\."))

    tid(page, "login-login").fill("ab")  # checked in the page before any request
    tid(page, "login-submit").click()
    expect(tid(page, "login-error")).to_have_text(re.compile(r"^Login: .+\.$"))

    login_ui(page, login, nick="Alice" + login[-4:])

    # a session the server no longer accepts: back to the login, said in words
    page.evaluate(
        """() => {
        const s = JSON.parse(sessionStorage.getItem('blackjack.session'));
        sessionStorage.setItem('blackjack.session', JSON.stringify({...s, token: 'x' + s.token}));
    }"""
    )
    tid(page, "table-link-casino").click()
    expect(tid(page, "login-form")).to_be_visible()
    expect(tid(page, "toast-error")).to_contain_text("Please log in")
    tid(page, "login-login").fill(login)
    tid(page, "login-password").fill(PASSWORD)
    tid(page, "login-submit").click()  # and back to the page that was asked for
    expect(tid(page, "table-page")).to_have_attribute("data-table", "casino")


# ---- classic: hit and stand by keyboard, the coach, the fairness check ----------------


def test_classic_round_by_keyboard_then_verify_the_shoe(
    page: Page, stack: Stack, seeds: StackSeeds
) -> None:
    def wanted(shoe: list[str]) -> bool:
        mine = [shoe[0], shoe[2]]
        return (
            hard(mine)
            and 12 <= total(mine) <= 15
            and total([*mine, shoe[4]]) <= 20  # the hit neither busts nor makes 21 (3:2 here)
            and not natural(shoe[1], shoe[3])
        )

    def three_card_21(shoe: list[str]) -> bool:
        mine = [shoe[0], shoe[2]]
        return hard(mine) and total(mine) <= 11 and total([*mine, shoe[4]]) == 21

    seed = find_seed(4, wanted)
    second = find_seed(4, three_card_21, nonce=2)
    shoe = shuffled_shoe(seed, CLIENT_SEED, 1, 4)
    seeds.use(seed, second)
    _, token = new_player(page, stack.api, "cla")
    open_table(page, "classic")
    check_fresh_shoe(page, seed, 1)

    set_bet(page, 0, 30, 10)
    expect(tid(page, "bet-total")).to_have_text("Total 30")
    view = deal(page, "classic")
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[0], shoe[2]]
    assert view["dealer"]["cards"] == [shoe[1]] and view["dealer"]["hidden"] == 1
    check_cards_shown(page, view)
    expect(tid(page, "balance")).to_have_text(coins(10_000 - 30))
    expect(tid(page, "hand-0-0")).to_have_attribute("aria-current", "true")
    assert set(view["legal_actions"]) == {"hit", "stand"}  # classic: no double, no split
    check_hint(page, key="c")

    view = act(page, "classic", "hit", key="h")
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[0], shoe[2], shoe[4]]
    view = act(page, "classic", "stand", key="s")
    stored = check_settled(page, stack.api, token, view)
    assert Decimal(str(stored["net"])) == net_of(stored)
    assert stored["dealer"]["cards"][:2] == [shoe[1], shoe[3]]
    expect(tid(page, "announcer")).to_contain_text(coins(abs(Decimal(str(view["net"])))))
    # the shoe is retired after the round (fresh shoe every round): the next one is shown
    expect(tid(page, "shoe-nonce")).to_have_text("2")

    open_panel(page, "fairness")
    # The panel shows the last retired shoe once it has read it: a request of its own.
    expect(tid(page, "verify-last-shoe")).to_be_visible(timeout=20_000)
    tid(page, "verify-last-shoe").click()
    retired = stack.api.shoe(token, view["shoe_id"])
    assert retired["retired"] and retired["server_seed"] == seed
    assert retired["cards"] == shoe[: len(retired["cards"])]
    verify_in_browser(page, retired)

    # classic's story 4: a 21 of three cards wins 3:2 at once, whatever the dealer holds
    page.go_back()
    expect(tid(page, "table-page")).to_have_attribute("data-table", "classic")
    check_fresh_shoe(page, second, 2)
    view = deal(page, "classic")
    view = act(page, "classic", "hit", key="h")
    hand = user_boxes(view)[0]["hands"][0]
    assert view["status"] == "settled" and hand["total"] == 21 and len(hand["cards"]) == 3
    assert hand["result"] == "blackjack" and Decimal(str(hand["payout"])) == 75
    expect(tid(page, "hand-result-0-0")).to_have_text("Blackjack! +45")
    check_settled(page, stack.api, token, view)


# ---- bicycle: insurance under an ace, then a double -----------------------------------


def test_bicycle_insurance_then_double(page: Page, stack: Stack, seeds: StackSeeds) -> None:
    def ace_up_dealer_natural(shoe: list[str]) -> bool:
        return shoe[1][0] == "A" and shoe[3][0] in TEN and not natural(shoe[0], shoe[2])

    def hard_eleven_or_so(shoe: list[str]) -> bool:
        mine = [shoe[0], shoe[2]]
        return (
            hard(mine)
            and total(mine) in (9, 10, 11)
            and shoe[0][0] != shoe[2][0]
            and shoe[1][0] not in TEN | {"A"}
        )

    def natural_against_a_small_card(shoe: list[str]) -> bool:
        return natural(shoe[0], shoe[2]) and shoe[1][0] in "2345678"

    def two_tens_of_different_ranks(shoe: list[str]) -> bool:
        return (
            shoe[0][0] in TEN
            and shoe[2][0] in TEN
            and shoe[0][0] != shoe[2][0]
            and shoe[1][0] not in TEN | {"A"}
        )

    first = find_seed(1, ace_up_dealer_natural, nonce=1)
    second = find_seed(1, hard_eleven_or_so, nonce=2)
    third = find_seed(1, two_tens_of_different_ranks, nonce=3)
    fourth = find_seed(1, natural_against_a_small_card, nonce=4)
    seeds.use(first, second, third, fourth)
    _, token = new_player(page, stack.api, "bic")
    open_table(page, "bicycle")
    check_fresh_shoe(page, first, 1)

    set_bet(page, 0, 10, 5)
    view = deal(page, "bicycle")
    assert view["status"] == "insurance" and view["dealer"]["cards"][0][0] == "A"
    assert set(view["legal_actions"]) == {"insurance", "decline_insurance"}
    expect(tid(page, "round-status")).to_have_text("Box 1: insurance? The dealer shows an ace.")
    amount = tid(page, "insurance-amount")
    expect(amount.locator("option")).to_have_count(10)  # 0.5 .. 5 in steps of 0.5
    amount.select_option("2.5")
    view = act(page, "bicycle", "insurance")
    box = user_boxes(view)[0]
    assert Decimal(str(box["insurance"])) == Decimal("2.5")
    assert view["status"] == "settled"  # the dealer's natural, seen at the peek
    assert Decimal(str(box["insurance_payout"])) == Decimal("7.5")
    expect(tid(page, "box-insurance-0")).to_have_text("Insurance won +5: the dealer has blackjack.")
    stored = check_settled(page, stack.api, token, view)
    assert Decimal(str(stored["net"])) == net_of(stored) == Decimal(-5)

    expect(tid(page, "shoe-nonce")).to_have_text("2")  # a fresh deck for the next round
    check_fresh_shoe(page, second, 2)
    open_panel(page, "fairness")
    expect(tid(page, "client-seed")).to_be_visible()  # offered on a fresh shoe
    page.keyboard.press("Escape")
    shoe = shuffled_shoe(second, CLIENT_SEED, 2, 1)
    view = deal(page, "bicycle")
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[0], shoe[2]]
    assert "double" in view["legal_actions"]
    view = act(page, "bicycle", "double", key="d")
    hand = user_boxes(view)[0]["hands"][0]
    assert hand["doubled"] and Decimal(str(hand["bet"])) == 20
    assert hand["cards"] == [shoe[0], shoe[2], shoe[4]]
    expect(tid(page, "hand-0-0")).to_contain_text("(doubled)")
    stored = check_settled(page, stack.api, token, view)
    assert Decimal(str(stored["net"])) == net_of(stored)

    check_fresh_shoe(page, third, 3)
    view = deal(page, "bicycle")
    assert set(view["legal_actions"]) == {"hit", "stand"}  # J+Q: no split here, no double on 20
    expect(tid(page, "action-split")).to_have_count(0)
    expect(tid(page, "action-double")).to_have_count(0)
    view = act(page, "bicycle", "stand", key="s")
    check_settled(page, stack.api, token, view)

    set_bet(page, 0, 5, 5)  # a natural on an odd bet: 3:2 makes half coins
    view = deal(page, "bicycle")
    hand = user_boxes(view)[0]["hands"][0]
    assert view["status"] == "settled" and hand["result"] == "blackjack"
    assert Decimal(str(hand["payout"])) == Decimal("12.5") and Decimal(str(view["net"])) == 7.5
    expect(tid(page, "hand-result-0-0")).to_have_text("Blackjack! +7.5")
    expect(tid(page, "round-result")).to_have_text("You won 7.5 coins this round.")
    check_settled(page, stack.api, token, view)
    tid(page, "nav-history").click()
    expect(tid(page, "history-item").first.get_by_test_id("history-net")).to_have_text("+7.5")
    tid(page, "history-item").first.get_by_test_id("history-verify").click()  # nonce 4
    verify_in_browser(page, stack.api.shoe(token, view["shoe_id"]))


# ---- casino: even money, then insurance with an AI player -----------------------------


def test_casino_even_money_then_insurance_beside_an_ai(
    page: Page, stack: Stack, seeds: StackSeeds
) -> None:
    def wanted(shoe: list[str]) -> bool:
        # round 1 (one box): natural against an ace; even money settles it after 3 cards.
        # round 2 (user on box 0, AI on box 1): shoe[3] box 0, shoe[4] box 1, shoe[5] up.
        return (
            shoe[1][0] == "A"
            and natural(shoe[0], shoe[2])
            and shoe[5][0] == "A"
            and not natural(shoe[3], shoe[6])
            and total([shoe[3], shoe[6]]) < 21
        )

    seed = find_seed(6, wanted)
    shoe = shuffled_shoe(seed, CLIENT_SEED, 1, 6)
    seeds.use(seed)
    _, token = new_player(page, stack.api, "cas")
    open_table(page, "casino")
    check_fresh_shoe(page, seed, 1)
    # the player places the cut card on a new shoe
    open_panel(page, "fairness")
    tid(page, "cut").fill("0.6")
    expect(tid(page, "cut-value")).to_have_text("60%")
    page.keyboard.press("Escape")

    set_bet(page, 0, 100, 100)
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/rounds")) as sent:
        view = deal(page, "casino")
    assert sent.value.post_data_json == {"bets": [{"box": 0, "amount": 100}], "cut": 0.6}
    assert view["status"] == "insurance"
    assert set(view["legal_actions"]) == {"even_money", "decline_insurance"}
    assert view["dealer"]["hidden"] == 0  # no hole card at casino
    expect(tid(page, "dealer").get_by_test_id("card-back")).to_have_count(0)
    view = act(page, "casino", "even_money", key="e")
    hand = user_boxes(view)[0]["hands"][0]
    assert hand["result"] == "even_money" and Decimal(str(hand["payout"])) == 200
    assert view["dealer"]["cards"] == [shoe[1]]  # nobody waits: no second dealer card
    stored = check_settled(page, stack.api, token, view)
    assert Decimal(str(stored["net"])) == 100

    # round 2, same shoe: an AI player on box 1
    expect(tid(page, "client-seed")).to_have_count(0)  # the shoe is in play: no seed, no cut
    tid(page, "ai-level-1").select_option("hard")
    expect(tid(page, "bet-amount-1")).to_have_text("AI hard")
    view = deal(page, "casino")
    assert view["shoe_id"] == stored["shoe_id"]
    ai = [b for b in view["boxes"] if b["player"] != "user"]
    assert [b["player"] for b in ai] == ["ai:hard"] and ai[0]["box"] == 1
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[3], shoe[6]]
    assert view["dealer"]["cards"] == [shoe[5]]
    assert set(view["legal_actions"]) == {"insurance", "decline_insurance"}
    expect(tid(page, "box-1")).to_contain_text("AI")
    view = act(page, "casino", "insurance", key="i")
    assert Decimal(str(user_boxes(view)[0]["insurance"])) == 50  # exactly half the bet
    view = play_out(page, "casino", view)
    stored = check_settled(page, stack.api, token, view)
    assert Decimal(str(stored["net"])) == net_of(stored)
    lost = "Insurance lost \u221250: the dealer has no blackjack."
    won = "Insurance won +100: the dealer has blackjack."
    expect(tid(page, "box-insurance-0")).to_have_text(
        re.compile(f"^({re.escape(lost)}|{re.escape(won)})$")
    )

    in_play = stack.api.shoe(token, stored["shoe_id"])
    assert in_play["cut_index"] == 187 and not in_play["retired"]  # floor(312 * 0.6)
    assert len(in_play["rounds"]) == 2 and in_play["rounds"][-1] == stored["round_id"]
    open_panel(page, "fairness")  # no retired shoe yet: nothing to verify here
    expect(tid(page, "no-retired-shoe")).to_be_visible()
    expect(tid(page, "shoe-retires")).to_have_text(
        "This shoe retires after the round in which the cut card comes out."
    )
    page.goto(f"/#/verify/{stored['shoe_id']}")  # the seed is still secret
    expect(tid(page, "verify-result")).to_have_attribute("data-verdict", "in_play")
    expect(tid(page, "verify-button")).to_be_disabled()
    expect(tid(page, "verify-server-seed")).to_have_text("not revealed yet")


def test_casino_surrender_by_keyboard(page: Page, stack: Stack, seeds: StackSeeds) -> None:
    def fifteen_or_sixteen(shoe: list[str]) -> bool:
        mine = [shoe[0], shoe[2]]
        return hard(mine) and total(mine) in (15, 16) and shoe[1][0] not in TEN | {"A"}

    seeds.use(find_seed(6, fifteen_or_sixteen))
    _, token = new_player(page, stack.api, "sur")
    open_table(page, "casino")
    set_bet(page, 0, 50, 25)
    view = deal(page, "casino")
    assert "surrender" in view["legal_actions"]
    view = act(page, "casino", "surrender", key="r")
    hand = user_boxes(view)[0]["hands"][0]
    assert hand["result"] == "surrender" and Decimal(str(hand["payout"])) == 25
    assert len(view["dealer"]["cards"]) == 1  # nobody waits: no second dealer card
    expect(tid(page, "hand-result-0-0")).to_have_text("Surrendered \u221225")
    check_settled(page, stack.api, token, view)


def test_casino_shoe_to_its_cut_card_then_verify(page: Page, stack: Stack) -> None:
    _, token = new_player(page, stack.api, "cut")
    open_table(page, "casino")
    cut_at_the_earliest(page)
    set_bet(page, 0, 10, 10)
    first = play_out(page, "casino", deal(page, "casino"))
    check_settled(page, stack.api, token, first)
    # rounds through the API to some 16 cards before the cut card: five boxes a round
    # while a round cannot reach it, then one box
    for _ in range(40):
        position = 312 - stack.api.table(token, "casino")["shoe"]["cards_remaining"]
        if position >= 140:
            break
        stack.api.play_round(token, "casino", 10, boxes=5 if position < 110 else 1)
    tid(page, "nav-lobby").click()
    open_table(page, "casino")
    expect(tid(page, "shoe-nonce")).to_have_text("1")
    saw_cut_card = in_play = False
    for _ in range(12):  # then one box at a time in the page, until the shoe is retired
        last = deal(page, "casino")
        in_play = last["status"] != "settled"
        if in_play:
            expect(tid(page, "shoe-remaining")).to_contain_text(re.compile(r"^\d+ of 312"))
            saw_cut_card |= "cut card is out" in tid(page, "shoe-remaining").inner_text()
            last = play_out(page, "casino", last)
        check_settled(page, stack.api, token, last)
        if stack.api.table(token, "casino")["shoe"]["nonce"] == 2:  # retired: the next one
            expect(tid(page, "shoe-nonce")).to_have_text("2")
            break
    else:
        raise AssertionError("the shoe was never retired")
    assert last["shoe_id"] == first["shoe_id"]
    expect(tid(page, "shoe-remaining")).to_have_text("312 of 312")  # the next shoe, committed
    shoe = stack.api.shoe(token, first["shoe_id"])
    assert shoe["retired"] and shoe["cut_index"] == 156 and len(shoe["cards"]) > 156
    assert shoe["rounds"][0] == first["round_id"] and shoe["rounds"][-1] == last["round_id"]
    start = len(shoe["cards"]) - len(cards_of(last))  # where the last round began
    assert start <= 156 < len(shoe["cards"])
    if in_play and start + 3 > 156:  # the cut card came with the deal: said while in play
        assert saw_cut_card
    open_panel(page, "fairness")
    # The panel shows the last retired shoe once it has read it: a request of its own.
    expect(tid(page, "verify-last-shoe")).to_be_visible(timeout=20_000)
    tid(page, "verify-last-shoe").click()
    verify_in_browser(page, shoe)


def test_casino_two_boxes_of_mine_answer_insurance_in_turn(
    page: Page, stack: Stack, seeds: StackSeeds
) -> None:
    # boxes 0 and 1 are the user's: shoe[0], shoe[1], up card shoe[2], then shoe[3], shoe[4]
    def wanted(shoe: list[str]) -> bool:
        return (
            shoe[2][0] == "A"
            and hard([shoe[0], shoe[3]])
            and hard([shoe[1], shoe[4]])
            and value(shoe[0]) != value(shoe[3])
            and value(shoe[1]) != value(shoe[4])
        )

    seeds.use(find_seed(6, wanted))
    _, token = new_player(page, stack.api, "two")
    open_table(page, "casino")
    set_bet(page, 0, 10, 10)
    set_bet(page, 1, 20, 10)
    expect(tid(page, "bet-total")).to_have_text("Total 30")
    view = deal(page, "casino")
    assert view["status"] == "insurance" and view["turn"]["box"] == 0
    view = act(page, "casino", "insurance", key="i")
    assert view["status"] == "insurance" and view["turn"]["box"] == 1  # then the next box
    expect(tid(page, "box-insurance-0")).to_have_text("Insured for 5.")
    view = act(page, "casino", "decline_insurance", key="n")
    assert view["status"] == "player_turn" and view["turn"] == {"box": 0, "hand": 0}
    expect(tid(page, "round-status")).to_have_text("Your turn: box 1.")
    expect(tid(page, "hand-0-0")).to_have_attribute("aria-current", "true")
    view = act(page, "casino", "stand")
    expect(tid(page, "round-status")).to_have_text("Your turn: box 2.")
    expect(tid(page, "hand-1-0")).to_have_attribute("aria-current", "true")
    expect(tid(page, "hand-0-0")).not_to_have_attribute("aria-current", "true")
    view = act(page, "casino", "stand")
    stored = check_settled(page, stack.api, token, view)
    assert Decimal(str(stored["net"])) == net_of(stored)
    assert user_boxes(stored)[1]["insurance"] is None
    expect(tid(page, "box-insurance-1")).to_have_count(0)


# ---- european: a split, the coach, the screenshot ------------------------------------


def test_european_split_beside_ai_players_with_the_coach(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Path
) -> None:
    # boxes 0 (the user), 1 and 2 (AI): first cards shoe[0..2], the up card shoe[3], second
    # cards shoe[4..6], the hole card shoe[7]; after the split hand 1 gets shoe[8], then
    # hand 2 gets shoe[9] when hand 1 stands.
    def wanted(shoe: list[str]) -> bool:
        return (
            value(shoe[0]) == value(shoe[4]) in (8, 9)
            and shoe[3][0] in "456"
            and value(shoe[0]) + value(shoe[8]) < 21
        )

    seed = find_seed(6, wanted)
    shoe = shuffled_shoe(seed, CLIENT_SEED, 1, 6)
    seeds.use(seed)
    page = contexts.page(1280, 800)
    _, token = new_player(page, stack.api, "eur", nick="Lovelace")
    open_table(page, "european")
    check_fresh_shoe(page, seed, 1)
    expect(tid(page, "cut")).to_have_count(0)  # the server places the cut here

    set_bet(page, 0, 50, 50)
    tid(page, "ai-level-1").select_option("easy")
    tid(page, "ai-level-2").select_option("hard")
    expect(tid(page, "bet-total")).to_have_text("Total 50")  # the AI players bet the house's
    view = deal(page, "european")
    assert [b["player"] for b in view["boxes"]] == ["user", "ai:easy", "ai:hard"]
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[0], shoe[4]]
    assert view["dealer"]["cards"] == [shoe[3]]
    assert "split" in view["legal_actions"]
    expect(tid(page, "dealer").get_by_test_id("card-back")).to_have_count(1)
    check_hint(page)
    page.mouse.move(0, 0)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "table-desktop.png"), animations="disabled")
    if update_screenshot():
        page.screenshot(path=str(DOCS / "screenshot-laptop.png"), animations="disabled")

    view = act(page, "european", "split", key="p")
    hands = user_boxes(view)[0]["hands"]
    assert len(hands) == 2 and all(h["split"] for h in hands)
    assert hands[0]["cards"] == [shoe[0], shoe[8]] and hands[1]["cards"] == [shoe[4]]
    expect(tid(page, "hand-0-0")).to_have_attribute("aria-current", "true")
    expect(tid(page, "round-status")).to_have_text("Your turn: box 1, hand 1.")
    expect(tid(page, "balance")).to_have_text(coins(10_000 - 100))
    expect(tid(page, "hint-output")).to_have_text("")  # the hint was for the last decision
    with page.expect_response(lambda r: "/round/hint" in r.url):
        tid(page, "coach-toggle").check()  # coach mode: a hint at every decision
    expect(tid(page, "hint-output")).to_have_text(HINT_TEXT)
    with page.expect_response(lambda r: "/round/hint" in r.url):
        view = act(page, "european", "stand")
    expect(tid(page, "hint-output")).to_have_text(HINT_TEXT)
    expect(tid(page, "hand-0-1")).to_have_attribute("aria-current", "true")
    expect(tid(page, "round-status")).to_have_text("Your turn: box 1, hand 2.")
    assert user_boxes(view)[0]["hands"][1]["cards"] == [shoe[4], shoe[9]]
    view = play_out(page, "european", view)
    stored = check_settled(page, stack.api, token, view)
    assert len(user_boxes(stored)[0]["hands"]) == 2
    assert Decimal(str(stored["net"])) == net_of(stored)
    for ai in (1, 2):  # the AI players played their own boxes; the user's net is theirs only
        assert all(h["result"] for h in stored["boxes"][ai]["hands"])
        expect(tid(page, f"box-{ai}")).to_contain_text("AI")


# ---- strategy cards ------------------------------------------------------------------


def test_strategy_cards_follow_each_tables_rules(page: Page, stack: Stack) -> None:
    new_player(page, stack.api, "str")
    for table in ("classic", "bicycle", "casino", "european"):
        tid(page, "nav-lobby").click()
        tid(page, f"strategy-link-{table}").click()
        card = stack.api.call("GET", f"/v1/tables/{table}/strategy")
        expect(tid(page, "strategy").or_(tid(page, "strategy-unavailable"))).to_be_visible()
        if tid(page, "strategy-unavailable").count():
            continue  # the strategy card is not served yet
        ev = round(Decimal(str(card["player_ev"])), 3)
        expect(tid(page, "strategy-player-ev")).to_contain_text(f"{signed(ev)}%")
        for section in ("hard", "soft", "pairs"):
            chart = tid(page, f"strategy-chart-{section}")
            expect(chart.locator("tbody tr")).to_have_count(len(card["chart"][section]))
            expect(chart.locator("thead th")).to_have_count(11)  # + the row label
        cells = page.locator("td.act-double")
        hard_doubles = tid(page, "strategy-chart-hard").locator("td.act-double")
        if table == "classic":  # no double, no split, no surrender
            expect(page.locator("td.act-double, td.act-split, td.act-surrender")).to_have_count(0)
        elif table == "bicycle":  # doubles on hard 9, 10 and 11 only
            expect(tid(page, "strategy-chart-soft").locator("td.act-double")).to_have_count(0)
            rows = hard_doubles.evaluate_all("cells => cells.map(c => c.closest('tr').rowIndex)")
            labels = {
                tid(page, "strategy-chart-hard").locator("tr").nth(i).locator("th").inner_text()
                for i in set(rows)
            }
            assert labels <= {"Hard 9", "Hard 10", "Hard 11"}, labels
        else:
            expect(cells.first).to_be_visible()
        if table != "casino":  # surrender only at casino
            expect(page.locator("td.act-surrender")).to_have_count(0)
        # the legend names the actions of this card only
        used = {a for rows in card["chart"].values() for row in rows.values() for a in row.values()}
        expect(tid(page, "strategy").locator("[data-testid^='legend-']")).to_have_count(len(used))
        for action in used:
            expect(tid(page, f"legend-{action}")).to_be_visible()
        expect(tid(page, "strategy-chart-pairs").locator("td.act-split").first).to_be_attached(
            attached=table != "classic"
        )


# ---- history and stats ---------------------------------------------------------------


def test_history_and_stats(page: Page, stack: Stack, seeds: StackSeeds) -> None:
    _, token = new_player(page, stack.api, "his")
    open_table(page, "classic")
    open_panel(page, "fairness")
    tid(page, "client-seed").fill("my-own:seed!")  # the player's own seed for this shoe
    page.keyboard.press("Escape")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/rounds")) as sent:
        view = play_out(page, "classic", deal(page, "classic"))
    assert (sent.value.post_data_json or {}).get("client_seed") == "my-own:seed!"
    check_settled(page, stack.api, token, view)
    view = play_out(page, "classic", deal(page, "classic"))
    check_settled(page, stack.api, token, view)
    open_table(page, "bicycle")
    view = play_out(page, "bicycle", deal(page, "bicycle"))
    check_settled(page, stack.api, token, view)
    # and a round left in play at european (no natural): not in the history
    seeds.use(find_seed(6, lambda s: not natural(s[0], s[2])))
    open_table(page, "european")
    in_play = deal(page, "european")
    assert in_play["status"] == "player_turn"

    tid(page, "nav-history").click()
    rounds = stack.api.rounds(token)
    me = stack.api.me(token)
    assert len(rounds) == 3
    items = tid(page, "history-item")
    expect(items).to_have_count(3)
    assert in_play["round_id"] not in {r["round_id"] for r in rounds}
    for i, played in enumerate(rounds):  # the last settled first
        expect(items.nth(i)).to_have_attribute("data-round-id", played["round_id"])
        expect(items.nth(i).get_by_test_id("history-net")).to_have_text(signed(played["net"]))
    stats = me["stats"]
    expect(tid(page, "stats-balance")).to_have_text(coins(me["balance"]))
    expect(tid(page, "stats-rounds")).to_have_text("3")
    expect(tid(page, "stats-won")).to_have_text(str(stats["hands_won"]))
    expect(tid(page, "stats-lost")).to_have_text(str(stats["hands_lost"]))
    expect(tid(page, "stats-pushed")).to_have_text(str(stats["hands_pushed"]))
    expect(tid(page, "stats-net")).to_have_text(signed(stats["net"]))
    assert Decimal(str(stats["net"])) == sum(Decimal(str(r["net"])) for r in rounds)
    staked = sum(Decimal(str(b["bet"])) for b in user_boxes(in_play))  # still on the table
    assert Decimal(str(me["balance"])) == 10_000 + Decimal(str(stats["net"])) - staked
    expect(tid(page, "history-more")).to_be_hidden()  # one page

    tid(page, "history-table").select_option("bicycle")
    expect(items).to_have_count(1)
    expect(items.first).to_have_attribute("data-round-id", rounds[0]["round_id"])
    tid(page, "history-table").select_option("european")
    expect(tid(page, "history-empty")).to_be_visible()
    tid(page, "history-table").select_option("")
    expect(items).to_have_count(3)

    items.nth(2).get_by_test_id("history-verify").click()  # the first classic round's shoe
    verify_in_browser(page, stack.api.shoe(token, rounds[2]["shoe_id"]))
    expect(tid(page, "verify-client-seed")).to_have_text("my-own:seed!")

    # pages of 20: 18 more rounds (through the API) make 21, the last one on a second page
    for _ in range(18):
        stack.api.play_round(token, "classic", 10)
    tid(page, "nav-history").click()
    expect(items).to_have_count(20)
    expect(tid(page, "history-more")).to_be_visible()
    tid(page, "history-more").click()
    expect(items).to_have_count(21)
    expect(tid(page, "history-more")).to_be_hidden()
    expect(items.nth(20)).to_have_attribute("data-round-id", rounds[2]["round_id"])
    expect(tid(page, "stats-rounds")).to_have_text("21")


# ---- two accounts at once ------------------------------------------------------------


def test_two_accounts_at_once(contexts: Contexts, stack: Stack, seeds: StackSeeds) -> None:
    def loses(shoe: list[str]) -> bool:  # 12 to 16 against a dealer's 20: a loss standing
        return (
            hard([shoe[0], shoe[2]])
            and 12 <= total([shoe[0], shoe[2]]) <= 16
            and (total([shoe[1], shoe[3]]) == 20)
        )

    seed = find_seed(4, loses)
    seeds.use(seed, seed)  # the same cards for both: only the bets differ
    alice, bob = contexts.page(), contexts.page()
    _, alice_token = new_player(alice, stack.api, "ali")
    _, bob_token = new_player(bob, stack.api, "bob")
    open_table(alice, "classic")
    open_table(bob, "classic")
    set_bet(alice, 0, 20, 10)
    set_bet(bob, 0, 50, 10)
    a = deal(alice, "classic")
    b = deal(bob, "classic")
    expect(alice.get_by_test_id("balance")).to_have_text("9,980")
    expect(bob.get_by_test_id("balance")).to_have_text("9,950")
    a = play_out(alice, "classic", a)
    b = play_out(bob, "classic", b)
    check_settled(alice, stack.api, alice_token, a)
    check_settled(bob, stack.api, bob_token, b)
    assert stack.api.me(alice_token)["balance"] != stack.api.me(bob_token)["balance"]
    # each tab keeps its own session after a reload
    alice.reload()
    bob.reload()
    expect(alice.get_by_test_id("balance")).to_have_text(coins(a["balance"]))
    expect(bob.get_by_test_id("balance")).to_have_text(coins(b["balance"]))
    assert session_token(alice) == alice_token and session_token(bob) == bob_token
    expect(alice.get_by_test_id("user-nick")).not_to_have_text(
        bob.get_by_test_id("user-nick").inner_text()
    )
    # a user reaches only their own shoes: Bob cannot open Alice's (her next one: the
    # round's was dealt from Bob's seed too, and a shoe's id comes from its seed)
    alices = stack.api.table(alice_token, "classic")["shoe"]["shoe_id"]
    assert alices != stack.api.table(bob_token, "classic")["shoe"]["shoe_id"]
    bob.goto(f"/#/verify/{alices}")
    expect(bob.get_by_test_id("verify-result")).to_have_attribute("data-verdict", "error")
    expect(bob.get_by_test_id("verify-result")).to_have_text(re.compile(r"^.*shoe.*\.$"))
    expect(bob.get_by_test_id("verify-result")).not_to_contain_text("not_found")


# ---- a phone -------------------------------------------------------------------------


def test_phone_table_keeps_the_actions_in_view(
    contexts: Contexts, stack: Stack, seeds: StackSeeds, artifacts: Path
) -> None:
    seed = find_seed(4, lambda s: hard([s[0], s[2]]) and total([s[0], s[2]]) <= 16)
    seeds.use(seed)
    page = contexts.page(390, 844, mobile=True)
    _, token = new_player(page, stack.api, "pho")
    open_table(page, "classic")
    tid(page, "bets-clear").click()  # a bet slip error, in words, before any request
    expect(tid(page, "bet-errors")).to_have_text("Put a bet on at least one box.")
    expect(tid(page, "deal")).to_be_disabled()
    set_bet(page, 0, 10, 10)
    expect(tid(page, "bet-errors")).to_have_count(0)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    with page.expect_response(posted("/v1/tables/classic/rounds")) as answer:
        tid(page, "deal").dblclick()  # an impatient double tap deals once
    view = answer.value.json()
    wait_round_shown(page, view)
    assert len(posts) == 1, posts
    # at the top of the page, one screen holds the dealer, the hand and every action
    page.evaluate("window.scrollTo(0, 0)")
    for name in view["legal_actions"]:
        expect(tid(page, f"action-{name}")).to_be_in_viewport()
    expect(tid(page, "hint")).to_be_in_viewport()
    expect(tid(page, "hand-0-0")).to_be_in_viewport()
    expect(tid(page, "dealer").get_by_test_id("card-back")).to_be_in_viewport()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    page.screenshot(path=str(artifacts / "table-phone.png"), animations="disabled")
    if update_screenshot():
        page.screenshot(path=str(DOCS / "screenshot-phone.png"), animations="disabled")
    view = act(page, "classic", "stand")
    check_settled(page, stack.api, token, view)


# ---- one account in two tabs ---------------------------------------------------------


def test_one_account_in_two_tabs(contexts: Contexts, stack: Stack, seeds: StackSeeds) -> None:
    seed = find_seed(4, lambda s: hard([s[0], s[2]]) and total([s[0], s[2]]) <= 16)
    seeds.use(seed)
    login = new_login("tab")
    stack.api.register(login)
    first, second = contexts.page(), contexts.page()
    login_ui(first, login)
    login_ui(second, login)
    token = session_token(first)
    open_table(first, "classic")
    open_table(second, "classic")
    view = deal(first, "classic")

    # the second tab still shows the bets: its deal is refused, in words, and it catches up
    with second.expect_response(posted("/v1/tables/classic/rounds")) as refused:
        tid(second, "deal").click()
    assert refused.value.status == 409
    problem = refused.value.json()
    assert problem["code"] == "round_in_progress"
    expect(tid(second, "toast-error")).to_contain_text(
        "A round is still in play at this table: finish it first."
    )
    expect(tid(second, "round-status")).to_have_attribute("data-status", "player_turn")
    expect(tid(second, "hand-0-0").locator("[data-card]")).to_have_count(2)

    view = act(first, "classic", "stand")
    # the second tab acts on the round it shows, which has moved on: refused and refreshed
    with second.expect_response(posted("/v1/tables/classic/round/actions")) as stale:
        second.keyboard.press("h")
    assert stale.value.status in (409, 412), stale.value.status
    expect(tid(second, "toast")).to_contain_text("The table has been refreshed")
    expect(tid(second, "round-status")).to_have_attribute("data-status", "settled")
    expect(tid(second, "round-result")).to_have_text(tid(first, "round-result").inner_text())
    check_settled(first, stack.api, token, view)
    check_settled(second, stack.api, token, view)


# ---- a lost answer is sent again with its key, and counts once ----------------------


def test_lost_answers_are_retried_and_count_once(
    page: Page, stack: Stack, seeds: StackSeeds
) -> None:
    seed = find_seed(4, lambda s: hard([s[0], s[2], s[4]]) and total([s[0], s[2], s[4]]) < 21)
    shoe = shuffled_shoe(seed, CLIENT_SEED, 1, 4)
    seeds.use(seed)
    _, token = new_player(page, stack.api, "net")
    open_table(page, "classic")
    keys: list[str] = []

    def lose_first_answer(route: Route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the server does the work; its answer never reaches the page
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/v1/tables/classic/rounds", lose_first_answer)
    set_bet(page, 0, 40, 10)
    view = deal(page, "classic")
    assert len(keys) == 2 and keys[0] == keys[1]  # the retry carries the same key
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[0], shoe[2]]
    assert Decimal(str(stack.api.me(token)["balance"])) == 10_000 - 40  # one bet taken
    expect(tid(page, "balance")).to_have_text("9,960")

    keys.clear()
    page.route("**/v1/tables/classic/round/actions", lose_first_answer)
    view = act(page, "classic", "hit")
    assert len(keys) == 2 and keys[0] == keys[1]
    assert user_boxes(view)[0]["hands"][0]["cards"] == [shoe[0], shoe[2], shoe[4]]  # one hit

    # a reload in the middle of the round shows the same round, the hole card still hidden
    page.unroute_all()
    page.reload()
    expect(tid(page, "table-page")).to_have_attribute("data-table", "classic")
    expect(tid(page, "round-status")).to_have_attribute("data-status", "player_turn")
    check_cards_shown(page, view)
    view = act(page, "classic", "stand")
    check_settled(page, stack.api, token, view)
    assert len(stack.api.rounds(token)) == 1
