"""Service errors: each is one problem document of API.md (status and `code`)."""


class ServiceError(Exception):
    """A request the service refuses; the HTTP layer answers it as a problem document."""

    status = 400
    code = "service_error"
    title = "Request refused"

    def __init__(self, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}


class MalformedRequest(ServiceError):
    status, code, title = 400, "malformed_request", "Malformed request"


class BadCredentials(ServiceError):
    status, code, title = 401, "bad_credentials", "Bad credentials"


class Unauthorized(ServiceError):
    status, code, title = 401, "unauthorized", "Unauthorized"


class NotFound(ServiceError):
    status, code, title = 404, "not_found", "Not found"


class LoginTaken(ServiceError):
    status, code, title = 409, "login_taken", "Login taken"


class RoundInProgress(ServiceError):
    status, code, title = 409, "round_in_progress", "Round in progress"


class NoRound(ServiceError):
    status, code, title = 409, "no_round", "No round in play"


class InsufficientFunds(ServiceError):
    status, code, title = 409, "insufficient_funds", "Insufficient funds"


class Conflict(ServiceError):
    status, code, title = 409, "conflict", "Conflict"


class StaleState(ServiceError):
    status, code, title = 412, "stale_state", "Stale state"


class PayloadTooLarge(ServiceError):
    status, code, title = 413, "payload_too_large", "Payload too large"


class UnsupportedMediaType(ServiceError):
    status, code, title = 415, "unsupported_media_type", "Unsupported media type"


class ValidationFailed(ServiceError):
    status, code, title = 422, "validation_error", "Validation error"


class IdempotencyKeyReused(ServiceError):
    status, code, title = 422, "idempotency_key_reused", "Idempotency key reused"


class TooManyAttempts(ServiceError):
    status, code, title = 429, "too_many_attempts", "Too many attempts"


class NotImplementedYet(ServiceError):
    status, code, title = 501, "not_implemented", "Not implemented"
