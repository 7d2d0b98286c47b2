"""Who is asking: the user the authorizer let in."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Identity:
    login: str  # as registered
    nick: str

    @property
    def key(self) -> str:
        """The login as the store keys it: lower-cased."""
        return self.login.lower()
