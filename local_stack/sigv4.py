"""Who may talk to the stack's own services: whoever signs with the stack's credentials.

The credentials are made afresh at each start and given to the stack's execution
environments (and its own clients) alone. botocore signs every request with them (SigV4);
an endpoint of the stack has botocore's signer compute the signature of what it received,
over the headers the request says it signed, at the time it says, and compares the two in
constant time. A local user or a web page, without the secret key, gets only a refusal (403,
an AWS JSON error), and `SignedServer` sends no CORS header: no page may read even that.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import astuple, dataclass
from datetime import UTC, datetime, timedelta

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials

from local_stack.events import HttpResponse
from local_stack.httpd import Server
from local_stack.wire import Request

ALGORITHM = "AWS4-HMAC-SHA256"
TIMESTAMP = "%Y%m%dT%H%M%SZ"
MAX_SKEW = timedelta(minutes=15)  # as AWS: a signature is good for 15 minutes either way


@dataclass(frozen=True)
class Credentials:
    access_key_id: str
    secret_access_key: str
    session_token: str

    @classmethod
    def fresh(cls) -> Credentials:
        # DynamoDB Local takes access key ids of letters and digits only
        return cls(
            access_key_id="ASIA" + secrets.token_hex(8).upper(),
            secret_access_key=secrets.token_urlsafe(32),
            session_token=secrets.token_urlsafe(32),
        )

    def environment(self) -> dict[str, str]:
        """The AWS SDK's variables that make a client sign with these credentials."""
        return {
            "AWS_ACCESS_KEY_ID": self.access_key_id,
            "AWS_SECRET_ACCESS_KEY": self.secret_access_key,
            "AWS_SESSION_TOKEN": self.session_token,
        }


@dataclass(frozen=True)
class Refusal:
    """An AWS JSON-protocol error for a request that is not signed with the credentials."""

    code: str
    message: str
    status: int = 403

    def body(self) -> bytes:
        return json.dumps(
            {"__type": f"com.amazon.coral.service#{self.code}", "message": self.message}
        ).encode()


UNSIGNED = Refusal("MissingAuthenticationTokenException", "Request is missing Authentication Token")
INCOMPLETE = Refusal(
    "IncompleteSignatureException",
    "Authorization must hold Credential, SignedHeaders (host, x-amz-date) and Signature",
)
UNRECOGNIZED = Refusal(
    "UnrecognizedClientException", "The security token included in the request is invalid."
)
TOO_LARGE = Refusal(
    "SerializationException", "The request's body is over the endpoint's limit", status=400
)
MISMATCH = Refusal(
    "InvalidSignatureException",
    "The request signature we calculated does not match the signature you provided.",
)


def _same(a: str, b: str) -> bool:
    # header values are decoded as ISO-8859-1: encoding them again cannot fail
    return hmac.compare_digest(a.encode(), b.encode())


def check(
    credentials: Credentials,
    service: str,
    method: str,
    target: str,
    headers: list[tuple[str, str]],
    body: bytes,
    now: datetime | None = None,
) -> Refusal | None:
    """Why the request (target: its path and query as received) is refused, or None
    when it is signed by `credentials` for `service`, within 15 minutes of now."""
    fields: dict[str, list[str]] = {}
    for name, value in headers:
        fields.setdefault(name.lower(), []).append(value)
    authorization = fields.get("authorization", [""])[0]
    if not authorization:
        return UNSIGNED
    algorithm, _, rest = authorization.partition(" ")
    parts = dict(field.strip().partition("=")[::2] for field in rest.split(","))
    scope = parts.get("Credential", "").split("/")
    signed = parts.get("SignedHeaders", "").split(";")
    signature = parts.get("Signature", "")
    stamp = fields.get("x-amz-date", [""])[0]
    if (
        algorithm != ALGORITHM
        or len(scope) != 5
        or scope[4] != "aws4_request"
        or not signature
        or not {"host", "x-amz-date"} <= set(signed)
        or not target.startswith("/")
    ):
        return INCOMPLETE
    key_id, day, region, scoped_service, _ = scope
    if not _same(key_id, credentials.access_key_id) or not _same(
        fields.get("x-amz-security-token", [""])[0], credentials.session_token
    ):
        return UNRECOGNIZED
    try:
        signed_at = datetime.strptime(stamp, TIMESTAMP).replace(tzinfo=UTC)
    except ValueError:
        return INCOMPLETE
    if scoped_service != service or day != stamp[:8]:
        return Refusal("InvalidSignatureException", f"Credential should be scoped to {service}")
    if abs((now or datetime.now(UTC)) - signed_at) > MAX_SKEW:
        return Refusal("InvalidSignatureException", f"Signature expired: {stamp}")
    # botocore signs the hash a request declares in place of its body's: it must be the
    # body's, or the signature would hold for another body (or none: UNSIGNED-PAYLOAD).
    declared = fields.get("x-amz-content-sha256")
    if declared is not None and declared != [hashlib.sha256(body).hexdigest()]:
        return MISMATCH
    if not set(signed) <= fields.keys():  # a header it says it signed and did not send
        return MISMATCH
    # The request as received, over the headers it says it signed, at its own time. A URL
    # whose path and query botocore splits off as received: the target alone would be read
    # as a host where it starts with `//`. The Host signed is the header's.
    received = AWSRequest(method=method, url=f"http://host{target}", data=body)
    for name, value in headers:
        if name.lower() in signed:
            received.headers[name] = value  # added, as a header sent twice is signed twice
    received.context["timestamp"] = stamp
    expected = _signature(credentials, region, service, received)
    return None if _same(expected, signature) else MISMATCH


def _signature(credentials: Credentials, region: str, service: str, request: AWSRequest) -> str:
    """The signature botocore's signer gives the request, at the time of its context: as
    moto's access control computes it."""
    signer = SigV4Auth(BotoCredentials(*astuple(credentials)), service, region)
    return signer.signature(
        signer.string_to_sign(request, signer.canonical_request(request)), request
    )


# The AWS error codes of the refusals the server base makes (see Server.error_answer).
_ERROR_CODES = {
    400: "SerializationException",
    408: "RequestTimeoutException",
    500: "InternalFailure",
    503: "ServiceUnavailable",
}


class SignedServer(Server):
    """A free loopback port: a request signed for `service` with `credentials` is answered
    by `signed`, any other gets its refusal."""

    service = ""
    content_type = "application/x-amz-json-1.0"

    def __init__(self, credentials: Credentials, name: str) -> None:
        super().__init__(("127.0.0.1", 0), name)
        self.credentials = credentials

    def signed(self, request: Request) -> HttpResponse:
        """The answer to a request signed with the credentials."""
        raise NotImplementedError

    def answer(self, request: Request) -> HttpResponse:
        parts = (request.method, request.target, request.headers, request.body)
        refused = check(self.credentials, self.service, *parts)
        return self.signed(request) if refused is None else self.aws_answer(refused)

    def error_answer(self, status: int, detail: str) -> HttpResponse:
        return self.aws_answer(
            Refusal(_ERROR_CODES.get(status, "SerializationException"), detail, status)
        )

    def too_large(self, request: Request) -> HttpResponse:
        return self.aws_answer(TOO_LARGE)

    def aws_answer(self, refusal: Refusal) -> HttpResponse:
        """The refusal as the service's JSON protocol answers it."""
        return HttpResponse(refusal.status, [("Content-Type", self.content_type)], refusal.body())
