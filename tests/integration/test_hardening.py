"""Requests an attacker or a fuzzer sends (issue 8): each gets a clear 4xx answer, never a
5xx, and a retry or a second spelling of a route never runs twice."""

from __future__ import annotations

import json

import pytest

from .harness import ROUTES, Gateway, LambdaContext
from .helpers import Player, assert_ledger, balance, problem
from .seeds import find_seed, no_natural_nor_ace_up, use_seeds

BET = {"bets": [{"box": 0, "amount": 100}]}
PUBLIC_POSTS = ["/v1/users", "/v1/sessions"]
PRIVATE_POSTS = ["/v1/tables/european/rounds", "/v1/tables/european/round/actions"]


def _post(api: Gateway, player: Player, path: str, raw: str, **headers: str) -> object:
    token = None if path in PUBLIC_POSTS else player.token
    return api.request("POST", path, raw=raw, token=token, headers=headers)


@pytest.mark.parametrize("path", PUBLIC_POSTS + PRIVATE_POSTS)
def test_a_body_nested_very_deep_is_400(api: Gateway, alice: Player, path: str) -> None:
    deep = '{"a":' + "[" * 1000 + "]" * 1000 + "}"
    problem(_post(api, alice, path, deep), 400, "malformed_request")


@pytest.mark.parametrize("path", PUBLIC_POSTS + PRIVATE_POSTS)
def test_a_5000_digit_integer_is_valid_json_but_no_valid_field(
    api: Gateway, alice: Player, path: str
) -> None:
    problem(_post(api, alice, path, '{"amount": ' + "9" * 5000 + "}"), 422, "validation_error")


@pytest.mark.parametrize(
    "body",
    [
        {"bets": [{"box": 0, "amount": 1e30}]},
        {"bets": [{"box": 0, "amount": 1.37e81}]},
        {"bets": [{"box": 0, "amount": 10**40}]},
        {"bets": [{"box": 0, "amount": 10}], "cut": 1e30},
    ],
)
def test_numbers_beyond_decimal_precision_are_refused_not_500(alice: Player, body: object) -> None:
    reply = alice.post("/v1/tables/casino/rounds", body)
    assert reply.status == 422, reply.text
    assert reply.body["code"] in {"validation_error", "bet_out_of_limits"}
    assert balance("alice1") == 10000


def test_a_huge_insurance_amount_is_validated_not_500(alice: Player) -> None:
    reply = alice.post(
        "/v1/tables/bicycle/round/actions", {"action": "insurance", "amount": 1.25e168}
    )
    # A multiple of 0.5, but over half of any table's largest bet (the document's maximum).
    problem(reply, 422, "validation_error")


@pytest.mark.parametrize("path", PUBLIC_POSTS + PRIVATE_POSTS)
def test_media_types_are_case_insensitive(api: Gateway, alice: Player, path: str) -> None:
    reply = _post(api, alice, path, "{}", **{"Content-Type": "Application/Json; Charset=UTF-8"})
    problem(reply, 422, "validation_error")  # past the media-type check: fields are missing


def test_an_if_match_of_thousands_of_digits_is_stale(alice: Player) -> None:
    alice.post("/v1/tables/european/rounds", BET)
    headers = {"If-Match": '"' + "7" * 4301 + '"'}
    reply = alice.post("/v1/tables/european/round/actions", {"action": "stand"}, headers=headers)
    # The precondition comes first (RFC 9110 13.2.2), even where the deal settled the round.
    problem(reply, 412, "stale_state")


@pytest.mark.parametrize("if_match", ["", '"7', '"seven"', '"7", "8"'])
def test_an_if_match_outside_the_documents_syntax_is_invalid_not_stale(
    alice: Player, if_match: str
) -> None:
    alice.post("/v1/tables/european/rounds", BET)
    headers = {"If-Match": if_match}
    reply = alice.post("/v1/tables/european/round/actions", {"action": "stand"}, headers=headers)
    problem(reply, 422, "validation_error")


