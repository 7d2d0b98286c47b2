"""The rooms' deadlines, delivered by SQS: a decision nobody answers in time is answered by
the service itself (RULES.md, "Shared tables").

`schedule` sends the room and its version to the queue `DEADLINE_QUEUE_URL`, delayed until
the deadline; the queue invokes the deadline function then, which applies the service's
answer only if the room is still at that version (`RoomService.answer_deadline`). SQS
delays a message by whole seconds, up to 15 minutes (its `DelaySeconds`): a deadline is
delivered at most a second after it, never before. EventBridge Scheduler's minute would be
too coarse for a turn of 5 seconds.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from .settings import settings
from .store import aws_client

MAX_DELAY_S = 900  # SQS's longest DelaySeconds


class SqsDeadlines:
    """The rooms service's deadline queue (`rooms.DeadlineQueue`). The client is made on
    first use, so a function that schedules none pays no client."""

    def __init__(self) -> None:
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws_client("sqs")
        return self._client

    def schedule(self, room_id: str, version: int, due_ms: int) -> None:
        """Have the room's deadline answered at `due_ms` (epoch milliseconds), or as soon
        as it may be if that is past, if the room is then still at `version`."""
        self.client.send_message(
            QueueUrl=settings().required("deadline_queue_url"),
            MessageBody=json.dumps({"room_id": room_id, "version": version}),
            DelaySeconds=delay_seconds(due_ms, time.time()),
        )


def delay_seconds(due_ms: int, now_s: float) -> int:
    """The whole seconds from `now_s` to `due_ms`, rounded up, within what SQS takes."""
    return min(MAX_DELAY_S, max(0, math.ceil(due_ms / 1000 - now_s)))
