"""The web ACL (AWS WAF) associated with the API's stage: its rules, evaluated before API
Gateway routes, throttles or authorizes a request, as WAF is."""

from __future__ import annotations

import base64
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from local_stack.events import HttpRequest, HttpResponse

log = logging.getLogger("local_stack")


class UnsupportedWafRule(Exception):
    """A web ACL rule the local stack cannot evaluate (it is left out, with a warning)."""


# WAF's text transformations the local rules may use, by Type.
_TRANSFORMATIONS: dict[str, Callable[[str], str]] = {
    "NONE": lambda text: text,
    "LOWERCASE": str.lower,
    "UPPERCASE": str.upper,
    "URL_DECODE": unquote,
    "TRIM": str.strip,
    # \t \n \v \f \r and non-breaking spaces as spaces, then each run of spaces one
    "COMPRESS_WHITE_SPACE": lambda text: re.sub(r"[ \t\n\v\f\r\xa0]+", " ", text),
    "NORMALIZE_PATH": lambda text: _normalize_path(text),
}
_CONTENT_TYPES = {
    "APPLICATION_JSON": "application/json",
    "TEXT_PLAIN": "text/plain",
    "TEXT_HTML": "text/html",
}
RequestText = Callable[[HttpRequest], str | None]
Matcher = Callable[[HttpRequest], bool]


def _normalize_path(path: str) -> str:
    """WAF's NORMALIZE_PATH: runs of slashes as one, `.` and `..` segments resolved."""
    kept: list[str] = []
    for segment in re.sub(r"/{2,}", "/", path).split("/"):
        if segment == ".":
            continue
        if segment == ".." and len(kept) > 1:  # one at the beginning stays
            kept.pop()
            continue
        kept.append(segment)
    return "/".join(kept)


def _transformed(read: RequestText, transformations: list[dict[str, Any]]) -> RequestText:
    steps = []
    for step in sorted(transformations, key=lambda t: int(t.get("Priority", 0))):
        kind = str(step.get("Type"))
        if kind not in _TRANSFORMATIONS:
            raise UnsupportedWafRule(f"text transformation {kind}")
        steps.append(_TRANSFORMATIONS[kind])

    def text(request: HttpRequest) -> str | None:
        value = read(request)
        for step in steps:
            value = None if value is None else step(value)
        return value

    return text


def _field(spec: dict[str, Any]) -> RequestText:
    """A FieldToMatch (or a custom key's part) as the request text it reads."""
    if "UriPath" in spec:
        return lambda request: request.raw_path
    if "Method" in spec:
        return lambda request: request.method
    if "QueryString" in spec:
        return lambda request: request.query
    if "SingleHeader" in spec:
        name = str(spec["SingleHeader"]["Name"])
        return lambda request: request.header(name)
    raise UnsupportedWafRule(f"field {sorted(spec)}")


def _matcher(statement: dict[str, Any]) -> Matcher:
    """A WAF Statement (of those the local stack knows) as a test of a request."""
    if len(statement) != 1:
        raise UnsupportedWafRule(f"statement {sorted(statement)}")
    ((kind, spec),) = statement.items()
    if kind in ("AndStatement", "OrStatement"):
        parts = [_matcher(s) for s in spec["Statements"]]
        combine = all if kind == "AndStatement" else any
        return lambda request: combine(part(request) for part in parts)
    if kind == "NotStatement":
        inner = _matcher(spec["Statement"])
        return lambda request: not inner(request)
    if kind not in ("ByteMatchStatement", "RegexMatchStatement"):
        raise UnsupportedWafRule(kind)
    read = _transformed(_field(spec["FieldToMatch"]), spec["TextTransformations"])
    if kind == "RegexMatchStatement":
        pattern = re.compile(str(spec["RegexString"]))
        return lambda request: (text := read(request)) is not None and bool(pattern.search(text))
    if "SearchStringBase64" in spec:
        needle = base64.b64decode(str(spec["SearchStringBase64"])).decode()
    else:
        needle = str(spec["SearchString"])
    position = str(spec["PositionalConstraint"])
    tests: dict[str, Callable[[str], bool]] = {
        "EXACTLY": lambda text: text == needle,
        "STARTS_WITH": lambda text: text.startswith(needle),
        "ENDS_WITH": lambda text: text.endswith(needle),
        "CONTAINS": lambda text: needle in text,
        "CONTAINS_WORD": lambda text: bool(
            re.search(rf"(?<![A-Za-z0-9_]){re.escape(needle)}(?![A-Za-z0-9_])", text)
        ),
    }
    test = tests[position]
    return lambda request: (text := read(request)) is not None and test(text)


