"""The embedded AWS: moto in-process, with the template's tables and secrets, persisted.

moto runs in this process (`mock_aws`): the functions' boto3 clients are answered by
it without any network hop, and nothing can reach real AWS. moto is not thread-safe,
so every use of it goes through `Store.lock`, held for a whole invocation; that is also
what keeps DynamoDB's conditional writes atomic under concurrent HTTP requests.

Persistence, before the HTTP response goes out: an invocation that wrote to DynamoDB
appends one line to `DATA_DIR/dynamodb.journal` holding the new state of every item it
touched (found from the requests it sent), then fsyncs. One line per invocation, so a
crash mid-write loses the unacknowledged request whole, never half of it. At start,
and when the journal grows long, the tables are written to `DATA_DIR/dynamodb.json`
(temp file, fsync, atomic rename) and the journal emptied. Writing every table after
every request would cost milliseconds per item already stored. Secrets are generated
once and kept in `DATA_DIR/secrets.json`.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import secrets
import string
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import botocore.handlers
from moto import mock_aws
from moto.dynamodb.models import dynamodb_backends

from local_stack.template import ACCOUNT_ID, REGION, Physical, Template

log = logging.getLogger("local_stack")

SNAPSHOT_FILE = "dynamodb.json"
JOURNAL_FILE = "dynamodb.journal"
JOURNAL_LIMIT = 1000  # lines; then the tables are written whole and the journal emptied
SECRETS_FILE = "secrets.json"
SNAPSHOT_FORMAT = 1

# Dummy settings so that nothing this process does can ever reach real AWS.
AWS_ENVIRONMENT: dict[str, str] = {
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
    "AWS_ACCESS_KEY_ID": "local",
    "AWS_SECRET_ACCESS_KEY": "local",
    "AWS_SESSION_TOKEN": "local",
}

_DYNAMODB_WRITES = frozenset(
    {
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "BatchWriteItem",
        "TransactWriteItems",
        "ExecuteStatement",
        "BatchExecuteStatement",
        "ExecuteTransaction",
    }
)


class _WriteWatch:
    """Collects the DynamoDB items the requests of one invocation write.

    The hook sits in botocore's built-in handlers, which every new session copies,
    and moto resets boto3's default session when it starts, so every client the
    functions create carries it. It sees the request body as sent to moto.
    """

    def __init__(self) -> None:
        self.active = False  # only while a Store runs an invocation: other code is not ours
        self.reset()

    def reset(self) -> None:
        self.writes: list[tuple[str, dict[str, Any]]] = []  # (table, item or key)
        self.unknown = False  # a write whose items cannot be told (PartiQL)

    def __call__(self, model: Any = None, params: Any = None, **_: Any) -> None:
        operation = getattr(model, "name", None)
        if not self.active or operation not in _DYNAMODB_WRITES:
            return
        try:
            body = json.loads((params or {}).get("body") or b"{}")
            self.writes.extend(_written(str(operation), body))
        except (ValueError, KeyError, TypeError, AttributeError):
            self.unknown = True


_write_watch = _WriteWatch()
botocore.handlers.BUILTIN_HANDLERS.append(("before-call.dynamodb", _write_watch))


def _table_name(name_or_arn: str) -> str:
    return name_or_arn.rsplit(":table/", 1)[-1]


def _written(operation: str, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(table, attributes holding the key) for each item a write request may change."""
    if operation == "PutItem":
        return [(_table_name(body["TableName"]), body["Item"])]
    if operation in ("UpdateItem", "DeleteItem"):
        return [(_table_name(body["TableName"]), body["Key"])]
    if operation == "BatchWriteItem":
        return [
            (_table_name(table), request["PutRequest"]["Item"])
            if "PutRequest" in request
            else (_table_name(table), request["DeleteRequest"]["Key"])
            for table, requests in body["RequestItems"].items()
            for request in requests
        ]
    if operation == "TransactWriteItems":
        found = []
        for entry in body["TransactItems"]:
            for kind, spec in entry.items():
                if kind == "Put":
                    found.append((_table_name(spec["TableName"]), spec["Item"]))
                elif kind in ("Update", "Delete"):
                    found.append((_table_name(spec["TableName"]), spec["Key"]))
        return found
    raise KeyError(operation)  # PartiQL: the items are in a statement


