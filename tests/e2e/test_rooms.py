"""Shared tables in the browser (issue 40, item 5): two and three browser contexts, each a
user of its own, play one room through the lobby and the room page; joins, leaves and
"your turn" are said; the service answers a decision left to its deadline while no page
sends anything; the page reconnects by itself and says when it is offline; the room's
problems read as sentences; a box pressed as a live update arrives is still taken; every
step of a round fits the screen at a laptop's and two phones' sizes, with axe at 0.
Screenshots go to tests/artifacts/room-*.png.

Until the rooms' live updates (POST /v1/rooms/{room_id}/live) are in template.yaml, the
module skips.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import Page, Request, WebSocketRoute, expect

from .environment import MISSING_CHROMIUM, Contexts, Stack, chromium_missing
from .helpers import (
    ROOT,
    VIEWPORTS,
    Api,
    check_axe,
    check_cards_shown,
    coins,
    login_ui,
    net_sentence,
    new_player,
    posted,
    tid,
)
from .viewport_helpers import MEASURE

if chromium_missing():
    pytest.skip(MISSING_CHROMIUM, allow_module_level=True)
if "/v1/rooms/{room_id}/live" not in (ROOT / "template.yaml").read_text():
    pytest.skip("the rooms' live updates are not in template.yaml yet", allow_module_level=True)

# web/js/ui.js's sentences for the rooms' problem codes
PROBLEMS = {
    "box_taken": "Somebody else took that box first: pick a free one.",
    "already_bet": "You have already bet or passed this round.",
    "too_many_rooms": "You already sit at 3 shared tables: leave one to take a box here.",
}
SLOW = {"turn_seconds": 60, "betting_seconds": 60}  # no deadline passes while a test plays


# ---- the rooms from the test's side ----------------------------------------------------


def make_room(api: Api, token: str, boxes: list[int], **fields: Any) -> Any:
    return api.call(
        "POST", "/v1/rooms", {"table": "casino", **SLOW, **fields, "boxes": boxes}, token
    )


def room(api: Api, token: str, room_id: str) -> Any:
    return api.call("GET", f"/v1/rooms/{room_id}", token=token)


def answer(api: Api, token: str, room_id: str, view: dict[str, Any]) -> Any:
    """Stand (or decline insurance) on the decision asked of this token's user."""
    legal = view["legal_actions"]
    action = "decline_insurance" if "decline_insurance" in legal else "stand"
    return api.call("POST", f"/v1/rooms/{room_id}/actions", {"action": action}, token)


# ---- the steps in the pages ------------------------------------------------------------


class Player:
    """A browser context logged in as a user of its own, and what the page shows it."""

    def __init__(self, contexts: Contexts, stack: Stack, prefix: str, size: str = "laptop"):
        width, height = VIEWPORTS[size]
        self.page = contexts.page(width, height, mobile=width < 600)
        self.page.add_init_script(MEASURE)
        self.api = stack.api
        self.login, self.token = new_player(self.page, stack.api, prefix)
        self.nick = self.page.get_by_test_id("user-nick").inner_text()

    def open_room(self, room_id: str) -> None:
        self.page.goto(f"/#/room/{room_id}")
        expect(tid(self.page, "room-page")).to_have_attribute("data-room", room_id)
        self.live()

    def live(self) -> None:
        expect(tid(self.page, "live-state")).to_have_attribute("data-state", "live")

    def view(self, room_id: str) -> Any:
        return room(self.api, self.token, room_id)

    def at_version(self, version: int) -> None:
        """The page shows the room at `version` or later."""
        self.page.wait_for_function(
            "(v) => Number(document.querySelector('[data-testid=room-page]')?.dataset.version)"
            " >= v",
            arg=version,
        )

    def said(self, words: str) -> None:
        expect(tid(self.page, "announcer")).to_contain_text(words)

    def bet(self, room_id: str) -> Any:
        """Bet the slip (the table minimum on each box) with Bet; the room's answer."""
        with self.page.expect_response(posted(f"/v1/rooms/{room_id}/bets")) as info:
            tid(self.page, "deal").click()
        assert info.value.ok, info.value.text()
        return info.value.json()

    def act(self, room_id: str, view: dict[str, Any]) -> Any:
        """Stand (or decline insurance) with the page's button; the room's answer."""
        legal = view["legal_actions"]
        action = "decline_insurance" if "decline_insurance" in legal else "stand"
        button = tid(self.page, f"action-{action}")
        expect(button).to_be_enabled()
        with self.page.expect_response(posted(f"/v1/rooms/{room_id}/actions")) as info:
            button.click()
        assert info.value.ok, info.value.text()
        sent = info.value.request
        assert sent.headers.get("if-match") == f'"{view["version"]}"', sent.headers
        assert sent.headers.get("idempotency-key"), sent.headers
        return info.value.json()


