"""Who is asking: the user the authorizer let in."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Identity:
    login: str  # as registered
    nick: str

    @property
    def account_id(self) -> str:
        """The login lower-cased: the account's id in the table (`Profile.account_id`)."""
        return self.login.lower()


def caller(event: Mapping[str, Any]) -> Identity | None:
    """The user the authorizer let in, from its `context` in a proxy event; None where no
    authorizer ran (a public route). Whether the token still holds is the edge's check."""
    context = (event.get("requestContext") or {}).get("authorizer") or {}
    login, nick = context.get("login"), context.get("nick")
    if not isinstance(login, str) or not isinstance(nick, str) or not login:
        return None
    return Identity(login=login, nick=nick)
