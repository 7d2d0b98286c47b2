"""moto for every test (no network, no credentials), the table and the token secret as
the template provisions them, and a gateway that calls the real function handlers."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
import pytest
from moto import mock_aws

from blackjack_service import factories
from local_stack.store import create_table as create_declared_table
from local_stack.template import load_template

from .exposure import assert_reveals_nothing
from .harness import ROOT, Gateway

GAME_TABLE = load_template(ROOT / "template.yaml")["Resources"]["GameTable"]["Properties"]

os.environ.update(
    {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "TABLE_NAME": "blackjack-test",
        "TOKEN_TTL_SECONDS": "3600",
        "POWERTOOLS_SERVICE_NAME": "blackjack",
        "POWERTOOLS_METRICS_NAMESPACE": "Blackjack",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "CORS_ORIGIN": "*",
        "AWS_LAMBDA_FUNCTION_NAME": "blackjack-test",
    }
)


def create_table(table_name: str) -> None:
    """The game table exactly as template.yaml declares it."""
    create_declared_table(boto3.client("dynamodb"), table_name, GAME_TABLE)


@contextmanager
def fresh_aws() -> Iterator[None]:
    """An empty moto account with the stack's table and secret; the factories build anew."""
    with mock_aws():
        create_table(os.environ["TABLE_NAME"])
        secret = boto3.client("secretsmanager").create_secret(
            Name="blackjack-token-key", SecretString="test-hmac-key-" + "k" * 40
        )
        os.environ["TOKEN_SECRET_ARN"] = secret["ARN"]
        factories.reset()
        from aws_lambda_powertools.utilities import parameters

        parameters.clear_caches()  # type: ignore[no-untyped-call]
        yield
        factories.reset()


@pytest.fixture
def aws() -> Iterator[None]:
    with fresh_aws():
        yield


@pytest.fixture
def api(aws: None) -> Gateway:
    return Gateway()


_SEAT = re.compile(r"/v1/tables/(?P<table>[^/?]+)")
_BET = re.compile(r"/v1/tables/(?P<table>[^/?]+)/rounds/?")


class Player:
    """A registered, logged-in user driving the API."""

    def __init__(self, api: Gateway, login: str, password: str = "password1") -> None:
        self.api = api
        self.login = login
        reply = api.request(
            "POST", "/v1/users", {"login": login, "nick": "Nick" + login[:8], "password": password}
        )
        assert reply.status == 201, reply.text
        reply = api.request("POST", "/v1/sessions", {"login": login, "password": password})
        assert reply.status == 200, reply.text
        self.token: str = reply.body["token"]
        self.viewed: set[str] = set()  # tables whose seat (and first shoe) this user has

    def get(self, url: str, **kwargs: Any) -> Any:
        reply = self.api.request("GET", url, token=self.token, **kwargs)
        assert_reveals_nothing(self.login, reply.text)
        seat = _SEAT.fullmatch(url)
        if seat and reply.status == 200:
            self.viewed.add(seat["table"])
        return reply

    def post(self, url: str, body: Any = None, *, view_first: bool = True, **kwargs: Any) -> Any:
        """A POST; a bet at a table not viewed yet views it first, as the web client does
        (API.md: a bet needs the table's shoe committed, i.e. seen)."""
        bet = _BET.fullmatch(url)
        if view_first and bet and bet["table"] not in self.viewed:
            self.get(f"/v1/tables/{bet['table']}")
        reply = self.api.request("POST", url, body, token=self.token, **kwargs)
        assert_reveals_nothing(self.login, reply.text)
        return reply


@pytest.fixture
def alice(api: Gateway) -> Player:
    return Player(api, "alice1")


@pytest.fixture
def bob(api: Gateway) -> Player:
    return Player(api, "bob123")
