"""The EVs behind hints and the `hard` player."""

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.actions import Action, Phase
from blackjack.players import hard, medium
from blackjack.round import Round
from blackjack.rules import TABLES
from blackjack.shoe import Shoe
from blackjack.strategy import action_values
from blackjack.turn import PlayerView

PLAY = Phase.PLAYER_TURN


def view(
    table: str,
    cards: tuple[str, ...],
    up: str,
    legal: tuple[Action, ...],
    hands: int = 1,
    split: bool = False,
    phase: Phase = PLAY,
) -> PlayerView:
    return PlayerView(TABLES[table].rules, phase, cards, up, legal, hands, split)


HIT_STAND = (Action.HIT, Action.STAND)
FIRST = (Action.HIT, Action.STAND, Action.DOUBLE)


def test_dealt_hand_reads_the_card_and_equals_a_computation() -> None:
    shipped = action_values(view("european", ("TS", "6H"), "9D", FIRST))
    # The same rules under another identity are computed on demand.
    other = dataclasses.replace(TABLES["european"].rules, cut_default=Decimal("0.7"))
    computed = action_values(PlayerView(other, PLAY, ("KS", "6H"), "9D", FIRST, 1, False))
    assert shipped is not None and computed is not None
    assert set(shipped) == set(FIRST)
    for action in FIRST:
        assert shipped[action] == pytest.approx(computed[action], abs=1e-8)
    assert shipped[Action.DOUBLE] < shipped[Action.HIT]


def test_only_legal_actions_are_valued() -> None:
    values = action_values(view("european", ("5S", "6H"), "6D", HIT_STAND))
    assert values is not None and set(values) == set(HIT_STAND)


def test_three_card_hands_are_computed() -> None:
    # 16 against a ten: hit on two cards, but stand on three (the classic
    # composition-dependent exception: the small cards it holds would have helped it).
    two = action_values(view("european", ("TS", "6H"), "TH", HIT_STAND))
    three = action_values(view("european", ("TS", "2H", "4D"), "TH", HIT_STAND))
    assert two is not None and three is not None
    assert two[Action.HIT] > two[Action.STAND]
    assert three[Action.STAND] > three[Action.HIT]
    assert hard(view("european", ("TS", "2H", "4D"), "TH", HIT_STAND)) is Action.STAND
    values = action_values(view("european", ("TS", "5H", "4D"), "6H", HIT_STAND))
    assert values is not None and values[Action.STAND] > values[Action.HIT]


def test_split_hands_are_computed() -> None:
    legal = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT)
    values = action_values(view("european", ("8S", "8H"), "6D", legal, hands=2, split=True))
    assert values is not None and set(values) == set(legal)
    assert max(values, key=values.__getitem__) is Action.SPLIT
    aces = action_values(view("european", ("AS", "9H"), "6D", (Action.STAND,), 2, True))
    assert aces is not None and set(aces) == {Action.STAND}


def test_peek_values_are_conditional() -> None:
    # bicycle peeks: against a ten, a natural's EV is 1.5 and a 20 is clearly positive.
    values = action_values(view("bicycle", ("TS", "QH"), "KD", HIT_STAND))
    assert values is not None and values[Action.STAND] > 0.5


def test_insurance_and_even_money_are_declined() -> None:
    legal = (Action.INSURANCE, Action.DECLINE_INSURANCE)
    values = action_values(view("casino", ("TS", "7H"), "AD", legal, phase=Phase.INSURANCE))
    assert values is not None
    assert values[Action.INSURANCE] < values[Action.DECLINE_INSURANCE]
    assert hard(view("casino", ("TS", "7H"), "AD", legal, phase=Phase.INSURANCE)) is (
        Action.DECLINE_INSURANCE
    )
    legal = (Action.EVEN_MONEY, Action.DECLINE_INSURANCE)
    values = action_values(view("casino", ("TS", "AH"), "AD", legal, phase=Phase.INSURANCE))
    assert values is not None
    assert values[Action.EVEN_MONEY] == 1.0
    assert 1.0 < values[Action.DECLINE_INSURANCE] < 1.5
    assert hard(view("casino", ("TS", "AH"), "AD", legal, phase=Phase.INSURANCE)) is (
        Action.DECLINE_INSURANCE
    )


def test_casino_surrenders_sixteen_against_a_ten_and_medium_keeps_its_chart() -> None:
    legal = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER)
    assert hard(view("casino", ("TS", "6H"), "KD", legal)) is Action.SURRENDER
    assert medium(view("casino", ("TS", "6H"), "KD", legal)) is Action.SURRENDER


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64), table=st.sampled_from(list(TABLES)))
def test_hard_plays_whole_rounds(seed: int, table: str) -> None:
    t = TABLES[table]
    shoe = Shoe.shuffle(f"{seed:064x}", "test", 1, t.rules.decks, t.rules.cut_default)
    ai = {1: "hard", 2: "hard"} if t.rules.ai_players else {}
    round_ = Round.deal(t, shoe, {0: Decimal(t.min_bet)}, ai)
    while (v := round_.player_view()) is not None:
        values = action_values(v)
        assert values is not None and set(values) <= set(v.legal_actions)
        action = hard(v)
        assert action in v.legal_actions
        assert values[action] == max(values.values())
        round_.act(action)
    assert round_.net is not None
