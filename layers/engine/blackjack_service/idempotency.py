"""Retried requests (API.md, "Retries"): an `Idempotency-Key` as what the player item keeps
of it, two short digests. The key's is of the route (method, resource and path parameters,
not the path's spelling: API.md's scope of a key) and the key; the body's is of the body as
parsed JSON (so key order and spacing do not matter). Within the last 16 keys of a table,
8 bytes make two keys alike once in 2**60 pairs; 4 bytes tell a changed body from a retry
but for once in 4 billion reuses, which are a client's bug in the first place.
"""

import hashlib
import json
from dataclasses import dataclass
from typing import Any

KEY_BYTES = 8
BODY_BYTES = 4


@dataclass(frozen=True, slots=True)
class RequestKey:
    key: bytes
    body: bytes

    @classmethod
    def of(cls, route: Any, key: str, body: Any) -> "RequestKey":
        return cls(key=_digest([route, key], KEY_BYTES), body=_digest(body, BODY_BYTES))


def _digest(value: Any, size: int) -> bytes:
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(canonical.encode(), digest_size=size).digest()
