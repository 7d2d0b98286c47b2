"""HTTP/1.1 messages on the stack's loopback sockets, read and written without detours.

The stdlib hands every header section to the mail parser (`email.feedparser`), which
took a quarter of the stack's own time per API request: the API's request and, per
DynamoDB call, the forwarder's request and the JVM's answer. A section of plain
`name: value` lines, which every client here sends, is read by `read_headers` into the
same `http.client.HTTPMessage`, with the values the mail parser gives them; any other
section (a folded line, a line without a colon, one too long, too many lines) is left to
the stdlib, which reads it from its first line as before and answers it as before
(`QuickHeaders`, for the stack's request handlers).
A message goes out as one write (`http_message`): one wake-up for the reader, whatever
Nagle and delayed ACKs would make of two.
"""

from __future__ import annotations

import http.client
import re
from http.server import BaseHTTPRequestHandler
from typing import Any

MAX_LINE = 65536  # the stdlib's limit on a header line (http.client._MAXLINE)
MAX_HEADERS = 100  # and on their number (http.client._MAXHEADERS)
# A token, a colon, then the value up to the line's end (RFC 9112 5): the mail parser
# takes such a line as one header, its value with leading blanks and the line end off.
_PLAIN_LINE = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*)\r?\n")
_END = (b"\r\n", b"\n")
# A request line the stdlib reads headers after: three words, HTTP/1.0 or HTTP/1.1.
_HTTP1_REQUEST_LINE = re.compile(rb"[!-~]+ [!-~]+ HTTP/1\.[01]\r?\n")


class _Replay:
    """A reader that gives back the lines already read, then reads on from `rfile`."""

    def __init__(self, lines: list[bytes], rfile: Any) -> None:
        self._lines = lines
        self._rfile = rfile

    def readline(self, limit: int = -1) -> bytes:
        if self._lines:
            return self._lines.pop(0)
        line: bytes = self._rfile.readline(limit)
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rfile, name)


def read_headers(rfile: Any) -> tuple[http.client.HTTPMessage | None, Any]:
    """The header section that rfile is at, read up to its blank line, as the stdlib's
    parse_headers would give it, and rfile; or, for a section that is not plain
    `name: value` lines ended by a blank one, None and a reader that gives the stdlib
    the lines read so far before the rest of rfile."""
    lines: list[bytes] = []
    message = http.client.HTTPMessage()
    while True:
        line: bytes = rfile.readline(MAX_LINE + 1)
        lines.append(line)
        if line in _END:
            return message, rfile
        match = _PLAIN_LINE.fullmatch(line)
        if match is None or len(line) > MAX_LINE or len(lines) > MAX_HEADERS:
            return None, _Replay(lines, rfile)
        name, value = match.groups()
        message[name.decode("ascii")] = value.decode("iso-8859-1")


class QuickHeaders(BaseHTTPRequestHandler):
    """The stdlib's request handler, its request read by read_headers where it can be."""

    raw_requestline: bytes  # the request line, as handle_one_request read it

    def parse_request(self) -> bool:
        """What the stdlib's parse_request (Python 3.11-3.13) makes of a request line
        `METHOD target HTTP/1.x` and a plain header section; any other request is the
        stdlib's, which reads its header section from the first line."""
        if not _HTTP1_REQUEST_LINE.fullmatch(self.raw_requestline):
            return super().parse_request()  # HTTP/0.9 has no header section to read ahead
        rfile = self.rfile
        headers, reader = read_headers(rfile)
        if headers is None:
            self.rfile = reader
            try:
                return super().parse_request()
            finally:
                self.rfile = rfile
        self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        self.command, path, self.request_version = self.requestline.split(" ")
        # gh-87389: a path of `//host` would read as another host's to a client.
        self.path = "/" + path.lstrip("/") if path.startswith("//") else path
        self.headers = headers
        connection = headers.get("Connection", "").lower()
        keeps = self.request_version == "HTTP/1.1" and self.protocol_version >= "HTTP/1.1"
        if connection == "close":
            keeps = False
        elif connection == "keep-alive" and self.protocol_version >= "HTTP/1.1":
            keeps = True
        self.close_connection = not keeps
        expect = headers.get("Expect", "").lower()
        if (
            expect == "100-continue"
            and self.protocol_version >= "HTTP/1.1"
            and self.request_version == "HTTP/1.1"
        ):
            return self.handle_expect_100()
        return True


def http_message(start_line: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    """An HTTP/1.1 message with its Content-Length, as one write."""
    lines = [start_line, *(f"{name}: {value}" for name, value in headers)]
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
