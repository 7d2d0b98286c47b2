"""The stack's signature check (local_stack.sigv4) on requests botocore signs: it takes
the stack's credentials only, within 15 minutes, for its own service, and binds the
method, path, query, signed headers and the body received, whatever a header says of it."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials

from local_stack.sigv4 import (
    INCOMPLETE,
    MISMATCH,
    UNRECOGNIZED,
    UNSIGNED,
    Credentials,
    Refusal,
    check,
)

BODY = b'{"TableName": "GameTable"}'
CREDENTIALS = Credentials.fresh()
TARGET = "/"


def signed(
    keys: Credentials = CREDENTIALS,
    service: str = "dynamodb",
    target: str = TARGET,
    headers: dict[str, str] | None = None,
) -> AWSRequest:
    request = AWSRequest(
        method="POST",
        url=f"http://127.0.0.1:8000{target}",
        data=BODY,
        headers={"X-Amz-Target": "DynamoDB_20120810.ListTables", **(headers or {})},
    )
    botocore_keys = BotoCredentials(keys.access_key_id, keys.secret_access_key, keys.session_token)
    SigV4Auth(botocore_keys, service, "us-east-1").add_auth(request)
    return request


def checked(
    request: AWSRequest,
    body: bytes = BODY,
    target: str = TARGET,
    now: datetime | None = None,
    replaced: dict[str, str] | None = None,
) -> Refusal | None:
    """The check of the request as the server receives it: its headers (some replaced)
    after the Host that http.client adds."""
    headers = [("Host", "127.0.0.1:8000")]
    changed = replaced or {}
    headers += [(name, changed.get(name, str(value))) for name, value in request.headers.items()]
    return check(CREDENTIALS, "dynamodb", "POST", target, headers, body, now)


def test_a_request_botocore_signed_passes() -> None:
    assert checked(signed()) is None


def test_a_path_and_query_botocore_signed_pass_as_received() -> None:
    target = "/a%20b/c~d?z=1&a=%2F&a=0&empty="
    assert checked(signed(target=target), target=target) is None
    assert checked(signed(target=target), target="/a%20b/c~d?z=1&a=%2F") is MISMATCH


def test_another_body_under_the_signature_is_refused() -> None:
    assert checked(signed(), b'{"TableName": "Other"}') is MISMATCH


def test_a_declared_payload_hash_does_not_stand_for_the_body() -> None:
    # The signature covers the original body's hash, declared in a header; the body sent
    # is another one.
    declared = hashlib.sha256(BODY).hexdigest()
    request = signed(headers={"X-Amz-Content-SHA256": declared})
    assert checked(request, b'{"TableName": "Other"}') is MISMATCH
    assert checked(signed(headers={"X-Amz-Content-SHA256": "UNSIGNED-PAYLOAD"})) is MISMATCH


def test_a_signed_header_changed_on_the_way_is_refused() -> None:
    request = signed()
    tampered = {"X-Amz-Target": "DynamoDB_20120810.DeleteTable"}
    assert checked(request, replaced=tampered) is MISMATCH


def test_a_wrong_secret_key_is_refused() -> None:
    guessed = Credentials(CREDENTIALS.access_key_id, "guessed", CREDENTIALS.session_token)
    assert checked(signed(guessed)) is MISMATCH


def test_other_credentials_are_unrecognized() -> None:
    assert checked(signed(Credentials.fresh())) is UNRECOGNIZED
    other_token = Credentials(
        CREDENTIALS.access_key_id, CREDENTIALS.secret_access_key, "another-token"
    )
    assert checked(signed(other_token)) is UNRECOGNIZED


def test_an_unsigned_or_half_signed_request_is_refused() -> None:
    assert check(CREDENTIALS, "dynamodb", "POST", "/", [("Host", "x")], BODY) is UNSIGNED
    request = signed()
    authorization = str(request.headers["Authorization"])
    for cut in (authorization.replace("host;", ""), authorization.replace("AWS4", "AWS5", 1)):
        assert checked(request, replaced={"Authorization": cut}) is INCOMPLETE


def test_a_signature_for_another_service_is_refused() -> None:
    refusal = checked(signed(service="secretsmanager"))
    assert refusal is not None
    assert refusal.code == "InvalidSignatureException"
    assert "dynamodb" in refusal.message


def test_a_signature_is_good_for_15_minutes_either_way() -> None:
    request = signed()
    at = datetime.strptime(str(request.headers["X-Amz-Date"]), "%Y%m%dT%H%M%SZ")
    at = at.replace(tzinfo=UTC)
    assert checked(request, now=at + timedelta(minutes=14)) is None
    assert checked(request, now=at - timedelta(minutes=14)) is None
    for stale in (at + timedelta(minutes=16), at - timedelta(minutes=16)):
        refusal = checked(request, now=stale)
        assert refusal is not None
        assert refusal.code == "InvalidSignatureException"
        assert refusal.message.startswith("Signature expired")
