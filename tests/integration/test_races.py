"""Deterministic races: a request reads the player item, another change lands before it
writes. A change at the same table makes the stale write fail with 409 and change nothing;
one elsewhere (another table, the balance) makes the request play again on what it wrote."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from blackjack_service import factories
from blackjack_service.identity import Identity
from blackjack_service.records import Player as PlayerRecord

from .helpers import Player, all_items, assert_ledger, bet, player_record, problem
from .seeds import find_seed, use_seeds, value


def after_first_read(change: Callable[[], None]) -> list[list[str]]:
    """Run `change` out of band right after the service's next read of the player item;
    the returned list receives the table's items as they are just after that change."""
    snapshots: list[list[str]] = []
    changing: list[bool] = []

    def hook(**_: Any) -> None:
        if not snapshots and not changing:  # the change's own reads do not count
            changing.append(True)
            change()
            snapshots.append(sorted(map(str, all_items())))

    factories.store().client.meta.events.register("after-call.dynamodb.GetItem", hook)
    return snapshots


def concurrently(login: str, change: Callable[[PlayerRecord], PlayerRecord]) -> Callable[[], None]:
    """Another request's write of the player item: `change`, one version on."""

    def write() -> None:
        player = player_record(login)
        changed = replace(change(player), revision=(player.revision or 0) + 1)
        factories.store().put_player(login, changed, expected_revision=player.revision)

    return write


def seat_moved(table: str) -> Callable[[PlayerRecord], PlayerRecord]:
    def change(player: PlayerRecord) -> PlayerRecord:
        seat = player.seats[table]
        return replace(
            player, seats={**player.seats, table: replace(seat, version=seat.version + 1)}
        )

    return change


def _open_round(alice: Player, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seed = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    view: dict[str, Any] = bet(alice, "casino", 100).body
    return view


def test_stale_action_changes_nothing(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    _open_round(alice, monkeypatch)
    for action in ("hit", "double"):
        snapshots = after_first_read(concurrently("alice1", seat_moved("casino")))
        problem(alice.post("/v1/tables/casino/round/actions", {"action": action}), 409, "conflict")
        assert sorted(map(str, all_items())) == snapshots[0]
        factories.store().client.meta.events.unregister("after-call.dynamodb.GetItem")
    assert_ledger("alice1")


def test_stale_bet_changes_nothing(alice: Player) -> None:
    alice.get("/v1/tables/european")
    snapshots = after_first_read(concurrently("alice1", seat_moved("european")))
    problem(
        alice.post("/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 10}]}),
        409,
        "conflict",
    )
    assert sorted(map(str, all_items())) == snapshots[0]


def test_a_write_at_another_table_meanwhile_plays_again(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    _open_round(alice, monkeypatch)
    alice.get("/v1/tables/european")
    after_first_read(concurrently("alice1", seat_moved("european")))
    reply = alice.post("/v1/tables/casino/round/actions", {"action": "stand"})
    assert reply.status == 200, reply.text
    assert player_record("alice1").seats["european"].version == 2  # the other write stands
    assert_ledger("alice1")


def test_balance_spent_meanwhile_is_insufficient_funds(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    _open_round(alice, monkeypatch)
    snapshots = after_first_read(
        concurrently("alice1", lambda player: replace(player, balance=player.balance - 9850))
    )
    reply = alice.post("/v1/tables/casino/round/actions", {"action": "double"})
    problem(reply, 409, "insufficient_funds")
    assert sorted(map(str, all_items())) == snapshots[0]


def test_two_first_looks_at_a_table(alice: Player) -> None:
    """Two first looks at a table: the one whose write loses shows the winner's seat and
    writes nothing."""
    winner: list[str] = []

    def other_view_creates_the_seat() -> None:
        seat, _ = factories.game().seat(Identity("alice1", "Nickalice1"), "bicycle")
        winner.append(seat["shoe"]["shoe_id"])

    snapshots = after_first_read(other_view_creates_the_seat)
    reply = alice.get("/v1/tables/bicycle")
    assert reply.status == 200 and reply.body["shoe"]["shoe_id"] == winner[0]
    assert sorted(map(str, all_items())) == snapshots[0]


def test_a_bet_settled_at_the_deal_whose_write_loses_leaves_no_round(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its history item, put before the write, is taken back: no round of cards that the
    next bet will be dealt shows in the history."""
    seed = find_seed(6, lambda s: {value(s[0]), value(s[2])} == {10, 11} and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    alice.get("/v1/tables/casino")
    after_first_read(
        concurrently("alice1", lambda player: replace(player, balance=player.balance - 9950))
    )
    reply = alice.post("/v1/tables/casino/rounds", {"bets": [{"box": 0, "amount": 100}]})
    problem(reply, 409, "insufficient_funds")
    assert alice.get("/v1/rounds").body["rounds"] == []
    assert not [item for item in all_items() if item["sk"]["S"].startswith(("ROUND#", "HISTORY#"))]
