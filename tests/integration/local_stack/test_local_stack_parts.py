"""The local stack's parts on their own: template loading and intrinsics, route
matching, IAM policy evaluation, throttling, gateway responses, proxy responses."""

from __future__ import annotations

import base64
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from local_stack.events import ApiContext, HttpRequest, MalformedProxyResponse, proxy_response
from local_stack.gateway import Gateway
from local_stack.gateway.authorizer import Authorizer, AuthorizerDenied, policy_allows
from local_stack.gateway.cors import Cors
from local_stack.gateway.responses import GatewayResponses, parse_gateway_responses
from local_stack.gateway.routes import Route, RouteTable
from local_stack.gateway.throttling import Throttle, TokenBucket
from local_stack.runtime import LambdaFunction, Throttled
from local_stack.secrets import generate_secret_string
from local_stack.template import (
    NO_VALUE,
    Physical,
    Template,
    TemplateError,
    load_template,
    logical_target,
    merge_globals,
)
from tests.integration.local_stack.harness import TEMPLATE

API = ApiContext(api_id="abc1234567", stage="v1")
ARN = "arn:aws:execute-api:us-east-1:123456789012:abc1234567/v1"


def _template(text: str) -> Template:
    path = Path("/nonexistent/template.yaml")
    from cfnlint.decode.cfn_yaml import loads  # type: ignore[import-untyped]

    from local_stack.template import _plain

    return Template(_plain(loads(text, str(path))), path.parent)


# -- template -----------------------------------------------------------------------


