"""Rooms' deadlines, sent to the deadline queue (SQS) with a per-message delay: the queue
invokes the deadline function when the delay is over."""

from __future__ import annotations

import json
import math
import time
from typing import Any

MAX_DELAY_S = 900  # SQS's longest per-message delay


class SqsDeadlines:
    def __init__(self, queue_url: str, client: Any = None) -> None:
        self.queue_url = queue_url
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("sqs")
        return self._client

    def schedule(self, room_id: str, version: int, due_ms: int) -> None:
        """A message that reaches the deadline function at `due_ms` (or just after)."""
        delay = min(max(math.ceil(due_ms / 1000 - time.time()), 0), MAX_DELAY_S)
        self.client.send_message(
            QueueUrl=self.queue_url,
            MessageBody=json.dumps({"room_id": room_id, "version": version}),
            DelaySeconds=delay,
        )
