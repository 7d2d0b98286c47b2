"""Response bodies of API.md as pydantic models. Every successful response is checked
against its model before it leaves (closed models: a field the contract does not name,
such as a seed or a shoe's cards, cannot slip out), and the OpenAPI document publishes
their schemas.

A model that shows an engine or store object is its `…View` (`RoundView` shows a `Round`);
the document names it as the contract does, without the suffix (`schema_name`)."""

import functools
import operator
from decimal import Decimal
from enum import Enum
from types import UnionType
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model
from pydantic.json_schema import GenerateJsonSchema

from blackjack import grading
from blackjack.rules import Rules

Money = int | float  # exact: whole coins as integers, halves as floats (blackjack.money)


def schema_name(model: type[BaseModel]) -> str:
    """The model's name in the OpenAPI document: API.md's."""
    return model.__name__.removesuffix("View")


class SchemaNames(GenerateJsonSchema):
    """JSON schemas whose definitions take the models' `schema_name`s."""

    def normalize_name(self, name: str) -> str:
        return super().normalize_name(name).removesuffix("View")


class ResponseModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, model_title_generator=schema_name)


def _json_type(annotation: Any) -> Any:
    """A field's type as `Table.as_dict` writes it: an enum as its values, a Decimal as a
    number, a pair as a list."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return Literal.__getitem__(tuple(member.value for member in annotation))
    if annotation is Decimal:
        return float
    args = [_json_type(arg) for arg in get_args(annotation)]
    if get_origin(annotation) is tuple:
        return list[args[0]]  # type: ignore[valid-type]
    if get_origin(annotation) is UnionType:
        return functools.reduce(operator.or_, args)
    return annotation


# The table's `rules` object: the engine's rule fields, as JSON; a decision's kind: the
# trainer's, as its value (models and types made at run time, which mypy cannot follow).
if TYPE_CHECKING:
    RulesView = ResponseModel
    Kind = str
else:
    Kind = _json_type(grading.Kind)
    RulesView = create_model(
        "RulesView",
        __base__=ResponseModel,
        **{name: (_json_type(rule), ...) for name, rule in get_type_hints(Rules).items()},
    )


class TableView(ResponseModel):
    id: str
    name: str
    description: str
    min_bet: int
    max_bet: int
    boxes: int
    rules: RulesView


class Tables(ResponseModel):
    tables: list[TableView]


class User(ResponseModel):
    login: str
    nick: str
    balance: Money


class Session(ResponseModel):
    token: str
    token_type: Literal["Bearer"]
    expires_in: int
    user: User
    tables: list[TableView]


# The stats of API.md, written here rather than derived from the stored counters
# (records.Grades, records.Stats): a counter stored for later is published only when added
# here. A Stats is also the sum of its kinds' Grades (its base).
class Grades(ResponseModel):
    decisions: int
    mistakes: int
    ev_lost: Money


class Stats(Grades):
    rounds: int
    hands_won: int
    hands_lost: int
    hands_pushed: int
    net: Money
    by_kind: dict[Kind, Grades]


class Me(User):
    stats: Stats


class DecisionView(ResponseModel):
    action: str
    best: str
    loss: float | int
    kind: Kind
    cards: list[str]


class HandView(ResponseModel):
    cards: list[str]
    total: int
    soft: bool
    bet: Money
    doubled: bool
    split: bool
    status: Literal["playing", "standing", "bust", "blackjack", "surrendered"]
    result: Literal["win", "lose", "push", "blackjack", "even_money", "surrender"] | None
    payout: Money | None
    decisions: list[DecisionView]


class BoxView(ResponseModel):
    box: int
    player: str
    bet: Money
    insurance: Money | None
    insurance_payout: Money | None
    hands: list[HandView]


class Dealer(ResponseModel):
    cards: list[str]
    hidden: int
    total: int
    soft: bool


class Turn(ResponseModel):
    box: int
    hand: int


class RoundView(ResponseModel):
    round_id: str
    table: str
    shoe_id: str
    status: Literal["insurance", "player_turn", "settled"]
    version: int
    started_at: str | None  # null only for rounds stored before it was kept
    settled_at: str | None
    boxes: list[BoxView]
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


class SeatView(ResponseModel):
    table: TableView
    balance: Money
    shoe: ShoeInPlay
    round: RoundView | None


class Hint(ResponseModel):
    action: str
    level: Literal["medium", "hard"]
    ev: dict[str, float] | None


class History(ResponseModel):
    rounds: list[RoundView]
    next_cursor: str | None


class ShoeView(ResponseModel):
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
