"""Signed session tokens: PyJWT HS256 with `sub` (the login as registered), `nick`, `iat`,
`exp`. The HMAC key is the SecretString of the secret `TOKEN_SECRET_ARN`, read through
Powertools parameters (cached for five minutes, so a rotated key is picked up).

A token has one spelling: PyJWT reads a segment with `=` padding, with characters outside
base64url, or with other bits at the end of its last character as the same bytes, so a
token is refused unless each segment is the base64url (unpadded) of what it decodes to.
The `Authorization` value around it may vary only as the web ACL's per-token rule ignores
(the scheme's case, white space: COMPRESS_WHITE_SPACE, TRIM, LOWERCASE), so that the rule
counts every request of a session under one key.
"""

import binascii
import re
import time
from dataclasses import dataclass

import jwt
from jwt.utils import base64url_decode, base64url_encode

from .identity import Identity
from .settings import settings

ALGORITHM = "HS256"
_SECRET_MAX_AGE_SECONDS = 300
_WHITE_SPACE = r"[ \t\n\v\f\r\xa0]"  # what WAF's COMPRESS_WHITE_SPACE takes as space
_BEARER = re.compile(
    rf"{_WHITE_SPACE}*bearer{_WHITE_SPACE}+([\w-]+\.[\w-]+\.[\w-]+){_WHITE_SPACE}*",
    re.IGNORECASE | re.ASCII,
)


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
    bearer = _BEARER.fullmatch(authorization or "")
    if bearer is None:
        raise InvalidToken("no bearer token")
    token = bearer[1]
    if not all(_canonical(segment) for segment in token.split(".")):
        raise InvalidToken("not the token's one spelling")
    try:
        claims = jwt.decode(
            token,
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


def _canonical(segment: str) -> bool:
    """Whether `segment` is the unpadded base64url of the bytes it decodes to."""
    try:
        return base64url_encode(base64url_decode(segment)).decode() == segment
    except binascii.Error:
        return False
