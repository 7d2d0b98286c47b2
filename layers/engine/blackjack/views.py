"""The public round view of API.md: never a face-down card, never the shoe."""

from typing import Any

from .cards import hand_value
from .grading import Decision
from .money import to_json
from .round import Box, Dealt, Hand, Round


def round_view(round_: Round) -> dict[str, Any]:
    """The engine's part of the round view; the service adds round_id, shoe_id, version and
    balance."""
    turn = round_.turn
    turn_view = None
    if turn is not None:
        box, hand = turn
        turn_view = {"box": box.index, "hand": box.hands.index(hand)}
    visible = round_.dealer[: len(round_.dealer) - round_.hidden]
    total, soft = hand_value(visible)
    net = round_.net
    return {
        "table": round_.table.id,
        "status": round_.phase.value,
        "boxes": [_box_view(box) for box in round_.boxes],
        "dealer": {"cards": visible, "hidden": round_.hidden, "total": total, "soft": soft},
        "turn": turn_view,
        "legal_actions": [action.value for action in round_.legal_actions()],
        "net": None if net is None else to_json(net),
    }


def _box_view(box: Box) -> dict[str, Any]:
    return {
        "box": box.index,
        "player": box.player,
        "bet": to_json(box.bet),
        "insurance": None if box.insurance is None else to_json(box.insurance),
        "insurance_payout": None if box.insurance_payout is None else to_json(box.insurance_payout),
        "hands": [_hand_view(hand) for hand in box.hands],
    }


def _hand_view(hand: Hand) -> dict[str, Any]:
    total, soft = hand.value
    return {
        "cards": list(hand.cards),
        "total": total,
        "soft": soft,
        "bet": to_json(hand.bet),
        "doubled": hand.doubled,
        "split": hand.split,
        "status": hand.status.value,
        "result": None if hand.result is None else hand.result.value,
        "payout": None if hand.payout is None else to_json(hand.payout),
        "decisions": [_decision_view(decision) for decision in hand.decisions],
    }


def _decision_view(decision: Decision) -> dict[str, Any]:
    return {
        "action": decision.action.value,
        "best": decision.best.value,
        "loss": to_json(decision.loss),
        "kind": decision.kind.value,
        "cards": list(decision.cards),
        "expert_best": decision.expert_best.value,
        "expert_loss": to_json(decision.expert_loss),
        "counter_best": decision.counter_best.value,
        "medium_best": decision.medium_best.value,
    }


def dealt_view(round_: Round) -> list[dict[str, Any]]:
    """What the round's last step did to the cards, in order (API.md, `dealt`)."""
    return [_dealt_view(dealt) for dealt in round_.dealt]


def _dealt_view(dealt: Dealt) -> dict[str, Any]:
    if dealt.turned:
        return {"to": "dealer", "turned": dealt.card}
    if dealt.box is None:
        return {"to": "dealer", "card": dealt.card}
    return {"to": "box", "box": dealt.box, "hand": dealt.hand, "card": dealt.card}
