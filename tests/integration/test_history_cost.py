"""A history read costs O(page), not O(history) (issue 43, item 2): the same DynamoDB calls
for a user with a short history and one ten times longer, in the worst case `bench.history`
measures (the table asked for played only in the first shoe, made-up ids naming its time),
and each read's answer right."""

from __future__ import annotations

import time
from typing import Any

from bench.backend import CallCounter
from bench.history import file_history, play_one_round
from blackjack_service import factories
from blackjack_service.identity import Identity

from .helpers import Player

SHORT, LONG = 60, 600


def _reads(player: Player, rounds: int) -> dict[str, tuple[int, Any]]:
    """Per read: its DynamoDB calls and what it answered."""
    identity = Identity(login=player.login, nick=player.login)
    for table in ("bicycle", "casino", "european", "classic"):
        play_one_round(identity, table)
    start_ms = int(time.time() * 1000) - (rounds + 1) * 2000
    round_ids = file_history(player.login, rounds, start_ms)
    made_up = f"{start_ms + 1:011x}" + "0" * 21
    paths = {
        "page": "/v1/rounds?limit=1",
        "table": "/v1/rounds?table=bicycle&limit=2",
        "round": f"/v1/rounds/{round_ids[20]}",  # of the first shoe
        "made-up round": f"/v1/rounds/{made_up}-7",
        "made-up shoe": f"/v1/shoes/{made_up}",
    }
    counter = CallCounter()
    factories.game().store.client.meta.events.register("before-call.dynamodb", counter)
    answers = {}
    for name, path in paths.items():
        counter.take()
        answer = player.get(path)
        answers[name] = (len(counter.take()), answer)
    return answers


def test_a_history_read_costs_the_same_for_ten_times_the_rounds(api: Any) -> None:
    short = _reads(Player(api, "short1"), SHORT)
    long = _reads(Player(api, "long12"), LONG)
    assert {name: calls for name, (calls, _) in long.items()} == {
        name: calls for name, (calls, _) in short.items()
    }
    for answers in (short, long):
        bicycle = answers["table"][1].body["rounds"]
        # the seat's last round, then the newest filed (the first shoe's last)
        assert [r["table"] for r in bicycle] == ["bicycle", "bicycle"]
        assert bicycle[1]["round_id"].endswith("-40")
        assert answers["round"][1].status == 200
        assert answers["made-up round"][1].status == 404
        assert answers["made-up shoe"][1].status == 404
        assert answers["page"][1].body["next_cursor"] is not None
