"""The OpenAPI 3 document of API.md, served by `GET /v1/openapi.json`.

Each function's resolver knows only its own routes, so the whole contract is written once
here: the routes, their request bodies (the pydantic models' JSON schemas), parameters and
error codes. A test checks that every route of the template and of API.md is in it.
"""

import functools
from typing import Any

from pydantic import BaseModel

from blackjack.rules import TABLES

from . import responses
from .models import ActionRequest, RegisterRequest, SessionRequest, StartRoundRequest

_RESPONSES: list[type[BaseModel]] = [
    responses.User,
    responses.Session,
    responses.Me,
    responses.Tables,
    responses.Seat,
    responses.Round,
    responses.Hint,
    responses.StrategyCard,
    responses.History,
    responses.Shoe,
    responses.Health,
    responses.OpenApiDocument,
]
_PROBLEM = {"$ref": "#/components/schemas/Problem"}


def _path_parameter(name: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", **schema}}


_TABLE_ID = _path_parameter("table_id", enum=list(TABLES))


def _route(
    summary: str,
    response: type[BaseModel],
    *,
    public: bool = False,
    body: type[BaseModel] | None = None,
    ok: int = 200,
    errors: tuple[int, ...] = (),
    parameters: list[dict[str, Any]] | None = None,
    idempotent_post: bool = False,
) -> dict[str, Any]:
    schema = {"$ref": f"#/components/schemas/{response.__name__}"}
    responses: dict[str, Any] = {
        str(ok): {"description": "OK", "content": {"application/json": {"schema": schema}}}
    }
    codes = set(errors) | ({401} if not public else set())
    if body is not None:
        codes |= {400, 413, 415, 422}
    for status in sorted(codes):
        responses[str(status)] = {
            "description": "Problem",
            "content": {"application/problem+json": {"schema": _PROBLEM}},
        }
    operation: dict[str, Any] = {"summary": summary, "responses": responses}
    params = list(parameters or [])
    if idempotent_post:
        params.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": r"^[ -~]{1,128}$"},
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
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
    paths: dict[str, Any] = {
        "/v1/users": {
            "post": _route(
                "Register", responses.User, public=True, body=RegisterRequest, ok=201, errors=(409,)
            )
        },
        "/v1/sessions": {
            "post": _route(
                "Log in", responses.Session, public=True, body=SessionRequest, errors=(401, 429)
            )
        },
        "/v1/me": {"get": _route("The user's profile and stats", responses.Me)},
        "/v1/tables": {"get": _route("The tables and their rules", responses.Tables, public=True)},
        "/v1/tables/{table_id}": {
            "get": _route(
                "The user's seat at a table", responses.Seat, errors=(404,), parameters=[_TABLE_ID]
            )
        },
        "/v1/tables/{table_id}/rounds": {
            "post": _route(
                "Bet: start a round",
                responses.Round,
                body=StartRoundRequest,
                ok=201,
                errors=(404, 409),
                parameters=[_TABLE_ID],
                idempotent_post=True,
            )
        },
        "/v1/tables/{table_id}/round/actions": {
            "post": _route(
                "Act in the round in play",
                responses.Round,
                body=ActionRequest,
                errors=(404, 409, 412),
                parameters=[
                    _TABLE_ID,
                    {"name": "If-Match", "in": "header", "schema": {"type": "string"}},
                ],
                idempotent_post=True,
            )
        },
        "/v1/tables/{table_id}/round/hint": {
            "get": _route(
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
                "The table's strategy card",
                responses.StrategyCard,
                public=True,
                errors=(404,),
                parameters=[_TABLE_ID],
            )
        },
        "/v1/rounds": {
            "get": _route(
                "Settled rounds, last first",
                responses.History,
                errors=(422,),
                parameters=[
                    {"name": "table", "in": "query", "schema": {"type": "string"}},
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                    },
                    {"name": "cursor", "in": "query", "schema": {"type": "string"}},
                ],
            )
        },
        "/v1/rounds/{round_id}": {
            "get": _route(
                "One round",
                responses.Round,
                errors=(404,),
                parameters=[_path_parameter("round_id")],
            )
        },
        "/v1/shoes/{shoe_id}": {
            "get": _route(
                "A shoe: commitment, and seeds and cards once retired",
                responses.Shoe,
                errors=(404,),
                parameters=[_path_parameter("shoe_id")],
            )
        },
        "/v1/health": {"get": _route("Health", responses.Health, public=True)},
        "/v1/openapi.json": {
            "get": _route("This document", responses.OpenApiDocument, public=True)
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Open Blackjack", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
