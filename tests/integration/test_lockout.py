"""The lockout under parallel logins (issue 19): each attempt is counted before its
password is checked, so a burst checks at most the five passwords a window allows and
the right password is never let in past the fifth failure, whatever the timing."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from moto.core.botocore_stubber import BotocoreStubber

from blackjack_service import factories
from blackjack_service.accounts import LOCK_SECONDS, MAX_FAILURES, WAIT_SECONDS
from blackjack_service.errors import ServiceError, TooManyAttempts
from blackjack_service.models import SessionRequest
from blackjack_service.records import LoginAttempts

from .harness import Gateway, Reply
from .helpers import Player

BURST = 20
TRIALS = 4


@pytest.fixture(autouse=True)
def atomic_requests(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """DynamoDB applies each request to an item atomically; moto answers requests of several
    threads side by side without a lock, so two conditional updates could interleave inside
    it. One request at a time, as DynamoDB would apply them: the race under test is the one
    between requests."""
    lock = threading.Lock()
    process = BotocoreStubber.process_request

    def one_at_a_time(self: BotocoreStubber, request: Any) -> Any:
        with lock:
            return process(self, request)

    monkeypatch.setattr(BotocoreStubber, "process_request", one_at_a_time)
    yield


def _burst(api: Gateway, login: str, passwords: list[str]) -> list[Reply]:
    """Every password tried for `login` at once (the threads start behind a barrier)."""
    barrier = threading.Barrier(len(passwords))

    def attempt(password: str) -> Reply:
        barrier.wait()
        return api.request("POST", "/v1/sessions", {"login": login, "password": password})

    with ThreadPoolExecutor(len(passwords)) as pool:
        return list(pool.map(attempt, passwords))


def _statuses(replies: list[Reply]) -> Counter[int]:
    for reply in replies:
        if reply.status == 429:
            assert reply.body["code"] == "too_many_attempts"
            assert 0 < int(reply.header("Retry-After") or 0) <= 900
    return Counter(reply.status for reply in replies)


def test_a_burst_of_wrong_passwords_checks_five_then_refuses(api: Gateway) -> None:
    for trial in range(TRIALS):
        login = f"ghost{trial}x"  # unknown logins lock too (API.md)
        statuses = _statuses(_burst(api, login, [f"wrong{n}xx" for n in range(BURST)]))
        print(f"trial {trial}: {dict(statuses)}")
        assert statuses == {401: 5, 429: BURST - 5}
        after = api.request("POST", "/v1/sessions", {"login": login, "password": "wrong"})
        assert after.status == 429


def test_the_right_password_in_a_burst_never_passes_the_fifth_failure(api: Gateway) -> None:
    for trial in range(TRIALS):
        login = f"ivan{trial}xx"
        Player(api, login)  # its password is password1
        for n in range(4):  # four failures: the window has one check left
            failed = api.request("POST", "/v1/sessions", {"login": login, "password": f"no{n}xx"})
            assert failed.status == 401
        passwords = [f"wrong{n}xx" for n in range(BURST - 1)]
        passwords.insert(trial * 5 % BURST, "password1")
        replies = _burst(api, login, passwords)
        statuses = _statuses(replies)
        right = replies[passwords.index("password1")].status
        print(f"trial {trial}: right password {right}, all {dict(statuses)}")
        if right == 200:
            # It was the fifth attempt and cleared the count: only attempts counted after
            # that were checked, at most five.
            assert statuses[401] <= 5
        else:
            # A wrong password was the fifth attempt: the one check left, then the lock.
            assert right == 429
            assert statuses == {401: 1, 429: BURST - 1}
            again = api.request("POST", "/v1/sessions", {"login": login, "password": "password1"})
            assert again.status == 429


def test_a_success_clears_the_count_for_the_next_burst(api: Gateway) -> None:
    Player(api, "jill1234")
    for _ in range(3):
        statuses = _statuses(_burst(api, "jill1234", ["password1"] * 5))
        assert statuses == {200: 5}  # five attempts at once: each counted, none refused


def _logins_at_once(login: str, passwords: list[str]) -> list[str]:
    """Every password tried for `login` at once, straight at the account service (the
    gateway here serves one invocation of a function at a time, as one environment does;
    on Lambda each runs in an environment of its own): "ok" or the error's name each."""
    accounts = factories.accounts()
    barrier = threading.Barrier(len(passwords))

    def attempt(password: str) -> str:
        barrier.wait()
        try:
            accounts.login(SessionRequest(login=login, password=password))
        except ServiceError as error:
            return type(error).__name__
        return "ok"

    with ThreadPoolExecutor(len(passwords)) as pool:
        return list(pool.map(attempt, passwords))


