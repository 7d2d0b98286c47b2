"""The published models are written out, so a change to the engine's rules shows here
rather than silently in the document."""

from dataclasses import fields

from blackjack.rules import TABLES, Rules
from blackjack_service import responses


def test_the_rules_model_names_every_rule_of_the_engine() -> None:
    assert list(responses.Rules.model_fields) == [field.name for field in fields(Rules)]


def test_every_table_is_what_the_table_model_says() -> None:
    for table in TABLES.values():
        responses.Table.model_validate(table.as_dict(), strict=True)
