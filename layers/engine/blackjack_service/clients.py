"""boto3 clients of the AWS services the service calls besides DynamoDB (`store` makes
its own): SQS for the deadlines, API Gateway's `@connections` for the live updates. Each
is made on first use with the store's timeouts and no retry, for the store's reasons."""

from typing import Any

from .store import ATTEMPTS_PER_CALL, CONNECT_TIMEOUT_S, READ_TIMEOUT_S


def client(service: str, endpoint_url: str | None = None) -> Any:
    import boto3
    from botocore.config import Config

    return boto3.client(  # type: ignore[call-overload]
        service,
        endpoint_url=endpoint_url,
        config=Config(
            connect_timeout=CONNECT_TIMEOUT_S,
            read_timeout=READ_TIMEOUT_S,
            retries={"mode": "standard", "total_max_attempts": ATTEMPTS_PER_CALL},
        ),
    )
