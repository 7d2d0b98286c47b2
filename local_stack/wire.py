"""HTTP/1.1 on the stack's loopback sockets: one strict reader of requests, one writer.

Every server of the stack (local_stack.httpd) reads its requests with `read_request` and
`read_body`, held to RFC 9112 where the stdlib is lenient: a request that another parser
could read otherwise is refused (`Malformed`, answered 400), and one whose connection ends
before it does is dropped unanswered (`Incomplete`), never run. The header section is read
here, not by the stdlib, which hands it to the mail parser (`email.feedparser`): that took
a quarter of the stack's own time per API request, and it drops some lines without a word
(`From x` is a mailbox's envelope line to it). The forwarder reads DynamoDB Local's answers
with the same `read_fields`, `read_exactly` and `read_chunked`.
A message goes out as one write (`http_message`): one wake-up for the reader, whatever
Nagle and delayed ACKs would make of two.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any

MAX_LINE = 65536  # the stdlib's limit on a header line (http.client._MAXLINE)
MAX_HEADERS = 100  # and on their number (http.client._MAXHEADERS)
_TOKEN = rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+"  # RFC 9110 5.6.2
# RFC 9112 5: a field line is a token, a colon, then the value up to the line's end; the
# value as the mail parser gave it, its leading blanks and its line end off.
_FIELD_LINE = re.compile(b"(" + _TOKEN + rb"):[ \t]*([^\r\n]*)\r?\n")
# RFC 9112 3: method SP request-target SP HTTP-version, the method a token, the target
# visible ASCII (no control byte, no NUL, nothing a terminal acts on), one digit each side
# of the version's dot; a line without a version (HTTP/0.9) is refused too.
_REQUEST_LINE = re.compile(b"(" + _TOKEN + rb") ([!-~]+) (HTTP/([0-9])\.([0-9]))\r?\n")
# RFC 9110 5.5: a field value holds no CR, LF or NUL (an obs-fold leaves CR LF in the
# value) nor any other control byte but HTAB.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_DIGITS = re.compile(r"[0-9]+")  # str.isdigit takes "²", which int() refuses
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,8}")
_BLANK_LINE = (b"\r\n", b"\n")  # a line with nothing before its end
# A Content-Length this long is over every server's limit, and int() is not asked to read
# thousands of digits.
_LONGEST_LENGTH = 9


class WireError(Exception):
    """A message that cannot be read; `line` is its request line as read, for the log."""

    line = ""


class Malformed(WireError):
    """A message that cannot be read one way only: a request is refused (400)."""


class Incomplete(WireError):
    """The connection ended before the message did: a request is dropped, never run."""


@dataclass
class Request:
    """A request as it came over the wire; `body` is read after the rest."""

    method: str
    target: str  # as sent, but a leading `//` made one `/` (gh-87389: another host's to a client)
    version: str
    headers: list[tuple[str, str]]
    peer: tuple[str, int]  # the client's address and port
    keep_alive: bool  # whether the connection may carry another request after this one
    expects_continue: bool  # `Expect: 100-continue`: the client waits for a 100 to send its body
    chunked: bool
    length: int  # the Content-Length (0 without one); no body is this long when chunked
    body: bytes = b""


def read_request(rfile: Any, peer: tuple[str, int]) -> Request | None:
    """The request line and header section that rfile is at; None where the connection
    ends or a blank line comes instead (the stdlib's server closes the connection then).
    Malformed for a request to refuse, Incomplete for one that the connection cut short."""
    raw = rfile.readline(MAX_LINE + 1)
    if len(raw) > MAX_LINE:
        raise Malformed("Request-URI Too Long")  # its line too long to log
    line = str(raw, "iso-8859-1").rstrip("\r\n")
    try:
        if not raw.endswith(b"\n") or not raw.strip():
            return None
        match = _REQUEST_LINE.fullmatch(raw)
        if match is None:
            raise Malformed("the request line is not `METHOD target HTTP/x.y`")
        method, target, version, major, minor = (part.decode("ascii") for part in match.groups())
        if major >= "2":
            raise Malformed(f"Invalid HTTP version ({major}.{minor})")
        headers = read_fields(rfile)
        fault = _header_fault(version, headers)
        if fault is not None:
            raise Malformed(fault)
    except WireError as error:
        error.line = line
        raise
    return _request(method, target, version, headers, peer)


def _request(
    method: str, target: str, version: str, headers: list[tuple[str, str]], peer: tuple[str, int]
) -> Request:
    """The request of an accepted request line and header section, as the stdlib reads
    its connection and expectation (from the first of each header) and RFC 9112 its body."""
    first = first_values(headers)
    connection = first.get("connection", "")
    keep_alive = connection == "keep-alive" or (connection != "close" and version >= "HTTP/1.1")
    declared = first.get("content-length", "0").strip()  # digits: see _header_fault
    return Request(
        method=method,
        target="/" + target.lstrip("/") if target.startswith("//") else target,
        version=version,
        headers=headers,
        peer=peer,
        keep_alive=keep_alive,
        expects_continue=first.get("expect") == "100-continue" and version >= "HTTP/1.1",
        chunked="transfer-encoding" in first,  # chunked alone: see _header_fault
        length=int(declared) if len(declared) <= _LONGEST_LENGTH else sys.maxsize,
    )


def first_values(headers: list[tuple[str, str]]) -> dict[str, str]:
    """Each header's first value in lower case, by its name in lower case: the one that
    the stdlib's `Message.get` gives, for the headers whose value is a keyword."""
    first: dict[str, str] = {}
    for name, value in headers:
        first.setdefault(name.lower(), value.lower())
    return first


def read_fields(rfile: Any) -> list[tuple[str, str]]:
    """The header section that rfile is at, read to its blank line, as (name, value) pairs
    in the order sent: Malformed if a line is not `name: value` (or one is too long, or
    there are too many), Incomplete if the connection ends first."""
    lines: list[bytes] = []
    while True:
        line: bytes = rfile.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise Malformed("Line too long")
        if line in _BLANK_LINE:
            break
        if not line.endswith(b"\n"):  # a line short of its limit ends so only at EOF
            raise Incomplete
        lines.append(line)
        if len(lines) > MAX_HEADERS:
            raise Malformed("Too many headers")
    # Judged once the section is whole, so that a refused request leaves no unread bytes
    # behind, which would make the kernel reset the connection before the 400 is read.
    fields: list[tuple[str, str]] = []
    for line in lines:
        match = _FIELD_LINE.fullmatch(line)
        if match is None:
            raise Malformed("a header line is not `name: value`")
        name, value = match.groups()
        fields.append((name.decode("ascii"), value.decode("iso-8859-1")))
    return fields


def _header_fault(version: str, headers: list[tuple[str, str]]) -> str | None:
    """Why the header section cannot be read one way only, or None when it can."""
    if any(_CONTROL.search(value) for _, value in headers):
        return "a header value has a control character"
    values: dict[str, list[str]] = {"host": [], "content-length": [], "transfer-encoding": []}
    for name, value in headers:
        found = values.get(name.lower())
        if found is not None:
            found.append(value)
    hosts, lengths, codings = values.values()
    if len(hosts) > 1 or (not hosts and version == "HTTP/1.1"):
        return "a request has one Host header at most, and HTTP/1.1 one exactly"  # 9112 3.2
    # RFC 9112 6.3: two lengths (even equal ones, as `Content-Length: 2, 2` is) or a length
    # beside a coding are two readings of where the body ends; and no transfer coding but
    # chunked is decoded, which HTTP/1.0 does not have.
    if codings and (lengths or version != "HTTP/1.1"):
        return "Transfer-Encoding goes without Content-Length, and in HTTP/1.1 only"
    if codings and [coding.strip().lower() for coding in codings] != ["chunked"]:
        return "the only transfer coding taken is chunked"
    if len(lengths) > 1:
        return "Content-Length is given more than once"
    if lengths and not _DIGITS.fullmatch(lengths[0].strip()):
        return "Content-Length is not a number of bytes"
    return None


def read_body(rfile: Any, request: Request, limit: int) -> bytes | None:
    """The request's body, whole; None when it is over `limit` bytes (not read on then).
    Incomplete if the connection ends within it, Malformed if its chunks are not chunked
    coding; a stall is the socket's timeout (TimeoutError)."""
    if request.chunked:
        return read_chunked(rfile, limit)
    if request.length > limit:
        return None
    return read_exactly(rfile, request.length)


def read_exactly(rfile: Any, size: int) -> bytes:
    data: bytes = rfile.read(size) if size else b""
    if len(data) < size:  # a buffered read returns short only at the connection's end
        raise Incomplete
    return data


def read_chunked(rfile: Any, limit: int) -> bytes | None:
    """A chunked body; None once it is over `limit` bytes; Malformed if a chunk size is
    not one, or a chunk is longer than its size."""
    chunks: list[bytes] = []
    total = 0
    while True:
        declared = _chunk_line(rfile).split(b";")[0].strip() or b"0"
        if not _CHUNK_SIZE.fullmatch(declared):
            raise Malformed("a chunk size is not a hexadecimal number")
        size = int(declared, 16)
        if size == 0:
            while _chunk_line(rfile) not in _BLANK_LINE:
                pass  # trailers
            return b"".join(chunks)
        total += size
        if total > limit:
            return None
        chunks.append(read_exactly(rfile, size))
        if _chunk_line(rfile) not in _BLANK_LINE:
            raise Malformed("a chunk is longer than its size")


def _chunk_line(rfile: Any) -> bytes:
    """One line of a chunked body, never more than MAX_LINE bytes held in memory."""
    line: bytes = rfile.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE:
        raise Malformed("a line of the chunked body is too long")
    if not line.endswith(b"\n"):
        raise Incomplete
    return line


def http_message(start_line: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    """An HTTP/1.1 message with its Content-Length, as one write."""
    lines = [start_line, *(f"{name}: {value}" for name, value in headers)]
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
