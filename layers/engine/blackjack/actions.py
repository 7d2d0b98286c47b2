"""What players can say, and the phases and outcomes of a round."""

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    EVEN_MONEY = "even_money"
    DECLINE_INSURANCE = "decline_insurance"


@dataclass(frozen=True, slots=True)
class Move:
    """A decision the user took: the action, and an insurance's amount where one was given."""

    action: Action
    amount: Decimal | None = None


class Phase(StrEnum):
    INSURANCE = "insurance"
    PLAYER_TURN = "player_turn"
    SETTLED = "settled"


class HandStatus(StrEnum):
    PLAYING = "playing"
    STANDING = "standing"
    BUST = "bust"
    BLACKJACK = "blackjack"
    SURRENDERED = "surrendered"


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    BLACKJACK = "blackjack"
    EVEN_MONEY = "even_money"
    SURRENDER = "surrender"
