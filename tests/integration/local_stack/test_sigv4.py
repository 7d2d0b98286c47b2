"""The stack's signature check (local_stack.sigv4) on requests botocore signs: it binds
the body received, whatever a header says of it."""

from __future__ import annotations

import hashlib

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials

from local_stack.sigv4 import MISMATCH, Credentials, check

BODY = b'{"TableName": "GameTable"}'
CREDENTIALS = Credentials.fresh()


def signed(**headers: str) -> AWSRequest:
    request = AWSRequest(
        method="POST",
        url="http://127.0.0.1:8000/",
        data=BODY,
        headers={"X-Amz-Target": "DynamoDB_20120810.ListTables", **headers},
    )
    keys = BotoCredentials(
        CREDENTIALS.access_key_id, CREDENTIALS.secret_access_key, CREDENTIALS.session_token
    )
    SigV4Auth(keys, "dynamodb", "us-east-1").add_auth(request)
    return request


def checked(request: AWSRequest, body: bytes) -> object:
    headers = [(name, str(value)) for name, value in request.headers.items()]
    return check(CREDENTIALS, "dynamodb", "POST", "/", [("Host", "127.0.0.1:8000"), *headers], body)


def test_a_request_botocore_signed_passes() -> None:
    assert checked(signed(), BODY) is None


def test_another_body_under_the_signature_is_refused() -> None:
    assert checked(signed(), b'{"TableName": "Other"}') is MISMATCH


def test_a_declared_payload_hash_does_not_stand_for_the_body() -> None:
    # The signature covers the original body's hash, declared in a header; the body sent
    # is another one.
    declared = hashlib.sha256(BODY).hexdigest()
    request = signed(**{"X-Amz-Content-SHA256": declared})
    assert checked(request, b'{"TableName": "Other"}') is MISMATCH
    assert checked(signed(**{"X-Amz-Content-SHA256": "UNSIGNED-PAYLOAD"}), BODY) is MISMATCH
