"""The OpenAPI 3.1 document of API.md, served by `GET /v1/openapi.json`.

Each function's resolver knows only its own routes, so the whole contract is gathered
here: the routes (their methods, paths and authorizers from template.yaml, see `routes`;
each operation's id is its event's name there, in lower case), their request bodies (the
JSON schemas of the pydantic models the handlers validate with), their parameters (from
the same patterns and bounds), error codes, and the links from one answer to the next
requests (a bet's round to its actions, hint, round and shoe) that a client, or a stateful
fuzzer, follows. A test checks that every route of the template and of API.md is in it;
schemathesis, that a schema-valid request is never refused as invalid nor a schema-invalid
one accepted.
"""

import functools
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from blackjack.rules import TABLES

from . import responses
from .models import (
    CURSOR_PATTERN,
    IDEMPOTENCY_KEY_PATTERN,
    IF_MATCH_PATTERN,
    TABLE_PATTERN,
    ActionRequest,
    RegisterRequest,
    SessionRequest,
    StartRoundRequest,
)
from .routes import Route, api_routes

_PROBLEM = {"$ref": "#/components/schemas/Problem"}
# What every answer carries (API.md): no cache keeps it; a round view's version as ETag.
_NO_STORE = {
    "Cache-Control": {"required": True, "schema": {"type": "string", "enum": ["no-store"]}}
}
_ETAG = {"ETag": {"required": True, "schema": {"type": "string", "pattern": r'^"[0-9]+"$'}}}


_PATH_PARAMETER = re.compile(r"\{(\w+)\}")
_PATH_SCHEMAS: dict[str, dict[str, Any]] = {"table_id": {"enum": list(TABLES)}}


def _path_parameters(path: str) -> list[dict[str, Any]]:
    """The parameters the route's path names (`{table_id}`), in its order."""
    return [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "string", **_PATH_SCHEMAS.get(name, {})},
        }
        for name in _PATH_PARAMETER.findall(path)
    ]


def _link(operation_id: str, **parameters: str) -> dict[str, Any]:
    return {"operationId": operation_id, "parameters": parameters}


_ROUND_LINKS = {  # from a round view (a bet's or an action's answer) to what follows it
    "Act": _link(
        "act", table_id="$request.path.table_id", **{"header.If-Match": "$response.header.ETag"}
    ),
    "Hint": _link("hint", table_id="$request.path.table_id"),
    "Bet": _link("bet", table_id="$request.path.table_id"),
    "Round": _link("round", round_id="$response.body#/round_id"),
    "Shoe": _link("shoe", shoe_id="$response.body#/shoe_id"),
}


@dataclass(frozen=True)
class Operation:
    """What the OpenAPI document says of one route beyond its method and path."""

    summary: str
    response: type[BaseModel]
    body: type[BaseModel] | None = None
    ok: int = 200
    errors: tuple[int, ...] = ()
    parameters: tuple[dict[str, Any], ...] = ()
    links: dict[str, Any] | None = None
    reads_table: bool = True  # then 503 when the table cannot be reached


# Keyed by the route's event name in template.yaml, which gives its method and path.
_OPERATIONS: dict[str, Operation] = {
    "Register": Operation("Register", responses.User, body=RegisterRequest, ok=201, errors=(409,)),
    "Login": Operation("Log in", responses.Session, body=SessionRequest, errors=(401, 429)),
    "Me": Operation("The user's profile and stats", responses.Me),
    "Tables": Operation("The tables and their rules", responses.Tables, reads_table=False),
    "Seat": Operation(
        "The user's seat at a table",
        responses.SeatView,
        errors=(404, 409),
        links={
            "Bet": _link("bet", table_id="$request.path.table_id"),
            "Shoe": _link("shoe", shoe_id="$response.body#/shoe/shoe_id"),
        },
    ),
    "Bet": Operation(
        "Bet: start a round",
        responses.RoundView,
        body=StartRoundRequest,
        ok=201,
        errors=(404, 409),
        links=_ROUND_LINKS,
    ),
    "Act": Operation(
        "Act in the round in play",
        responses.RoundView,
        body=ActionRequest,
        errors=(404, 409, 412),
        parameters=(
            {
                "name": "If-Match",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": IF_MATCH_PATTERN},
            },
        ),
        links=_ROUND_LINKS,
    ),
    "Hint": Operation(
        "What an AI level would do now",
        responses.Hint,
        errors=(404, 409, 422),
        parameters=(
            {
                "name": "level",
                "in": "query",
                "schema": {"type": "string", "enum": ["medium", "hard"]},
            },
        ),
    ),
    "Strategy": Operation(
        "The table's strategy card",
        responses.StrategyCard,
        errors=(404,),
        reads_table=False,
    ),
    "History": Operation(
        "Settled rounds, last first",
        responses.History,
        errors=(422,),
        parameters=(
            {
                "name": "table",
                "in": "query",
                "schema": {"type": "string", "pattern": TABLE_PATTERN},
            },
            {
                "name": "limit",
                "in": "query",
                "schema": {"type": "integer", "minimum": 1, "maximum": 100},
            },
            {
                "name": "cursor",
                "in": "query",
                "schema": {"type": "string", "pattern": CURSOR_PATTERN},
            },
        ),
    ),
    "Round": Operation("One round", responses.RoundView, errors=(404,)),
    "Shoe": Operation(
        "A shoe: commitment, and seeds and cards once retired",
        responses.ShoeView,
        errors=(404,),
    ),
    "Health": Operation("Health", responses.Health),
    "OpenApi": Operation("This document", responses.OpenApiDocument, reads_table=False),
}


