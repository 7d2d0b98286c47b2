"""CORS preflights: an OPTIONS on a path without an OPTIONS method of its own is answered
here, before the route table's method match, the throttle or the authorizer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from local_stack.events import HttpResponse
from local_stack.gateway.responses import unquoted

HTTP_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")  # what ANY stands for


@dataclass
class Cors:
    """The Api's Cors property: SAM answers preflights with a mock integration."""

    allow_origin: str
    allow_headers: str | None = None
    allow_methods: str | None = None
    max_age: str | None = None
    allow_credentials: bool = False

    @classmethod
    def parse(cls, value: Any) -> Cors | None:
        if not value:
            return None
        if isinstance(value, str):
            return cls(allow_origin=unquoted(value))
        return cls(
            allow_origin=unquoted(str(value.get("AllowOrigin", "'*'"))),
            allow_headers=unquoted(str(value["AllowHeaders"])) if "AllowHeaders" in value else None,
            allow_methods=unquoted(str(value["AllowMethods"])) if "AllowMethods" in value else None,
            max_age=unquoted(str(value["MaxAge"])) if "MaxAge" in value else None,
            allow_credentials=bool(value.get("AllowCredentials", False)),
        )

    def preflight(self, methods: list[str]) -> HttpResponse:
        # SAM's AllowMethods when the property has none: the path's methods and OPTIONS, or
        # all of API Gateway's for a path with ANY.
        listed = HTTP_METHODS if "ANY" in methods else {*methods, "OPTIONS"}
        allow_methods = self.allow_methods or ",".join(sorted(listed))
        headers = [
            ("Content-Type", "application/json"),
            ("Access-Control-Allow-Origin", self.allow_origin),
            ("Access-Control-Allow-Methods", allow_methods),
        ]
        if self.allow_headers:
            headers.append(("Access-Control-Allow-Headers", self.allow_headers))
        if self.max_age:
            headers.append(("Access-Control-Max-Age", self.max_age))
        if self.allow_credentials:
            headers.append(("Access-Control-Allow-Credentials", "true"))
        return HttpResponse(status=200, headers=headers, body=b"")
