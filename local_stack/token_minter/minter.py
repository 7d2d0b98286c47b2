"""A handler of our own that `invoke --login` runs as a function of the stack: it signs a
session token with the layer's own `tokens.issue`, so the token is the one SessionsFunction
would give and the key is read exactly as the functions read it (TOKEN_SECRET_ARN)."""

from typing import Any

from blackjack_service.identity import Identity
from blackjack_service.tokens import issue


def handler(event: dict[str, Any], context: Any) -> str:
    login = str(event["login"])
    token, _ = issue(Identity(login=login, nick=login))
    return token
