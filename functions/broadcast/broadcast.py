"""Every change of a room to its watchers: fed by the game table's stream (the room items
alone, `sk` = `ROOM`), each change in order, posted to every connection of its room."""

import json
from typing import Any

from aws_lambda_powertools.utilities.data_classes import DynamoDBStreamEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from blackjack_service import factories
from blackjack_service.observability import logger
from blackjack_service.settings import settings

settings()  # as every function: one without its table stops at start, naming it


@logger.inject_lambda_context(clear_state=True)
@event_source(data_class=DynamoDBStreamEvent)
def handler(event: DynamoDBStreamEvent, context: LambdaContext) -> dict[str, Any]:
    """The changes posted in order; at the first that fails, the batch stops and Lambda
    tries again from it (a partial batch response), so none is posted twice or skipped."""
    rooms, live, store = factories.rooms(), factories.live(), factories.store()
    for record in event.records:
        change = record.dynamodb
        if change is None or "NewImage" not in change.raw_event:  # a room deleted
            continue
        images = change.raw_event
        try:
            new = store.stream_image(images["NewImage"])
            old = store.stream_image(images["OldImage"]) if "OldImage" in images else None
            message = json.dumps({"type": "room", "room": rooms.watcher_view(old, new)})
            live.post(str(new["pk"]).removeprefix("ROOM#"), message)
        except Exception:
            logger.exception("a room's change was not posted; tried again from it")
            return {"batchItemFailures": [{"itemIdentifier": change.sequence_number}]}
    return {"batchItemFailures": []}