def in_view(page: Page, specs: dict[str, str]) -> dict[str, str]:
    """What of `specs` is not whole on the screen, and why (MEASURE's, in the page)."""
    measured = page.evaluate("(specs) => window.__inView(specs)", specs)
    return {name: m["state"] for name, m in measured.items() if m["state"] != "in view"}


def whose_turn(players: list[Player], view: dict[str, Any]) -> Player | None:
    turn = view["round"] and view["round"]["turn"]
    if view["phase"] not in ("insurance", "player_turn") or not turn:
        return None
    owner = next(s["nick"] for s in view["seats"] if s["box"] == turn["box"])
    return next(p for p in players if p.nick == owner)


def play_out(room_id: str, players: list[Player], coached: bool = False) -> dict[str, Any]:
    """Each decision answered in the page of the user asked, the others watching it said
    and counted down (`coached`: the first asked its coach first); the settled room."""
    view = players[0].view(room_id)
    for _ in range(20):
        if view["phase"] == "settled":
            return dict(view)
        asked = whose_turn(players, view)
        assert asked is not None, view
        mine = asked.view(room_id)
        asked.at_version(mine["version"])
        for other in players:
            if other is asked:
                continue
            other.at_version(mine["version"])
            expect(tid(other.page, "round-status")).to_contain_text(f"{asked.nick}'s turn")
            expect(tid(other.page, "room-countdown")).to_have_text(re.compile(r"^\d+ s left$"))
            expect(tid(other.page, "actions").locator("button")).to_have_count(0)
        expect(tid(asked.page, "round-status")).to_contain_text("Your turn")
        expect(tid(asked.page, "room-countdown")).to_have_text(re.compile(r"^\d+ s to answer$"))
        if coached:
            with asked.page.expect_response(lambda r: "/hint?" in r.url) as hint:
                tid(asked.page, "hint").click()
            assert hint.value.ok, hint.value.text()
            expect(tid(asked.page, "hint-output")).to_contain_text("Coach (hard):")
            coached = False
        view = asked.act(room_id, mine)
    raise AssertionError("the round did not settle")


def check_settled(room_id: str, players: list[Player], settled: dict[str, Any]) -> None:
    """Every page shows the settled round's cards; each its own result and balance."""
    for player in players:
        player.at_version(settled["version"])
        own = player.view(room_id)
        check_cards_shown(player.page, own["round"])
        net = own["round"]["net"]
        if net is not None:
            expect(tid(player.page, "round-result")).to_have_text(net_sentence(net))
        balance = Decimal(str(player.api.me(player.token)["balance"]))
        expect(tid(player.page, "balance")).to_have_text(coins(balance))


# ---- the tests -------------------------------------------------------------------------


