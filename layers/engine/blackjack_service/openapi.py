"""The OpenAPI 3.1 document of API.md, served by `GET /v1/openapi.json`.

Each function's resolver knows only its own routes, so the whole contract is gathered
here: the routes, their request bodies (the JSON schemas of the pydantic models the
handlers validate with), their parameters (from the same patterns and bounds), error
codes, and the links from one answer to the next requests (a bet's round to its actions,
hint, round and shoe) that a client, or a stateful fuzzer, follows. A test checks that
every route of the template and of API.md is in it; schemathesis, that a schema-valid
request is never refused as invalid nor a schema-invalid one accepted.
"""

import functools
from typing import Any

from pydantic import BaseModel

from blackjack.rules import TABLES

from . import responses
from .models import (
    CURSOR_PATTERN,
    IDEMPOTENCY_KEY_PATTERN,
    TABLE_PATTERN,
    ActionRequest,
    RegisterRequest,
    SessionRequest,
    StartRoundRequest,
)

_RESPONSES: list[type[BaseModel]] = [
    responses.User,
    responses.Session,
    responses.Me,
    responses.Tables,
    responses.SeatView,
    responses.RoundView,
    responses.Hint,
    responses.StrategyCard,
    responses.History,
    responses.ShoeView,
    responses.Health,
    responses.OpenApiDocument,
]
_PROBLEM = {"$ref": "#/components/schemas/Problem"}
# What every answer carries (API.md): no cache keeps it; a round view's version as ETag.
_NO_STORE = {
    "Cache-Control": {"required": True, "schema": {"type": "string", "enum": ["no-store"]}}
}
_ETAG = {"ETag": {"required": True, "schema": {"type": "string", "pattern": r'^"[0-9]+"$'}}}


def _path_parameter(name: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", **schema}}


_TABLE_ID = _path_parameter("table_id", enum=list(TABLES))


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


def _route(
    operation_id: str,
    summary: str,
    response: type[BaseModel],
    *,
    public: bool = False,
    body: type[BaseModel] | None = None,
    ok: int = 200,
    errors: tuple[int, ...] = (),
    parameters: list[dict[str, Any]] | None = None,
    idempotent_post: bool = False,
    links: dict[str, Any] | None = None,
) -> dict[str, Any]:
    schema = {"$ref": f"#/components/schemas/{responses.schema_name(response)}"}
    success: dict[str, Any] = {
        "description": "OK",
        "headers": {
            **_NO_STORE,
            **(_ETAG if response in (responses.RoundView, responses.SeatView) else {}),
        },
        "content": {"application/json": {"schema": schema}},
    }
    if links:
        success["links"] = links
    answers: dict[str, Any] = {str(ok): success}
    # 429: API Gateway's rate limit holds on every route.
    codes = set(errors) | {429} | ({401} if not public else set())
    if body is not None:
        codes |= {400, 413, 415, 422}
    for status in sorted(codes):
        answers[str(status)] = {
            "description": "Problem",
            "headers": _NO_STORE,
            "content": {"application/problem+json": {"schema": _PROBLEM}},
        }
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "responses": answers,
    }
    params = list(parameters or [])
    if idempotent_post:
        params.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
            }
        )
    if params:
        operation["parameters"] = params
    if body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{body.__name__}"}}
            },
        }
    operation["security"] = [] if public else [{"bearer": []}]
    return operation


@functools.cache
def openapi_document() -> dict[str, Any]:
    models: list[type[BaseModel]] = [
        RegisterRequest,
        SessionRequest,
        StartRoundRequest,
        ActionRequest,
        *_RESPONSES,
    ]
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
    paths: dict[str, Any] = {
        "/v1/users": {
            "post": _route(
                "register",
                "Register",
                responses.User,
                public=True,
                body=RegisterRequest,
                ok=201,
                errors=(409,),
            )
        },
        "/v1/sessions": {
            "post": _route(
                "login",
                "Log in",
                responses.Session,
                public=True,
                body=SessionRequest,
                errors=(401, 429),
            )
        },
        "/v1/me": {"get": _route("me", "The user's profile and stats", responses.Me)},
        "/v1/tables": {
            "get": _route("tables", "The tables and their rules", responses.Tables, public=True)
        },
        "/v1/tables/{table_id}": {
            "get": _route(
                "seat",
                "The user's seat at a table",
                responses.SeatView,
                errors=(404, 409),
                parameters=[_TABLE_ID],
                links={
                    "Bet": _link("bet", table_id="$request.path.table_id"),
                    "Shoe": _link("shoe", shoe_id="$response.body#/shoe/shoe_id"),
                },
            )
        },
        "/v1/tables/{table_id}/rounds": {
            "post": _route(
                "bet",
                "Bet: start a round",
                responses.RoundView,
                body=StartRoundRequest,
                ok=201,
                errors=(404, 409),
                parameters=[_TABLE_ID],
                idempotent_post=True,
                links=_ROUND_LINKS,
            )
        },
        "/v1/tables/{table_id}/round/actions": {
            "post": _route(
                "act",
                "Act in the round in play",
                responses.RoundView,
                body=ActionRequest,
                errors=(404, 409, 412),
                parameters=[
                    _TABLE_ID,
                    {"name": "If-Match", "in": "header", "schema": {"type": "string"}},
                ],
                idempotent_post=True,
                links=_ROUND_LINKS,
            )
        },
        "/v1/tables/{table_id}/round/hint": {
            "get": _route(
                "hint",
                "What an AI level would do now",
                responses.Hint,
                errors=(404, 409, 422),
                parameters=[
                    _TABLE_ID,
                    {
                        "name": "level",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["medium", "hard"]},
                    },
                ],
            )
        },
        "/v1/tables/{table_id}/strategy": {
            "get": _route(
                "strategy",
                "The table's strategy card",
                responses.StrategyCard,
                public=True,
                errors=(404,),
                parameters=[_TABLE_ID],
            )
        },
        "/v1/rounds": {
            "get": _route(
                "history",
                "Settled rounds, last first",
                responses.History,
                errors=(422,),
                parameters=[
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
                ],
            )
        },
        "/v1/rounds/{round_id}": {
            "get": _route(
                "round",
                "One round",
                responses.RoundView,
                errors=(404,),
                parameters=[_path_parameter("round_id")],
            )
        },
        "/v1/shoes/{shoe_id}": {
            "get": _route(
                "shoe",
                "A shoe: commitment, and seeds and cards once retired",
                responses.ShoeView,
                errors=(404,),
                parameters=[_path_parameter("shoe_id")],
            )
        },
        "/v1/health": {"get": _route("health", "Health", responses.Health, public=True)},
        "/v1/openapi.json": {
            "get": _route("openapi", "This document", responses.OpenApiDocument, public=True)
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Open Blackjack", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
