"""History read while rounds are filed (issue 43): a bet files the seat's settled round
(the outbox) at any point of a history read, and the read still shows every round settled
before it began, once each, last settled first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack_service import factories

from .harness import Gateway
from .helpers import Player, bet, fresh_aws, play_out

TABLES = ("classic", "casino", "european")


class Filings:
    """Changes run out of band just before given DynamoDB calls of what runs next (the
    first call is 1; the changes' own calls do not count): a botocore event hook."""

    def __init__(self, at_calls: Sequence[tuple[int, Callable[[], object]]]) -> None:
        self._pending = sorted(at_calls, key=lambda pair: pair[0], reverse=True)
        self._calls = 0
        self._changing = False
        self.ran = 0

    def __enter__(self) -> Filings:
        factories.store().client.meta.events.register("before-call.dynamodb", self._hook)
        return self

    def __exit__(self, *_: object) -> None:
        factories.store().client.meta.events.unregister("before-call.dynamodb", self._hook)

    def _hook(self, **_: Any) -> None:
        if self._changing:
            return
        self._calls += 1
        while self._pending and self._pending[-1][0] <= self._calls:
            self._changing = True
            try:
                self._pending.pop()[1]()
            finally:
                self._changing = False
            self.ran += 1


def settle(player: Player, table: str) -> str:
    """A round played to its end at the table (its bet files the one before); its id."""
    round_id: str = play_out(player, table, bet(player, table).body)["round_id"]
    return round_id


def read_history(player: Player, table: str | None, limit: int) -> list[str]:
    """Every page of `GET /v1/rounds`, cursor after cursor: the round ids in order."""
    ids: list[str] = []
    cursor = None
    while True:
        query = f"limit={limit}" + (f"&table={table}" if table else "")
        page = player.get("/v1/rounds?" + query + (f"&cursor={cursor}" if cursor else ""))
        assert page.status == 200, page.text
        ids += [round_["round_id"] for round_ in page.body["rounds"]]
        cursor = page.body["next_cursor"]
        if cursor is None:
            return ids


def test_a_round_filed_at_any_point_of_a_history_read_is_read(alice: Player) -> None:
    """The history read paused at each of its calls in turn while a bet at the table files
    the round the seat holds: that round is in the page, once (and the bet's own, if a
    natural settled it at once)."""
    settled = [settle(alice, "casino")]
    paused_at, bets = 1, list[Any]()
    while True:
        bets.clear()
        with Filings([(paused_at, lambda: bets.append(bet(alice, "casino")))]) as filings:
            ids = read_history(alice, None, 100)
        if not filings.ran:
            break  # the read makes fewer calls than that
        assert bets[0].status == 201, bets[0].text
        # a bet dealt a natural settles at once, after the read began: its round may show
        dealt = bets[0].body["round_id"]
        assert [id_ for id_ in ids if id_ != dealt] == settled[::-1], f"paused at {paused_at}"
        settled.append(play_out(alice, "casino", bets[0].body)["round_id"])
        paused_at += 1
    assert paused_at > 2  # the player item's read and the history items' at least


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    played=st.lists(st.sampled_from(TABLES), min_size=1, max_size=6),
    limit=st.integers(min_value=1, max_value=4),
    table=st.sampled_from((None, *TABLES)),
    filed=st.lists(
        st.tuples(st.integers(min_value=1, max_value=4), st.integers(min_value=0)),
        min_size=1,
        max_size=3,
    ),
)
def test_paged_history_while_rounds_are_filed(
    played: list[str], limit: int, table: str | None, filed: list[tuple[int, int]]
) -> None:
    """Rounds settled at some tables; a cursor pass over the history, filtered or not,
    while bets at tables played file the seats' rounds at given calls of it: the pass
    shows every round settled before it began, once, in order (a round settled since may
    show too)."""
    with fresh_aws():
        player = Player(Gateway(), "prop01")
        settled = [(at, settle(player, at)) for at in played]
        before = [round_id for at, round_id in settled[::-1] if table in (None, at)]
        # a bet files the seat's settled round, or is refused (a round in play): both fine
        filings = [
            (call, partial(bet, player, played[which % len(played)])) for call, which in filed
        ]
        with Filings(filings):
            ids = read_history(player, table, limit)
        assert len(set(ids)) == len(ids)
        assert [round_id for round_id in ids if round_id in before] == before
