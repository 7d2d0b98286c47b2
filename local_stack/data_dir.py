"""DATA_DIR and the template's data resources in it: DynamoDB tables, secrets.

DynamoDB Local (local_stack.dynamodb_local) keeps the tables in SQLite files under
`DATA_DIR/dynamodb/`; a write it answered is in its database, so the stack keeps no
journal of its own. Tables are created from the template's declaration on the first
start, found again on later ones. DATA_DIR holds the server seeds of shoes in play and
password hashes: it is made 0700 and everything in it 0600. The functions reach both
services through the endpoints `environment()` names, which answer only requests signed
with the credentials made afresh at each start (local_stack.sigv4).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import boto3

from local_stack.dynamodb_local import DynamoDBLocal
from local_stack.forwarder import Forwarder
from local_stack.secrets import SecretsManager
from local_stack.sigv4 import Credentials
from local_stack.template import ACCOUNT_ID, REGION, Physical, Template

DYNAMODB_DIR = "dynamodb"


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


def simple_table_request(name: str, props: dict[str, Any]) -> dict[str, Any]:
    """The CreateTable request for an `AWS::Serverless::SimpleTable`."""
    key = props.get("PrimaryKey") or {"Name": "id", "Type": "String"}
    kind = {"String": "S", "Number": "N", "Binary": "B"}[str(key.get("Type", "String"))]
    return {
        "TableName": name,
        "KeySchema": [{"AttributeName": key["Name"], "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": key["Name"], "AttributeType": kind}],
        "BillingMode": "PAY_PER_REQUEST",
    }


def create_table(client: Any, name: str, props: dict[str, Any]) -> None:
    """Create a table as the template declares it, its TTL included."""
    client.create_table(**table_request(name, props))
    ttl = props.get("TimeToLiveSpecification") or {}
    if ttl.get("Enabled") and ttl.get("AttributeName"):
        client.update_time_to_live(
            TableName=name,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": str(ttl["AttributeName"])},
        )


def secure_directory(path: Path) -> None:
    """path as a folder only its owner can enter (0700), its files only it can read (0600)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.chmod(0o700)
    for folder, dirs, files in os.walk(path):
        for name in dirs:
            Path(folder, name).chmod(0o700)
        for name in files:
            Path(folder, name).chmod(0o600)


class LocalData:
    """DynamoDB Local with the template's tables, and its secrets, under data_dir."""

    def __init__(self, template: Template, data_dir: Path) -> None:
        self.template = template
        self.data_dir = data_dir
        self.credentials = Credentials.fresh()
        self.dynamodb = DynamoDBLocal(data_dir / DYNAMODB_DIR)
        self.forwarder = Forwarder(self.dynamodb, self.credentials)
        self.secrets = SecretsManager(template, data_dir, self.credentials)

    @property
    def available(self) -> bool:
        """Whether DynamoDB Local answers (False while it restarts after its death)."""
        return self.dynamodb.available

    def start(self) -> None:
        """Start DynamoDB Local, its forwarder and the secrets; create the tables a first
        start lacks."""
        secure_directory(self.data_dir)
        # The functions' clients come from boto3's default session, shared by the process,
        # which keeps the first credentials it read: an earlier stack's, in this process.
        boto3.DEFAULT_SESSION = None
        self.dynamodb.start()
        try:
            self.forwarder.start()
            self.secrets.start()
            self._create_tables()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.secrets.stop()
        self.forwarder.stop()
        self.dynamodb.stop()

    def environment(self) -> dict[str, str]:
        """What a function's environment needs to reach these services, and only them."""
        return {
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
            **self.credentials.environment(),
            "AWS_ENDPOINT_URL_DYNAMODB": self.forwarder.url,
            "AWS_ENDPOINT_URL_SECRETS_MANAGER": self.secrets.url,
        }

    def client(self, service: str) -> Any:
        """A boto3 client on the local service (DynamoDB Local, its streams, the secrets)."""
        endpoint = self.forwarder.url if service.startswith("dynamodb") else self.secrets.url
        session = boto3.session.Session(  # not the default one: the functions' own
            region_name=REGION,
            aws_access_key_id=self.credentials.access_key_id,
            aws_secret_access_key=self.credentials.secret_access_key,
            aws_session_token=self.credentials.session_token,
        )
        return session.client(service, endpoint_url=endpoint)  # type: ignore[call-overload]

    def _create_tables(self) -> None:
        ddb = self.client("dynamodb")
        existing = set(ddb.list_tables()["TableNames"])
        tables = self.template.of_type("AWS::DynamoDB::Table", "AWS::Serverless::SimpleTable")
        for logical_id, resource in tables.items():
            props = self.template.resolve(self.template.properties(logical_id))
            name = str(props.get("TableName") or logical_id)
            if name not in existing:
                if resource["Type"] == "AWS::Serverless::SimpleTable":
                    ddb.create_table(**simple_table_request(name, props))
                else:
                    create_table(ddb, name, props)
            arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT_ID}:table/{name}"
            self.template.physical[logical_id] = Physical(
                ref=name,
                attributes={"Arn": arn, "StreamArn": f"{arn}/stream/1970-01-01T00:00:00.000"},
            )
