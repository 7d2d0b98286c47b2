"""The check every authenticated response passes: nothing face down, nothing of a shoe's
order. It compares the body with the user's stored seats (hole cards, undealt cards and
server seeds of the shoes in play or committed)."""

from __future__ import annotations

import json
from typing import Any

from blackjack.fairness import shuffled_shoe
from blackjack.rules import TABLES
from blackjack_service import factories
from blackjack_service.game import seat_round


def _round_views(body: Any) -> list[dict[str, Any]]:
    """Every round view inside a response body, wherever it sits."""
    if isinstance(body, dict):
        found = [body] if "dealer" in body and "round_id" in body else []
        for value in body.values():
            found += _round_views(value)
        return found
    if isinstance(body, list):
        return [view for item in body for view in _round_views(item)]
    return []


def assert_reveals_nothing(login: str, text: str) -> None:
    try:
        body = json.loads(text) if text else None
    except ValueError:
        return
    player = factories.store().load_player(login.lower())
    if player is None:
        return
    compact = text.replace('", "', "").replace('","', "")
    for table_id, seat in player.seats.items():
        table, shoe = TABLES[table_id], seat.shoe
        assert shoe.server_seed not in text, "a secret server seed was sent"
        cards = shuffled_shoe(shoe.server_seed, shoe.client_seed, shoe.nonce, table.rules.decks)
        undealt = "".join(cards[shoe.position :])
        if len(undealt) >= 10:
            assert undealt[:10] not in compact, "the shoe's next cards were sent"
        round_ = seat_round(table, seat)
        if round_ is None or seat.round is None:
            continue
        round_id = seat.round.round_id or f"{seat.shoe_of_round().shoe_id}-{seat.round.number}"
        visible = round_.dealer[: len(round_.dealer) - round_.hidden]
        for view in _round_views(body):
            if view["round_id"] != round_id:
                continue
            if view.get("version", seat.version) != seat.version:
                # A retry's replayed answer, or an older step's: from before the dealer
                # showed more.
                shown = view["dealer"]["cards"]
                assert shown == visible[: len(shown)], "a face-down card was sent"
                continue
            assert view["dealer"]["cards"] == visible, "a face-down card was sent"
            assert view["dealer"]["hidden"] == round_.hidden