def _rate_key(statement: dict[str, Any]) -> Callable[[HttpRequest], tuple[str, ...] | None]:
    """What a RateBasedStatement counts by; None for a request it does not count (a
    custom key the request lacks)."""
    kind = str(statement["AggregateKeyType"])
    if kind == "IP":
        return lambda request: (request.source_ip,)
    if kind == "CONSTANT":
        return lambda request: ()
    if kind != "CUSTOM_KEYS":
        raise UnsupportedWafRule(f"AggregateKeyType {kind}")
    parts: list[RequestText] = []
    for key in statement["CustomKeys"]:
        ((name, spec),) = key.items()
        if name == "IP":
            parts.append(lambda request: request.source_ip)
        elif name == "HTTPMethod":
            parts.append(lambda request: request.method)
        elif name in ("Header", "UriPath"):
            field = {"SingleHeader": {"Name": spec["Name"]}} if name == "Header" else {name: {}}
            parts.append(_transformed(_field(field), spec["TextTransformations"]))
        else:
            raise UnsupportedWafRule(f"custom key {name}")

    def key_of(request: HttpRequest) -> tuple[str, ...] | None:
        values = tuple(part(request) for part in parts)
        return None if any(v is None for v in values) else values  # type: ignore[return-value]

    return key_of


class RateCounter:
    """A rate-based rule's counts: each key's requests over the last window_s seconds,
    in one-second slots (so a key's memory is bounded by the window, not by its flood)."""

    def __init__(self, limit: int, window_s: int) -> None:
        self.limit = limit
        self.window_s = window_s
        self.slots: dict[tuple[str, ...], deque[list[int]]] = {}
        self.lock = threading.Lock()
        self.swept = time.monotonic()

    def over_limit(self, key: tuple[str, ...]) -> bool:
        """Count one request of key; whether its window now holds more than the limit.
        WAF counts the requests it blocks too: a flood stays blocked while it goes on."""
        now = time.monotonic()
        second = int(now)
        with self.lock:
            if now - self.swept > self.window_s:  # forget keys that have gone quiet
                self.slots = {
                    k: v for k, v in self.slots.items() if v[-1][0] > second - self.window_s
                }
                self.swept = now
            slots = self.slots.setdefault(key, deque())
            while slots and slots[0][0] <= second - self.window_s:
                slots.popleft()
            if slots and slots[-1][0] == second:
                slots[-1][1] += 1
            else:
                slots.append([second, 1])
            return sum(count for _, count in slots) > self.limit


@dataclass
class WafRule:
    """One rule of a web ACL: what it looks at, its action, and for a Block its custom
    response (None: WAF's own 403, API Gateway's WAF_FILTERED)."""

    name: str
    matches: Matcher  # the rule's statement, its rate aside
    action: str  # Allow or Block end the evaluation; Count goes on
    block: HttpResponse | None = None
    rate_key: Callable[[HttpRequest], tuple[str, ...] | None] | None = None
    counter: RateCounter | None = None

    def applies(self, request: HttpRequest) -> bool:
        if not self.matches(request):
            return False
        if self.rate_key is None or self.counter is None:
            return True
        key = self.rate_key(request)
        return key is not None and self.counter.over_limit(key)


class WebAcl:
    """An AWS::WAFv2::WebACL associated with the API's stage: its rules in priority
    order, evaluated before API Gateway routes a request, as WAF is."""

    def __init__(self, properties: dict[str, Any]) -> None:
        self.bodies = {
            str(key): (
                _CONTENT_TYPES.get(str(body["ContentType"]), "text/plain"),
                str(body["Content"]),
            )
            for key, body in (properties.get("CustomResponseBodies") or {}).items()
        }
        self.rules: list[WafRule] = []
        rules = sorted(properties.get("Rules") or [], key=lambda r: int(r.get("Priority", 0)))
        for rule in rules:
            try:
                self.rules.append(self._rule(rule))
            except UnsupportedWafRule as exc:
                log.warning("WAF rule %s is not applied locally: %s", rule.get("Name"), exc)

    def _rule(self, rule: dict[str, Any]) -> WafRule:
        ((action, action_spec),) = (rule.get("Action") or {"Count": {}}).items()
        if action not in ("Allow", "Block", "Count"):
            raise UnsupportedWafRule(f"action {action}")
        block = self._block_response(action_spec or {}) if action == "Block" else None
        statement = rule["Statement"]
        name = str(rule.get("Name"))
        if "RateBasedStatement" not in statement:
            return WafRule(name, _matcher(statement), action, block)
        rate = statement["RateBasedStatement"]
        scope = rate.get("ScopeDownStatement")
        return WafRule(
            name,
            _matcher(scope) if scope else (lambda request: True),
            action,
            block,
            rate_key=_rate_key(rate),
            counter=RateCounter(int(rate["Limit"]), int(rate.get("EvaluationWindowSec", 300))),
        )

    def _block_response(self, spec: dict[str, Any]) -> HttpResponse | None:
        """The CustomResponse of a Block; None for WAF's own 403 (API Gateway's
        WAF_FILTERED)."""
        custom = spec.get("CustomResponse")
        if not custom:
            return None
        content_type, body = self.bodies.get(
            str(custom.get("CustomResponseBodyKey")), ("text/plain", "")
        )
        headers = [("Content-Type", content_type)]
        headers += [(str(h["Name"]), str(h["Value"])) for h in custom.get("ResponseHeaders") or []]
        return HttpResponse(int(custom["ResponseCode"]), headers, body.encode())

    def blocking_rule(self, request: HttpRequest) -> WafRule | None:
        """The rule that blocks the request, or None where it goes on to the API."""
        for rule in self.rules:
            if rule.applies(request) and rule.action != "Count":
                return rule if rule.action == "Block" else None
        return None
