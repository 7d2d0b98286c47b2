"""The functions' `Type: DynamoDB` events, on DynamoDB Local's streams.

An event source mapping reads its table's stream as Lambda's does: from `LATEST` when the
stack starts, each shard in order, a new shard (DynamoDB Local opens one as another
closes) from its first record once its parent is read; records that match the event's
`FilterCriteria` (any of its `Filters`; a pattern's leaves are lists of the values
allowed) go to the function in batches of `BatchSize` at most, one batch at a time (a
`ParallelizationFactor` of 1), a failed batch tried again (from the first record its
partial batch response names, if it gives one) until it succeeds or
`MaximumRetryAttempts` are spent. Every shard is polled each `POLL_S`, so a change reaches
its function well within a second. The records are DynamoDB Streams' own: `eventName`,
`dynamodb.Keys`, `NewImage`, `OldImage`, `SequenceNumber`, in DynamoDB JSON.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from local_stack.runtime import LambdaFunction
from local_stack.template import Template, TemplateError, logical_target

log = logging.getLogger("local_stack")

POLL_S = 0.1  # seconds between reads of a stream with nothing new
SHARDS_S = 1.0  # seconds between looks for new shards
RETRY_S = 1.0  # seconds before a failed batch is tried again


def as_sent(value: dict[str, Any]) -> dict[str, Any]:
    """An attribute value as DynamoDB Streams' JSON carries it: botocore decoded the
    base64 of its binary."""
    ((kind, held),) = value.items()
    if kind == "B":
        return {"B": base64.b64encode(held).decode()}
    if kind == "BS":
        return {"BS": [base64.b64encode(one).decode() for one in held]}
    if kind == "M":
        return {"M": {name: as_sent(one) for name, one in held.items()}}
    if kind == "L":
        return {"L": [as_sent(one) for one in held]}
    return value


def matches(pattern: dict[str, Any], value: Any) -> bool:
    """Whether a record matches a filter pattern (EventBridge's syntax, exact values)."""
    for key, expected in pattern.items():
        found = value.get(key) if isinstance(value, dict) else None
        if isinstance(expected, dict) and not matches(expected, found):
            return False
        if isinstance(expected, list) and found not in expected:
            return False
    return True


def _exact(pattern: Any) -> bool:
    """Whether a pattern's leaves are all lists of exact values (no `prefix`, `numeric`…)."""
    if isinstance(pattern, dict):
        return all(_exact(value) for value in pattern.values())
    return isinstance(pattern, list) and not any(isinstance(e, dict) for e in pattern)


class StreamMapping:
    """A function's `Type: DynamoDB` event: its table's stream read, its batches delivered."""

    def __init__(
        self,
        client: Callable[[str], Any],
        table: str,
        view: str,
        function: LambdaFunction,
        props: dict[str, Any],
    ) -> None:
        self.dynamodb, self.streams = client("dynamodb"), client("dynamodbstreams")
        self.table, self.function = table, function
        self.batch = int(props.get("BatchSize", 100))
        self.retries = int(props.get("MaximumRetryAttempts", -1))
        filters = (props.get("FilterCriteria") or {}).get("Filters") or []
        self.patterns = [json.loads(f["Pattern"]) for f in filters]
        if not all(isinstance(p, dict) and _exact(p) for p in self.patterns):
            raise TemplateError(f"{filters}: only lists of exact values are served")
        self.stream_arn = self._stream(view)
        self.iterators: dict[str, str] = {}  # open shards, by id: where to read on
        self.read: set[str] = set()  # shards read to their end, or older than the start
        self._from_latest()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"stream-{table}", daemon=True)

    def _stream(self, view: str) -> str:
        """The table's stream, turned on if the table was made before the template had it."""
        table = self.dynamodb.describe_table(TableName=self.table)["Table"]
        if not table.get("StreamSpecification", {}).get("StreamEnabled"):
            specification = {"StreamEnabled": True, "StreamViewType": view}
            update = self.dynamodb.update_table
            table = update(TableName=self.table, StreamSpecification=specification)
            table = table["TableDescription"]
        return str(table["LatestStreamArn"])

    def _from_latest(self) -> None:
        """Read on from now: the open shards from their latest record, the closed ones not."""
        self.iterators.clear()
        for shard in self._shards():
            if "EndingSequenceNumber" in shard["SequenceNumberRange"]:
                self.read.add(shard["ShardId"])
            else:
                self.iterators[shard["ShardId"]] = self._iterator(shard["ShardId"], "LATEST")

    def _shards(self) -> list[dict[str, Any]]:
        description = self.streams.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]
        shards: list[dict[str, Any]] = description["Shards"]
        return shards

    def _iterator(self, shard_id: str, position: str) -> str:
        return str(
            self.streams.get_shard_iterator(
                StreamArn=self.stream_arn, ShardId=shard_id, ShardIteratorType=position
            )["ShardIterator"]
        )

    def _run(self) -> None:
        looked, failed = time.monotonic(), False
        while not self.stopped.wait(RETRY_S if failed else POLL_S):
            try:
                if failed:  # its iterators may be gone with it
                    self._from_latest()
                if time.monotonic() - looked >= SHARDS_S:
                    self._new_shards()
                    looked = time.monotonic()
                for shard_id in list(self.iterators):
                    self._read(shard_id)
                failed = False
            except Exception as error:  # DynamoDB Local restarting: read on once it is back
                if not failed:
                    log.warning("stream of %s: %s", self.table, error)
                failed = True

    def _new_shards(self) -> None:
        """Read a new shard from its start once its parent (if any) is read."""
        for shard in self._shards():
            shard_id, parent = shard["ShardId"], shard.get("ParentShardId")
            known = shard_id in self.iterators or shard_id in self.read
            if not known and (parent is None or parent in self.read):
                self.iterators[shard_id] = self._iterator(shard_id, "TRIM_HORIZON")

    def _read(self, shard_id: str) -> None:
        answer = self.streams.get_records(ShardIterator=self.iterators[shard_id], Limit=1000)
        records = [self._record(r) for r in answer["Records"]]
        chosen = [
            r for r in records if not self.patterns or any(matches(p, r) for p in self.patterns)
        ]
        for start in range(0, len(chosen), self.batch):
            self._deliver(chosen[start : start + self.batch])
        following = answer.get("NextShardIterator")
        if following is None:  # the shard is closed and read
            del self.iterators[shard_id]
            self.read.add(shard_id)
            self._new_shards()
        else:
            self.iterators[shard_id] = following

    def _deliver(self, batch: list[dict[str, Any]]) -> None:
        """The batch to the function until it takes it; a partial batch response (its
        `batchItemFailures`) has it tried again from the first record it names."""
        attempt = 0
        while batch and not self.stopped.is_set():
            try:
                answer = self.function.invoke({"Records": batch})
                failed = {f["itemIdentifier"] for f in (answer or {}).get("batchItemFailures", [])}
                numbers = [r["dynamodb"]["SequenceNumber"] for r in batch]
                if not failed:
                    return
                batch = batch[min(numbers.index(n) for n in failed if n in numbers) :]
                log.warning("%s: a partial batch of %s's stream", self.function.name, self.table)
            except Exception as error:
                log.warning("%s failed on %s's stream: %s", self.function.name, self.table, error)
            attempt += 1
            if 0 <= self.retries < attempt:
                return  # dropped, as Lambda drops a batch past its retries
            self.stopped.wait(RETRY_S)

    def _record(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record as Lambda passes it on (boto3 made its time a datetime, its binary
        values bytes)."""
        change = dict(record["dynamodb"])
        created = change.get("ApproximateCreationDateTime")
        if created is not None:
            change["ApproximateCreationDateTime"] = int(created.timestamp())
        for image in ("Keys", "NewImage", "OldImage"):
            if image in change:
                change[image] = {name: as_sent(v) for name, v in change[image].items()}
        return {**record, "dynamodb": change, "eventSourceARN": self.stream_arn}


def stream_mappings(
    template: Template, functions: dict[str, LambdaFunction], client: Callable[[str], Any]
) -> list[StreamMapping]:
    """The mappings of every function's `Type: DynamoDB` events (not started)."""
    mappings = []
    for logical_id, properties in template.function_events("DynamoDB"):
        table = str(logical_target(properties["Stream"]))
        declared = template.properties(table).get("StreamSpecification")
        if not declared:
            raise TemplateError(f"{logical_id}: table {table} has no StreamSpecification")
        name, view = template.physical[table].ref, str(declared["StreamViewType"])
        props = template.resolve(properties)
        mappings.append(StreamMapping(client, name, view, functions[logical_id], props))
    return mappings
