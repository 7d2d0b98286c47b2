"""A round, its shoe and its grades as plain JSON values, and back: whole, hidden cards
and the shoe's cards included, so never shown to a player.

The service stores a round as its bets and moves and replays it; only rounds stored
before that (and the benchmarks and tests that check a round survives JSON) keep a
snapshot, which later moves play on.
"""

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .actions import Action, HandStatus, Phase, Result
from .cards import Card
from .grading import Decision, Kind
from .round import Box, Hand, Round
from .rules import Table
from .shoe import Shoe


def round_snapshot(round_: Round) -> dict[str, Any]:
    """The whole round, the shoe apart."""
    return {
        "table": round_.table.id,
        "phase": round_.phase.value,
        "dealer": "".join(round_.dealer),
        "hidden": round_.hidden,
        "boxes": [_box_snapshot(box) for box in round_.boxes],
    }


def round_from_snapshot(snapshot: Mapping[str, Any], table: Table, shoe: Shoe) -> Round:
    return Round(
        table=table,
        shoe=shoe,
        boxes=[_box_from_snapshot(box) for box in snapshot["boxes"]],
        dealer=_unpack(snapshot["dealer"]),
        hidden=int(snapshot["hidden"]),
        phase=Phase(snapshot["phase"]),
    )


def shoe_snapshot(shoe: Shoe) -> dict[str, Any]:
    """The shoe with its cards (the service stores only its seeds and shuffles again: a
    6-deck shoe takes about 0.3 ms)."""
    return {
        "server_seed": shoe.server_seed,
        "client_seed": shoe.client_seed,
        "nonce": shoe.nonce,
        "decks": shoe.decks,
        "cut_index": shoe.cut_index,
        "cards": "".join(shoe.cards),
        "position": shoe.position,
    }


def shoe_from_snapshot(snapshot: Mapping[str, Any]) -> Shoe:
    return Shoe(
        server_seed=snapshot["server_seed"],
        client_seed=snapshot["client_seed"],
        nonce=int(snapshot["nonce"]),
        decks=int(snapshot["decks"]),
        cut_index=None if snapshot["cut_index"] is None else int(snapshot["cut_index"]),
        cards=_unpack(snapshot["cards"]),
        position=int(snapshot["position"]),
    )


def decision_snapshot(decision: Decision) -> dict[str, Any]:
    return {
        "action": decision.action.value,
        "best": decision.best.value,
        "loss": str(decision.loss),
        "kind": decision.kind.value,
        "cards": "".join(decision.cards),
        "expert_best": decision.expert_best.value,
        "expert_loss": str(decision.expert_loss),
    }


def decision_from_snapshot(snapshot: Mapping[str, Any]) -> Decision:
    return Decision(
        action=Action(snapshot["action"]),
        best=Action(snapshot["best"]),
        loss=Decimal(snapshot["loss"]),
        kind=Kind(snapshot["kind"]),
        cards=tuple(_unpack(snapshot["cards"])),
        # Graded before perfect play was: as `hard` graded it.
        expert_best=Action(snapshot.get("expert_best", snapshot["best"])),
        expert_loss=Decimal(snapshot.get("expert_loss", snapshot["loss"])),
    )


def _box_snapshot(box: Box) -> dict[str, Any]:
    return {
        "box": box.index,
        "player": box.player,
        "bet": str(box.bet),
        "insurance": _money(box.insurance),
        "insurance_payout": _money(box.insurance_payout),
        "insurance_decided": box.insurance_decided,
        "hands": [
            {
                "cards": "".join(hand.cards),
                "bet": str(hand.bet),
                "doubled": hand.doubled,
                "split": hand.split,
                "status": hand.status.value,
                "result": None if hand.result is None else hand.result.value,
                "payout": _money(hand.payout),
                "decisions": [decision_snapshot(decision) for decision in hand.decisions],
            }
            for hand in box.hands
        ],
    }


def _box_from_snapshot(snapshot: Mapping[str, Any]) -> Box:
    return Box(
        index=int(snapshot["box"]),
        player=snapshot["player"],
        bet=Decimal(snapshot["bet"]),
        insurance=_money_from(snapshot["insurance"]),
        insurance_payout=_money_from(snapshot["insurance_payout"]),
        insurance_decided=bool(snapshot["insurance_decided"]),
        hands=[
            Hand(
                cards=_unpack(hand["cards"]),
                bet=Decimal(hand["bet"]),
                doubled=bool(hand["doubled"]),
                split=bool(hand["split"]),
                status=HandStatus(hand["status"]),
                result=None if hand["result"] is None else Result(hand["result"]),
                payout=_money_from(hand["payout"]),
                decisions=[decision_from_snapshot(d) for d in hand.get("decisions", ())],
            )
            for hand in snapshot["hands"]
        ],
    )


def _unpack(cards: str) -> list[Card]:
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _money_from(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)
