"""Registration, login, lockout, the profile, and the authorizer through the gateway."""

from __future__ import annotations

import json
import time

import jwt
import pytest

from .harness import Gateway
from .helpers import Player, problem
from .seeds import find_seed, use_seeds, value


def test_register_and_login(api: Gateway) -> None:
    reply = api.request(
        "POST", "/v1/users", {"login": "Carol99", "nick": "carol", "password": "pass1234"}
    )
    assert reply.status == 201
    assert reply.body == {"login": "Carol99", "nick": "carol", "balance": 10000}
    reply = api.request("POST", "/v1/sessions", {"login": "carol99", "password": "pass1234"})
    assert reply.status == 200
    body = reply.body
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["user"] == {"login": "Carol99", "nick": "carol", "balance": 10000}
    assert [t["id"] for t in body["tables"]] == ["classic", "bicycle", "casino", "european"]
    claims = jwt.decode(body["token"], options={"verify_signature": False})
    assert claims["sub"] == "Carol99" and claims["nick"] == "carol"
    assert claims["exp"] - claims["iat"] == 3600


def test_login_unique_ignoring_case(api: Gateway) -> None:
    Player(api, "dave1234")
    reply = api.request(
        "POST", "/v1/users", {"login": "DAVE1234", "nick": "other", "password": "pass1234"}
    )
    problem(reply, 409, "login_taken")


@pytest.mark.parametrize(
    "body",
    [
        {"login": "abc", "nick": "nick1", "password": "pass1234"},
        {"login": "abcd_e", "nick": "nick1", "password": "pass1234"},
        {"login": "a" * 33, "nick": "nick1", "password": "pass1234"},
        {"login": "abcd", "nick": "ni", "password": "pass1234"},
        {"login": "abcd", "nick": "nick1", "password": "pass 1234"},
        {"login": "abcd", "nick": "nick1"},
        {"login": 12345, "nick": "nick1", "password": "pass1234"},
        {"login": "abcd", "nick": "nick1", "password": "pass1234", "admin": True},
        {"login": "abcdé", "nick": "nick1", "password": "pass1234"},
    ],
)
def test_register_validation(api: Gateway, body: dict[str, object]) -> None:
    problem(api.request("POST", "/v1/users", body), 422, "validation_error")