def test_two_users_open_join_and_play_a_room(contexts: Contexts, stack: Stack) -> None:
    alice = Player(contexts, stack, "rma")
    bob = Player(contexts, stack, "rmb")

    # Alice opens a room in the lobby's form and sits at box 1.
    page = alice.page
    tid(page, "new-room-table").select_option("casino")
    tid(page, "new-room-name").fill(f"Friday {alice.login}"[:32])
    tid(page, "new-room-turn").fill("60")
    tid(page, "new-room-betting").fill("60")
    with page.expect_response(posted("/v1/rooms")) as info:
        tid(page, "new-room-submit").click()
    made = info.value.json()
    room_id = made["room_id"]
    assert [s["box"] for s in made["seats"]] == [0], made
    expect(tid(page, "room-page")).to_have_attribute("data-room", room_id)
    alice.live()
    expect(tid(page, "room-name")).to_have_text(made["name"])
    # Its link, to share: the toast gives it (copied, where the browser lets the page).
    tid(page, "room-share").click()
    expect(tid(page, "toast")).to_contain_text(f"#/room/{room_id}")

    # Bob finds it in his lobby and joins at box 3; Alice's page says so.
    tid(bob.page, "rooms-refresh").click()
    expect(tid(bob.page, "room-list").locator(f'[data-room-id="{room_id}"]')).to_be_visible()
    tid(bob.page, f"room-join-{room_id}").click()
    expect(tid(bob.page, "room-page")).to_have_attribute("data-room", room_id)
    bob.live()
    tid(bob.page, "take-box-2").click()
    alice.said(f"{bob.nick} joined at box 3.")
    expect(tid(page, "empty-box-2")).to_contain_text(bob.nick)
    expect(tid(page, "take-box-2")).to_have_count(0)

    # Alice bets: the window opens, Bob's page counts it down and shows her bet.
    alice.bet(room_id)
    expect(tid(page, "round-status")).to_contain_text("Your bet is in")
    expect(tid(bob.page, "bet-amount-0")).to_have_text(coins(casino_min_bet(stack)))
    expect(tid(bob.page, "room-countdown")).to_have_text(re.compile(r"^Bets close in \d+ s$"))
    # Bob's bet completes the betting: the cards are dealt on both pages.
    bob.bet(room_id)
    settled = play_out(room_id, [alice, bob], coached=True)
    check_settled(room_id, [alice, bob], settled)
    check_axe(page, "room, settled, alice")

    # Bob leaves: his box is free again on Alice's page.
    tid(bob.page, "room-leave").click()
    alice.said(f"{bob.nick} left.")
    expect(tid(page, "take-box-2")).to_be_visible()


def casino_min_bet(stack: Stack) -> int:
    tables = stack.api.call("GET", "/v1/tables")["tables"]
    return int(next(t for t in tables if t["id"] == "casino")["min_bet"])


def test_three_users_one_passing_play_rounds_in_turn(contexts: Contexts, stack: Stack) -> None:
    alice = Player(contexts, stack, "r3a")
    bob = Player(contexts, stack, "r3b")
    carol = Player(contexts, stack, "r3c")
    room_id = make_room(stack.api, alice.token, [0])["room_id"]
    players = [alice, bob, carol]
    for player, box in ((alice, None), (bob, 2), (carol, 4)):
        player.open_room(room_id)
        if box is not None:
            tid(player.page, f"take-box-{box}").click()
            alice.said(f"{player.nick} joined at box {box + 1}.")

    # Carol watches the count (Settings): over the cards on the felt, as at a table.
    tid(carol.page, "open-settings").click()
    tid(carol.page, "count-toggle").check()
    tid(carol.page, "close-settings").click()
    for _ in range(2):
        alice.bet(room_id)
        with carol.page.expect_response(posted(f"/v1/rooms/{room_id}/bets")):
            tid(carol.page, "pass").click()
        expect(tid(carol.page, "round-status")).to_contain_text("You pass this round")
        expect(tid(alice.page, "bet-amount-4")).to_have_text("Pass")
        bob.bet(room_id)
        settled = play_out(room_id, [alice, bob])
        for player in players:
            player.at_version(settled["version"])
        # Carol sat the round out: no box of hers was dealt, her page shows no result.
        assert all(b["player"] != f"user:{carol.nick}" for b in settled["round"]["boxes"])
        expect(tid(carol.page, "round-result")).to_have_text("")
        count = carol.view(room_id)["shoe"]["count"]
        badge = tid(carol.page, "count-badge")
        expect(badge).to_have_attribute("data-running", str(count["running"]))
        expect(badge).to_have_attribute("data-unseen", str(count["cards_unseen"]))
        check_settled(room_id, [alice, bob], settled)
    check_axe(carol.page, "room, settled, a watcher who passed")


