"""Index plays: what generating them costs, and what the counter and the indices route
cost in process.

- generation: every table's index plays and edge by true count computed afresh
  (`blackjack.strategy.indices.build_indices`: a card per true count, 21 per table, by the
  analysis kernel), seconds per table and in all.
- counter hint: the `counter` hint's engine part (`players.advice` at level `counter` and
  the index it names) on each table's first decision of every two-card hand against every
  up card, at the unseen cards of shoes part-dealt at random; target: p99 under 5 ms.
- counter hint, whole: what the hint route's handler calls (`Game.hint` at level
  `counter`: the player item read from moto, the round replayed, the advice and its
  index) at every decision of rounds played by that hint through each table's shoes, in
  CPU time (as `bench edge`: the machine is shared).
- `GET /v1/tables/{table_id}/indices`: the function's handler in process on the sample
  event (events/strategy_indices.json) for each table, warm; target: p99 under 10 ms.

Run: `python -m bench indices`.
"""

import json
import os
import random
import time
from pathlib import Path
from typing import Any

from blackjack import count
from blackjack.actions import Phase
from blackjack.cards import deck_order
from blackjack.players import COUNTER, advice, counter_play
from blackjack.rules import TABLES
from blackjack.strategy.indices import build_indices
from blackjack.turn import PlayerView

from .backend import _action, _environment, moto_backend
from .grading import _dealt_views, _figures, _ms

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "events" / "strategy_indices.json"
TARGET_HINT_P99_MS = 5.0
TARGET_ROUTE_P99_MS = 10.0


def generation() -> None:
    total = 0.0
    for table_id in TABLES:
        start = time.perf_counter()
        found = build_indices(table_id)
        elapsed = time.perf_counter() - start
        total += elapsed
        print(
            f"indices, generating {table_id}: {len(found['indices'])} index plays in "
            f"{elapsed:.2f} s",
            flush=True,
        )
    print(f"indices, generating every table's: {total:.2f} s (load {_load()})", flush=True)


def _unseen_at(view: PlayerView, rng: random.Random) -> Any:
    """The unseen cards of a shoe part-dealt at random (some true count): its public
    cards the view's and up to half the rest."""
    cards = deck_order(view.rules.decks)
    rng.shuffle(cards)
    public = [*view.cards, view.up_card]
    for card in public:
        cards.remove(card)
    seen = cards[: rng.randrange(0, len(cards) // 2)]
    return count.unseen(view.rules.decks, [*public, *seen])


def counter_hint() -> None:
    rng = random.Random(34)
    asked = [
        (view, _unseen_at(view, rng))
        for phase in (Phase.PLAYER_TURN, Phase.INSURANCE)
        for view in _dealt_views(phase)
    ]

    def hint(view: PlayerView, unseen: Any) -> None:
        advice(COUNTER, view, unseen)
        counter_play(view, unseen)

    for question in asked:  # the shipped cards and indices loaded, as in a warm function
        hint(*question)
    times = [_ms(hint, *question) for question in asked]
    print(
        f"indices, counter hint ({len(times)} decisions, 4 tables): {_figures(times)} "
        f"(target p99 < {TARGET_HINT_P99_MS:g} ms; load {_load()})",
        flush=True,
    )


def counter_hint_whole(rounds: int = int(os.environ.get("BENCH_COUNTER_ROUNDS", "150"))) -> None:
    with moto_backend():
        from blackjack_service import factories
        from blackjack_service.identity import Identity
        from blackjack_service.models import RegisterRequest, StartRoundRequest

        factories.accounts().register(
            RegisterRequest(login="counter1", nick="counter", password="password1")
        )
        identity, game = Identity(login="counter1", nick="counter"), factories.game()
        bet = StartRoundRequest.model_validate({"bets": [{"box": 0, "amount": 10}]}, strict=False)
        times = []
        for table_id in TABLES:
            game.seat(identity, table_id)
            # the first round warms: the table's shipped card and indices read once
            for played in range(rounds + 1):
                view = game.start_round(identity, table_id, bet).round
                while view["status"] != "settled":
                    start = time.process_time()
                    hint = game.hint(identity, table_id, COUNTER)
                    if played:
                        times.append(1000 * (time.process_time() - start))
                    action = _action(hint["action"])
                    view = game.act(identity, table_id, action, None).round
    print(
        f"indices, counter hint whole, CPU time on moto ({len(times)} decisions, {rounds} rounds a "
        f"table): {_figures(times)} (target p99 < {TARGET_HINT_P99_MS:g} ms; load {_load()})",
        flush=True,
    )


def route() -> None:
    _environment()
    # The route reads nothing stored: the settings only need to be there.
    os.environ.setdefault("TOKEN_SECRET_ARN", "arn:aws:secretsmanager:us-east-1:1:secret:bench")
    import sys

    sys.path[:0] = [str(ROOT / "functions" / "strategy")]
    import strategy  # type: ignore[import-not-found]

    class Context:
        function_name = "bench"
        memory_limit_in_mb = 512
        aws_request_id = "bench"
        invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:bench"

        def get_remaining_time_in_millis(self) -> int:
            return 3000

    template = json.loads(EVENT.read_text(encoding="utf-8"))
    events = []
    for table_id in TABLES:
        text = json.dumps(template).replace("/casino/", f"/{table_id}/")
        event = json.loads(text)
        event["pathParameters"] = {"table_id": table_id}
        events.append(event)
    for event in events:  # warm: the shipped documents read once
        assert strategy.handler(event, Context())["statusCode"] == 200
    times = [_ms(strategy.handler, event, Context()) for _ in range(100) for event in events]
    print(
        f"indices, GET /v1/tables/{{table_id}}/indices in process ({len(times)} requests): "
        f"{_figures(times)} (target p99 < {TARGET_ROUTE_P99_MS:g} ms; load {_load()})",
        flush=True,
    )


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def main() -> None:
    generation()
    counter_hint()
    counter_hint_whole()
    route()


if __name__ == "__main__":
    main()
