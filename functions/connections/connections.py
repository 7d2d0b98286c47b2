"""$connect and $disconnect of the rooms' WebSocket API: a connection opens with a
single-use ticket (`POST /v1/rooms/{room_id}/live`) and is forgotten when it closes."""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from blackjack_service import factories
from blackjack_service.errors import Unauthorized
from blackjack_service.observability import logger
from blackjack_service.settings import settings

settings()  # as every function: one without its table stops at start, naming it


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, int]:
    """API Gateway refuses the connection unless $connect answers 2xx."""
    request = event["requestContext"]
    if request["eventType"] == "CONNECT":
        ticket = (event.get("queryStringParameters") or {}).get("ticket")
        try:
            factories.live().connect(request["connectionId"], ticket)
        except Unauthorized:
            return {"statusCode": 401}
    else:
        factories.live().disconnect(request["connectionId"])
    return {"statusCode": 200}