def test_a_decision_left_to_its_deadline_is_answered_by_the_service(
    contexts: Contexts, stack: Stack
) -> None:
    """Five-second windows: Bob never bets and Alice never acts; the cards come when the
    window closes and the round settles while no page sends a request."""
    alice = Player(contexts, stack, "rda")
    bob = Player(contexts, stack, "rdb")
    room_id = make_room(stack.api, alice.token, [0], turn_seconds=5, betting_seconds=5)["room_id"]
    stack.api.call("POST", f"/v1/rooms/{room_id}/seats", {"boxes": [2]}, bob.token)
    alice.open_room(room_id)
    bob.open_room(room_id)
    sent: list[str] = []

    def note(request: Request) -> None:
        if request.method != "GET":
            sent.append(request.url)

    for player in (alice, bob):
        player.page.on("request", note)
    for _ in range(3):  # a round may give Alice a natural, and so no decision: another
        sent.clear()
        alice.bet(room_id)
        sent.clear()
        expect(tid(bob.page, "room-countdown")).to_have_text(re.compile(r"^Bets close in [1-5] s$"))
        # The window closes without Bob: the cards come to Alice's box alone.
        alice.page.wait_for_function(
            "() => !['waiting', 'betting'].includes("
            "document.querySelector('[data-testid=room-page]')?.dataset.phase)",
            timeout=15_000,
        )
        if alice.view(room_id)["phase"] != "settled":
            break
    # Alice's decision is asked and counted down; the service answers it at 0.
    expect(tid(alice.page, "round-status")).to_contain_text("Your turn")
    alice.said("Your turn")
    expect(tid(alice.page, "room-countdown")).to_have_text(re.compile(r"^[1-5] s to answer$"))
    expect(tid(alice.page, "round-status")).to_have_attribute(
        "data-status", "settled", timeout=30_000
    )
    assert sent == [], sent
    settled = alice.view(room_id)
    assert all(b["player"] == f"user:{alice.nick}" for b in settled["round"]["boxes"]), settled
    check_settled(room_id, [alice, bob], settled)


def test_the_page_says_it_is_offline_and_reconnects_by_itself(
    contexts: Contexts, stack: Stack
) -> None:
    alice = Player(contexts, stack, "roa")
    bob = Player(contexts, stack, "rob")
    room_id = make_room(stack.api, alice.token, [0])["room_id"]
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    alice.page.route_web_socket(re.compile(r"^wss?://"), through)
    alice.open_room(room_id)
    # The socket drops, and no new ticket can be had: the page says it is offline.
    tickets = re.compile(r"/v1/rooms/[^/]+/live$")
    alice.page.route(tickets, lambda route: route.abort())
    sockets[0].close()
    expect(tid(alice.page, "live-state")).to_have_attribute("data-state", "offline")
    expect(tid(alice.page, "live-offline")).to_be_visible()
    alice.said("Connection lost: reconnecting.")
    check_axe(alice.page, "room, offline")
    # Bob joins meanwhile; once tickets come again the page is back, Bob's box on it.
    stack.api.call("POST", f"/v1/rooms/{room_id}/seats", {"boxes": [3]}, bob.token)
    alice.page.unroute(tickets)
    alice.live()
    alice.said("Back online.")
    expect(tid(alice.page, "empty-box-3")).to_contain_text(bob.nick)
    expect(tid(alice.page, "live-offline")).to_have_count(0)
    # And the new socket carries the next change.
    stack.api.call("DELETE", f"/v1/rooms/{room_id}/seats", token=bob.token)
    alice.said(f"{bob.nick} left.")


