"""Request bodies and query parameters as pydantic models: strict (a number must be a JSON
number, a string a JSON string) and closed (unknown fields are refused)."""

from decimal import Decimal
from typing import Annotated, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    RootModel,
    WithJsonSchema,
)
from pydantic.config import JsonDict

from blackjack.actions import Action
from blackjack.cards import RANKS, SUITS
from blackjack.fairness import CLIENT_SEED_PATTERN
from blackjack.money import is_multiple
from blackjack.rules import TABLES, Insurance

NAME_PATTERN = r"^[A-Za-z0-9]{4,32}$"
IDEMPOTENCY_KEY_PATTERN = r"^[ -~]{1,128}$"
# `*` (any version), a round view's ETag, weak or strong (RFC 9110), or its version bare;
# group 2 or 3 is the version.
IF_MATCH_PATTERN = r'^(\*|(?:W/)?"([0-9]+)"|([0-9]+))$'
TABLE_PATTERN = f"^({'|'.join(TABLES)})$"
# Ids of ours: a shoe's is 32 hex digits, a round's its shoe's and its number in the shoe
# (a round stored before the player item has 32 hex digits of its own).
SHOE_ID_PATTERN = r"[0-9a-f]{32}"
ROUND_ID_PATTERN = rf"{SHOE_ID_PATTERN}(-[1-9][0-9]{{0,3}})?"
# A history page's cursor: the settle time (microseconds, 16 digits) and the round id of
# the last round shown; any cursor of this shape is valid (a later page may be empty).
CURSOR_PATTERN = rf"^[0-9]{{16}}{ROUND_ID_PATTERN}$"
AiLevel = Literal["easy", "medium", "hard", "expert", "counter"]
HintLevel = Literal["medium", "hard", "expert", "counter"]
CARD_PATTERN = f"^[{RANKS}][{SUITS}]$"
DrillSection = Literal["any", "hard", "soft", "pairs", "indices"]


def _json_number(value: object) -> Decimal:
    """A JSON number as an exact Decimal. The JSON parser gives floats; the repr of a float
    is the shortest decimal that reads back as it, i.e. the number the client wrote."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise ValueError("must be a JSON number")
    amount = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not amount.is_finite():
        raise ValueError("must be a finite number")
    return amount


def _positive_multiple_of(step: str) -> AfterValidator:
    def check(amount: Decimal) -> Decimal:
        if not is_multiple(amount, Decimal(step)):
            raise ValueError(f"must be a positive multiple of {step}")
        return amount

    return AfterValidator(check)


CENT = Decimal("0.01")


def _two_decimals(amount: Decimal) -> Decimal:
    if amount != 0 and not is_multiple(abs(amount), CENT):
        raise ValueError("at most two decimals")
    return amount


def _number(low: Decimal, high: Decimal, step: Decimal) -> WithJsonSchema:
    """The JSON schema of a number from low to high in steps of step. Validators and
    fuzzers read `multipleOf` on the number as written (0.57 is a multiple of 0.01,
    0.5700000000000001 is not), as the service does."""
    bounds = {"minimum": low, "maximum": high, "multipleOf": step}
    return WithJsonSchema(
        {"type": "number", **{key: _json(value) for key, value in bounds.items()}}
    )


def _json(number: Decimal) -> int | float:
    return int(number) if number == number.to_integral_value() else float(number)


# What some table takes; the table in the path checks its own limits (bet_out_of_limits).
BET_LOW = Decimal(min(table.min_bet for table in TABLES.values()))
BET_HIGH = Decimal(max(table.max_bet for table in TABLES.values()))
# Insurance is at most half the bet, at the tables that offer it.
_INSURED = [table for table in TABLES.values() if table.rules.insurance is not Insurance.NONE]
INSURANCE_HIGH = Decimal(max(table.max_bet for table in _INSURED)) / 2
# Where the player may place the cut at any table; each table checks its own range.
_CUT_RANGES = [table.rules.cut_range for table in TABLES.values() if table.rules.cut_range]
CUT_LOW = min(low for low, _ in _CUT_RANGES)
CUT_HIGH = max(high for _, high in _CUT_RANGES)

JsonNumber = Annotated[Decimal, BeforeValidator(_json_number)]
BetCoins = Annotated[JsonNumber, _positive_multiple_of("1"), _number(BET_LOW, BET_HIGH, Decimal(1))]
InsuranceCoins = Annotated[
    JsonNumber,
    _positive_multiple_of("0.5"),
    Field(le=INSURANCE_HIGH),  # over half of any bet: refused before the round is read
    _number(Decimal("0.5"), INSURANCE_HIGH, Decimal("0.5")),
]
CutFraction = Annotated[
    JsonNumber,
    AfterValidator(_two_decimals),
    Field(ge=CUT_LOW, le=CUT_HIGH),  # Decimal bounds: 0.85 as a float is below Decimal 0.85
    _number(CUT_LOW, CUT_HIGH, CENT),
]
Name = Annotated[str, Field(pattern=NAME_PATTERN)]


def _without_defaults(schema: JsonDict) -> None:
    """A request's schema without its fields' defaults: openapi-typescript makes a
    property with a default required (its defaultNonNullable), and these are optional."""
    properties = schema.get("properties")
    for field in properties.values() if isinstance(properties, dict) else ():
        if isinstance(field, dict):
            field.pop("default", None)


class RequestModel(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, json_schema_extra=_without_defaults
    )


def _example(example: JsonDict) -> ConfigDict:
    """The model's config with an example for the OpenAPI document (and its fuzzer)."""

    def published(schema: JsonDict) -> None:
        _without_defaults(schema)
        schema["examples"] = [example]

    config = RequestModel.model_config.copy()
    config["json_schema_extra"] = published
    return config