def test_body_checks(api: Gateway) -> None:
    problem(api.request("POST", "/v1/users", raw="{not json"), 400, "malformed_request")
    problem(api.request("POST", "/v1/users", raw="[1, 2]"), 400, "malformed_request")
    problem(api.request("POST", "/v1/users", raw='"text"'), 400, "malformed_request")
    problem(api.request("POST", "/v1/users", raw=""), 400, "malformed_request")
    problem(api.request("POST", "/v1/users", raw='{"login": NaN}'), 400, "malformed_request")
    reply = api.request(
        "POST",
        "/v1/users",
        raw="login=abcd",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    problem(reply, 415, "unsupported_media_type")
    big = '{"login": "' + "a" * 17000 + '"}'
    problem(api.request("POST", "/v1/users", raw=big), 413, "payload_too_large")
    ok = api.request(
        "POST",
        "/v1/users",
        raw='{"login": "erin1234", "nick": "erin", "password": "pass1234"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert ok.status == 201


def test_bad_credentials_same_for_unknown_and_wrong(api: Gateway) -> None:
    Player(api, "frank123")
    wrong = api.request("POST", "/v1/sessions", {"login": "frank123", "password": "nope12345"})
    unknown = api.request("POST", "/v1/sessions", {"login": "nobody99", "password": "nope12345"})
    problem(wrong, 401, "bad_credentials")
    problem(unknown, 401, "bad_credentials")
    assert wrong.body == unknown.body


def test_lockout_after_five_failures(api: Gateway) -> None:
    Player(api, "gina1234")
    for attempt, login in enumerate(["gina1234", "GINA1234", "Gina1234", "gina1234", "gINA1234"]):
        reply = api.request(
            "POST", "/v1/sessions", {"login": login, "password": f"wrong{attempt}x"}
        )
        problem(reply, 401, "bad_credentials")
    reply = api.request("POST", "/v1/sessions", {"login": "gina1234", "password": "password1"})
    problem(reply, 429, "too_many_attempts")
    retry = int(reply.header("Retry-After") or 0)
    assert 0 < retry <= 900


def test_lockout_of_unknown_login(api: Gateway) -> None:
    for _ in range(5):
        problem(
            api.request("POST", "/v1/sessions", {"login": "ghost123", "password": "x"}),
            401,
            "bad_credentials",
        )
    problem(
        api.request("POST", "/v1/sessions", {"login": "Ghost123", "password": "x"}),
        429,
        "too_many_attempts",
    )


def test_success_clears_the_count(api: Gateway) -> None:
    Player(api, "hank1234")
    for _ in range(4):
        api.request("POST", "/v1/sessions", {"login": "hank1234", "password": "wrong"})
    assert (
        api.request("POST", "/v1/sessions", {"login": "hank1234", "password": "password1"}).status
        == 200
    )
    for _ in range(4):
        problem(
            api.request("POST", "/v1/sessions", {"login": "hank1234", "password": "wrong"}),
            401,
            "bad_credentials",
        )
    assert (
        api.request("POST", "/v1/sessions", {"login": "hank1234", "password": "password1"}).status
        == 200
    )


NO_GRADES = {"decisions": 0, "mistakes": 0, "ev_lost": 0}


def test_me(alice: Player) -> None:
    reply = alice.get("/v1/me")
    assert reply.status == 200
    assert reply.body == {
        "login": "alice1",
        "nick": "Nickalice1",
        "balance": 10000,
        "stats": {
            "rounds": 0,
            "hands_won": 0,
            "hands_lost": 0,
            "hands_pushed": 0,
            "net": 0,
            **NO_GRADES,
            "by_kind": dict.fromkeys(("hard", "soft", "pairs", "insurance"), NO_GRADES),
            "expert_mistakes": 0,
            "expert_ev_lost": 0,
            "deviations": 0,
            "deviations_taken": 0,
            "index_spots": 0,
            "index_spots_taken": 0,
        },
    }


def _token(secret: str, **claims: object) -> str:
    now = int(time.time())
    base = {"sub": "alice1", "nick": "Nickalice1", "iat": now, "exp": now + 600}
    return jwt.encode({**base, **claims}, secret, algorithm="HS256")


def test_authorizer_refuses_bad_tokens(api: Gateway, alice: Player) -> None:
    from blackjack_service.tokens import signing_secret

    key = signing_secret()
    assert api.request("GET", "/v1/me").status == 401
    for token in [
        "garbage",
        _token("another-key-entirely-" + "x" * 30),
        _token(key, exp=int(time.time()) - 10),
        _token(key, sub=None),
        jwt.encode({"sub": "alice1", "nick": "n", "iat": 1, "exp": 2**40}, key, algorithm="HS512"),
    ]:
        problem(api.request("GET", "/v1/me", token=token), 401, "unauthorized")
    problem(
        api.request("GET", "/v1/me", headers={"Authorization": "Basic abc"}), 401, "unauthorized"
    )
    assert api.request("GET", "/v1/me", token=_token(key)).status == 200


def test_authorizer_policy_covers_the_stage(api: Gateway, alice: Player) -> None:
    from .harness import LambdaContext, sample

    event = sample("authorizer_token")
    event["authorizationToken"] = f"Bearer {alice.token}"
    policy = api.modules["authorizer"].handler(event, LambdaContext())
    assert policy["principalId"] == "alice1"
    claims = jwt.decode(alice.token, options={"verify_signature": False})
    assert policy["context"] == {"login": "alice1", "nick": "Nickalice1", "exp": claims["exp"]}
    assert policy["policyDocument"]["Statement"][0]["Resource"].endswith("abc123/Prod/*/*")
    event["authorizationToken"] = "Bearer nope"
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        api.modules["authorizer"].handler(event, LambdaContext())


def test_a_token_is_refused_from_its_exp_even_through_a_cached_authorization(
    api: Gateway, alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # API Gateway keeps the authorizer's answer (ReauthorizeEvery) and sends it again
    # without asking the authorizer: the function itself refuses the token from its `exp`.
    first = api.request("GET", "/v1/me", token=alice.token)
    assert first.status == 200 and first.event is not None
    cached = first.event
    expires_at = int(cached["requestContext"]["authorizer"]["exp"])
    from .harness import LambdaContext

    monkeypatch.setattr(time, "time", lambda: expires_at - 1)
    assert api.modules["me"].handler(dict(cached), LambdaContext())["statusCode"] == 200
    monkeypatch.setattr(time, "time", lambda: expires_at)
    reply = api.modules["me"].handler(dict(cached), LambdaContext())
    assert reply["statusCode"] == 401
    assert json.loads(reply["body"])["code"] == "unauthorized"


def test_a_keyed_replay_is_refused_from_the_tokens_exp_through_a_cached_authorization(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 19: a keyed bet and action replayed 201/200 after `exp`, the authorizer's
    # answer still cached. The expiry is checked before the key is looked at.
    from .harness import LambdaContext

    seed = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    bet = alice.post(
        "/v1/tables/casino/rounds",
        {"bets": [{"box": 0, "amount": 100}]},
        headers={"Idempotency-Key": "bet-before-exp"},
    )
    assert bet.status == 201 and bet.body["status"] == "player_turn", bet.text
    hit = alice.post(
        "/v1/tables/casino/round/actions",
        {"action": "hit"},
        headers={"Idempotency-Key": "hit-before-exp"},
    )
    assert hit.status == 200, hit.text
    for first in (bet, hit):
        assert first.event is not None
        expires_at = int(first.event["requestContext"]["authorizer"]["exp"])
        monkeypatch.setattr(time, "time", lambda moment=expires_at - 1: moment)
        replay = alice.api.modules["rounds"].handler(dict(first.event), LambdaContext())
        assert (replay["statusCode"], replay["body"]) == (first.status, first.text)
        monkeypatch.setattr(time, "time", lambda moment=expires_at: moment)
        late = alice.api.modules["rounds"].handler(dict(first.event), LambdaContext())
        assert late["statusCode"] == 401
        assert json.loads(late["body"])["code"] == "unauthorized"


GHOST_ROUTES = [
    ("GET", "/v1/me"),
    ("GET", "/v1/tables/casino"),
    ("POST", "/v1/tables/casino/rounds"),
    ("POST", "/v1/tables/casino/round/actions"),
    ("GET", "/v1/tables/casino/round/hint"),
    ("GET", "/v1/rounds"),
    ("GET", "/v1/rounds/0123456789abcdef0123456789abcdef"),
    ("GET", "/v1/shoes/0123456789abcdef0123456789abcdef"),
]


@pytest.mark.parametrize(("method", "path"), GHOST_ROUTES)
def test_a_signed_token_for_a_login_that_does_not_exist_is_401_everywhere(
    api: Gateway, method: str, path: str
) -> None:
    from blackjack_service.tokens import signing_secret

    ghost = _token(signing_secret(), sub="ghost1", nick="ghost1")
    bodies = {"rounds": {"bets": [{"box": 0, "amount": 10}]}, "actions": {"action": "hit"}}
    body = bodies.get(path.rsplit("/", 1)[-1]) if method == "POST" else None
    problem(api.request(method, path, body, token=ghost), 401, "unauthorized")
