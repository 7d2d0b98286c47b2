"""The ledger invariant: after any sequence of requests, balance == 10000 + the net of
every settled round + what the rounds in play have taken, and the stats agree with the
settled rounds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.traced import first_traced

from .harness import Gateway
from .helpers import TABLE_IDS, Player, assert_ledger, assert_nothing_hidden, fresh_aws
from .seeds import use_seeds

ACTIONS = [
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "even_money",
    "decline_insurance",
]


def random_session(api: Gateway, rng: random.Random, steps: int) -> None:
    """Random bets (valid or not, some retried with a key), actions (mostly legal ones,
    some not) and views by two users over the four tables."""
    players = [Player(api, f"user{index:04d}") for index in range(2)]
    for _ in range(steps):
        player = rng.choice(players)
        table = rng.choice(TABLE_IDS)
        seat = player.get(f"/v1/tables/{table}").body
        legal = (seat.get("round") or {}).get("legal_actions") or []
        body: dict[str, Any]
        if not legal or rng.random() < 0.1:
            box = rng.choice([0, 0, 0, 1, 6])
            body = {"bets": [{"box": box, "amount": rng.choice([5, 10, 25, 200, 999])}]}
            if rng.random() < 0.3:
                body["ai"] = [{"box": 2, "level": rng.choice(["easy", "medium", "hard"])}]
            headers = {"Idempotency-Key": f"k{rng.randrange(5)}"} if rng.random() < 0.3 else None
            reply = player.post(f"/v1/tables/{table}/rounds", body, headers=headers)
        else:
            body = {"action": rng.choice(legal if rng.random() < 0.85 else ACTIONS)}
            if body["action"] == "insurance" and rng.random() < 0.5:
                body["amount"] = rng.choice([0.5, 2.5, 5, 100])
            reply = player.post(f"/v1/tables/{table}/round/actions", body)
        assert reply.status < 500, reply.text
        assert_nothing_hidden(player, table, reply.text)
    for player in players:
        assert_ledger(player.login)
        me = player.get("/v1/me").body
        history = player.get("/v1/rounds?limit=100").body["rounds"]
        assert me["stats"]["rounds"] == len(history)
        assert me["stats"]["net"] == sum(view["net"] for view in history)


@pytest.mark.parametrize("seed", first_traced(range(3)))
def test_random_sequences(api: Gateway, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    use_seeds(monkeypatch)  # known shoes too, so that a failure replays exactly
    random_session(api, random.Random(seed), 120)


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_hypothesis_sequences(seed: int) -> None:
    with fresh_aws():
        random_session(Gateway(), random.Random(seed), 40)
