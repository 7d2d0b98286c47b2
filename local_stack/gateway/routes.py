"""The route table: which route of the API a request is for, matched as API Gateway
matches it (the resource by path first, then its method)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic
from urllib.parse import unquote

from local_stack.gateway.authorizer import Authorizer
from local_stack.gateway.integration import F

MATCHED_PATHS = 4096  # paths whose resource a route table keeps, each of at most
MATCHED_PATH_LENGTH = 256  # characters


@dataclass
class Route(Generic[F]):
    resource: str  # the template's Path, with {param} and {proxy+}
    method: str  # upper case, or ANY
    function: F
    authorizer: Authorizer[F] | None = None


def split_path(path: str) -> list[str]:
    return [segment for segment in path.split("/") if segment]


def match_resource(
    template: list[str], segments: list[str]
) -> tuple[tuple[int, ...], dict[str, str]] | None:
    """Whether a resource path matches; with its rank (lower is more specific) and params.

    API Gateway prefers, segment by segment, a literal over a {param} over a {proxy+}.
    REST APIs pass path parameters percent-decoded (and `path` still encoded).
    """
    rank: list[int] = []
    params: dict[str, str] = {}
    for i, part in enumerate(template):
        if i >= len(segments):
            return None
        if part.startswith("{") and part.endswith("+}"):
            params[part[1:-2]] = unquote("/".join(segments[i:]))
            rank.append(2)
            return tuple(rank), params
        if part.startswith("{") and part.endswith("}"):
            params[part[1:-1]] = unquote(segments[i])
            rank.append(1)
        elif part == segments[i]:
            rank.append(0)
        else:
            return None
    if len(template) != len(segments):
        return None
    return tuple(rank), params


class RouteTable(Generic[F]):
    def __init__(self, routes: list[Route[F]]) -> None:
        self.by_resource: dict[str, dict[str, Route[F]]] = {}
        for route in routes:
            self.by_resource.setdefault(route.resource, {})[route.method] = route
        self._segments = {resource: split_path(resource) for resource in self.by_resource}
        # Each path's resource, once matched: a request is matched three times (its
        # gateway, a preflight, its route) against every resource, and a player's
        # requests go to a few paths over and over.
        self._found: dict[str, tuple[str, dict[str, str]] | None] = {}

    def resource_for(self, path: str) -> tuple[str, dict[str, str]] | None:
        """The most specific resource whose path matches, with its path parameters."""
        try:
            found = self._found[path]
        except KeyError:
            found = self._match_resource(path)
            if len(path) <= MATCHED_PATH_LENGTH:  # what a client's paths may hold is bounded
                if len(self._found) >= MATCHED_PATHS:
                    self._found.clear()
                self._found[path] = found
        return None if found is None else (found[0], dict(found[1]))

    def _match_resource(self, path: str) -> tuple[str, dict[str, str]] | None:
        segments = split_path(path)
        best: tuple[tuple[int, ...], str, dict[str, str]] | None = None
        for resource, resource_segments in self._segments.items():
            found = match_resource(resource_segments, segments)
            if found and (best is None or found[0] < best[0]):
                best = (found[0], resource, found[1])
        return None if best is None else (best[1], best[2])

    def match(self, method: str, path: str) -> tuple[Route[F], dict[str, str]] | None:
        """The route for a request, or None (API Gateway: missing authentication token).

        Like API Gateway, the resource is chosen by path first, then its method. Methods are
        case-sensitive (RFC 9110 9.1): `get` is not GET but an unknown method, as `FOO` is,
        which only ANY catches.
        """
        found = self.resource_for(path)
        if found is None:
            return None
        methods = self.by_resource[found[0]]
        route = methods.get(method) or methods.get("ANY")
        return (route, found[1]) if route else None
