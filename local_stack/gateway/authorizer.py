"""The Lambda TOKEN authorizer: run as API Gateway runs it before a route's function, its
answer (a principal, an IAM policy, a context) cached per token when the Api asks."""

from __future__ import annotations

import functools
import logging
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Generic

from local_stack.events import (
    ApiContext,
    HttpRequest,
    method_arn,
    printable_traceback,
    token_authorizer_event,
)
from local_stack.gateway.integration import F, Invoker
from local_stack.runtime import Throttled

log = logging.getLogger("local_stack")


@dataclass
class Authorizer(Generic[F]):
    """A Lambda TOKEN authorizer, as declared under the Api's Auth.Authorizers."""

    name: str
    function: F
    identity_header: str = "Authorization"
    validation_expression: re.Pattern[str] | None = None
    ttl_s: int = 0


class AuthorizerDenied(Exception):
    def __init__(self, kind: str, message: str | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.message = message


@functools.lru_cache(maxsize=1024)  # an authorizer's policy names the same few ARNs
def _arn_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(
        "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern) + r"\Z"
    )


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def policy_allows(policy: Any, arn: str) -> bool:
    """IAM evaluation of an authorizer policy for execute-api:Invoke on arn.

    Raises AuthorizerDenied(ACCESS_DENIED) for an explicit deny; False when nothing allows.
    """
    if not isinstance(policy, dict) or "Statement" not in policy:
        raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
    allowed = False
    for statement in _as_list(policy["Statement"]):
        if not isinstance(statement, dict):
            raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
        actions = [str(a).lower() for a in _as_list(statement.get("Action", []))]
        if not any(_arn_pattern(a).match("execute-api:invoke") for a in actions):
            continue
        resources = [str(r) for r in _as_list(statement.get("Resource", []))]
        if not any(_arn_pattern(r).match(arn) for r in resources):
            continue
        effect = str(statement.get("Effect", ""))
        if effect == "Deny":
            raise AuthorizerDenied(
                "ACCESS_DENIED",
                "User is not authorized to access this resource with an explicit deny",
            )
        if effect == "Allow":
            allowed = True
    return allowed


def _context_value(value: Any) -> str:
    """Authorizer context values reach the proxy event as strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")


class Authorization(Generic[F]):
    """The authorizers of one API at work: each called through the gateway's invoker, its
    answers kept for ReauthorizeEvery seconds per token."""

    def __init__(self, api: ApiContext, invoke: Invoker[F]) -> None:
        self.api = api
        self.invoke = invoke
        self._cache: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def authorize(self, authorizer: Authorizer[F], request: HttpRequest) -> dict[str, Any]:
        """Run the TOKEN authorizer as API Gateway does; the requestContext.authorizer."""
        token = request.header(authorizer.identity_header)
        expression = authorizer.validation_expression
        if not token or (expression and not expression.fullmatch(token)):
            raise AuthorizerDenied("UNAUTHORIZED")
        arn = method_arn(self.api, request.method, request.raw_path)
        answer = self._cached(authorizer, token)
        if answer is None:
            try:
                event = token_authorizer_event(token, arn)
                answer = self.invoke(authorizer.function, event, request.request_id)
            except Throttled as exc:
                raise AuthorizerDenied("THROTTLED") from exc
            except Exception as exc:
                if str(exc) == "Unauthorized":
                    raise AuthorizerDenied("UNAUTHORIZED") from exc
                log.error("%s raised:\n%s", authorizer.function.logical_id, printable_traceback())
                raise AuthorizerDenied("AUTHORIZER_FAILURE") from exc
            if not isinstance(answer, dict) or "principalId" not in answer:
                log.error("%s: no principalId in %r", authorizer.function.logical_id, answer)
                raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
            if authorizer.ttl_s > 0:
                expires = time.monotonic() + authorizer.ttl_s
                with self._lock:
                    self._cache[(authorizer.name, token)] = (expires, answer)
        if not policy_allows(answer.get("policyDocument"), arn):
            raise AuthorizerDenied("ACCESS_DENIED")
        context = answer.get("context") or {}
        if not isinstance(context, dict):
            raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
        return {
            "principalId": str(answer["principalId"]),
            **{str(k): _context_value(v) for k, v in context.items()},
        }

    def _cached(self, authorizer: Authorizer[F], token: str) -> dict[str, Any] | None:
        if authorizer.ttl_s <= 0:
            return None
        with self._lock:
            entry = self._cache.get((authorizer.name, token))
            if entry is None or entry[0] < time.monotonic():
                self._cache.pop((authorizer.name, token), None)
                return None
            return entry[1]
