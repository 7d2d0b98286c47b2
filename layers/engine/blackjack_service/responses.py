"""Response bodies of API.md as pydantic models. Every successful response is checked
against its model before it leaves (closed models: a field the contract does not name,
such as a seed or a shoe's cards, cannot slip out), and the OpenAPI document publishes
their schemas."""

from dataclasses import fields
from decimal import Decimal
from types import GenericAlias
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model

from . import records

Money = int | float  # exact: whole coins as integers, halves as floats (blackjack.money)
# blackjack.grading.Kind's values (strict validation wants the strings; a test compares).
Kind = Literal["hard", "soft", "pairs", "insurance"]


class ResponseModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Rules(ResponseModel):
    decks: int
    shuffle: Literal["every_round", "cut_card"]
    cut_default: float | None
    cut_range: list[float] | None
    ai_players: bool
    hole_card: bool
    peek: Literal["none", "ace_and_ten"]
    dealer_hits_soft_17: bool
    blackjack_pays: str
    natural_paid_at_deal: bool
    any_21_pays_3_2: bool
    double: Literal["none", "9_10_11", "any"]
    double_after_split: bool
    split: Literal["none", "same_rank", "same_value"]
    max_hands: int
    resplit_aces: bool
    split_aces_one_card: bool
    surrender: Literal["none", "early_not_ace"]
    insurance: Literal["none", "up_to_half", "half"]
    even_money: bool


class Table(ResponseModel):
    id: str
    name: str
    description: str
    min_bet: int
    max_bet: int
    boxes: int
    rules: Rules


class Tables(ResponseModel):
    tables: list[Table]


class User(ResponseModel):
    login: str
    nick: str
    balance: Money


class Session(ResponseModel):
    token: str
    token_type: Literal["Bearer"]
    expires_in: int
    user: User
    tables: list[Table]


# The stats of API.md have the stored counters' fields (records.Grades, records.Stats), in
# their order, amounts as money; a Stats is also the sum of its kinds' Grades (its base).
_COUNTER_TYPES: dict[Any, Any] = {int: int, Decimal: Money}


def _counters_model(
    record: type, base: type[ResponseModel] = ResponseModel, **nested: Any
) -> type[ResponseModel]:
    """The response model named as `record`, with its fields; `nested` gives the types of
    those that are not counters."""
    hints = get_type_hints(record)
    definitions: dict[str, Any] = {
        f.name: (nested.get(f.name) or _COUNTER_TYPES[hints[f.name]], ...) for f in fields(record)
    }
    return create_model(record.__name__, __base__=base, **definitions)


Grades = _counters_model(records.Grades)
Stats = _counters_model(records.Stats, base=Grades, by_kind=GenericAlias(dict, (Kind, Grades)))
Me = create_model("Me", __base__=User, stats=(Stats, ...))


class Decision(ResponseModel):
    action: str
    best: str
    loss: float | int
    kind: Kind
    cards: list[str]


class Hand(ResponseModel):
    cards: list[str]
    total: int
    soft: bool
    bet: Money
    doubled: bool
    split: bool
    status: Literal["playing", "standing", "bust", "blackjack", "surrendered"]
    result: Literal["win", "lose", "push", "blackjack", "even_money", "surrender"] | None
    payout: Money | None
    decisions: list[Decision]


class Box(ResponseModel):
    box: int
    player: str
    bet: Money
    insurance: Money | None
    insurance_payout: Money | None
    hands: list[Hand]


class Dealer(ResponseModel):
    cards: list[str]
    hidden: int
    total: int
    soft: bool


class Turn(ResponseModel):
    box: int
    hand: int


class Round(ResponseModel):
    round_id: str
    table: str
    shoe_id: str
    status: Literal["insurance", "player_turn", "settled"]
    version: int
    started_at: str | None  # null only for rounds stored before it was kept
    settled_at: str | None
    boxes: list[Box]
    dealer: Dealer
    turn: Turn | None
    legal_actions: list[str]
    net: Money | None
    balance: Money


class ShoeInPlay(ResponseModel):
    shoe_id: str
    server_seed_hash: str
    client_seed: str
    nonce: int
    decks: int
    cards_remaining: int
    cut_card_out: bool


class Seat(ResponseModel):
    table: Table
    balance: Money
    shoe: ShoeInPlay
    round: Round | None


class Hint(ResponseModel):
    action: str
    level: Literal["medium", "hard"]
    ev: dict[str, float] | None


class History(ResponseModel):
    rounds: list[Round]
    next_cursor: str | None


class Shoe(ResponseModel):
    shoe_id: str
    table: str
    server_seed_hash: str
    client_seed: str
    nonce: int
    decks: int
    cut_index: int | None
    retired: bool
    server_seed: str | None
    cards: list[str] | None
    rounds: list[str]


class StrategyCard(BaseModel):
    """Open: the strategy engineer's card may carry more than API.md names."""

    table: str
    player_ev: float
    chart: dict[str, Any]
    ev: dict[str, Any]


class Health(ResponseModel):
    status: Literal["ok"]


class OpenApiDocument(BaseModel):
    openapi: str
    info: dict[str, Any]
    paths: dict[str, Any]
    components: dict[str, Any]