class RegisterRequest(RequestModel):
    model_config = _example({"login": "alice1", "nick": "Alice", "password": "secret123"})

    login: Name
    nick: Name
    password: Name


class SessionRequest(RequestModel):
    model_config = _example({"login": "alice1", "password": "secret123"})

    # Any string is checked against the store: a malformed login is bad credentials, not a
    # hint about which logins can exist.
    login: Annotated[str, Field(min_length=1, max_length=256)]
    password: Annotated[str, Field(min_length=1, max_length=256)]


class LiveRequest(RequestModel):
    """A ticket to watch a room asks nothing: `{}`, as every POST's body is an object."""

    model_config = _example({})


class Bet(RequestModel):
    box: Annotated[int, Field(ge=0)]
    amount: BetCoins


class AiBox(RequestModel):
    box: Annotated[int, Field(ge=0)]
    level: AiLevel


class StartRoundRequest(RequestModel):
    model_config = _example({"bets": [{"box": 0, "amount": 10}]})

    bets: Annotated[list[Bet], Field(min_length=1)]
    ai: list[AiBox] = []
    client_seed: Annotated[str, Field(pattern=CLIENT_SEED_PATTERN)] | None = None
    cut: CutFraction | None = None


class InsuranceRequest(RequestModel):
    action: Literal[Action.INSURANCE]
    amount: InsuranceCoins | None = None  # None: half the bet


class _NoAmount(RequestModel):
    """An action without an amount: only insurance takes one."""

    amount: ClassVar[None] = None


class HitRequest(_NoAmount):
    action: Literal[Action.HIT]


class StandRequest(_NoAmount):
    action: Literal[Action.STAND]


class DoubleRequest(_NoAmount):
    action: Literal[Action.DOUBLE]


class SplitRequest(_NoAmount):
    action: Literal[Action.SPLIT]


class SurrenderRequest(_NoAmount):
    action: Literal[Action.SURRENDER]


class EvenMoneyRequest(_NoAmount):
    action: Literal[Action.EVEN_MONEY]


class DeclineInsuranceRequest(_NoAmount):
    action: Literal[Action.DECLINE_INSURANCE]


_AnyAction = (
    HitRequest
    | StandRequest
    | DoubleRequest
    | SplitRequest
    | SurrenderRequest
    | InsuranceRequest
    | EvenMoneyRequest
    | DeclineInsuranceRequest
)


class ActionRequest(RootModel[Annotated[_AnyAction, Field(discriminator="action")]]):
    """An action: one schema per action, told apart by `action`."""

    # A discriminated union: a generated client gets a type per action, and an amount on
    # insurance only.
    model_config = ConfigDict(frozen=True, json_schema_extra={"examples": [{"action": "stand"}]})

    @property
    def action(self) -> Action:
        return self.root.action

    @property
    def amount(self) -> Decimal | None:
        return self.root.amount


CardCode = Annotated[str, Field(pattern=CARD_PATTERN)]


class DrillAnswerRequest(RequestModel):
    """A drill's answer: a two-card hand, the up card and the action taken, and for an index
    drill the true count. Whether the hand has a cell (and for an index drill an index play)
    and the table holds its cards depends on the table (422), whether the action is legal on
    it on the table's rules (409)."""

    model_config = _example({"cards": ["TS", "6H"], "up_card": "TD", "action": "hit"})

    cards: Annotated[list[CardCode], Field(min_length=2, max_length=2)]
    up_card: CardCode
    action: Annotated[Action, Field(strict=False)]  # from its JSON string
    # An index drill's answer: at this Hi-Lo true count (RULES.md, "Index plays").
    true_count: Annotated[int, Field(ge=-10, le=10)] | None = None


# ---- shared tables ----------------------------------------------------------------------

ROOM_TABLES = tuple(table_id for table_id, table in TABLES.items() if table.boxes > 1)
ROOM_TABLE_PATTERN = f"^({'|'.join(ROOM_TABLES)})$"
ROOM_ID_PATTERN = r"[0-9a-f]{32}"
RoomSeconds = Annotated[int, Field(ge=5, le=60)]
Box = Annotated[int, Field(ge=0)]


class SeatsRequest(RequestModel):
    model_config = _example({"boxes": [0]})

    boxes: Annotated[list[Box], Field(min_length=1)]


class CreateRoomRequest(RequestModel):
    model_config = _example({"table": "casino", "name": "Friday", "boxes": [0]})

    table: Annotated[str, Field(pattern=ROOM_TABLE_PATTERN)]
    name: Annotated[str, Field(pattern=r"^[ -~]{1,32}$")] | None = None
    turn_seconds: RoomSeconds = 20
    betting_seconds: RoomSeconds = 15
    boxes: list[Box] = []


class RoomBetRequest(RequestModel):
    """The caller's bets for the room's next round; none: a pass."""

    model_config = _example({"bets": [{"box": 0, "amount": 10}]})

    bets: list[Bet]
    client_seed: Annotated[str, Field(pattern=CLIENT_SEED_PATTERN)] | None = None
