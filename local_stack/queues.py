"""The template's SQS queues (`AWS::SQS::Queue`) and the functions' `Type: SQS` events.

The queues are moto's (its SQS models: per-message delay, visibility, receive counts),
held by the stack in a backend of its own: `mock_aws` resets moto's shared backends, and
a moto test in the stack's own process (the tests run a stack beside them) would empty
them. The functions reach them at `AWS_ENDPOINT_URL_SQS`, a loopback port that answers
requests signed with the stack's credentials (SQS's JSON protocol: `SendMessage`), as
the secrets endpoint does. A queue's `!Ref` is its URL, its
`QueueName` and `Arn` attributes as AWS's.

An event source mapping polls its queue as Lambda's does: `BatchSize` messages at most,
once their delay is over, the function invoked with them; on success they are deleted,
on failure they are visible again after the queue's `VisibilityTimeout`. It polls every
`POLL_S`, so a message is delivered within that of its delay.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from moto.core.exceptions import ServiceException
from moto.sqs.models import Message, SQSBackend

from local_stack.events import HttpResponse
from local_stack.runtime import LambdaFunction
from local_stack.sigv4 import Credentials, SignedServer
from local_stack.template import ACCOUNT_ID, REGION, STACK_NAME, Physical, Template, logical_target
from local_stack.wire import Request

log = logging.getLogger("local_stack")

POLL_S = 0.1  # seconds between polls of a queue with nothing to deliver
DEFAULT_VISIBILITY_S = 30  # SQS's


class Queues(SignedServer):
    """The template's queues, answered on a loopback port."""

    service = "sqs"

    def __init__(self, template: Template, credentials: Credentials) -> None:
        super().__init__(credentials, "sqs")
        self.template = template
        self.backend = SQSBackend(REGION, ACCOUNT_ID)  # the stack's, not moto's shared one
        self.lock = threading.Lock()  # moto's models are not made for threads
        self.mappings: list[QueueMapping] = []

    def declare(self) -> None:
        """Each queue made (empty), its URL, name and ARN known to the template."""
        for logical_id in self.template.of_type("AWS::SQS::Queue"):
            properties = self.template.resolve(self.template.properties(logical_id))
            name = str(properties.get("QueueName") or f"{STACK_NAME}-{logical_id}")
            attributes: dict[str, Any] = {
                key: str(properties[key])
                for key in ("VisibilityTimeout", "MessageRetentionPeriod", "DelaySeconds")
                if key in properties
            }
            self.backend.create_queue(name, **attributes)
            url = f"https://sqs.{REGION}.amazonaws.com/{ACCOUNT_ID}/{name}"
            arn = f"arn:aws:sqs:{REGION}:{ACCOUNT_ID}:{name}"
            self.template.physical[logical_id] = Physical(url, {"Arn": arn, "QueueName": name})

    def start_mappings(self, functions: dict[str, LambdaFunction]) -> None:
        """Poll each queue a function's `Type: SQS` event names, for that function."""
        for logical_id, properties in self.template.function_events("SQS"):
            queue = self.template.physical[str(logical_target(properties["Queue"]))]
            batch = int(self.template.resolve(properties.get("BatchSize", 10)))
            mapping = QueueMapping(
                self, queue.attributes["QueueName"], functions[logical_id], batch
            )
            self.mappings.append(mapping)
            mapping.thread.start()

    def stop_mappings(self) -> None:
        for mapping in self.mappings:
            mapping.stopped.set()
        for mapping in self.mappings:
            mapping.thread.join(timeout=10)

    def stop(self) -> None:
        self.stop_mappings()
        super().stop()

    def signed(self, request: Request) -> HttpResponse:
        target = next((v for k, v in request.headers if k.lower() == "x-amz-target"), "")
        try:
            body = json.loads(request.body or b"{}")
            with self.lock:
                answer = self._answer(target.rpartition(".")[2], body)
        except ServiceException as error:  # moto's: QueueDoesNotExist, InvalidParameterValue
            answer = {"__type": f"com.amazonaws.sqs#{error.code}", "message": error.message}
            return HttpResponse(400, [("Content-Type", self.content_type)], _json(answer))
        except (ValueError, KeyError, TypeError) as error:
            answer = {"__type": "com.amazonaws.sqs#InvalidParameterValue", "message": str(error)}
            return HttpResponse(400, [("Content-Type", self.content_type)], _json(answer))
        return HttpResponse(200, [("Content-Type", self.content_type)], _json(answer))

    def _answer(self, operation: str, body: dict[str, Any]) -> dict[str, Any]:
        if operation == "SendMessage":
            name = str(body["QueueUrl"]).rstrip("/").rpartition("/")[2]
            message = self.backend.send_message(
                name, str(body["MessageBody"]), delay_seconds=body.get("DelaySeconds")
            )
            return {"MessageId": message.id, "MD5OfMessageBody": message.body_md5}
        raise ValueError(f"{operation}: not served by the local stack")


class QueueMapping:
    """A function's `Type: SQS` event: its queue polled, its batches delivered."""

    def __init__(self, queues: Queues, queue: str, function: LambdaFunction, batch: int) -> None:
        self.queues, self.queue, self.function, self.batch = queues, queue, function, batch
        self.arn = f"arn:aws:sqs:{REGION}:{ACCOUNT_ID}:{queue}"
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"sqs-{queue}", daemon=True)

    def _run(self) -> None:
        while not self.stopped.is_set():
            with self.queues.lock:
                queue = self.queues.backend.get_queue(self.queue)
                visibility = int(getattr(queue, "visibility_timeout", DEFAULT_VISIBILITY_S))
                messages = self.queues.backend.receive_message(
                    self.queue, self.batch, 0, visibility
                )
            if not messages:
                self.stopped.wait(POLL_S)
                continue
            try:
                self.function.invoke({"Records": [self._record(m) for m in messages]})
            except Exception as error:  # visible again once the visibility timeout is over
                log.warning("%s failed on %s: %s", self.function.name, self.queue, error)
                continue
            with self.queues.lock:
                for message in messages:
                    self.queues.backend.delete_message(self.queue, str(message.receipt_handle))

    def _record(self, message: Message) -> dict[str, Any]:
        """The message as Lambda's SQS event carries it."""
        return {
            "messageId": message.id,
            "receiptHandle": message.receipt_handle,
            "body": message.body,
            "attributes": {
                "ApproximateReceiveCount": str(message.approximate_receive_count),
                "SentTimestamp": str(message.sent_timestamp),
                "SenderId": message.sender_id,
                "ApproximateFirstReceiveTimestamp": str(
                    message.approximate_first_receive_timestamp
                ),
            },
            "messageAttributes": {},
            "md5OfBody": message.body_md5,
            "eventSource": "aws:sqs",
            "eventSourceARN": self.arn,
            "awsRegion": REGION,
        }


def _json(document: dict[str, Any]) -> bytes:
    return json.dumps(document).encode()
