"""A room's deadline, delivered by the deadline queue when it is due: the service answers
for whoever was asked, if the room is still at the version the deadline was set at."""

from aws_lambda_powertools.utilities.data_classes import SQSEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from blackjack_service import factories
from blackjack_service.observability import logger
from blackjack_service.settings import settings

settings()  # as every function: one without its table stops at start, naming it


@logger.inject_lambda_context(clear_state=True)
@event_source(data_class=SQSEvent)
def handler(event: SQSEvent, context: LambdaContext) -> None:
    for record in event.records:  # one: the queue's batch size
        due = record.json_body
        factories.rooms().answer_deadline(due["room_id"], int(due["version"]))
