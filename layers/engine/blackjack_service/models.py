"""Request bodies and query parameters as pydantic models: strict (a number must be a JSON
number, a string a JSON string) and closed (unknown fields are refused)."""

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from blackjack.actions import Action
from blackjack.fairness import CLIENT_SEED_PATTERN

NAME_PATTERN = r"^[A-Za-z0-9]{4,32}$"
IDEMPOTENCY_KEY_PATTERN = r"^[ -~]{1,128}$"
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
        if amount <= 0 or amount % Decimal(step) != 0:
            raise ValueError(f"must be a positive multiple of {step}")
        return amount

    return AfterValidator(check)


def _two_decimals(amount: Decimal) -> Decimal:
    if amount != amount.quantize(Decimal("0.01")):
        raise ValueError("at most two decimals")
    return amount


JsonNumber = Annotated[Decimal, BeforeValidator(_json_number)]
WholeCoins = Annotated[JsonNumber, _positive_multiple_of("1")]
HalfCoins = Annotated[JsonNumber, _positive_multiple_of("0.5")]
CutFraction = Annotated[JsonNumber, AfterValidator(_two_decimals), Field(ge=0.5, le=0.85)]
Name = Annotated[str, Field(pattern=NAME_PATTERN)]


class RequestModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class RegisterRequest(RequestModel):
    login: Name
    nick: Name
    password: Name


class SessionRequest(RequestModel):
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
    bets: Annotated[list[Bet], Field(min_length=1)]
    ai: list[AiSeat] = []
    client_seed: Annotated[str, Field(pattern=CLIENT_SEED_PATTERN)] | None = None
    cut: CutFraction | None = None


class ActionRequest(RequestModel):
    # Strict mode would want an Action instance; the JSON string is matched by value.
    action: Annotated[Action, Field(strict=False)]
    amount: HalfCoins | None = None
