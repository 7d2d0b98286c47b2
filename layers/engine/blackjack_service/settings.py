"""The service's settings, read once from the environment the template gives every
function (template.yaml, Globals). A function whose environment lacks the table or the
token key's secret fails at start, naming what is missing, rather than running against a
table of a default name or without a key."""

import functools
import os

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails


class SettingsError(RuntimeError):
    """The environment lacks a setting, or holds one that is not valid."""


class Settings(BaseModel):
    # Each setting is read from the environment variable of its name in capitals.
    model_config = ConfigDict(frozen=True, alias_generator=str.upper)

    table_name: str = Field(min_length=1)
    token_secret_arn: str = Field(min_length=1)
    token_ttl_seconds: int = Field(default=86400, gt=0)
    cors_origin: str = "*"
    # The rooms' live updates and deadlines: every function of template.yaml has them, the
    # tests' own templates none.
    live_url: str | None = None
    live_management_url: str | None = None
    deadline_queue_url: str | None = None

    def required(self, name: str) -> str:
        """A setting a function needs although others may lack it (the rooms' URLs)."""
        value = getattr(self, name)
        if not value:
            raise SettingsError(f"{name.upper()} is not set (template.yaml's Globals give it)")
        return str(value)

    @classmethod
    def from_env(cls) -> "Settings":
        try:
            return cls.model_validate(dict(os.environ))
        except ValidationError as error:
            problems = ", ".join(map(_problem, error.errors()))
            raise SettingsError(
                f"settings missing or invalid: {problems} (template.yaml's Globals give every "
                "function its environment)"
            ) from None


def _problem(error: ErrorDetails) -> str:
    name = error["loc"][0]
    if error["type"] in ("missing", "string_too_short"):
        return f"{name} is not set"
    return f"{name}: {error['msg']}"


@functools.cache
def settings() -> Settings:
    return Settings.from_env()
