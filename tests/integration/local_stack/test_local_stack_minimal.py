"""A template with no Api resource, authorizer or gateway responses of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from local_stack.__main__ import main
from local_stack.stack import LocalStack
from local_stack.template import TemplateError
from tests.integration.local_stack.harness import FIXTURES, running_stack

MINIMAL = FIXTURES / "minimal" / "template.yaml"


def test_implicit_api_and_api_gateways_default_answers(tmp_path: Path) -> None:
    with running_stack(tmp_path, MINIMAL) as running:
        client = running.client
        echo = client.request("GET", "/v1/public/echo")
        assert echo.status == 200, echo.body
        event = echo.json()["event"]
        assert event["requestContext"]["stage"] == "Prod"  # SAM's implicit stage
        assert event["resource"] == "/v1/public/echo"

        missing = client.request("GET", "/v1/nothing")
        assert missing.status == 403
        assert missing.json() == {"message": "Missing Authentication Token"}
        assert missing.header("Content-Type") == "application/json"
        assert missing.header("x-amzn-ErrorType") == "MissingAuthenticationTokenException"
        assert client.request("POST", "/v1/public/echo").status == 403
        # no Cors on this Api: a preflight is an unknown method too
        assert client.request("OPTIONS", "/v1/public/echo").status == 403


def test_parameter_overrides(tmp_path: Path) -> None:
    template = FIXTURES / "template.yaml"
    stack = LocalStack(template, tmp_path, parameters={"Stage": "beta", "Flavour": "x"})
    assert stack.template.resolve({"Ref": "Stage"}) == "beta"
    assert stack.template.resolve({"Fn::If": ["IsVanilla", "plain", "fancy"]}) == "fancy"
    with pytest.raises(TemplateError):
        LocalStack(template, tmp_path, parameters={"Nope": "1"})


def test_the_command_explains_what_it_cannot_serve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--template", str(tmp_path / "missing.yaml")]) == 2
    assert "no template at" in capsys.readouterr().err
    broken = tmp_path / "broken.yaml"
    broken.write_text("Resources:\n  F: {Type: AWS::Serverless::Function, Properties: {}}\n")
    assert main(["--template", str(broken), "--data-dir", str(tmp_path / "data")]) == 2
    assert "CodeUri" in capsys.readouterr().err
