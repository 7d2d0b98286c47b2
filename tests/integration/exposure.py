"""The check every authenticated response passes: nothing face down, nothing of a shoe's
order. It compares the body with the user's stored seats (hole cards, undealt cards and
server seeds of the shoes in play or committed)."""

from __future__ import annotations

import json
import os
from typing import Any

import boto3


def _seats(login: str) -> list[dict[str, Any]]:
    response = boto3.client("dynamodb").query(
        TableName=os.environ["TABLE_NAME"],
        KeyConditionExpression="pk = :pk AND begins_with(sk, :seat)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{login.lower()}"}, ":seat": {"S": "SEAT#"}},
    )
    seats = []
    for item in response["Items"]:
        try:
            version = int(item["version"]["N"]) if "version" in item else None
            seats.append({**json.loads(item["state"]["S"]), "version": version})
        except ValueError:  # a seat a race test wrote by hand
            continue
    return seats


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
    compact = text.replace('", "', "").replace('","', "")
    for seat in _seats(login):
        if not isinstance(seat, dict) or "shoe" not in seat:
            continue
        state = seat["shoe"]["state"]
        assert state["server_seed"] not in text, "a secret server seed was sent"
        undealt = state["cards"][2 * state["position"] :]
        if len(undealt) >= 10:
            assert undealt[:10] not in compact, "the shoe's next cards were sent"
        stored = seat["round"]
        if stored is None:
            continue
        dealer = [stored["dealer"][i : i + 2] for i in range(0, len(stored["dealer"]), 2)]
        visible = dealer[: len(dealer) - stored["hidden"]]
        for view in _round_views(body):
            if view["round_id"] != seat["round_id"]:
                continue
            if view.get("version", seat["version"]) != seat["version"]:
                # A retry's replayed answer: a copy of the one checked when it was first sent,
                # from before the dealer showed more.
                shown = view["dealer"]["cards"]
                assert shown == visible[: len(shown)], "a face-down card was sent"
                continue
            assert view["dealer"]["cards"] == visible, "a face-down card was sent"
            assert view["dealer"]["hidden"] == stored["hidden"]
