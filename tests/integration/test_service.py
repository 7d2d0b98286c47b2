"""Health, the OpenAPI document, routing inside a function, unexpected errors, imports."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from local_stack.template import load_template

from .harness import API_MODULES, CODE_DIRS, MODULES, ROOT, ROUTES, Gateway, LambdaContext, sample
from .helpers import dynamodb, problem, table_name

SPEC = ROOT / "docs" / "spec" / "API.md"  # the contract


def test_health(api: Gateway) -> None:
    reply = api.request("GET", "/v1/health", headers={"Origin": "https://play.example"})
    assert reply.status == 200 and reply.body == {"status": "ok"}
    assert reply.header("Access-Control-Allow-Origin") == "*"


def _spec_routes() -> set[tuple[str, str]]:
    assert SPEC.is_file(), f"the spec is missing: {SPEC}"
    found = re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/v1/[^`?\s,]*)", SPEC.read_text())
    assert len(found) >= len(ROUTES), f"{SPEC} names only {len(found)} routes"
    return {(method, path) for method, path in found}


def _template_routes() -> set[tuple[str, str]]:
    document = load_template(ROOT / "template.yaml")
    routes = set()
    for resource in document["Resources"].values():
        if not isinstance(resource, dict):  # an Fn::ForEach of resources
            continue
        for event in resource.get("Properties", {}).get("Events", {}).values():
            if event.get("Type") == "Api":
                properties = event["Properties"]
                routes.add((properties["Method"].upper(), properties["Path"]))
    return routes


def test_openapi_covers_every_route(api: Gateway) -> None:
    reply = api.request("GET", "/v1/openapi.json")
    assert reply.status == 200
    document = reply.body
    assert document["openapi"].startswith("3.")
    served = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    expected = {(method, resource) for method, resource, *_ in ROUTES}
    expected |= _spec_routes() | _template_routes()
    assert expected <= served, expected - served
    assert "StartRoundRequest" in document["components"]["schemas"]


@pytest.mark.parametrize("module", API_MODULES)
def test_unknown_route_inside_a_function_is_404(api: Gateway, module: str) -> None:
    event = sample("me_get")
    event["path"] = event["resource"] = "/v1/nothing-here"
    event["httpMethod"] = "DELETE"
    response = api.modules[module].handler(event, LambdaContext())
    assert response["statusCode"] == 404
    body = json.loads(response["body"])
    assert body["code"] == "not_found" and body["status"] == 404


def test_gateway_unknown_route(api: Gateway) -> None:
    problem(api.request("GET", "/v1/nowhere"), 404, "not_found")
    problem(api.request("DELETE", "/v1/me"), 404, "not_found")


def test_unexpected_error_is_a_bare_500(api: Gateway, alice) -> None:
    dynamodb().delete_table(TableName=table_name())
    reply = api.request("GET", "/v1/me", token=alice.token)
    problem(reply, 500, "internal_error")
    assert "ResourceNotFound" not in reply.text and "dynamodb" not in reply.text.lower()


def test_dynamodb_throttling_is_429_with_retry_after(api: Gateway) -> None:
    from botocore.exceptions import ClientError

    from blackjack_service.api import create_app

    app = create_app()

    @app.get("/v1/health")
    def busy() -> None:
        error = {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "slow"}}
        raise ClientError(error, "GetItem")  # type: ignore[arg-type]

    response = app.resolve(sample("meta_health"), LambdaContext())  # type: ignore[arg-type]
    assert response["statusCode"] == 429
    assert response["multiValueHeaders"]["Retry-After"] == ["1"]
    assert json.loads(response["body"])["code"] == "throttled"


def test_unknown_table_is_404(alice) -> None:
    problem(alice.get("/v1/tables/nowhere"), 404, "not_found")


def test_tables_public(api: Gateway) -> None:
    reply = api.request("GET", "/v1/tables")
    assert reply.status == 200
    tables = reply.body["tables"]
    assert [t["id"] for t in tables] == ["classic", "bicycle", "casino", "european"]
    assert set(tables[2]) == {"id", "name", "description", "min_bet", "max_bet", "boxes", "rules"}


_GUARD = """
import socket, sys
def refuse(*args, **kwargs):
    raise RuntimeError("network used at import")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