def test_short_form_tags_load_as_their_long_form() -> None:
    data = load_template(TEMPLATE)
    variables = data["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["TABLE_NAME"] == {"Ref": "GameTable"}
    assert variables["TABLE_ARN"] == {"Fn::GetAtt": ["GameTable", "Arn"]}
    assert variables["FLAVOUR"] == {"Fn::If": ["IsVanilla", "plain", "fancy"]}
    assert variables["REGION_AND_TABLE"] == {"Fn::Sub": "${AWS::Region}/${GameTable}/${!Literal}"}
    assert type(variables["TABLE_NAME"]) is dict  # plain data, not the loader's nodes


def test_a_broken_template_is_a_template_error(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("Resources: [unclosed\n")
    with pytest.raises(TemplateError):
        load_template(tmp_path / "bad.yaml")
    with pytest.raises(TemplateError):
        load_template(tmp_path / "missing.yaml")


def test_intrinsics_resolve_to_local_values() -> None:
    template = _template(
        """
Parameters:
  Env: {Type: String, Default: dev}
  Size: {Type: Number, Default: 3}
Conditions:
  IsDev: !Equals [!Ref Env, dev]
  IsProd: !Not [!Condition IsDev]
  Both: !And [!Condition IsDev, !Or [!Condition IsProd, !Equals [a, a]]]
Mappings:
  Sizes: {dev: {memory: 128}}
Resources:
  Table: {Type: AWS::DynamoDB::Table}
"""
    )
    template.physical["Table"] = Physical("the-table", {"Arn": "arn:table"})
    resolve = template.resolve
    assert resolve({"Ref": "Env"}) == "dev"
    assert resolve({"Ref": "Size"}) == 3
    assert resolve({"Ref": "AWS::Region"}) == "us-east-1"
    assert resolve({"Ref": "AWS::AccountId"}) == "123456789012"
    assert resolve({"Ref": "Table"}) == "the-table"
    assert resolve({"Fn::GetAtt": ["Table", "Arn"]}) == "arn:table"
    assert resolve({"Fn::GetAtt": "Table.Arn"}) == "arn:table"
    assert resolve({"Fn::Sub": "${Table}:${Table.Arn}:${AWS::Partition}:${!Keep}"}) == (
        "the-table:arn:table:aws:${Keep}"
    )
    assert resolve({"Fn::Sub": ["${X}-${Env}", {"X": {"Ref": "Table"}}]}) == "the-table-dev"
    assert resolve({"Fn::If": ["IsDev", "yes", "no"]}) == "yes"
    assert resolve({"Fn::If": ["IsProd", "yes", "no"]}) == "no"
    assert template.condition("Both") is True
    assert resolve({"Fn::Join": ["-", ["a", {"Ref": "Env"}]]}) == "a-dev"
    assert resolve({"Fn::Select": [1, {"Fn::Split": [",", "x,y,z"]}]}) == "y"
    assert resolve({"Fn::FindInMap": ["Sizes", {"Ref": "Env"}, "memory"]}) == 128
    assert resolve({"Fn::Base64": "hi"}) == base64.b64encode(b"hi").decode()
    no_value = {"Fn::If": ["IsProd", "x", {"Ref": "AWS::NoValue"}]}
    assert resolve({"A": no_value, "B": 1}) == {"B": 1}
    assert resolve([no_value, 2]) == [2]
    assert resolve({"Ref": "AWS::NoValue"}) is NO_VALUE
    with pytest.raises(TemplateError):
        resolve({"Ref": "Nowhere"})
    with pytest.raises(TemplateError):
        resolve({"Fn::GetAtt": ["Table", "StreamArn"]})
    with pytest.raises(TemplateError):
        resolve({"Fn::ImportValue": "x"})


def test_logical_targets_of_function_references() -> None:
    assert logical_target({"Fn::GetAtt": ["AuthFunction", "Arn"]}) == "AuthFunction"
    assert logical_target({"Fn::GetAtt": "AuthFunction.Arn"}) == "AuthFunction"
    assert logical_target({"Ref": "Layer"}) == "Layer"
    assert logical_target({"Fn::Sub": "${AuthFunction.Arn}"}) == "AuthFunction"
    assert logical_target("arn:aws:lambda:x") is None


def test_sam_globals_merge() -> None:
    merged = merge_globals(
        {"Timeout": 3, "Layers": ["A"], "Environment": {"Variables": {"X": "1", "Y": "1"}}},
        {"Timeout": 10, "Layers": ["B"], "Environment": {"Variables": {"Y": "2"}}},
    )
    assert merged == {
        "Timeout": 10,
        "Layers": ["A", "B"],
        "Environment": {"Variables": {"X": "1", "Y": "2"}},
    }


# -- secrets ------------------------------------------------------------------------


def test_generated_secrets_follow_the_spec() -> None:
    plain = generate_secret_string({"PasswordLength": 64, "ExcludePunctuation": True})
    assert len(plain) == 64
    assert set(plain) <= set(string.ascii_letters + string.digits)
    assert generate_secret_string({}) != generate_secret_string({})
    digits = generate_secret_string(
        {
            "PasswordLength": 8,
            "ExcludeLowercase": True,
            "ExcludeUppercase": True,
            "ExcludePunctuation": True,
            "ExcludeCharacters": "0",
        }
    )
    assert set(digits) <= set("123456789")
    document = json.loads(
        generate_secret_string({"SecretStringTemplate": '{"user": "u"}', "GenerateStringKey": "pw"})
    )
    assert document["user"] == "u"
    assert len(document["pw"]) == 32


# -- routes -------------------------------------------------------------------------


def _function(name: str) -> LambdaFunction:
    return LambdaFunction(
        logical_id=name,
        name=name,
        code_dir=Path("/x"),
        handler="x.h",
        layer_dirs=[],
        environment={},
    )


def _table(*routes: tuple[str, str]) -> RouteTable:
    return RouteTable(
        [Route(path, method, _function(f"{method} {path}")) for path, method in routes]
    )


def test_route_matching_prefers_literals_then_parameters_then_greedy() -> None:
    table = _table(
        ("/v1/tables", "GET"),
        ("/v1/tables/{table_id}", "GET"),
        ("/v1/tables/european", "GET"),
        ("/v1/tables/{table_id}/round/actions", "POST"),
        ("/v1/files/{proxy+}", "ANY"),
        ("/v1/{proxy+}", "GET"),
    )

    def hit(method: str, path: str) -> tuple[str, dict[str, str]] | None:
        found = table.match(method, path)
        return None if found is None else (found[0].function.name, found[1])

    assert hit("GET", "/v1/tables") == ("GET /v1/tables", {})
    assert hit("GET", "/v1/tables/") == ("GET /v1/tables", {})
    assert hit("GET", "/v1/tables/european") == ("GET /v1/tables/european", {})
    assert hit("GET", "/v1/tables/casino") == ("GET /v1/tables/{table_id}", {"table_id": "casino"})
    assert hit("GET", "/v1/tables/a%20b") == ("GET /v1/tables/{table_id}", {"table_id": "a b"})
    assert hit("POST", "/v1/tables/casino/round/actions") == (
        "POST /v1/tables/{table_id}/round/actions",
        {"table_id": "casino"},
    )
    assert hit("DELETE", "/v1/files/a/b") == ("ANY /v1/files/{proxy+}", {"proxy": "a/b"})
    assert hit("GET", "/v1/other/x") == ("GET /v1/{proxy+}", {"proxy": "other/x"})
    # the resource is chosen first, then its method: no fallback to a looser resource
    assert hit("POST", "/v1/tables/casino") is None
    assert hit("GET", "/v1/files") == ("GET /v1/{proxy+}", {"proxy": "files"})
    assert hit("GET", "/v1") is None  # {proxy+} needs at least one segment
    assert hit("GET", "/v2/tables") is None
    assert hit("GET", "/") is None


# -- authorizer policies ------------------------------------------------------------


def _policy(*statements: tuple[str, Any, Any]) -> dict[str, Any]:
    return {
        "Version": "2012-10-17",
        "Statement": [{"Effect": e, "Action": a, "Resource": r} for e, a, r in statements],
    }


def test_policy_evaluation_with_wildcards() -> None:
    arn = f"{ARN}/GET/v1/me"
    invoke = "execute-api:Invoke"
    assert policy_allows(_policy(("Allow", invoke, arn)), arn)
    assert policy_allows(_policy(("Allow", invoke, f"{ARN}/*")), arn)
    assert policy_allows(_policy(("Allow", "execute-api:*", [f"{ARN}/*/v1/*"])), arn)
    assert policy_allows(_policy(("Allow", "*", "*")), arn)
    assert policy_allows(_policy(("Allow", invoke, f"{ARN}/???/v1/me")), arn)
    assert not policy_allows(_policy(("Allow", invoke, f"{ARN}/POST/*")), arn)
    assert not policy_allows(_policy(("Allow", "s3:GetObject", "*")), arn)
    assert not policy_allows(_policy(), arn)
    with pytest.raises(AuthorizerDenied) as denied:
        policy_allows(_policy(("Allow", invoke, "*"), ("Deny", invoke, f"{ARN}/GET/*")), arn)
    assert denied.value.kind == "ACCESS_DENIED"
    with pytest.raises(AuthorizerDenied) as broken:
        policy_allows({"Version": "2012-10-17"}, arn)
    assert broken.value.kind == "AUTHORIZER_CONFIGURATION_ERROR"


# -- throttling ---------------------------------------------------------------------


def test_token_bucket_allows_the_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=1000.0, burst=3)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    bucket.updated -= 0.002  # two milliseconds later: two more tokens
    assert [bucket.take() for _ in range(3)] == [True, True, False]


def test_most_specific_method_setting_wins() -> None:
    throttle = Throttle(
        [
            {
                "ResourcePath": "/*",
                "HttpMethod": "*",
                "ThrottlingRateLimit": 0.001,
                "ThrottlingBurstLimit": 1,
            },
            {
                "ResourcePath": "/~1v1~1me",
                "HttpMethod": "GET",
                "ThrottlingRateLimit": 0.001,
                "ThrottlingBurstLimit": 3,
            },
            {"ResourcePath": "/~1v1~1free", "HttpMethod": "*", "ThrottlingRateLimit": -1},
        ]
    )
    assert [throttle.allow("/v1/me", "GET") for _ in range(4)] == [True, True, True, False]
    assert [throttle.allow("/v1/me", "POST") for _ in range(2)] == [True, False]
    assert all(throttle.allow("/v1/free", "GET") for _ in range(10))
    assert all(Throttle([]).allow("/v1/me", "GET") for _ in range(10))


# -- gateway responses --------------------------------------------------------------


def _request(path: str = "/v1/x") -> HttpRequest:
    return HttpRequest("GET", path, "", [("User-Agent", "ua")], b"", request_id="rid-1")


def test_api_gateways_own_defaults_without_customisation() -> None:
    responses = GatewayResponses({}, API)
    missing = responses.render("MISSING_AUTHENTICATION_TOKEN", _request())
    assert missing.status == 403
    assert json.loads(missing.body) == {"message": "Missing Authentication Token"}
    assert missing.header("Content-Type") == "application/json"
    assert missing.header("x-amzn-ErrorType") == "MissingAuthenticationTokenException"
    assert json.loads(responses.render("UNAUTHORIZED", _request()).body) == {
        "message": "Unauthorized"
    }
    throttled = responses.render("THROTTLED", _request())
    assert (throttled.status, json.loads(throttled.body)) == (429, {"message": "Too Many Requests"})
    failure = responses.render("AUTHORIZER_FAILURE", _request())
    assert (failure.status, json.loads(failure.body)) == (500, {"message": None})
    error = responses.render("DEFAULT_5XX", _request(), message="Internal server error", status=502)
    assert (error.status, json.loads(error.body)) == (502, {"message": "Internal server error"})


def test_customised_responses_and_default_fallbacks() -> None:
    config = {
        "UNAUTHORIZED": {
            "StatusCode": "401",
            "ResponseParameters": {
                "Headers": {
                    "Content-Type": "'application/problem+json'",
                    "WWW-Authenticate": "'Bearer'",
                    "X-Agent": "method.request.header.user-agent",
                }
            },
            "ResponseTemplates": {
                "application/json": (
                    '{"d": "$context.error.message", "r": "${context.requestId}", '
                    '"p": "$context.path", "t": "$context.error.responseType", '
                    '"q": $context.error.messageString, "u": "$context.unknown"}'
                )
            },
        },
        "DEFAULT_4XX": {
            "StatusCode": 400,
            "ResponseTemplates": {"application/json": '{"code": "malformed_request"}'},
        },
    }
    responses = GatewayResponses(parse_gateway_responses(config), API)
    unauthorized = responses.render("UNAUTHORIZED", _request("/v1/me"))
    assert unauthorized.status == 401
    assert json.loads(unauthorized.body) == {
        "d": "Unauthorized",
        "r": "rid-1",
        "p": "/v1/me",
        "t": "UNAUTHORIZED",
        "q": "Unauthorized",
        "u": "",
    }
    assert unauthorized.header("Content-Type") == "application/problem+json"
    assert unauthorized.header("WWW-Authenticate") == "Bearer"
    assert unauthorized.header("X-Agent") == "ua"
    # a 4xx type the template does not define falls back to DEFAULT_4XX
    missing = responses.render("MISSING_AUTHENTICATION_TOKEN", _request())
    assert (missing.status, json.loads(missing.body)) == (400, {"code": "malformed_request"})
    # 5xx types do not
    assert responses.render("AUTHORIZER_FAILURE", _request()).status == 500
    # a type with its own template but no status takes the DEFAULT_4XX status
    config["THROTTLED"] = {"ResponseTemplates": {"application/json": '{"code": "throttled"}'}}
    responses = GatewayResponses(parse_gateway_responses(config), API)
    throttled = responses.render("THROTTLED", _request())
    assert (throttled.status, json.loads(throttled.body)) == (400, {"code": "throttled"})


def test_cors_preflight() -> None:
    cors = Cors.parse({"AllowOrigin": "'https://a.example'", "AllowCredentials": True})
    assert cors is not None
    reply = cors.preflight(["POST", "GET"])
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") == "https://a.example"
    assert reply.header("Access-Control-Allow-Methods") == "GET,OPTIONS,POST"
    assert reply.header("Access-Control-Allow-Credentials") == "true"
    simple = Cors.parse("'*'")
    assert simple is not None and simple.allow_origin == "*"
    assert Cors.parse(None) is None


# -- proxy responses ----------------------------------------------------------------


def test_proxy_responses_map_to_http() -> None:
    reply = proxy_response(
        {
            "statusCode": 201,
            "headers": {"Content-Type": "application/json", "ETag": '"3"'},
            "multiValueHeaders": {"Set-Cookie": ["a=1", "b=2"]},
            "body": '{"ok": true}',
        }
    )
    assert reply.status == 201
    assert reply.body == b'{"ok": true}'
    assert ("ETag", '"3"') in reply.headers
    assert [v for k, v in reply.headers if k == "Set-Cookie"] == ["a=1", "b=2"]
    binary = proxy_response(
        {"statusCode": 200, "body": base64.b64encode(b"\x00\x01").decode(), "isBase64Encoded": True}
    )
    assert binary.body == b"\x00\x01"
    empty = proxy_response({"statusCode": 204})
    assert empty.body == b""
    assert empty.headers == [("Content-Type", "application/json")]  # API Gateway's default


@pytest.mark.parametrize(
    "result",
    [
        None,
        "text",
        {"statusCode": "abc"},
        {"statusCode": 200, "body": {"a": 1}},
        {"statusCode": 200, "extra": 1},
        {"statusCode": 200, "headers": []},
        {"statusCode": 200, "multiValueHeaders": {"a": "b"}},
    ],
)
def test_malformed_proxy_responses_are_rejected(result: Any) -> None:
    with pytest.raises(MalformedProxyResponse):
        proxy_response(result)


# -- the gateway with stand-in functions --------------------------------------------


class Functions:
    """Stands in for the Lambda runtime: records each invocation, answers per function."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, function: LambdaFunction, event: dict[str, Any], request_id: str) -> Any:
        self.calls.append((function.name, event))
        answer = self.answers[function.name]
        if isinstance(answer, Exception):
            raise answer
        return answer(event) if callable(answer) else answer

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]


def _gateway(functions: Functions, ttl_s: int = 0) -> Gateway:
    authorizer = Authorizer(
        name="TokenAuthorizer",
        function=_function("auth"),
        identity_header="X-Token",
        validation_expression=re.compile(r"Bearer .+"),
        ttl_s=ttl_s,
    )
    return Gateway(
        api=API,
        routes=[
            Route("/v1/me", "GET", _function("me"), authorizer),
            Route("/v1/me", "POST", _function("me"), authorizer),
            Route("/v1/open", "GET", _function("me"), None),
        ],
        responses={},
        throttle=Throttle([]),
        invoke=functions,
    )


def _allow(event: dict[str, Any]) -> dict[str, Any]:
    return {
        "principalId": "alice",
        "policyDocument": _policy(("Allow", "execute-api:Invoke", f"{ARN}/GET/v1/me")),
        "context": {"login": "alice", "vip": True, "level": 2},
    }


def _call(gateway: Gateway, method: str, path: str, token: str | None) -> Any:
    headers = [("X-Token", token)] if token is not None else []
    return gateway.handle(HttpRequest(method, path, "", headers, b""))


def test_the_authorizer_runs_as_api_gateway_runs_it() -> None:
    functions = Functions({"auth": _allow, "me": {"statusCode": 200, "body": "ok"}})
    gateway = _gateway(functions)
    # no identity header, or one the ValidationExpression refuses: 401, no authorizer call
    assert _call(gateway, "GET", "/v1/me", None).status == 401
    assert _call(gateway, "GET", "/v1/me", "Basic x").status == 401
    assert functions.calls == []
    # a public route: the function alone
    assert _call(gateway, "GET", "/v1/open", None).status == 200
    assert functions.names() == ["me"]
    assert "authorizer" not in functions.calls[0][1]["requestContext"]
    # allowed: the TOKEN event, then the function with principal and context as strings
    functions.calls.clear()
    reply = _call(gateway, "GET", "/v1/me", "Bearer t1")
    assert (reply.status, reply.body) == (200, b"ok")
    assert functions.names() == ["auth", "me"]
    assert functions.calls[0][1] == {
        "type": "TOKEN",
        "authorizationToken": "Bearer t1",
        "methodArn": f"{ARN}/GET/v1/me",
    }
    assert functions.calls[1][1]["requestContext"]["authorizer"] == {
        "principalId": "alice",
        "login": "alice",
        "vip": "true",
        "level": "2",
    }
    # the policy covers GET only: POST is denied, and the function is not called
    functions.calls.clear()
    denied = _call(gateway, "POST", "/v1/me", "Bearer t1")
    assert denied.status == 403
    assert json.loads(denied.body) == {"message": "User is not authorized to access this resource"}
    assert functions.names() == ["auth"]


def test_authorizer_errors() -> None:
    gateway = _gateway(Functions({"auth": Exception("Unauthorized"), "me": {"statusCode": 200}}))
    unauthorized = _call(gateway, "GET", "/v1/me", "Bearer t")
    assert (unauthorized.status, json.loads(unauthorized.body)) == (
        401,
        {"message": "Unauthorized"},
    )
    gateway = _gateway(Functions({"auth": RuntimeError("bug"), "me": {"statusCode": 200}}))
    assert _call(gateway, "GET", "/v1/me", "Bearer t").status == 500
    gateway = _gateway(Functions({"auth": {"policyDocument": {}}, "me": {"statusCode": 200}}))
    assert _call(gateway, "GET", "/v1/me", "Bearer t").status == 500


def test_a_throttled_function_is_api_gateways_429() -> None:
    busy = Throttled("MeFunction: 10 invocations running")
    for answers in ({"auth": _allow, "me": busy}, {"auth": busy, "me": {"statusCode": 200}}):
        reply = _call(_gateway(Functions(answers)), "GET", "/v1/me", "Bearer t")
        assert (reply.status, json.loads(reply.body)) == (429, {"message": "Too Many Requests"})


def test_authorizer_answers_are_cached_per_token_when_asked() -> None:
    functions = Functions({"auth": _allow, "me": {"statusCode": 200}})
    gateway = _gateway(functions, ttl_s=300)
    for _ in range(3):
        assert _call(gateway, "GET", "/v1/me", "Bearer t1").status == 200
    assert functions.names().count("auth") == 1
    # the cached policy is evaluated against each request's ARN, as in API Gateway
    assert _call(gateway, "POST", "/v1/me", "Bearer t1").status == 403
    assert _call(gateway, "GET", "/v1/me", "Bearer t2").status == 200
    assert functions.names().count("auth") == 2
    uncached = Functions({"auth": _allow, "me": {"statusCode": 200}})
    gateway = _gateway(uncached)
    for _ in range(3):
        _call(gateway, "GET", "/v1/me", "Bearer t1")
    assert uncached.names().count("auth") == 3
