"""Retried requests (API.md, "Retries"): an `Idempotency-Key` as what the player item keeps
of it, two short digests. The key's is of the route (method, resource and path parameters,
not the path's spelling: API.md's scope of a key) and the key; the body's is of the body as
parsed JSON (so key order, spacing and a number's spelling do not matter: 10, 10.0 and 1e1
are one value). Within the last 16 keys of a table,
8 bytes make two keys alike once in 2**60 pairs; 4 bytes tell a changed body from a retry
but for once in 4 billion reuses, which are a client's bug in the first place.
"""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol, TypeVar

KEY_BYTES = 8
BODY_BYTES = 4
KEYS_KEPT = 16  # API.md: a key replays while it is one of the user's last 16 at the table
# ... and was first sent within 24 hours: kept to the end of the minute it is 24 hours old.
KEY_MINUTES = 24 * 60


@dataclass(frozen=True, slots=True)
class RequestKey:
    """An `Idempotency-Key` as the service compares it: the digest of the route and the
    key, and the digest of the body."""

    digest: bytes
    body: bytes

    @classmethod
    def of(cls, route: Any, key: str, body: Any) -> "RequestKey":
        return cls(digest=_digest([route, key], KEY_BYTES), body=_digest(body, BODY_BYTES))


def _digest(value: Any, size: int) -> bytes:
    return hashlib.blake2b(_canonical(value).encode(), digest_size=size).digest()


def _canonical(value: Any) -> str:
    """One text for each JSON value: names sorted, no spacing, each number written one way
    for its value. Strings, names and integers are written as `json.dumps` writes them,
    so the digests of keys and of bodies of integers are those kept before numbers were
    compared by value."""
    if isinstance(value, dict):
        members = (f"{json.dumps(name)}:{_canonical(value[name])}" for name in sorted(value))
        return "{" + ",".join(members) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_canonical(item) for item in value) + "]"
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, int | float | Decimal):
        return _number(Decimal(repr(value)) if isinstance(value, float) else Decimal(value))
    raise TypeError(f"{type(value).__name__} is not a JSON value")


# Exponents whose numbers are written in full: any integer a body holds (the amounts, the
# boxes) is written as `json.dumps` writes it; beyond, 1e999999 is not a million digits.
_PLAIN_EXPONENTS = range(-20, 21)


def _number(number: Decimal) -> str:
    """A number's one spelling: its digits with no trailing zeros and its exponent (no
    context: `Decimal.normalize` would round past 28 digits, two values one text)."""
    sign, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int), "JSON has no NaN nor Infinity"
    if not any(digits):
        return "0"  # -0, 0.0 and 0e5 are 0
    while digits[-1] == 0:
        digits, exponent = digits[:-1], exponent + 1
    value = Decimal((sign, digits, exponent))
    return format(value, "f") if exponent in _PLAIN_EXPONENTS else str(value)


class KeptKey(Protocol):
    """A key as an item keeps it: its digest and the minute it was first sent."""

    @property
    def digest(self) -> bytes: ...

    @property
    def minute(self) -> int: ...


_K = TypeVar("_K", bound=KeptKey)


def kept(entries: Sequence[_K], now: float) -> list[_K]:
    """The keys still within their 24 hours."""
    minute = int(now // 60)
    return [entry for entry in entries if minute - entry.minute <= KEY_MINUTES]


def entry_of(entries: Sequence[_K], key: RequestKey, now: float) -> _K | None:
    """The kept entry of `key`, if it was sent within its 24 hours."""
    return next(
        (entry for entry in reversed(kept(entries, now)) if entry.digest == key.digest), None
    )


def adding(entries: Sequence[_K], entry: _K) -> list[_K]:
    """The last keys with `entry` added, at most KEYS_KEPT."""
    return [*entries[-(KEYS_KEPT - 1) :], entry]