def atomic_write(path: Path, data: bytes) -> None:
    """Replace path by data so that a crash leaves either the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # the rename itself must survive a crash
    finally:
        os.close(dir_fd)


def _encode(value: Any) -> Any:
    """DynamoDB wire values to JSON: binaries become base64 text (as on the wire)."""
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, dict):
        return {k: _encode_attr(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


def _encode_attr(key: str, value: Any) -> Any:
    if key == "BS":
        return [_encode(v) for v in value]
    return _encode(value)


def _decode(value: Any) -> Any:
    """The inverse of _encode: base64 text under B/BS becomes bytes again."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, inner in value.items():
            if key == "B" and isinstance(inner, str) and len(value) == 1:
                out[key] = base64.b64decode(inner)
            elif key == "BS" and isinstance(inner, list) and len(value) == 1:
                out[key] = [base64.b64decode(v) for v in inner]
            else:
                out[key] = _decode(inner)
        return out
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def table_request(name: str, props: dict[str, Any]) -> dict[str, Any]:
    """The CreateTable request for an `AWS::DynamoDB::Table`'s resolved Properties."""
    billing = str(props.get("BillingMode", "PROVISIONED"))
    throughput = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
    request: dict[str, Any] = {
        "TableName": name,
        "KeySchema": props["KeySchema"],
        "AttributeDefinitions": props["AttributeDefinitions"],
        "BillingMode": billing,
    }
    if billing == "PROVISIONED":
        request["ProvisionedThroughput"] = props.get("ProvisionedThroughput", throughput)
    gsis = []
    for index in props.get("GlobalSecondaryIndexes") or []:
        gsi = {k: index[k] for k in ("IndexName", "KeySchema", "Projection")}
        if billing == "PROVISIONED":
            gsi["ProvisionedThroughput"] = index.get("ProvisionedThroughput", throughput)
        gsis.append(gsi)
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    lsis = [
        {k: index[k] for k in ("IndexName", "KeySchema", "Projection")}
        for index in props.get("LocalSecondaryIndexes") or []
    ]
    if lsis:
        request["LocalSecondaryIndexes"] = lsis
    if props.get("StreamSpecification"):
        request["StreamSpecification"] = {
            "StreamEnabled": True,
            "StreamViewType": props["StreamSpecification"]["StreamViewType"],
        }
    return request


def create_table(client: Any, name: str, props: dict[str, Any]) -> dict[str, Any]:
    """Create a table as the template declares it, its TTL included; the request made."""
    request = table_request(name, props)
    client.create_table(**request)
    ttl = props.get("TimeToLiveSpecification") or {}
    if ttl.get("Enabled") and ttl.get("AttributeName"):
        client.update_time_to_live(
            TableName=name,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": str(ttl["AttributeName"])},
        )
    return request


def generate_secret_string(spec: dict[str, Any]) -> str:
    """What Secrets Manager's GenerateSecretString would produce."""
    length = int(spec.get("PasswordLength", 32))
    exclude = set(str(spec.get("ExcludeCharacters", "")))
    groups: list[str] = []
    if not spec.get("ExcludeLowercase"):
        groups.append(string.ascii_lowercase)
    if not spec.get("ExcludeUppercase"):
        groups.append(string.ascii_uppercase)
    if not spec.get("ExcludeNumbers"):
        groups.append(string.digits)
    if not spec.get("ExcludePunctuation"):
        groups.append(string.punctuation)
    if spec.get("IncludeSpace"):
        groups.append(" ")
    groups = [g for g in ("".join(c for c in g if c not in exclude) for g in groups) if g]
    if not groups:
        raise ValueError("GenerateSecretString excludes every character")
    alphabet = "".join(groups)
    require_each = spec.get("RequireEachIncludedType", True)
    while True:
        password = "".join(secrets.choice(alphabet) for _ in range(length))
        if not require_each or length < len(groups):
            break
        if all(any(c in g for c in password) for g in groups):
            break
    template = spec.get("SecretStringTemplate")
    if template is None:
        return password
    document = json.loads(str(template))
    document[str(spec.get("GenerateStringKey", "password"))] = password
    return json.dumps(document)


