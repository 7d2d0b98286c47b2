"""Service errors: each is one problem document of API.md (status and `code`)."""


class ServiceError(Exception):
    """A request the service refuses; the HTTP layer answers it as a problem document."""

    status = 400
    code = "service_error"

    def __init__(self, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}


class MalformedRequest(ServiceError):
    status, code = 400, "malformed_request"


class BadCredentials(ServiceError):
    status, code = 401, "bad_credentials"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class LoginTaken(ServiceError):
    status, code = 409, "login_taken"


class RoundInProgress(ServiceError):
    status, code = 409, "round_in_progress"


class ShoeNotCommitted(ServiceError):
    status, code = 409, "shoe_not_committed"


class NoRound(ServiceError):
    status, code = 409, "no_round"


class InsufficientFunds(ServiceError):
    status, code = 409, "insufficient_funds"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class BoxTaken(ServiceError):
    status, code = 409, "box_taken"


class NotSeated(ServiceError):
    status, code = 409, "not_seated"


class NotYourTurn(ServiceError):
    status, code = 409, "not_your_turn"


class AlreadyBet(ServiceError):
    status, code = 409, "already_bet"


class TooManyRooms(ServiceError):
    status, code = 409, "too_many_rooms"


class StaleVersion(ServiceError):
    status, code = 412, "stale_state"


class PayloadTooLarge(ServiceError):
    status, code = 413, "payload_too_large"


class UnsupportedMediaType(ServiceError):
    status, code = 415, "unsupported_media_type"


class ValidationFailed(ServiceError):
    status, code = 422, "validation_error"


class IdempotencyKeyReused(ServiceError):
    status, code = 422, "idempotency_key_reused"


class TooManyAttempts(ServiceError):
    status, code = 429, "too_many_attempts"


class NotMigrated(ServiceError):
    """An account stored before the player item whose items `migration` has not moved yet:
    the operator runs it right after the deploy that needs it, so this lasts minutes."""

    status, code = 503, "unavailable"

    def __init__(self) -> None:
        super().__init__(
            "this account is being moved to the service's new storage; retry in a minute",
            headers={"Retry-After": "60"},
        )