sys.path[:0] = {paths!r}
import {module}
assert callable({module}.handler)
"""


@pytest.mark.parametrize("module", MODULES)
def test_function_imports_without_credentials_or_network(module: str, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("AWS_")}
    env |= {
        "TABLE_NAME": "GameTable",  # the template's settings: names, not credentials
        "TOKEN_SECRET_ARN": "arn:aws:secretsmanager:us-east-1:123456789012:secret:token",
        "HOME": str(tmp_path),
        "AWS_CONFIG_FILE": "/nonexistent",
        "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
    }
    paths = [str(CODE_DIRS[module]), str(ROOT / "layers" / "engine")]
    code = _GUARD.format(paths=paths, module=module)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_round_metrics(
    alice, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from .helpers import bet, play_out
    from .seeds import find_seed, use_seeds, value

    seed = find_seed(
        6,
        lambda s: (
            value(s[0]) + value(s[2]) == 16 and "A" not in s[0][0] + s[2][0] and s[1][0] == "T"
        ),
    )
    use_seeds(monkeypatch, seed)
    capsys.readouterr()
    view = play_out(alice, "casino", bet(alice, "casino", 100).body)
    metrics = {}
    for line in capsys.readouterr().out.splitlines():
        if line.startswith('{"_aws"'):
            record = json.loads(line)
            for definition in record["_aws"]["CloudWatchMetrics"][0]["Metrics"]:
                metrics[definition["Name"]] = sum(record[definition["Name"]])
    assert metrics["RoundsStarted"] == 1 and metrics["RoundsSettled"] == 1
    house = -view["net"]
    if house > 0:
        assert metrics["HouseCoinsWon"] == house
    elif house < 0:
        assert metrics["HouseCoinsLost"] == -house


def test_every_gateway_response_is_no_store() -> None:
    api = load_template(ROOT / "template.yaml")["Resources"]["BlackjackApi"]["Properties"]
    for name, response in api["GatewayResponses"].items():
        headers = response["ResponseParameters"]["Headers"]
        assert headers.get("Cache-Control") == "'no-store'", name


def test_the_web_client_is_served_with_security_headers_from_cloudfront() -> None:
    resources = load_template(ROOT / "template.yaml")["Resources"]
    behaviour = resources["WebDistribution"]["Properties"]["DistributionConfig"][
        "DefaultCacheBehavior"
    ]
    policy_id = behaviour["ResponseHeadersPolicyId"]
    policy = resources[policy_id["Ref"]]["Properties"]["ResponseHeadersPolicyConfig"]
    security = policy["SecurityHeadersConfig"]
    csp = security["ContentSecurityPolicy"]["ContentSecurityPolicy"]["Fn::Sub"]
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    assert directives["default-src"] == "'self'"  # scripts and styles: only its own files
    # connections: its own origin, and the rooms' WebSocket API
    live = "wss://${LiveApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"
    assert directives["connect-src"].split() == ["'self'", live]
    assert "script-src" not in directives and "style-src" not in directives
    assert directives["frame-ancestors"] == "'none'"
    assert "ContentTypeOptions" in security
    assert security["ReferrerPolicy"]["ReferrerPolicy"] == "no-referrer"
    index = (ROOT / "web" / "index.html").read_text()
    assert "<script>" not in index and "style=" not in index and "<style" not in index


_CONSTRAINTS = ("type", "pattern", "minimum", "maximum", "enum", "minLength", "maxLength")


def _constraints(schema: dict[str, object]) -> dict[str, object]:
    """A parameter's constraints, an optional one's `anyOf: [..., null]` unwrapped."""
    options = schema.get("anyOf")
    if isinstance(options, list):
        schema = next(option for option in options if option.get("type") != "null")
    return {key: schema[key] for key in _CONSTRAINTS if key in schema}


@pytest.mark.parametrize("module", API_MODULES)
def test_openapi_says_what_each_function_validates(api: Gateway, module: str) -> None:
    """The published query parameters and request bodies are the ones the function's
    resolver validates with (Powertools' own OpenAPI view of its routes)."""
    published = api.request("GET", "/v1/openapi.json").body["paths"]
    own = (
        api.modules[module]
        .app.get_openapi_schema()
        .model_dump(mode="json", by_alias=True, exclude_none=True)
    )
    for path, item in own["paths"].items():
        for method, operation in item.items():
            ours = published[path][method]
            expected = {
                p["name"]: _constraints(p["schema"])
                for p in operation.get("parameters", [])
                if p["in"] == "query"
            }
            served = {
                p["name"]: _constraints(p["schema"])
                for p in ours.get("parameters", [])
                if p["in"] == "query"
            }
            assert served == expected, (method, path, served, expected)
            body = operation.get("requestBody", {}).get("content", {})
            if body:
                ref = body["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
                assert ref in json.dumps(ours["requestBody"]), (method, path)
