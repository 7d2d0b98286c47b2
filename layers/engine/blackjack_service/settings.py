"""The service's settings, read once from the environment the template sets."""

import functools
import os

from pydantic import BaseModel, ConfigDict, Field


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True)

    table_name: str = Field(min_length=1)
    token_secret_arn: str = ""
    token_ttl_seconds: int = Field(default=86400, gt=0)
    cors_origin: str = "*"

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            table_name=os.environ.get("TABLE_NAME", "blackjack"),
            token_secret_arn=os.environ.get("TOKEN_SECRET_ARN", ""),
            token_ttl_seconds=int(os.environ.get("TOKEN_TTL_SECONDS", "86400")),
            cors_origin=os.environ.get("CORS_ORIGIN", "*"),
        )


@functools.cache
def settings() -> Settings:
    return Settings.from_env()