def deaf(ws: WebSocketRoute) -> None:
    """A socket that reaches the service but hears nothing from it: the page is stale."""
    server = ws.connect_to_server()
    server.on_message(lambda message: None)


def open_deaf(page: Page, room_id: str) -> None:
    """Opens the room on a page whose socket hears nothing, once the page has read the room
    twice: on opening, and once its socket opened. A read still on its way would show
    what changed after it, and the page would not be stale."""
    reads: list[Request] = []

    def note(request: Request) -> None:
        if request.method == "GET" and request.url.endswith(f"/v1/rooms/{room_id}"):
            reads.append(request)

    page.on("requestfinished", note)
    page.route_web_socket(re.compile(r"^wss?://"), deaf)
    page.goto(f"/#/room/{room_id}")
    expect(tid(page, "live-state")).to_have_attribute("data-state", "live")
    for _ in range(300):
        if len(reads) >= 2:
            break
        page.wait_for_timeout(50)
    page.remove_listener("requestfinished", note)
    assert len(reads) >= 2, "the page did not read the room once its socket opened"


def test_a_rooms_problems_read_as_sentences(contexts: Contexts, stack: Stack) -> None:
    alice = Player(contexts, stack, "rpa")
    bob = Player(contexts, stack, "rpb")
    room_id = make_room(stack.api, alice.token, [0])["room_id"]

    # A box taken while Bob's page did not hear of it.
    open_deaf(bob.page, room_id)
    expect(tid(bob.page, "take-box-2")).to_be_visible()
    stack.api.call("POST", f"/v1/rooms/{room_id}/seats", {"boxes": [2]}, alice.token)
    tid(bob.page, "take-box-2").click()
    expect(tid(bob.page, "toast-error")).to_contain_text(PROBLEMS["box_taken"])
    expect(tid(bob.page, "empty-box-2")).to_contain_text(alice.nick)

    # A second bet from Alice's other tab, which did not hear of her first (Bob sits too,
    # so that her bet does not complete the betting).
    stack.api.call("POST", f"/v1/rooms/{room_id}/seats", {"boxes": [4]}, bob.token)
    other = contexts.page()
    login_ui(other, alice.login, nick=alice.nick)
    open_deaf(other, room_id)
    expect(tid(other, "deal")).to_be_visible()
    alice.open_room(room_id)
    alice.bet(room_id)
    tid(other, "deal").click()
    expect(tid(other, "toast-error")).to_contain_text(PROBLEMS["already_bet"])

    # A fourth room for Bob, who sits in this one and two of his own.
    for _ in range(2):
        make_room(stack.api, bob.token, [0])
    fourth = make_room(stack.api, alice.token, [1])["room_id"]
    # The fourth room on screen first: box 3 of the first is free on Bob's page too.
    bob.open_room(fourth)
    tid(bob.page, "take-box-3").click()
    expect(tid(bob.page, "toast-error")).to_contain_text(PROBLEMS["too_many_rooms"])


def test_a_box_pressed_as_another_sits_down_is_taken_on_release(
    contexts: Contexts, stack: Stack
) -> None:
    """A click is a press and a release on one button: the page rebuilt between the two by
    a live update (another player sitting down) must not swallow it."""
    alice = Player(contexts, stack, "rca")
    bob = Player(contexts, stack, "rcb")
    room_id = make_room(stack.api, alice.token, [0])["room_id"]
    with bob.page.expect_websocket() as opened:
        bob.open_room(room_id)

    tid(bob.page, "take-box-3").hover()
    bob.page.mouse.down()
    with opened.value.expect_event("framereceived"):
        stack.api.call("POST", f"/v1/rooms/{room_id}/seats", {"boxes": [2]}, alice.token)
    bob.page.wait_for_timeout(250)  # the page's turn to take in what it heard
    with bob.page.expect_response(posted(f"/v1/rooms/{room_id}/seats")) as info:
        bob.page.mouse.up()
    assert info.value.ok, info.value.text()
    expect(tid(bob.page, "take-box-3")).to_have_count(0)
    expect(tid(bob.page, "empty-box-2")).to_contain_text(alice.nick)