def _operation(route: Route, operation: Operation) -> dict[str, Any]:
    response = operation.response
    schema = {"$ref": f"#/components/schemas/{responses.schema_name(response)}"}
    success: dict[str, Any] = {
        "description": "OK",
        "headers": {
            **_NO_STORE,
            **(_ETAG if response in (responses.RoundView, responses.SeatView) else {}),
        },
        "content": {"application/json": {"schema": schema}},
    }
    if operation.links:
        success["links"] = operation.links
    answers: dict[str, Any] = {str(operation.ok): success}
    # 429: API Gateway's rate limit holds on every route.
    codes = set(operation.errors) | {429} | ({401} if not route.public else set())
    if operation.body is not None:
        codes |= {400, 413, 415, 422}
    if operation.reads_table:
        codes.add(503)
    for status in sorted(codes):
        answers[str(status)] = {
            "description": "Problem",
            "headers": _NO_STORE,
            "content": {"application/problem+json": {"schema": _PROBLEM}},
        }
    document: dict[str, Any] = {
        # The event's name, as the links above call it: "bet", "openapi".
        "operationId": route.operation.lower(),
        "summary": operation.summary,
        "responses": answers,
    }
    params = [*_path_parameters(route.path), *operation.parameters]
    if route.method == "POST" and not route.public:  # a public POST is never replayed
        params.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
            }
        )
    if params:
        document["parameters"] = params
    if operation.body is not None:
        document["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"$ref": f"#/components/schemas/{operation.body.__name__}"}
                }
            },
        }
    document["security"] = [] if route.public else [{"bearer": []}]
    return document


def _paths() -> dict[str, Any]:
    routes = api_routes()
    undocumented = {route.operation for route in routes} ^ set(_OPERATIONS)
    if undocumented:
        raise RuntimeError(f"template.yaml's routes and the document differ: {undocumented}")
    paths: dict[str, Any] = {}
    for route in routes:
        operation = _operation(route, _OPERATIONS[route.operation])
        paths.setdefault(route.path, {})[route.method.lower()] = operation
    return paths


@functools.cache
def openapi_document() -> dict[str, Any]:
    operations = _OPERATIONS.values()
    bodies = [operation.body for operation in operations if operation.body is not None]
    # Each model once, in the operations' order: the request bodies, then the answers.
    models = list(dict.fromkeys([*bodies, *(operation.response for operation in operations)]))
    schemas: dict[str, Any] = {
        "Problem": {
            "type": "object",
            "required": ["type", "title", "status", "detail", "code"],
            "properties": {
                "type": {"type": "string"},
                "title": {"type": "string"},
                "status": {"type": "integer"},
                "detail": {"type": "string"},
                "code": {"type": "string"},
            },
        }
    }
    for model in models:
        schema = model.model_json_schema(
            ref_template="#/components/schemas/{model}", schema_generator=responses.SchemaNames
        )
        schemas.update(schema.pop("$defs", {}))
        schemas[responses.schema_name(model)] = schema
    return {
        "openapi": "3.1.0",
        "info": {"title": "Open Blackjack", "version": "1"},
        "paths": _paths(),
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
