"""Settings fail fast: an environment without the table or the token key's secret stops a
function at start, with a message naming what is missing; there are no silent defaults."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from blackjack_service.settings import Settings, SettingsError

from .harness import CODE_DIRS, MODULES, ROOT

REQUIRED = ("TABLE_NAME", "TOKEN_SECRET_ARN")


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The template's settings, as a function has them."""
    monkeypatch.setenv("TABLE_NAME", "GameTable")
    monkeypatch.setenv("TOKEN_SECRET_ARN", "arn:aws:secretsmanager:us-east-1:1:secret:token")
    monkeypatch.delenv("TOKEN_TTL_SECONDS", raising=False)
    monkeypatch.delenv("CORS_ORIGIN", raising=False)
    return monkeypatch


def test_settings_from_the_environment(environment: pytest.MonkeyPatch) -> None:
    settings = Settings.from_env()
    assert settings.table_name == "GameTable"
    assert settings.token_secret_arn == "arn:aws:secretsmanager:us-east-1:1:secret:token"
    assert (settings.token_ttl_seconds, settings.cors_origin) == (86400, "*")
    environment.setenv("TOKEN_TTL_SECONDS", "3600")
    environment.setenv("CORS_ORIGIN", "https://play.example")
    settings = Settings.from_env()
    assert (settings.token_ttl_seconds, settings.cors_origin) == (3600, "https://play.example")


@pytest.mark.parametrize("name", REQUIRED)
@pytest.mark.parametrize("value", [None, ""])
def test_a_missing_setting_is_named(
    environment: pytest.MonkeyPatch, name: str, value: str | None
) -> None:
    if value is None:
        environment.delenv(name)
    else:
        environment.setenv(name, value)
    with pytest.raises(SettingsError, match=f"{name} is not set") as raised:
        Settings.from_env()
    assert [other for other in REQUIRED if other in str(raised.value)] == [name]


def test_an_invalid_setting_is_named(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("TOKEN_TTL_SECONDS", "0")
    with pytest.raises(SettingsError, match="TOKEN_TTL_SECONDS: Input should be greater than 0"):
        Settings.from_env()


_IMPORT_EACH = """
import sys
sys.path[:0] = {paths!r}
for module in {modules!r}:
    try:
        __import__(module)
    except Exception as error:
        print(module, type(error).__name__, error)
    else:
        print(module, "started")
"""


def test_every_function_stops_at_start_without_its_settings() -> None:
    env = {key: value for key, value in os.environ.items() if key not in REQUIRED}
    paths = [str(CODE_DIRS[module]) for module in MODULES] + [str(ROOT / "layers" / "engine")]
    code = _IMPORT_EACH.format(paths=paths, modules=MODULES)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == MODULES
    for line in lines:
        assert "SettingsError" in line and all(f"{name} is not set" in line for name in REQUIRED)
