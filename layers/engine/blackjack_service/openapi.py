"""The OpenAPI 3.1 document of API.md, served by `GET /v1/openapi.json`.

Each route's declaration is its contract. Its handler's signature gives the parameters,
headers and request body (Powertools reads them), and its decorator takes `operation(…)`:
the summary, the answer's model and status, the errors the route itself answers with and
the links from its answer to the next requests (a bet's round to its actions, hint, round
and shoe) that a client, or a stateful fuzzer, follows. What holds on every route is added
where the document is put together from all the functions' resolvers (`local_stack.openapi`,
with the template's authorizers), which writes it at the layer's root as `openapi.json`: in
a checkout `make build`, `make run` and the tests write it there, and the built layer ships
it. The layer only reads it.
"""

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from . import responses
from .problems import PROBLEM_JSON

# The layer's root: the built layer's python/ folder, or layers/engine in a checkout.
DOCUMENT_FILE = Path(__file__).parents[1] / "openapi.json"
# What every answer carries (API.md): no cache keeps it; a round's or a seat's version as
# its ETag.
NO_STORE = {"Cache-Control": {"required": True, "schema": {"type": "string", "enum": ["no-store"]}}}
_ETAG = {"ETag": {"required": True, "schema": {"type": "string", "pattern": r'^"[0-9]+"$'}}}
_VERSIONED = (responses.Round, responses.Seat)


def problem_answer() -> dict[str, Any]:
    """An error's answer in the document: a problem document."""
    return {
        "description": "Problem",
        "headers": NO_STORE,
        "content": {PROBLEM_JSON: {"model": responses.Problem}},
    }


def operation(
    summary: str,
    answer: type[BaseModel],
    *,
    status: int = 200,
    errors: tuple[int, ...] = (),
    links: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A route decorator's OpenAPI arguments: its answer, and the errors the route itself
    gives beyond those of every route (API Gateway's rate limit and authorizer, the body
    checks of `api`). 503: the route reads the table, which may not answer."""
    success: dict[str, Any] = {
        "description": "OK",
        "headers": {**NO_STORE, **(_ETAG if answer in _VERSIONED else {})},
        "content": {"application/json": {"model": answer}},
    }
    if links:
        success["links"] = dict(links)
    return {
        "summary": summary,
        "responses": {status: success, **{code: problem_answer() for code in errors}},
    }


def link(operation_id: str, **parameters: str) -> dict[str, Any]:
    return {"operationId": operation_id, "parameters": parameters}


# From a round (a bet's or an action's answer) to what follows it. An operation's id is its
# event's name in template.yaml, in lower case.
ROUND_LINKS = {
    "Act": link(
        "act", table_id="$request.path.table_id", **{"header.if-match": "$response.header.ETag"}
    ),
    "Hint": link("hint", table_id="$request.path.table_id"),
    "Bet": link("bet", table_id="$request.path.table_id"),
    "Round": link("round", round_id="$response.body#/round_id"),
    "Shoe": link("shoe", shoe_id="$response.body#/shoe_id"),
}


# From a room view (any room route's answer) to what follows it.
ROOM_LINKS = {
    "Room": link("room", room_id="$response.body#/room_id"),
    "TakeBoxes": link("takeboxes", room_id="$response.body#/room_id"),
    "RoomBet": link("roombet", room_id="$response.body#/room_id"),
    "RoomAct": link(
        "roomact",
        room_id="$response.body#/room_id",
        **{"header.if-match": "$response.header.ETag"},
    ),
    "RoomHint": link("roomhint", room_id="$response.body#/room_id"),
    "Live": link("live", room_id="$response.body#/room_id"),
}


@functools.cache
def openapi_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(DOCUMENT_FILE.read_text())
    return document
