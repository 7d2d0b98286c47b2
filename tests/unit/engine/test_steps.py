"""What each step of a round says it did to the cards (`Dealt`, API.md's `dealt`), and a
round played again from its shoe, bets and moves (`Round.replay`)."""

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.actions import Action, Move, Phase
from blackjack.fairness import shuffled_shoe
from blackjack.players import POLICIES
from blackjack.round import Dealt, Round
from blackjack.rules import TABLES
from blackjack.shoe import Shoe
from blackjack.views import round_view

from .arrange import deal


def _plain(dealt: list[Dealt]) -> list[tuple[object, ...]]:
    """Compared by value: a local stack's execution environment may hold its own copy of
    the engine's modules, whose classes are others."""
    return [(d.card, d.box, d.hand, d.turned) for d in dealt]


def test_the_deal_says_each_card_in_the_order_of_the_rules() -> None:
    # european: a hole card, face down; two boxes.
    round_ = deal("european", "2S 3S 9H 4S 5S 8H", bets={0: 10, 1: 10})
    assert _plain(round_.dealt) == _plain(
        [
            Dealt("2S", box=0, hand=0),
            Dealt("3S", box=1, hand=0),
            Dealt("9H"),
            Dealt("4S", box=0, hand=0),
            Dealt("5S", box=1, hand=0),
            Dealt(None),
        ]
    )


def test_the_hole_card_is_turned_before_the_dealer_draws() -> None:
    round_ = deal("european", "TS 6H TD 7C 5C")  # 20 against a 6: stand; the dealer's 13 draws
    assert _plain(round_.act(Action.STAND)) == _plain([Dealt("7C", turned=True), Dealt("5C")])
    assert round_.phase is Phase.SETTLED


def test_a_hit_says_its_card_and_a_split_none_until_its_hands_get_theirs() -> None:
    round_ = deal("casino", "8S 9H 8D 3C 2C TS TH")  # no hole card: the dealer draws after
    assert _plain(round_.act(Action.SPLIT)) == _plain([Dealt("3C", box=0, hand=0)])
    assert _plain(round_.act(Action.HIT)) == _plain([Dealt("2C", box=0, hand=0)])
    # Standing on 13 deals the second hand its card; standing on it, the dealer plays.
    assert _plain(round_.act(Action.STAND)) == _plain([Dealt("TS", box=0, hand=1)])
    assert _plain(round_.act(Action.STAND)) == _plain([Dealt("TH")])


def test_the_last_card_to_a_hand_comes_before_the_dealers() -> None:
    round_ = deal("casino", "5S 9H 6D TC 4C 5D")  # 11 doubles; then the dealer's 9 draws twice
    assert _plain(round_.act(Action.DOUBLE)) == _plain(
        [Dealt("TC", box=0, hand=0), Dealt("4C"), Dealt("5D")]
    )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(TABLES)), st.integers(0, 2**32), st.sampled_from(sorted(POLICIES)))
def test_a_replay_is_the_round_as_it_was_played(table_id: str, seed: int, level: str) -> None:
    table = TABLES[table_id]
    server_seed = f"{seed:064x}"

    def shoe() -> Shoe:
        cards = shuffled_shoe(server_seed, "replay", 1, table.rules.decks)
        return Shoe(server_seed, "replay", 1, table.rules.decks, None, cards)

    bets = {0: Decimal(table.min_bet)}
    played = Round.deal(table, shoe(), bets)
    moves = []
    while (view := played.player_view()) is not None:
        action = POLICIES[level](view)
        moves.append(Move(action))
        played.act(action)
    again = Round.replay(table, shoe(), bets, {}, moves)
    assert round_view(again) == round_view(played)
    assert again.shoe.position == played.shoe.position
    assert _plain(again.dealt) == _plain(played.dealt)
