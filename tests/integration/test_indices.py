"""GET /v1/tables/{table_id}/indices through the API: public, the shipped index plays and
edge by true count, as API.md shapes them; an unknown table is 404."""

from __future__ import annotations

import pytest

from blackjack.rules import TABLES
from blackjack.strategy.indices import indices_document

from .helpers import problem


@pytest.mark.parametrize("table", list(TABLES))
def test_indices_are_public_and_shipped(api, table: str) -> None:
    reply = api.request("GET", f"/v1/tables/{table}/indices")
    assert reply.status == 200, reply.text
    assert reply.body == indices_document(table)
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.body["indices"][0]["section"] == "hard"


def test_an_unknown_table_is_404(api) -> None:
    problem(api.request("GET", "/v1/tables/nowhere/indices"), 404, "not_found")
