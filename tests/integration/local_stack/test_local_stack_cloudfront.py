"""The local stack as the one origin template.yaml's CloudFront makes of the web client and
the API: the `/v1/*` behaviour's headers on the API's answers (issue 19: the preflight)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.harness import ROOT
from tests.integration.local_stack.harness import Client, running_stack


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    data_dir = tmp_path_factory.mktemp("cloudfront_data")
    with running_stack(data_dir, ROOT / "template.yaml") as running:
        yield running.client


@pytest.mark.parametrize("path", ["/v1/me", "/v1/tables/casino/rounds"])
def test_the_cors_preflight_is_no_store(client: Client, path: str) -> None:
    preflight = {"Origin": "https://other.example", "Access-Control-Request-Method": "POST"}
    reply = client.request("OPTIONS", path, headers=preflight)
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert reply.header_values("Cache-Control") == ["no-store"]  # API.md: every answer


def test_an_answer_with_its_own_cache_control_keeps_it_alone(client: Client) -> None:
    assert client.request("GET", "/v1/health").header_values("Cache-Control") == ["no-store"]
    assert client.request("GET", "/v1/nope").header_values("Cache-Control") == ["no-store"]


def test_the_web_client_has_no_api_header(client: Client) -> None:
    assert client.request("GET", "/").header_values("Cache-Control") == ["no-cache"]
