"""The Lambda proxy integration: the functions a gateway sends to, who runs them, and the
call itself, the request in as a proxy event and the function's result out as the answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar

from local_stack.events import (
    ApiContext,
    HttpRequest,
    HttpResponse,
    MalformedProxyResponse,
    printable_traceback,
    proxy_event,
    proxy_response,
)
from local_stack.gateway.responses import GatewayResponses
from local_stack.runtime import LambdaFunction, Throttled

log = logging.getLogger("local_stack")


class Function(Protocol):
    """What the gateways know of a function: its names (an Api's Auth names its authorizer
    by ARN); the gateway's invoker is what runs it."""

    @property
    def logical_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def arn(self) -> str: ...


# The functions a gateway sends to: the local stack's (the default, so that `Route` alone
# is the stack's), or the in-process API's (local_stack.in_process), modules of this
# process. A default needs typing_extensions' TypeVar on Python 3.11.
F = TypeVar("F", bound=Function, default=LambdaFunction)

# (function, event, request id) -> the function's result
Invoker = Callable[[F, dict[str, Any], str], Any]


class ProxyIntegration(Generic[F]):
    """The integration of every route of one API: its function, called with the proxy event."""

    def __init__(
        self,
        api: ApiContext,
        invoke: Invoker[F],
        binary_media_types: list[str],
        responses: GatewayResponses,
    ) -> None:
        self.api = api
        self.invoke = invoke
        self.binary_media_types = binary_media_types
        self.responses = responses  # for a function that fails or is throttled

    def answer(
        self,
        request: HttpRequest,
        function: F,
        *,
        resource: str,
        path_parameters: dict[str, str],
        authorizer: dict[str, Any] | None,
    ) -> HttpResponse:
        """The function's answer to the request, or API Gateway's when it fails."""
        event = proxy_event(
            request,
            resource=resource,
            path_parameters=path_parameters,
            api=self.api,
            authorizer=authorizer,
            binary=self._is_binary(request),
        )
        try:
            result = self.invoke(function, event, request.request_id)
            return proxy_response(result)
        except Throttled:  # as Lambda's TooManyRequestsException
            return self.responses.render("THROTTLED", request, resource=resource)
        except MalformedProxyResponse as exc:
            log.error("%s: malformed Lambda proxy response: %s", function.logical_id, exc)
        except Exception:  # its traceback may quote the request
            log.error("%s raised:\n%s", function.logical_id, printable_traceback())
        return self.responses.render(
            "DEFAULT_5XX", request, message="Internal server error", status=502, resource=resource
        )

    def _is_binary(self, request: HttpRequest) -> bool:
        content_type = (request.header("Content-Type") or "").split(";")[0].strip().lower()
        for media in self.binary_media_types:
            media = media.replace("~1", "/").lower()
            if (
                media == "*/*"
                or media == content_type
                or (media.endswith("/*") and content_type.startswith(media[:-1]))
            ):
                return True
        return False
