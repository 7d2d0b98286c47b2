"""The shipped strategy cards: shaped as API.md says, and loaded only when used (test_generate:
equal to a fresh computation)."""

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from blackjack.actions import Action, Phase
from blackjack.round import Round
from blackjack.rules import TABLES, Double, Split, Surrender
from blackjack.strategy import strategy_card

from ..engine.arrange import arranged_shoe

UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
RANKS = UPS


@pytest.mark.parametrize("table_id", list(TABLES))
def test_card_shape(table_id: str) -> None:
    rules = TABLES[table_id].rules
    card = strategy_card(table_id)
    assert set(card) == {"table", "player_ev", "chart", "ev"}
    assert card["table"] == table_id
    chart = card["chart"]
    assert list(chart["hard"]) == [str(t) for t in range(5, 20)]
    assert list(chart["soft"]) == [str(t) for t in range(13, 21)]
    assert list(chart["pairs"]) == RANKS
    allowed = {"hit", "stand"}
    if rules.double is not Double.NONE:
        allowed.add("double")
    if rules.split is not Split.NONE:
        allowed.add("split")
    if rules.surrender is not Surrender.NONE:
        allowed.add("surrender")
    for rows in chart.values():
        for cells in rows.values():
            assert list(cells) == UPS
            assert set(cells.values()) <= allowed
    assert len(card["ev"]) == 55
    for key, by_up in card["ev"].items():
        first, second = key.split(",")
        assert RANKS.index(first) <= RANKS.index(second)
        assert list(by_up) == UPS
        for actions in by_up.values():
            if key == "T,A":
                assert list(actions) == ["stand"]
            assert set(actions) <= allowed
    # Early surrender is never offered against an ace.
    assert all("surrender" not in card["ev"][key]["A"] for key in card["ev"])


@pytest.mark.parametrize("table_id", list(TABLES))
def test_a_card_values_the_actions_the_round_allows_on_each_dealt_hand(table_id: str) -> None:
    table = TABLES[table_id]
    for key, by_up in strategy_card(table_id)["ev"].items():
        if key == "T,A":
            continue  # a natural is never asked
        first, second = key.split(",")
        for up, actions in by_up.items():
            # The hole card (where one is dealt) makes no dealer natural.
            shoe = arranged_shoe(f"{first}S {up}H {second}D 9C", table.rules.decks)
            round_ = Round.deal(table, shoe, {0: Decimal(table.min_bet)})
            if round_.phase is Phase.INSURANCE:
                round_.act(Action.DECLINE_INSURANCE)
            assert set(round_.legal_actions()) == set(actions), (key, up)


def test_unknown_table() -> None:
    with pytest.raises(KeyError):
        strategy_card("nope")


def test_natural_values() -> None:
    # classic pays a natural 3:2 at once; at a peek table it is conditional on no dealer
    # natural; without peek, a dealer natural pushes it.
    assert strategy_card("classic")["ev"]["T,A"]["A"] == {"stand": 1.5}
    assert strategy_card("bicycle")["ev"]["T,A"]["A"] == {"stand": 1.5}
    assert 0.9 < strategy_card("european")["ev"]["T,A"]["A"]["stand"] < 1.1


def test_the_layer_imports_without_the_analysis() -> None:
    code = (
        "import sys, blackjack.round, blackjack.players, blackjack.views;"
        "print('blackjack.strategy' in sys.modules)"
    )
    engine = Path(__file__).parents[3] / "layers" / "engine"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(engine)},
    )
    assert out.stdout.strip() == "False"


def test_cards_are_small() -> None:
    data = Path(__file__).parents[3] / "layers/engine/blackjack/strategy/data"
    assert sum(p.stat().st_size for p in data.glob("*.json")) < 300_000