# What a user needs in view at each step.
WAITING = {
    "dealer": '[data-testid="dealer"]',
    "bet": '[data-testid="deal"]',
    "pass": '[data-testid="pass"]',
}
BETTING = {**WAITING, "countdown": '[data-testid="room-countdown"]'}
YOUR_TURN = {
    "dealer": '[data-testid="dealer"]',
    "box in turn": ".box-turn",
    "decisions": '[data-testid="actions"]',
    "countdown": '[data-testid="room-countdown"]',
}
THEIR_TURN = {
    "dealer": '[data-testid="dealer"]',
    "box in turn": ".box-turn",
    "status": '[data-testid="round-status"]',
    "countdown": '[data-testid="room-countdown"]',
}
SETTLED = {**WAITING, "result": '[data-testid="round-result"]'}


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_step_of_a_room_round_is_in_view(
    contexts: Contexts, stack: Stack, artifacts: Any, size: str
) -> None:
    """Alice plays in the page at `size`; Bob and Carol through the API."""
    alice = Player(contexts, stack, "rva", size)
    bob_login, carol_login = (f"{alice.login}b", f"{alice.login}c")
    tokens = []
    for login in (bob_login, carol_login):
        stack.api.register(login)
        tokens.append(stack.api.login(login))
    room_id = make_room(stack.api, alice.token, [0])["room_id"]
    for token, box in zip(tokens, (2, 4), strict=True):
        stack.api.call("POST", f"/v1/rooms/{room_id}/seats", {"boxes": [box]}, token)
    alice.open_room(room_id)
    page = alice.page
    misses: dict[str, dict[str, str]] = {}

    def step(name: str, specs: dict[str, str]) -> None:
        page.wait_for_timeout(100)  # the last render's scroll into view
        missed = in_view(page, specs)
        if missed:
            misses[name] = missed
        page.screenshot(path=str(artifacts / f"room-{size}-{name}.png"))
        check_axe(page, f"room, {name}, {size}")

    step("waiting", WAITING)
    stack.api.call(
        "POST", f"/v1/rooms/{room_id}/bets", {"bets": [{"box": 2, "amount": 10}]}, tokens[0]
    )
    expect(tid(page, "room-countdown")).to_be_visible()
    step("betting", BETTING)
    stack.api.call("POST", f"/v1/rooms/{room_id}/bets", {"bets": []}, tokens[1])
    alice.bet(room_id)
    by_nick = {alice.nick: None, f"N{bob_login}"[:32]: tokens[0]}
    seen = set()
    for _ in range(20):
        view = alice.view(room_id)
        alice.at_version(view["version"])
        if view["phase"] == "settled":
            break
        turn = view["round"]["turn"]
        owner = next(s["nick"] for s in view["seats"] if s["box"] == turn["box"])
        if owner == alice.nick:
            expect(tid(page, "actions").locator("button[data-testid^='action-']")).to_have_count(
                len(view["legal_actions"])
            )
            if "your-turn" not in seen:
                step("your-turn", YOUR_TURN)
                seen.add("your-turn")
            alice.act(room_id, view)
        else:
            expect(tid(page, "round-status")).to_contain_text(f"{owner}'s turn")
            if "their-turn" not in seen:
                step("their-turn", THEIR_TURN)
                seen.add("their-turn")
            other = by_nick[owner]
            assert other is not None
            answer(stack.api, other, room_id, room(stack.api, other, room_id))
    expect(tid(page, "round-status")).to_have_attribute("data-status", "settled")
    # the result shows once the dealer's cards have landed, at the page's pace
    expect(tid(page, "round-result")).to_be_visible()
    step("settled", SETTLED)
    print(f"{size}: steps {sorted(seen | {'waiting', 'betting', 'settled'})}, misses {misses}")
    assert not misses, misses
