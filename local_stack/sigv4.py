"""Who may talk to the stack's own services: whoever signs with the stack's credentials.

The credentials are made afresh at each start and given to the stack's execution
environments (and its own clients) alone. botocore signs every request with them
(SigV4); an endpoint of the stack recomputes the signature from what it received, over
exactly the headers the request says it signed, and compares in constant time. Loopback
is open to every local user, and a web page may send requests there too: neither has
the secret key, so neither gets an answer but a refusal (403, an AWS JSON error).
`SignedRequestHandler` is such an endpoint's HTTP side; it sends no CORS header, so no
page may read even the refusal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from http.server import ThreadingHTTPServer
from typing import Any, Generic, TypeVar
from urllib.parse import quote

from botocore.utils import normalize_url_path

from local_stack.wire import QuickHeaders, http_message

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
UNFRAMED = Refusal(
    "SerializationException", "A request needs one Content-Length, within limits", status=400
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
    key_id, day, _, scoped_service, _ = scope
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
    declared = fields.get("x-amz-content-sha256")
    if declared is not None and declared != [hashlib.sha256(body).hexdigest()]:
        return MISMATCH  # a signature over another body (or over none: UNSIGNED-PAYLOAD)
    expected = _signature(credentials, scope, stamp, method, target, fields, signed, body)
    return None if _same(expected, signature) else MISMATCH


def _signature(
    credentials: Credentials,
    scope: list[str],
    stamp: str,
    method: str,
    target: str,
    fields: dict[str, list[str]],
    signed: list[str],
    body: bytes,
) -> str:
    """SigV4's signature of a request as received, over the headers it says it signed:
    the canonical request as botocore's SigV4Auth makes it (path encoded once more, query
    pairs sorted, header values trimmed, the body's SHA-256)."""
    path, _, query = target.partition("?")
    pairs = sorted(pair.partition("=")[::2] for pair in query.split("&")) if query else []
    canonical = "\n".join(
        [
            method,
            quote(normalize_url_path(path), safe="/~"),
            "&".join(f"{key}={value}" for key, value in pairs),
            *(
                f"{name}:{','.join(' '.join(v.split()) for v in fields.get(name, []))}"
                for name in signed
            ),
            "",
            ";".join(signed),
            hashlib.sha256(body).hexdigest(),  # the body received, whatever a header says
        ]
    )
    string_to_sign = "\n".join(
        [ALGORITHM, stamp, "/".join(scope[1:]), hashlib.sha256(canonical.encode()).hexdigest()]
    )
    key = f"AWS4{credentials.secret_access_key}".encode()
    for part in scope[1:]:  # the day, the region, the service, "aws4_request"
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return hmac.new(key, string_to_sign.encode(), hashlib.sha256).hexdigest()


Owner = TypeVar("Owner")


class SignedServer(ThreadingHTTPServer, Generic[Owner]):
    """A free loopback port answered by `handler` for `owner`, in a thread of its own."""

    daemon_threads = True
    request_queue_size = 128  # every execution environment's client may connect at once

    def __init__(self, handler: type[SignedRequestHandler], owner: Owner, name: str) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.owner = owner
        threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.2}, name=name, daemon=True
        ).start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


def _body_length(headers: list[tuple[str, str]]) -> int | None:
    """The length of the body: its one Content-Length, 0 without; None if not so framed."""
    if any(name.lower() == "transfer-encoding" for name, _ in headers):
        return None
    lengths = [value.strip() for name, value in headers if name.lower() == "content-length"]
    if not lengths:
        return 0
    if len(lengths) > 1 or not (lengths[0].isascii() and lengths[0].isdecimal()):
        return None
    return int(lengths[0])


class SignedRequestHandler(QuickHeaders):
    """HTTP/1.1 with keep-alive, any method: a request signed for `service` with the
    server's `credentials` is answered by `answer`, any other gets its refusal."""

    protocol_version = "HTTP/1.1"
    timeout = 120  # a client's idle keep-alive connection is closed after this
    service = ""
    content_type = "application/x-amz-json-1.0"
    max_body = 1 << 16

    def credentials(self) -> Credentials:
        raise NotImplementedError

    def answer(
        self, headers: list[tuple[str, str]], body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        """(status, headers, body) for the signed request self.command, self.path."""
        raise NotImplementedError

    def refusal(self, refusal: Refusal) -> tuple[int, list[tuple[str, str]], bytes]:
        return refusal.status, [("Content-Type", self.content_type)], refusal.body()

    def do_POST(self) -> None:
        headers = self.headers.items()  # once: each look-up in a Message is a scan
        length = _body_length(headers)
        if length is None or length > self.max_body:
            self.close_connection = True  # where the body ends is not known: no next request
            status, answer, data = self.refusal(UNFRAMED)
        else:
            body = self.rfile.read(length)
            refused = check(
                self.credentials(), self.service, self.command, self.path, headers, body
            )
            status, answer, data = (
                self.answer(headers, body) if refused is None else self.refusal(refused)
            )
        if self.close_connection:
            answer = [*answer, ("Connection", "close")]
        self.wfile.write(
            http_message(f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", answer, data)
        )

    do_GET = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the stack logs the API's requests, not the functions' calls."""
