"""Rounds dealt from shoes whose order the test writes down."""

from collections.abc import Mapping
from decimal import Decimal

from blackjack.actions import Action
from blackjack.round import Round
from blackjack.rules import TABLES
from blackjack.shoe import Shoe


def arranged_shoe(cards: str, decks: int = 6) -> Shoe:
    """A shoe that deals `cards` ("AS TD 9H ...") first, in that order."""
    return Shoe(
        server_seed="00" * 32,
        client_seed="arranged",
        nonce=1,
        decks=decks,
        cut_index=None,
        cards=cards.split(),
    )


def deal(
    table_id: str,
    cards: str,
    bets: Mapping[int, int] | None = None,
    ai: Mapping[int, str] | None = None,
) -> Round:
    """Deal a round at `table_id` from an arranged shoe; one box of 100 unless told."""
    table = TABLES[table_id]
    stakes = {box: Decimal(bet) for box, bet in (bets if bets is not None else {0: 100}).items()}
    return Round.deal(table, arranged_shoe(cards, table.rules.decks), stakes, ai)


def play(round_: Round, *actions: str) -> Round:
    for action in actions:
        round_.act(Action(action))
    return round_


def cards_of(round_: Round) -> list[list[str]]:
    return [hand.cards for box in round_.boxes for hand in box.hands]


# Sixty cards of 2 to 6 dealt by the shoe's earlier rounds: public, and the count is high.
SMALL = [f"{2 + i % 5}{'SHDC'[i // 5 % 4]}" for i in range(60)]


def after_small_cards(table_id: str, cards: str, ai: dict[int, str] | None = None) -> Round:
    """A round of one box of 10 at `table_id`, dealt from `cards` after SMALL."""
    table = TABLES[table_id]
    shoe = Shoe("00" * 32, "arranged", 1, table.rules.decks, None, [*SMALL, *cards.split()])
    shoe.position = len(SMALL)
    return Round.deal(table, shoe, {0: Decimal(10)}, ai)