def test_an_idempotency_key_is_scoped_to_the_route_not_its_spelling(
    api: Gateway, alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_seeds(monkeypatch, find_seed(6, no_natural_nor_ace_up))  # the round stays in play
    key = {"Idempotency-Key": "bet-once"}
    first = alice.post("/v1/tables/european/rounds", BET, headers=key)
    assert first.status == 201, first.text
    assert first.event is not None
    # What API Gateway sends for `/v1/tables/european/rounds/`: the same resource and
    # parameters, another path.
    event = {**first.event, "path": "/v1/tables/european/rounds/"}
    again = api.modules["rounds"].handler(event, LambdaContext())
    assert again["statusCode"] == 201
    assert json.loads(again["body"]) == first.body
    assert first.body["status"] == "player_turn"
    assert balance("alice1") == 9900
    assert_ledger("alice1")


def test_the_cut_includes_its_upper_bound(alice: Player) -> None:
    reply = alice.post("/v1/tables/casino/rounds", {**BET, "cut": 0.85})
    assert reply.status == 201, reply.text
    shoe = alice.get(f"/v1/shoes/{reply.body['shoe_id']}").body
    assert shoe["cut_index"] == 265  # floor(312 * 0.85)


def test_a_round_by_id_carries_its_etag(alice: Player) -> None:
    view = alice.post("/v1/tables/european/rounds", BET).body
    reply = alice.get(f"/v1/rounds/{view['round_id']}")
    assert reply.status == 200
    assert reply.header("ETag") == f'"{reply.body["version"]}"'


def test_a_bet_at_a_table_never_viewed_is_409_and_changes_nothing(alice: Player) -> None:
    reply = alice.post("/v1/tables/casino/rounds", BET, view_first=False)
    problem(reply, 409, "shoe_not_committed")
    assert balance("alice1") == 10000
    seat = alice.get("/v1/tables/casino").body
    assert seat["round"] is None
    reply = alice.post("/v1/tables/casino/rounds", BET)
    assert reply.status == 201 and reply.body["shoe_id"] == seat["shoe"]["shoe_id"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/users", {"login": "carol1", "nick": "carol1", "password": "password1"}),
        ("POST", "/v1/sessions", {"login": "alice1", "password": "password1"}),
        ("POST", "/v1/sessions", {"login": "alice1", "password": "wrong"}),
        ("GET", "/v1/me", None),
        ("GET", "/v1/tables", None),
        ("GET", "/v1/tables/casino", None),
        ("GET", "/v1/rounds", None),
        ("GET", "/v1/health", None),
        ("POST", "/v1/tables/casino/rounds", {"bets": []}),
        ("GET", "/v1/nowhere", None),  # API Gateway's own answer (GatewayResponses)
    ],
)
def test_every_api_response_is_no_store(
    api: Gateway, alice: Player, method: str, path: str, body: object
) -> None:
    reply = api.request(method, path, body, token=alice.token)
    assert reply.header("Cache-Control") == "no-store", (reply.status, reply.headers)


@pytest.mark.parametrize("path", PUBLIC_POSTS + PRIVATE_POSTS)
def test_a_body_sent_without_a_content_type_is_415(api: Gateway, alice: Player, path: str) -> None:
    token = None if path in PUBLIC_POSTS else alice.token
    sent = api.request("POST", path, raw="{}", token=token).event  # a real event, to edit
    assert sent is not None
    module = next(route.module for route in ROUTES if route.resource == sent["resource"])
    for content_type in (None, ""):  # no header, or an empty one
        headers = {k: v for k, v in sent["headers"].items() if k.lower() != "content-type"}
        if content_type is not None:
            headers["Content-Type"] = content_type
        event = {
            **sent,
            "headers": headers,
            "multiValueHeaders": {k: [v] for k, v in headers.items()},
        }
        response = api.modules[module].handler(event, LambdaContext())
        assert response["statusCode"] == 415, (content_type, response)
        assert json.loads(response["body"])["code"] == "unsupported_media_type"


@pytest.mark.parametrize("path", PUBLIC_POSTS + PRIVATE_POSTS)
def test_a_charset_other_than_utf8_is_415(api: Gateway, alice: Player, path: str) -> None:
    for charset in ("iso-8859-1", "utf-16", '"latin1"'):
        content_type = f"application/json; charset={charset}"
        reply = _post(api, alice, path, '{"login": "caf\u00e9"}', **{"Content-Type": content_type})
        problem(reply, 415, "unsupported_media_type")


def test_utf8_named_any_way_is_json(api: Gateway) -> None:
    for n, content_type in enumerate(
        ["application/json; charset=UTF-8", 'application/json;charset="utf-8"']
    ):
        body = {"login": f"lena{n}xxx", "nick": "lena", "password": "pass1234"}
        reply = api.request(
            "POST", "/v1/users", raw=json.dumps(body), headers={"Content-Type": content_type}
        )
        assert reply.status == 201, reply.text


@pytest.mark.parametrize("path", PUBLIC_POSTS + PRIVATE_POSTS)
def test_a_name_twice_in_an_object_is_400(api: Gateway, alice: Player, path: str) -> None:
    for raw in (
        '{"login": "alice1", "login": "mallory1", "password": "password1"}',
        '{"bets": [{"box": 0, "amount": 10, "amount": 5000}]}',
        '{"action": "stand", "action": "double"}',
    ):
        problem(_post(api, alice, path, raw), 400, "malformed_request")
