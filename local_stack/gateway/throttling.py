"""Throttling: the stage's MethodSettings limits, a token bucket per method, as API
Gateway throttles before it authorizes a request."""

from __future__ import annotations

import threading
import time
from typing import Any


class TokenBucket:
    """The token bucket API Gateway throttles with: burst capacity, refilled at rate/s."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.updated = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _unescape_resource_path(path: str) -> str:
    """MethodSettings' ResourcePath: "/~1v1~1users" is /v1/users; "/*" is every path."""
    if path == "/*":
        return path
    return path.removeprefix("/").replace("~1", "/").replace("~0", "~")


class Throttle:
    """MethodSettings' ThrottlingRateLimit/BurstLimit, one bucket per method."""

    def __init__(self, method_settings: list[dict[str, Any]]) -> None:
        self.settings = [
            (
                _unescape_resource_path(str(s.get("ResourcePath", "/*"))),
                str(s.get("HttpMethod", "*")).upper(),
                float(s["ThrottlingRateLimit"]),
                int(s.get("ThrottlingBurstLimit", s["ThrottlingRateLimit"])),
            )
            for s in method_settings
            if isinstance(s, dict) and "ThrottlingRateLimit" in s
        ]
        self.buckets: dict[tuple[str, str], TokenBucket | None] = {}
        self.lock = threading.Lock()

    def _limits(self, resource: str, method: str) -> tuple[float, int] | None:
        best: tuple[int, float, int] | None = None
        for path, http_method, rate, burst in self.settings:
            if path not in ("/*", resource) or http_method not in ("*", method):
                continue
            score = (path == resource) * 2 + (http_method == method)
            if best is None or score > best[0]:
                best = (score, rate, burst)
        return None if best is None or best[1] < 0 else (best[1], best[2])

    def allow(self, resource: str, method: str) -> bool:
        with self.lock:
            key = (resource, method)
            if key not in self.buckets:
                limits = self._limits(resource, method)
                self.buckets[key] = TokenBucket(*limits) if limits else None
            bucket = self.buckets[key]
            return bucket is None or bucket.take()
