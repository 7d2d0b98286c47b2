"""Every change of a room to its watchers: fed by the game table's stream (the room items
alone, `sk` = `ROOM`), each change in order, posted to every connection of its room."""

import json

from aws_lambda_powertools.utilities.data_classes import DynamoDBStreamEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from blackjack_service import factories
from blackjack_service.observability import logger
from blackjack_service.settings import settings

settings()  # as every function: one without its table stops at start, naming it


@logger.inject_lambda_context(clear_state=True)
@event_source(data_class=DynamoDBStreamEvent)
def handler(event: DynamoDBStreamEvent, context: LambdaContext) -> None:
    rooms, live = factories.rooms(), factories.live()  # type: ignore[attr-defined]
    for record in event.records:
        change = record.dynamodb
        if change is None or not change.new_image:  # a room deleted: nobody to tell
            continue
        new = change.new_image
        view = rooms.watcher_view(change.old_image or None, new)
        live.post(str(new["pk"]).removeprefix("ROOM#"), json.dumps({"type": "room", "room": view}))
