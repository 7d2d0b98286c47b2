"""The last limits of issue 43: a token has one spelling (any other is 401), so the web
ACL's per-token rules count a session once; the routes that run the analysis on the
caller's request are under a per-token rule; registrations are limited per address. The
rules are the template's, applied by the in-process stack as the local stack applies them."""

from __future__ import annotations

from .harness import Gateway
from .helpers import Player, problem


def _other_spellings(token: str) -> list[str]:
    """Spellings of `token` that PyJWT reads as the same token."""
    head, claims, signature = token.split(".")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    # HS256's 32 bytes take 43 characters: the last one's two low bits are not read
    last = alphabet[alphabet.index(signature[-1]) ^ 1]
    return [
        f"{token}=",
        f"{token}==",
        f"{head}.{claims}.{signature[:-1]}{last}",
        f"{head}.{claims}.{signature[:9]}!{signature[9:]}",
        f"{head}.{claims}.{signature[:9]}+{signature[9:]}",
        f"{head}=.{claims}.{signature}",
        f"{head}.{claims}=.{signature}",
    ]


def test_a_token_has_one_spelling_and_any_other_is_401(api: Gateway, alice: Player) -> None:
    assert api.request("GET", "/v1/me", token=alice.token).status == 200
    for spelling in _other_spellings(alice.token):
        problem(api.request("GET", "/v1/me", token=spelling), 401, "unauthorized")


def test_the_authorization_varies_only_as_the_per_token_rule_ignores(
    api: Gateway, alice: Player
) -> None:
    # The rule's key is the header compressed, trimmed and lowercased: these are one key.
    for header in [f"bearer {alice.token}", f"BEARER  {alice.token} ", f"Bearer\t{alice.token}"]:
        reply = api.request("GET", "/v1/me", headers={"Authorization": header})
        assert reply.status == 200, header
    for header in [f"Bearer{alice.token}", f"Bearer {alice.token}\x1c", f"Token {alice.token}"]:
        reply = api.request("GET", "/v1/me", headers={"Authorization": header})
        problem(reply, 401, "unauthorized")