class Store:
    """moto with the template's DynamoDB tables and secrets, persisted under data_dir."""

    def __init__(self, template: Template, data_dir: Path) -> None:
        self.template = template
        self.data_dir = data_dir
        self.lock = threading.RLock()
        self.table_names: list[str] = []
        self._mock: Any = None
        self._clients: dict[str, Any] = {}
        self._saved_environ: dict[str, str | None] = {}
        self._key_names: dict[str, list[str]] = {}
        self._journal: Any = None
        self._journal_lines = 0

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> None:
        """Start moto, create the resources, load the saved data."""
        self._saved_environ = {key: os.environ.get(key) for key in AWS_ENVIRONMENT}
        os.environ.update(AWS_ENVIRONMENT)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.lock:
            self._mock = mock_aws()
            self._mock.start()
            os.environ.update(AWS_ENVIRONMENT)  # moto put its own fake keys in
            self._create_tables()
            self._create_secrets()
            self._load_items()
            self.save()  # the journal, replayed, goes into a fresh snapshot
            _write_watch.reset()

    def stop(self) -> None:
        with self.lock:
            if self._mock is not None:
                if self._journal is not None:
                    self._journal.close()
                    self._journal = None
                self._mock.stop()
                self._mock = None
                self._clients.clear()
                for key, value in self._saved_environ.items():
                    if value is None:
                        os.environ.pop(key, None)
                    else:
                        os.environ[key] = value

    def client(self, service: str) -> Any:
        """A boto3 client on moto, made once per start (making one costs milliseconds)."""
        if service not in self._clients:
            self._clients[service] = boto3.client(service, region_name=REGION)  # type: ignore[call-overload]
        return self._clients[service]

    # -- provisioning ----------------------------------------------------------------

    def _create_tables(self) -> None:
        ddb = self.client("dynamodb")
        tables = self.template.of_type("AWS::DynamoDB::Table", "AWS::Serverless::SimpleTable")
        for logical_id in tables:
            props = self.template.resolve(self.template.properties(logical_id))
            name = str(props.get("TableName") or logical_id)
            if tables[logical_id]["Type"] == "AWS::Serverless::SimpleTable":
                request = self._simple_table_request(name, props)
                ddb.create_table(**request)
            else:
                request = create_table(ddb, name, props)
            self._key_names[name] = [k["AttributeName"] for k in request["KeySchema"]]
            arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT_ID}:table/{name}"
            self.template.physical[logical_id] = Physical(
                ref=name,
                attributes={"Arn": arn, "StreamArn": f"{arn}/stream/1970-01-01T00:00:00.000"},
            )
            self.table_names.append(name)

    @staticmethod
    def _simple_table_request(name: str, props: dict[str, Any]) -> dict[str, Any]:
        key = props.get("PrimaryKey") or {"Name": "id", "Type": "String"}
        kind = {"String": "S", "Number": "N", "Binary": "B"}[str(key.get("Type", "String"))]
        return {
            "TableName": name,
            "KeySchema": [{"AttributeName": key["Name"], "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": key["Name"], "AttributeType": kind}],
            "BillingMode": "PAY_PER_REQUEST",
        }

    def _create_secrets(self) -> None:
        path = self.data_dir / SECRETS_FILE
        saved: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
        changed = False
        client = self.client("secretsmanager")
        for logical_id in self.template.of_type("AWS::SecretsManager::Secret"):
            props = self.template.resolve(self.template.properties(logical_id))
            name = str(props.get("Name") or f"{logical_id}")
            if logical_id not in saved:
                if "SecretString" in props:
                    saved[logical_id] = str(props["SecretString"])
                else:
                    saved[logical_id] = generate_secret_string(
                        props.get("GenerateSecretString") or {}
                    )
                changed = True
            created = client.create_secret(Name=name, SecretString=saved[logical_id])
            self.template.physical[logical_id] = Physical(
                ref=created["ARN"], attributes={"Id": created["ARN"]}
            )
        if changed:
            atomic_write(path, json.dumps(saved, indent=1).encode())
            os.chmod(path, 0o600)

    # -- persistence -----------------------------------------------------------------

    def _load_items(self) -> None:
        """The last snapshot, then the journal written since (up to a torn last line)."""
        ddb = self.client("dynamodb")
        path = self.data_dir / SNAPSHOT_FILE
        if path.exists():
            snapshot = json.loads(path.read_text(encoding="utf-8"))
            if snapshot.get("format") != SNAPSHOT_FORMAT:
                raise RuntimeError(f"{path}: unknown snapshot format {snapshot.get('format')!r}")
            for name, items in (snapshot.get("tables") or {}).items():
                if name not in self.table_names:
                    log.warning("%s: table %s is not in the template; not loaded", path, name)
                    continue
                for start in range(0, len(items), 25):
                    batch = [
                        {"PutRequest": {"Item": _decode(i)}} for i in items[start : start + 25]
                    ]
                    pending: dict[str, Any] = {name: batch}
                    while pending:
                        pending = ddb.batch_write_item(RequestItems=pending).get("UnprocessedItems")
        journal = self.data_dir / JOURNAL_FILE
        if journal.exists():
            for line in journal.read_bytes().splitlines():
                try:
                    changes = json.loads(line)
                except ValueError:
                    log.warning(
                        "%s: a torn last line (an unacknowledged write) is ignored", journal
                    )
                    break
                for table, key, item in changes:
                    if table not in self.table_names:
                        continue
                    if item is None:
                        ddb.delete_item(TableName=table, Key=_decode(key))
                    else:
                        ddb.put_item(TableName=table, Item=_decode(item))

    def save(self) -> None:
        """Write every table's items to the snapshot, atomically, and empty the journal."""
        ddb = self.client("dynamodb")
        tables: dict[str, list[Any]] = {}
        for name in self.table_names:
            items: list[Any] = []
            kwargs: dict[str, Any] = {"TableName": name, "ConsistentRead": True}
            while True:
                page = ddb.scan(**kwargs)
                items.extend(_encode(item) for item in page.get("Items", []))
                if "LastEvaluatedKey" not in page:
                    break
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
            tables[name] = items
        data = json.dumps({"format": SNAPSHOT_FORMAT, "tables": tables}, separators=(",", ":"))
        atomic_write(self.data_dir / SNAPSHOT_FILE, data.encode())
        # Replaying the journal over the new snapshot would change nothing: a crash
        # between these two steps is harmless.
        if self._journal is not None:
            self._journal.close()
        self._journal = open(self.data_dir / JOURNAL_FILE, "wb")  # noqa: SIM115 (kept open)
        os.fsync(self._journal.fileno())
        self._journal_lines = 0

    def _record(self) -> None:
        """Append the state of the items this invocation wrote to the journal; fsync."""
        if _write_watch.unknown or self._journal_lines >= JOURNAL_LIMIT:
            self.save()
            return
        changes: dict[str, tuple[str, Any, Any]] = {}
        for table, attributes in _write_watch.writes:
            if table not in self._key_names:
                continue
            key = {name: attributes[name] for name in self._key_names[table]}
            key_id = json.dumps([table, key], sort_keys=True)
            if key_id in changes:
                continue
            changes[key_id] = (table, key, self.read_item(table, key))
        if not changes:
            return
        line = json.dumps(list(changes.values()), separators=(",", ":")).encode() + b"\n"
        self._journal.write(line)
        self._journal.flush()
        os.fsync(self._journal.fileno())
        self._journal_lines += 1

    def read_item(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        """An item in its JSON wire form (None if absent), as GetItem would return it.

        Read from moto's backend: going through GetItem costs moto's response
        serialisation, a third of a request's time with the game's large items. Its
        output is checked against GetItem's by the tests; if moto's internals change,
        the API is used.
        """
        try:
            backend = dynamodb_backends[ACCOUNT_ID][REGION]
            found = backend.get_item(table, key)
            return None if found is None else dict(_encode(found.to_json()["Attributes"]))
        except (AttributeError, KeyError, TypeError):  # pragma: no cover - other moto
            return self.read_item_by_api(table, key)

    def read_item_by_api(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        answer = self.client("dynamodb").get_item(TableName=table, Key=key, ConsistentRead=True)
        return None if "Item" not in answer else dict(_encode(answer["Item"]))

    def run(self, call: Callable[[], Any]) -> Any:
        """Run call with moto to itself; what it wrote is on disk before this returns."""
        with self.lock:
            if self._mock is None:
                # after stop() a call would reach real AWS: refuse it
                raise RuntimeError("the local store is stopped")
            _write_watch.reset()
            _write_watch.active = True
            try:
                return call()
            finally:
                _write_watch.active = False
                if _write_watch.writes or _write_watch.unknown:
                    self._record()
                _write_watch.reset()
