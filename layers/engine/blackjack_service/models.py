"""Request bodies and query parameters as pydantic models: strict (a number must be a JSON
number, a string a JSON string) and closed (unknown fields are refused)."""

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema
from pydantic.config import JsonDict

from blackjack.actions import Action
from blackjack.fairness import CLIENT_SEED_PATTERN
from blackjack.money import is_multiple
from blackjack.rules import TABLES

NAME_PATTERN = r"^[A-Za-z0-9]{4,32}$"
IDEMPOTENCY_KEY_PATTERN = r"^[ -~]{1,128}$"
TABLE_PATTERN = f"^({'|'.join(TABLES)})$"
# Ids of ours: a shoe's is 32 hex digits, a round's its shoe's and its number in the shoe
# (a round stored before the player item has 32 hex digits of its own).
SHOE_ID_PATTERN = r"[0-9a-f]{32}"
ROUND_ID_PATTERN = rf"{SHOE_ID_PATTERN}(-[1-9][0-9]{{0,3}})?"
# A history page's cursor: the settle time (microseconds, 16 digits) and the round id of
# the last round shown; any cursor of this shape is valid (a later page may be empty).
CURSOR_PATTERN = rf"^[0-9]{{16}}{ROUND_ID_PATTERN}$"
AiLevel = Literal["easy", "medium", "hard"]


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


def _coins(step: str) -> WithJsonSchema:
    return WithJsonSchema({"type": "number", "exclusiveMinimum": 0, "multipleOf": float(step)})


# Where the player may place the cut at any table; each table checks its own range.
_CUT_RANGES = [table.rules.cut_range for table in TABLES.values() if table.rules.cut_range]
CUT_LOW = min(low for low, _ in _CUT_RANGES)
CUT_HIGH = max(high for _, high in _CUT_RANGES)
# Every cut as an enum: a `multipleOf: 0.01` would let binary floats such as 0.5700000000000001
# through, which the service refuses (at most two decimals).
_CUTS = [float(cut / 100) for cut in range(int(CUT_LOW * 100), int(CUT_HIGH * 100) + 1)]

JsonNumber = Annotated[Decimal, BeforeValidator(_json_number)]
WholeCoins = Annotated[JsonNumber, _positive_multiple_of("1"), _coins("1")]
HalfCoins = Annotated[JsonNumber, _positive_multiple_of("0.5"), _coins("0.5")]
CutFraction = Annotated[
    JsonNumber,
    AfterValidator(_two_decimals),
    Field(ge=CUT_LOW, le=CUT_HIGH),  # Decimal bounds: 0.85 as a float is below Decimal 0.85
    WithJsonSchema({"type": "number", "enum": _CUTS}),
]
Name = Annotated[str, Field(pattern=NAME_PATTERN)]


class RequestModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _example(example: JsonDict) -> ConfigDict:
    """The model's config with an example for the OpenAPI document (and its fuzzer)."""
    return ConfigDict(**RequestModel.model_config, json_schema_extra={"examples": [example]})


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


class Bet(RequestModel):
    box: Annotated[int, Field(ge=0)]
    amount: WholeCoins


class AiSeat(RequestModel):
    box: Annotated[int, Field(ge=0)]
    level: AiLevel


class StartRoundRequest(RequestModel):
    model_config = _example({"bets": [{"box": 0, "amount": 10}]})

    bets: Annotated[list[Bet], Field(min_length=1)]
    ai: list[AiSeat] = []
    client_seed: Annotated[str, Field(pattern=CLIENT_SEED_PATTERN)] | None = None
    cut: CutFraction | None = None


class ActionRequest(RequestModel):
    model_config = _example({"action": "stand"})

    # Strict mode would want an Action instance; the JSON string is matched by value.
    action: Annotated[Action, Field(strict=False)]
    amount: HalfCoins | None = None