def test_right_passwords_at_once_are_never_too_many_attempts(api: Gateway) -> None:
    # Issue 43, item 5: with no failure before, 6 at once got one 429, 20 at once seven.
    Player(api, "nina1234")
    for size in (6, BURST):
        assert Counter(_logins_at_once("nina1234", ["password1"] * size)) == {"ok": size}


def test_a_right_password_past_five_in_flight_waits_for_their_success(
    api: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Deterministic: five right passwords are held in their check until a sixth attempt
    # has read the window full; the sixth then waits for them to clear it, and gets in.
    Player(api, "olga1234")
    accounts, store = factories.accounts(), factories.store()
    # a regression fails on the barrier's timeout instead of hanging
    read_full, held = threading.Event(), threading.Barrier(MAX_FAILURES + 1, timeout=30)
    get_login, password_matches = store.get_login, accounts._password_matches

    def reading(account_id: str) -> Any:
        profile, attempts, player = get_login(account_id)
        if attempts is not None and attempts.failures >= MAX_FAILURES:
            read_full.set()
        return profile, attempts, player

    def checking(profile: Any, password: str) -> bool:
        if not read_full.is_set():
            held.wait()
            assert read_full.wait(timeout=30)
        return password_matches(profile, password)

    monkeypatch.setattr(store, "get_login", reading)
    monkeypatch.setattr(accounts, "_password_matches", checking)
    request = SessionRequest(login="olga1234", password="password1")
    with ThreadPoolExecutor(MAX_FAILURES + 1) as pool:
        five = [pool.submit(accounts.login, request) for _ in range(MAX_FAILURES)]
        held.wait()  # the five are counted and in their check
        sixth = pool.submit(accounts.login, request)
        for login in [*five, sixth]:
            assert login.result()["user"]["login"] == "olga1234"


def test_a_wait_for_a_full_window_ends_by_its_deadline_however_slow_the_table(
    api: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 43: the wait was a number of polls, not a time, so a slow table could hold a
    # login past the function's Timeout (a 502). Five attempts counted and never done keep
    # the window full; each poll of the count takes a second.
    Player(api, "pia12345")
    accounts, store = factories.accounts(), factories.store()
    for _ in range(MAX_FAILURES):
        store.add_login_attempt("pia12345", int(accounts.clock()), LOCK_SECONDS)
    polls: list[float] = []
    get_login_attempts = store.get_login_attempts

    def slowly(account_id: str) -> LoginAttempts | None:
        time.sleep(1)
        polls.append(time.monotonic())
        return get_login_attempts(account_id)

    monkeypatch.setattr(store, "get_login_attempts", slowly)
    started = time.monotonic()
    with pytest.raises(TooManyAttempts) as refused:
        accounts.login(SessionRequest(login="pia12345", password="password1"))
    assert refused.value.headers == {"Retry-After": "1"}
    print(f"{len(polls)} polls, refused after {time.monotonic() - started:.2f} s")
    # every poll began before the deadline: a poll takes a second
    assert 1 <= len(polls) <= WAIT_SECONDS + 1


def test_wrong_passwords_at_once_are_refused_for_the_lock_they_made(aws: None) -> None:
    # Past the fifth, an attempt waits for the five before it: they fail, the fifth locks.
    outcomes = _logins_at_once("ghost55x", [f"wrong{n}xx" for n in range(BURST)])
    assert Counter(outcomes) == {"BadCredentials": 5, "TooManyAttempts": BURST - 5}
    assert factories.store().get_login("ghost55x")[1].locked_until > 0  # type: ignore[union-attr]


def test_a_lock_outlasts_its_window_and_ends_on_time(
    api: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    Player(api, "kate1234")
    start = 1_800_000_000
    accounts = factories.accounts()

    def login_at(seconds: int, password: str) -> Reply:
        monkeypatch.setattr(accounts, "clock", lambda: start + seconds)
        return api.request("POST", "/v1/sessions", {"login": "kate1234", "password": password})

    for second in range(4):  # a window from `start`: four failures in it
        assert login_at(second, "wrongxx").status == 401
    fifth = login_at(800, "wrongxx")  # the fifth failure locks until start + 1700
    assert fifth.status == 401
    for second in (801, 1000, 1699):  # past the window, within the lock: no new window
        refused = login_at(second, "password1")
        assert refused.status == 429
        assert refused.header("Retry-After") == str(1700 - second)
    assert login_at(1700, "password1").status == 200


def test_failures_count_within_their_window_only(
    api: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = 1_800_000_000
    accounts = factories.accounts()

    def login_at(seconds: int) -> int:
        monkeypatch.setattr(accounts, "clock", lambda: start + seconds)
        body = {"login": "ghost99x", "password": "wrong"}
        return api.request("POST", "/v1/sessions", body).status

    assert [login_at(second) for second in range(4)] == [401] * 4
    # The window of the first four is over: a new one counts from here.
    assert [login_at(900 + second) for second in range(5)] == [401] * 5
    assert login_at(905) == 429


def test_a_flood_at_a_locked_login_costs_no_read_and_no_hash(api: Gateway) -> None:
    # Issue 19, item 8: 30 threads of wrong logins kept every environment of the sessions
    # function busy reading the table, and a user with another login was throttled. Once
    # an environment has seen the lock, it refuses from memory.
    for _ in range(5):
        body = {"login": "ghost77x", "password": "wrong"}
        assert api.request("POST", "/v1/sessions", body).status == 401
    made: list[str] = []
    events = factories.store().client.meta.events
    events.register("before-call.dynamodb", lambda model, **_: made.append(model.name))
    try:
        replies = _burst(api, "Ghost77x", [f"guess{n}xx" for n in range(BURST)])
    finally:
        events.unregister("before-call.dynamodb")
    assert _statuses(replies) == {429: BURST}
    assert made == []


def test_a_lock_holds_against_a_success_counted_before_it(aws: None) -> None:
    # Five attempts counted, the fifth fails and locks while an earlier one, the right
    # password, is still being checked: its success leaves the lock (which an environment
    # may already be refusing from memory) to its end.
    store, now = factories.store(), 1_800_000_000
    for _ in range(5):
        counted = store.add_login_attempt("lena1234", now, 900)
    assert counted.failures == 5
    assert store.lock_login("lena1234", counted, until=now + 900)
    store.clear_login_attempts("lena1234", now + 1)
    assert store.get_login("lena1234")[1] == LoginAttempts(5, now, now + 900)
    store.clear_login_attempts("lena1234", now + 900)
    assert store.get_login("lena1234")[1] is None


def test_no_lock_once_a_success_cleared_the_count(aws: None) -> None:
    store, now = factories.store(), 1_800_000_000
    for _ in range(5):
        counted = store.add_login_attempt("mona1234", now, 900)
    store.clear_login_attempts("mona1234", now)
    assert not store.lock_login("mona1234", counted, until=now + 900)
    assert store.get_login("mona1234")[1] is None
