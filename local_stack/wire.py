"""HTTP/1.1 as h11 reads and writes it for the stack's servers (local_stack.httpd), and
what the stack refuses of what h11 reads (`refusal`, answered 400): where RFC 9112 lets a
server either refuse a message or read it one way, so that no proxy in front of a
deployment could read it another way; a control character in a header value (h11 takes
all but NUL); a version other than HTTP/1.x; and at once a request line with no version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import h11

# RFC 9110 5.5: a field value holds no control byte but HTAB (h11 refuses CR, LF and NUL
# in one, and any in the request line).
_CONTROL = re.compile(rb"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FOLDED = re.compile(rb"\n[ \t]")  # RFC 9112 5.2: obs-fold, a line that goes on a value
_LENGTHS = re.compile(rb"^content-length:([^\n]*)", re.IGNORECASE | re.MULTILINE)
_CODINGS = re.compile(rb"^transfer-encoding:", re.IGNORECASE | re.MULTILINE)
_HEAD_END = re.compile(rb"\n\r?\n")  # the blank line that ends a header section, as h11's
_VERSIONED = re.compile(rb"[^\n]* HTTP/[0-9]\.[0-9]\r?\n")


@dataclass
class Request:
    """A request as it came over the wire; `body` is read after the rest."""

    method: str
    target: str  # as sent, but a leading `//` made one `/` (gh-87389: another host's to a client)
    headers: list[tuple[str, str]]  # as sent: the names' case and order kept
    peer: tuple[str, int]  # the client's address and port
    body: bytes = b""

    @classmethod
    def of(cls, event: h11.Request, peer: tuple[str, int]) -> Request:
        target = event.target.decode("ascii")  # h11 takes visible ASCII only
        return cls(
            method=event.method.decode("ascii"),
            target="/" + target.lstrip("/") if target.startswith("//") else target,
            headers=fields(event),
            peer=peer,
        )


def fields(event: h11.Request | h11.Response) -> list[tuple[str, str]]:
    """A message's headers as sent: their names' case and order kept."""
    return [(k.decode("ascii"), v.decode("iso-8859-1")) for k, v in event.headers.raw_items()]


def encoded(headers: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    """Headers as h11 takes them, each character a byte (h11 itself encodes str as ASCII)."""
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]


def message(http: h11.Connection, head: h11.Request | h11.Response, body: bytes) -> bytes:
    """What h11 writes of a message, its head, body and end, as one write: one wake-up
    for the reader, whatever Nagle and delayed ACKs would make of two."""
    parts = [head, h11.Data(data=body), h11.EndOfMessage()] if body else [head, h11.EndOfMessage()]
    return b"".join(http.send(part) or b"" for part in parts)


def unversioned(pending: bytes) -> bool:
    """Whether the request that `pending` begins has a whole request line without an
    HTTP version, which no header section makes a request."""
    line_end = pending.find(b"\n") + 1
    return line_end > 0 and not _VERSIONED.fullmatch(pending, 0, line_end)


def refusal(event: h11.Request, pending: bytes) -> str | None:
    """Why the stack refuses a request that h11 read, or None; `pending` is what was
    received from the request's first byte on, its header section whole. The section is
    searched as it came, its lines being header lines (h11 has read them)."""
    end = _HEAD_END.search(pending)
    head = pending[: end.start() if end else len(pending)]
    if not event.http_version.startswith(b"1."):
        return f"Invalid HTTP version ({event.http_version.decode()})"
    if _CONTROL.search(head):
        return "a header value has a control character"
    if _FOLDED.search(head):
        return "a header value goes on over a line (obs-fold)"
    lengths = _LENGTHS.findall(head)
    if _CODINGS.search(head) and (lengths or event.http_version != b"1.1"):
        return "Transfer-Encoding goes without Content-Length, and in HTTP/1.1 only"
    if len(lengths) > 1 or b"," in b"".join(lengths):  # `2, 2` too: two lengths
        return "Content-Length is given more than once"
    return None
