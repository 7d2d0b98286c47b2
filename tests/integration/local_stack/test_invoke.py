"""`python -m local_stack invoke`: every sample of events/ invoked on the repository's
template as events/README.md says, in its order, with the status its table documents;
and `make invoke` from a fresh DATA_DIR as a newcomer runs it."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from local_stack.invoke import InvokeError, invoke, lambda_error, read_json
from local_stack.stack import LocalStack
from tests.integration.seeds import FixedSeeds, find_seed, use_stack_seeds

ROOT = Path(__file__).resolve().parents[3]
EVENTS = ROOT / "events"
SAMPLE_ID = "0123456789abcdef0123456789abcdef"  # the made-up id of history_get, shoes_get
# Plain cards only on the deal: no natural, no insurance, the round waits for box 0.
PLAIN_DEAL = find_seed(6, lambda shoe: all(card[0] in "23456789" for card in shoe[:8]))


@dataclass
class Row:
    event: str
    function: str
    login: str | None
    expected: str


def documented_rows() -> list[Row]:
    """The rows of events/README.md's table, in order."""
    rows: list[Row] = []
    for line in (EVENTS / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].endswith(".json"):
            continue
        event, function, _, flags, expected = cells
        options = shlex.split(flags.replace("`", ""))
        login = options[options.index("--login") + 1] if "--login" in options else None
        rows.append(Row(event, function, login, expected))
    return rows


def sample(name: str) -> dict[str, Any]:
    return read_json(str(EVENTS / name), "event")


def outcome(result: Any) -> str:
    """What the table's last column says of a result: a status, or a policy's effect."""
    if "policyDocument" in result:
        return str(result["policyDocument"]["Statement"][0]["Effect"])
    return str(result["statusCode"])


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    local = LocalStack(ROOT / "template.yaml", tmp_path_factory.mktemp("invoke_data"))
    local.start()
    try:
        yield local
    finally:
        local.stop()


def test_every_sample_gives_the_status_its_index_documents(
    stack: LocalStack, request: pytest.FixtureRequest
) -> None:
    rows = documented_rows()
    samples = sorted(p.name for p in EVENTS.glob("*.json"))
    assert sorted(row.event for row in rows) == samples, "every sample has one row"
    answers: dict[str, Any] = {}
    for row in rows:
        if row.event == "tables_get.json":  # the shoe this view commits is a known one
            request.addfinalizer(use_stack_seeds(stack, FixedSeeds([PLAIN_DEAL])))
        result = invoke(stack, row.function, sample(row.event), login=row.login)
        answers[row.event] = result
        assert outcome(result) == row.expected.split()[0], f"{row.event}: {result}"

    view = json.loads(answers["rounds_start.json"]["body"])
    assert view["status"] == "player_turn" and view["boxes"][0]["player"] == "user"
    assert json.loads(answers["rounds_action.json"]["body"])["status"] == "settled"
    assert answers["authorizer_token.json"]["principalId"] == "alice1"
    # What the index says of the made-up ids: a real one gives the round, and its shoe.
    for name, function, key in (
        ("history_get.json", "HistoryFunction", "round_id"),
        ("shoes_get.json", "ShoesFunction", "shoe_id"),
    ):
        text = (EVENTS / name).read_text().replace(SAMPLE_ID, view[key])
        result = invoke(stack, function, json.loads(text), login="alice1")
        assert result["statusCode"] == 200, result
        assert json.loads(result["body"])[key] == view[key]


def test_a_sample_as_it_is_acts_as_the_user_its_authorizer_answer_names(
    stack: LocalStack,
) -> None:
    """Without --login the event is passed as it is, as SAM does (alice1 is registered
    by the walk above, or here)."""
    invoke(stack, "UsersFunction", sample("users_register.json"))
    result = invoke(stack, "MeFunction", sample("me_get.json"))
    assert result["statusCode"] == 200
    assert json.loads(result["body"])["login"] == "alice1"
    with pytest.raises(Exception, match=r"^Unauthorized$") as refused:
        invoke(stack, "AuthorizerFunction", sample("authorizer_token.json"))
    # what `python -m local_stack invoke` prints: the function's frames, as Lambda has them
    document = lambda_error(refused.value)
    assert (document["errorMessage"], document["errorType"]) == ("Unauthorized", "Exception")
    assert "functions/authorizer/authorizer.py" in document["stackTrace"][-1]


def test_env_vars_override_only_what_the_template_declares(stack: LocalStack) -> None:
    overrides = {
        "Parameters": {"CORS_ORIGIN": "https://everyone.example"},
        "MetaFunction": {"CORS_ORIGIN": "https://one.example", "UNDECLARED": "x"},
    }
    saved = {name: dict(f.environment) for name, f in stack.functions.items()}
    try:
        result = invoke(stack, "MetaFunction", sample("meta_health.json"), env_vars=overrides)
        assert result["statusCode"] == 200
        environments = {name: f.environment for name, f in stack.functions.items()}
        assert environments["MetaFunction"]["CORS_ORIGIN"] == "https://one.example"
        assert environments["AuthorizerFunction"]["CORS_ORIGIN"] == "https://everyone.example"
        assert all("UNDECLARED" not in environment for environment in environments.values())
    finally:
        for name, environment in saved.items():
            stack.functions[name].environment = environment
    with pytest.raises(InvokeError, match="no function NoSuchFunction"):
        invoke(stack, "NoSuchFunction", sample("meta_health.json"))


def run(command: list[str], data_dir: Path) -> Any:
    """A command's stdout, which must be JSON alone; its logs are on stderr."""
    done = subprocess.run(
        command,
        cwd=ROOT,
        env={**os.environ, "DATA_DIR": str(data_dir)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_make_invoke_bets_from_a_fresh_data_dir_after_a_login(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's walk: register, view the table (its event read from stdin, as `-`
    says), then bet with `make invoke` in a process of its own, which finds in DATA_DIR
    what the stack before it wrote. The first two steps share one stack in this process: a
    process of their own each would only start the same stack again."""
    walk = LocalStack(ROOT / "template.yaml", tmp_path)
    walk.start()
    try:
        registered = invoke(walk, "UsersFunction", sample("users_register.json"))
        assert registered["statusCode"] == 201
        monkeypatch.setattr("sys.stdin", io.StringIO((EVENTS / "tables_get.json").read_text()))
        table = invoke(walk, "TablesFunction", read_json("-", "event"), login="alice1")
        assert table["statusCode"] == 200
    finally:
        walk.stop()
    make = ["make", "--no-print-directory", "invoke", "FN=RoundsFunction"]
    started = run([*make, "EVENT=events/rounds_start.json", "LOGIN=alice1"], tmp_path)
    assert started["statusCode"] == 201
    view = json.loads(started["body"])
    assert view["round_id"] == f"{view['shoe_id']}-1" and re.fullmatch(
        r"[0-9a-f]{32}", view["shoe_id"]
    )
    assert view["boxes"][0]["bet"] == 100
    # The shoe is random: the deal may settle the round at once (a natural).
    settled = view["status"] == "settled"
    assert view["balance"] == 10_000 + (Decimal(str(view["net"])) if settled else -100)
