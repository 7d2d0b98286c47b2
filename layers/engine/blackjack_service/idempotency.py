"""Replays of authenticated POSTs that carry an `Idempotency-Key` (API.md, "Retries"),
through Powertools idempotency, its records kept in the service's own table.

The idempotency key is the user, the route (method, resource and path parameters), and
the header's key; the payload checked on a reuse is the parsed body (so key order and
spacing do not matter). Only successful responses are kept: a failed one is raised out of
the idempotent function, which makes Powertools delete its record, and answered as it
was. Imported on the first request with a key only, so other requests do not pay for its
import.
"""

import functools
import json
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyValidationError,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from .errors import Conflict, IdempotencyKeyReused
from .factories import store
from .identity import Identity
from .problems import LambdaEvent, LambdaResponse, problem_of, proxy_response

RETENTION_SECONDS = 24 * 60 * 60


class _Unkept(Exception):
    """A response that must not be kept (not 2xx); carries it out of the function."""

    def __init__(self, response: LambdaResponse) -> None:
        super().__init__(response.get("statusCode"))
        self.response = response


@functools.cache
def _runner() -> tuple[Callable[..., LambdaResponse], IdempotencyConfig]:
    persistence = DynamoDBPersistenceLayer(
        table_name=store().table_name,
        key_attr="pk",
        sort_key_attr="sk",
        expiry_attr="expires_at",
        boto3_client=store().client,
    )
    config = IdempotencyConfig(
        event_key_jmespath="[user, route, key]",
        payload_validation_jmespath="body",
        raise_on_no_idempotency_key=True,
        expires_after_seconds=RETENTION_SECONDS,
    )

    @idempotent_function(  # type: ignore[untyped-decorator]
        data_keyword_argument="request", persistence_store=persistence, config=config
    )
    def run(
        *,
        request: dict[str, Any],
        app: APIGatewayRestResolver,
        event: LambdaEvent,
        context: LambdaContext,
    ) -> LambdaResponse:
        response = app.resolve(event, context)
        if not 200 <= int(response["statusCode"]) < 300:
            raise _Unkept(response)
        return response

    return run, config


def resolve_once(
    app: APIGatewayRestResolver,
    event: LambdaEvent,
    context: LambdaContext,
    user: Identity,
    key: str,
) -> LambdaResponse:
    request = {
        "user": user.key,
        # The route, not the path's spelling (a trailing slash, say): API.md's scope of a key.
        "route": [event.get("httpMethod"), event.get("resource"), event.get("pathParameters")],
        "key": key,
        "body": json.loads(event.get("body") or "{}"),
    }
    run, config = _runner()
    config.register_lambda_context(context)  # in-progress records expire with the invocation
    try:
        return run(request=request, app=app, event=event, context=context)
    except _Unkept as unkept:
        return unkept.response
    except IdempotencyValidationError:
        reused = IdempotencyKeyReused("this Idempotency-Key was sent with another body")
        return proxy_response(problem_of(reused))
    except IdempotencyAlreadyInProgressError:
        busy = Conflict("a request with this Idempotency-Key is in progress")
        return proxy_response(problem_of(busy))
