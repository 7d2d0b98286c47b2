"""Signed session tokens: PyJWT HS256 with `sub` (the login as registered), `nick`, `iat`,
`exp`. The HMAC key is the SecretString of the secret `TOKEN_SECRET_ARN`, read through
Powertools parameters (cached for five minutes, so a rotated key is picked up)."""

import time
from dataclasses import dataclass

import jwt

from .identity import Identity
from .settings import settings

ALGORITHM = "HS256"
_SECRET_MAX_AGE_SECONDS = 300


class InvalidToken(Exception):
    """Missing, malformed, expired or forged."""


@dataclass(frozen=True, slots=True)
class VerifiedToken:
    identity: Identity
    expires_at: int  # the `exp` claim, in seconds since the epoch


def signing_secret() -> str:
    # Imported here: the parameters utility pulls in boto3, which only some functions need.
    from aws_lambda_powertools.utilities.parameters import get_secret

    return str(get_secret(settings().token_secret_arn, max_age=_SECRET_MAX_AGE_SECONDS))


def issue(identity: Identity, now: float | None = None) -> tuple[str, int]:
    """A token for `identity` and its lifetime in seconds."""
    issued = int(time.time() if now is None else now)
    ttl = settings().token_ttl_seconds
    claims = {"sub": identity.login, "nick": identity.nick, "iat": issued, "exp": issued + ttl}
    return jwt.encode(claims, signing_secret(), algorithm=ALGORITHM), ttl


def verify(authorization: str | None) -> VerifiedToken:
    """The identity in an `Authorization: Bearer <token>` value, and until when it holds;
    raises `InvalidToken`."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidToken("no bearer token")
    try:
        claims = jwt.decode(
            token.strip(),
            signing_secret(),
            algorithms=[ALGORITHM],
            options={"require": ["sub", "nick", "iat", "exp"]},
        )
    except jwt.PyJWTError as error:
        raise InvalidToken(str(error)) from error
    login, nick, expires_at = claims["sub"], claims["nick"], claims["exp"]
    if not isinstance(login, str) or not isinstance(nick, str) or not isinstance(expires_at, int):
        raise InvalidToken("malformed claims")
    return VerifiedToken(Identity(login=login, nick=nick), expires_at)
