"""The four tables of RULES.md as data: one rule-set model, four instances.

Nothing in the engine looks at a table's name; every difference between tables is a
field below, and the API publishes these fields as the table's `rules` object.
"""

from dataclasses import asdict, dataclass
from decimal import Decimal
from enum import Enum, StrEnum
from typing import Any


class Shuffle(StrEnum):
    EVERY_ROUND = "every_round"
    CUT_CARD = "cut_card"


class Peek(StrEnum):
    NONE = "none"
    ACE_AND_TEN = "ace_and_ten"


class Double(StrEnum):
    NONE = "none"
    NINE_TEN_ELEVEN = "9_10_11"
    ANY = "any"


class Split(StrEnum):
    NONE = "none"
    SAME_RANK = "same_rank"
    SAME_VALUE = "same_value"


class Surrender(StrEnum):
    NONE = "none"
    EARLY_NOT_ACE = "early_not_ace"


class Insurance(StrEnum):
    NONE = "none"
    UP_TO_HALF = "up_to_half"
    HALF = "half"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    decks: int
    shuffle: Shuffle
    cut_default: Decimal | None
    cut_range: tuple[Decimal, Decimal] | None
    ai_players: bool
    hole_card: bool
    peek: Peek
    dealer_hits_soft_17: bool
    blackjack_pays: str
    natural_paid_at_deal: bool
    any_21_pays_3_2: bool
    double: Double
    double_after_split: bool
    split: Split
    max_hands: int
    resplit_aces: bool
    split_aces_one_card: bool
    surrender: Surrender
    insurance: Insurance
    even_money: bool

    @property
    def blackjack_ratio(self) -> Decimal:
        """What a natural wins per coin staked: "3:2" is 1.5."""
        win, stake = self.blackjack_pays.split(":")
        return Decimal(win) / Decimal(stake)


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    id: str
    name: str
    description: str
    min_bet: int
    max_bet: int
    boxes: int
    rules: Rules

    def as_dict(self) -> dict[str, Any]:
        """The table object of API.md (JSON-ready), its `rules` object included: every
        field by its name."""
        return asdict(self, dict_factory=_json_object)


def _json_object(fields: list[tuple[str, Any]]) -> dict[str, Any]:
    return {name: _json(value) for name, value in fields}


def _json(value: Any) -> Any:
    """Enums by their value, cut fractions as numbers, a range as an array."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


CLASSIC = Table(
    id="classic",
    name="Classic",
    description="Four decks shuffled every round, one box. Naturals and any 21 pay 3:2 at "
    "once, whatever the dealer holds. Hit or stand only.",
    min_bet=10,
    max_bet=500,
    boxes=1,
    rules=Rules(
        decks=4,
        shuffle=Shuffle.EVERY_ROUND,
        cut_default=None,
        cut_range=None,
        ai_players=False,
        hole_card=True,
        peek=Peek.NONE,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        natural_paid_at_deal=True,
        any_21_pays_3_2=True,
        double=Double.NONE,
        double_after_split=False,
        split=Split.NONE,
        max_hands=1,
        resplit_aces=False,
        split_aces_one_card=False,
        surrender=Surrender.NONE,
        insurance=Insurance.NONE,
        even_money=False,
    ),
)

BICYCLE = Table(
    id="bicycle",
    name="Bicycle",
    description="One deck shuffled every round, one box. The dealer peeks under an ace or a "
    "ten; insurance up to half the bet. Double on 9, 10 or 11; split a pair of one rank once.",
    min_bet=5,
    max_bet=200,
    boxes=1,
    rules=Rules(
        decks=1,
        shuffle=Shuffle.EVERY_ROUND,
        cut_default=None,
        cut_range=None,
        ai_players=False,
        hole_card=True,
        peek=Peek.ACE_AND_TEN,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        natural_paid_at_deal=False,
        any_21_pays_3_2=False,
        double=Double.NINE_TEN_ELEVEN,
        double_after_split=False,
        split=Split.SAME_RANK,
        max_hands=2,
        resplit_aces=False,
        split_aces_one_card=True,
        surrender=Surrender.NONE,
        insurance=Insurance.UP_TO_HALF,
        even_money=False,
    ),
)

CASINO = Table(
    id="casino",
    name="Casino",
    description="Six decks with a cut card you may place. No hole card: the dealer's natural "
    "takes all. Five boxes, AI players, double any two, split to four hands, early "
    "surrender, insurance and even money.",
    min_bet=10,
    max_bet=1000,
    boxes=5,
    rules=Rules(
        decks=6,
        shuffle=Shuffle.CUT_CARD,
        cut_default=Decimal("0.75"),
        cut_range=(Decimal("0.5"), Decimal("0.85")),
        ai_players=True,
        hole_card=False,
        peek=Peek.NONE,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        natural_paid_at_deal=False,
        any_21_pays_3_2=False,
        double=Double.ANY,
        double_after_split=True,
        split=Split.SAME_VALUE,
        max_hands=4,
        resplit_aces=True,
        split_aces_one_card=True,
        surrender=Surrender.EARLY_NOT_ACE,
        insurance=Insurance.HALF,
        even_money=True,
    ),
)

EUROPEAN = Table(
    id="european",
    name="European",
    description="Six decks, cut card at 75%. The dealer's hole card is not checked: a dealer "
    "natural takes all. Five boxes, AI players, double any two, split to four hands, "
    "aces split once.",
    min_bet=10,
    max_bet=1000,
    boxes=5,
    rules=Rules(
        decks=6,
        shuffle=Shuffle.CUT_CARD,
        cut_default=Decimal("0.75"),
        cut_range=None,
        ai_players=True,
        hole_card=True,
        peek=Peek.NONE,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        natural_paid_at_deal=False,
        any_21_pays_3_2=False,
        double=Double.ANY,
        double_after_split=True,
        split=Split.SAME_VALUE,
        max_hands=4,
        resplit_aces=False,
        split_aces_one_card=True,
        surrender=Surrender.NONE,
        insurance=Insurance.NONE,
        even_money=False,
    ),
)

TABLES: dict[str, Table] = {table.id: table for table in (CLASSIC, BICYCLE, CASINO, EUROPEAN)}
