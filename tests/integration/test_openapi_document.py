"""The OpenAPI document says exactly what the service enforces, in shapes client
generators handle: a schema-valid request body or header is never refused as invalid, and
what the service refuses as invalid in itself is schema-invalid."""

from __future__ import annotations

import json
import stat
import threading
from decimal import Decimal
from typing import Any

import jsonschema_rs
import pytest
from pydantic import BaseModel, ValidationError

from blackjack.actions import Action
from blackjack.rules import TABLES
from blackjack_service.api import expected_version
from blackjack_service.errors import ValidationFailed
from blackjack_service.models import ActionRequest, StartRoundRequest
from blackjack_service.openapi import DOCUMENT_FILE, openapi_document
from local_stack import document

_ACT = ("/v1/tables/{table_id}/round/actions", "post")


def _valid(schema: dict[str, Any], value: object) -> bool:
    """Whether value is valid against schema, its references read in the document."""
    components = openapi_document()["components"]
    return bool(
        jsonschema_rs.Draft202012Validator({**schema, "components": components}).is_valid(value)
    )


def _body_valid(model: type[BaseModel], body: object) -> bool:
    return _valid({"$ref": f"#/components/schemas/{model.__name__}"}, body)


def _accepted(model: type[BaseModel], body: object) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return False
    return True


def _bet(amount: object, **fields: object) -> dict[str, object]:
    return {"bets": [{"box": 0, "amount": amount}], **fields}


def test_each_action_has_its_own_body_and_only_insurance_takes_an_amount() -> None:
    schema = openapi_document()["components"]["schemas"]["ActionRequest"]
    assert schema["discriminator"]["propertyName"] == "action"
    assert set(schema["discriminator"]["mapping"]) == set(Action)
    bodies: list[dict[str, object]] = [{"action": action} for action in Action]
    bodies += [
        {"action": action, "amount": amount} for action in Action for amount in (2.5, 2442.5)
    ]
    bodies += [{"action": "fold"}, {}, {"action": "insurance", "amount": 0.7}]
    for body in bodies:
        assert _body_valid(ActionRequest, body) == _accepted(ActionRequest, body), body
    assert not _body_valid(ActionRequest, {"action": "decline_insurance", "amount": 2442.5})
    assert _body_valid(ActionRequest, {"action": "insurance", "amount": 2.5})


def test_bets_are_bounded_by_the_smallest_and_largest_table_limits() -> None:
    low = min(table.min_bet for table in TABLES.values())
    high = max(table.max_bet for table in TABLES.values())
    assert low > 1  # so a bet of 1 coin is refused at every table
    for amount in (1, low - 1, high + 1, low + 0.5):
        assert not _body_valid(StartRoundRequest, _bet(amount)), amount
    for amount in (low, high, low + 1):
        assert _body_valid(StartRoundRequest, _bet(amount)), amount


def test_a_cut_is_a_bounded_number_of_two_decimals_and_valid_exactly_when_accepted() -> None:
    cut = openapi_document()["components"]["schemas"]["StartRoundRequest"]["properties"]["cut"]
    number = next(option for option in cut["anyOf"] if option["type"] != "null")
    assert set(number) == {"type", "minimum", "maximum", "multipleOf"}  # no enum
    cuts: list[object] = [cents / 100 for cents in range(40, 96)]
    cuts += [0.5700000000000001, 0.575, 0.849, 0.85001, 1, 0, None, "0.7"]
    for value in cuts:
        body = _bet(10, cut=value)
        assert _body_valid(StartRoundRequest, body) == _accepted(StartRoundRequest, body), value


def _if_match_accepted(value: str) -> bool:
    try:
        expected_version(value)
    except ValidationFailed:
        return False
    return True


@pytest.mark.parametrize(
    "value", ["", " ", "*", '"7"', 'W/"7"', "7", '"7', '"abc"', '"7", "8"', '"' + "7" * 40 + '"']
)
def test_if_match_has_the_syntax_the_service_accepts(value: str) -> None:
    path, method = _ACT
    operation = openapi_document()["paths"][path][method]
    header = next(p for p in operation["parameters"] if p["name"].lower() == "if-match")
    assert _valid(header["schema"], value) == _if_match_accepted(value)
    accepted = ("*", '"7"', 'W/"7"', "7", '"' + "7" * 40 + '"')
    assert _if_match_accepted(value) == (value in accepted)


def _request_schemas() -> list[dict[str, Any]]:
    schemas = openapi_document()["components"]["schemas"]
    names = ["StartRoundRequest", "Bet", "AiBox", "RegisterRequest", "SessionRequest"]
    names += [ref["$ref"].rsplit("/", 1)[-1] for ref in schemas["ActionRequest"]["oneOf"]]
    return [schemas[name] for name in names]


def test_optional_request_fields_carry_no_default() -> None:
    """openapi-typescript makes a property with a default required in the types it writes."""
    for schema in _request_schemas():
        for name, field in schema["properties"].items():
            assert "default" not in field, (schema["title"], name)
    start = openapi_document()["components"]["schemas"]["StartRoundRequest"]
    assert start["required"] == ["bets"]
    # The service still applies the defaults the fields no longer publish.
    request = StartRoundRequest.model_validate(_bet(Decimal(10)))
    assert request.ai == [] and request.cut is None and request.client_seed is None


def test_a_stack_reads_the_whole_document_while_another_writes_it() -> None:
    """`make invoke` and `python -m local_stack` write the document while other tests' stacks
    serve it (CI: the contract's first request read an empty file, a 500). Every read made
    during a write finds a whole document, readable by any user, and no temporary file stays."""
    writer = threading.Thread(target=document.write)
    writer.start()
    reads = 0
    while writer.is_alive():
        assert json.loads(DOCUMENT_FILE.read_bytes())["openapi"].startswith("3.1")
        reads += 1
    writer.join()
    assert reads > 0
    assert stat.S_IMODE(DOCUMENT_FILE.stat().st_mode) == 0o644
    assert not list(DOCUMENT_FILE.parent.glob(".openapi.*"))
