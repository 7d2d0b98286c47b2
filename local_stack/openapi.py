"""The OpenAPI document, put together from every function's resolver and the template.

Each function's resolver knows its own routes as its handlers declare them (their
parameters, bodies, answers and errors: `blackjack_service.openapi.operation`); Powertools'
OpenAPIMerge joins them. The template adds each route's authorizer (its security, and 401)
and its event's name (the operation's id, in lower case); then what holds on every route:
API Gateway's rate limit (429) and, with a body, the body checks every function makes.
The layer's build runs this module and ships the document (layers/engine/Makefile).
"""

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge

from blackjack_service import responses
from blackjack_service.openapi import NO_STORE
from blackjack_service.problems import PROBLEM_JSON

from .template import ApiRoute, Template

TEMPLATE = Path(__file__).resolve().parents[1] / "template.yaml"
_EVERY_ROUTE = (429,)
_WITH_BODY = (400, 413, 415, 422)
# Powertools' own answer to an invalid request, which the functions answer with a problem.
_POWERTOOLS_VALIDATION = ("HTTPValidationError", "ValidationError")
_POWERTOOLS_SCHEMAS = (*_POWERTOOLS_VALIDATION, "ResponseValidationError")
_PROBLEM = {
    "description": "Problem",
    "headers": NO_STORE,
    "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
}
# The functions read their settings when imported; the document depends on none of them.
_PLACEHOLDER_SETTINGS = {"TABLE_NAME": "openapi", "TOKEN_SECRET_ARN": "openapi"}


def generate(template_file: Path = TEMPLATE) -> dict[str, Any]:
    template = Template.from_file(template_file)
    routes = list(template.api_routes())
    merge = OpenAPIMerge(title="Open Blackjack", version="1", on_conflict="error")
    for name, value in _PLACEHOLDER_SETTINGS.items():
        os.environ.setdefault(name, value)  # this module runs in a process of its own
    for function in dict.fromkeys(route.function for route in routes):
        merge.add_schema(_resolver_schema(template, function))
    document = merge.get_openapi_schema()
    declared = {(path, method) for path, item in document["paths"].items() for method in item}
    routed = {(route.path, route.method.lower()) for route in routes}
    if declared != routed:
        raise RuntimeError(f"the template's routes and the handlers' differ: {declared ^ routed}")
    for route in routes:
        _complete(document["paths"][route.path][route.method.lower()], route)
    document["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
    schemas = document["components"]["schemas"]
    schemas.setdefault("Problem", responses.Problem.model_json_schema())
    for name in _POWERTOOLS_SCHEMAS:
        schemas.pop(name, None)
    return document


def _resolver_schema(template: Template, function: str) -> dict[str, Any]:
    """The OpenAPI schema of one function's resolver (its module's `app`), as JSON."""
    folder, handler = template.function_code(function)
    module_name = handler.partition(".")[0]
    spec = importlib.util.spec_from_file_location(
        f"openapi_{module_name}", folder / f"{module_name}.py"
    )
    if spec is None or spec.loader is None:
        raise RuntimeError(f"{function}: no module {module_name} in {folder}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    schema: dict[str, Any] = module.app.get_openapi_schema().model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    return schema


def _complete(operation: dict[str, Any], route: ApiRoute) -> None:
    operation["operationId"] = route.operation.lower()
    operation["security"] = [] if route.authorizer is None else [{"bearer": []}]
    for parameter in operation.get("parameters", []):
        _not_null(parameter)
    answers = {
        code: answer
        for code, answer in operation["responses"].items()
        if not _is_powertools_validation(answer)
    }
    added = [*_EVERY_ROUTE, *(() if route.authorizer is None else (401,))]
    if "requestBody" in operation:
        added += _WITH_BODY
    for code in map(str, added):
        answers.setdefault(code, _PROBLEM)
    operation["responses"] = dict(sorted(answers.items()))


def _not_null(parameter: dict[str, Any]) -> None:
    """An optional parameter is one a request may leave out (`required: false`), never one
    it sends as null: a header or a query string has no null."""
    schema = parameter["schema"]
    options = [option for option in schema.get("anyOf", ()) if option.get("type") != "null"]
    if len(options) == 1:
        del schema["anyOf"]
        schema.update(options[0])


def _is_powertools_validation(answer: dict[str, Any]) -> bool:
    schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
    return schema.get("$ref", "").rsplit("/", 1)[-1] in _POWERTOOLS_VALIDATION


if __name__ == "__main__":  # the layer's build: `python -m local_stack.openapi`
    json.dump(generate(), sys.stdout, indent=1)
