"""moto for every test (no network, no credentials), the table and the token secret as
the template provisions them, and a gateway that calls the real function handlers."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .harness import Gateway
from .helpers import Player, fresh_aws

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


@pytest.fixture
def aws() -> Iterator[None]:
    with fresh_aws():
        yield


@pytest.fixture
def api(aws: None) -> Gateway:
    return Gateway()


@pytest.fixture
def alice(api: Gateway) -> Player:
    return Player(api, "alice1")


@pytest.fixture
def bob(api: Gateway) -> Player:
    return Player(api, "bob123")
