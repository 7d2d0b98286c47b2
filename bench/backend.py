"""Backend figures: DynamoDB calls and in-process latency of each kind of request against
moto, and each function's import (cold start) time against `import boto3` alone.

Targets: a bet, hit or stand costs at most 3 DynamoDB calls (2 unless it settles); importing any
function takes under 1.5 times `import boto3`. Run: `python -m bench backend`.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LAYER = ROOT / "layers" / "engine"
IMPORT_RUNS = 9
# One read of the player item and one write of it; the request that settles the round
# puts the round's history item too.
TARGET_CALLS = {"hit": 3, "stand": 3, "bet": 3}
IMPORT_TARGET_RATIO = 1.5
# GET /v1/health's function and the sample event `sam local invoke` would send it
HEALTH_MODULE = "meta"
HEALTH_EVENT = ROOT / "events" / "meta_health.json"

_IMPORT_PROBE = """
import sys, time
sys.path[:0] = {paths!r}
start = time.perf_counter()
import {module}
print(time.perf_counter() - start)
"""

_FIRST_REQUEST_PROBE = """
import json, sys, time
sys.path[:0] = {paths!r}
start = time.perf_counter()
import {module}
event = json.load(open({event!r}))
class Context:
    function_name = "bench"; memory_limit_in_mb = 512; aws_request_id = "bench"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:bench"
    def get_remaining_time_in_millis(self): return 3000
{module}.handler(event, Context())
print(time.perf_counter() - start)
"""


# ---- DynamoDB calls and latency ---------------------------------------------------------


class CallCounter:
    """Counts the DynamoDB calls of the service's client (`before-call.dynamodb.*`)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, model: Any = None, **_: Any) -> None:
        self.calls.append(getattr(model, "name", "?"))

    def take(self) -> list[str]:
        calls, self.calls = self.calls, []
        return calls


def _environment() -> None:
    os.environ.update(
        {
            "AWS_ACCESS_KEY_ID": "bench",
            "AWS_SECRET_ACCESS_KEY": "bench",
            "AWS_DEFAULT_REGION": "us-east-1",
            "TABLE_NAME": "blackjack-bench",
            "POWERTOOLS_SERVICE_NAME": "blackjack",
            "POWERTOOLS_METRICS_NAMESPACE": "Blackjack",
            "POWERTOOLS_LOG_LEVEL": "ERROR",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
        }
    )


@contextmanager
def moto_backend() -> Iterator[None]:
    """moto with the template's table and a token secret; the layer importable, the
    service objects built afresh."""
    _environment()
    if str(LAYER) not in sys.path:
        sys.path[:0] = [str(LAYER)]
    import boto3
    from moto import mock_aws

    from blackjack_service import factories
    from local_stack.data_dir import create_table
    from local_stack.template import load_template

    with mock_aws():
        table = load_template(ROOT / "template.yaml")["Resources"]["GameTable"]["Properties"]
        create_table(boto3.client("dynamodb"), os.environ["TABLE_NAME"], table)
        secret = boto3.client("secretsmanager").create_secret(Name="k", SecretString="k" * 48)
        os.environ["TOKEN_SECRET_ARN"] = secret["ARN"]
        factories.reset()
        yield


def measure_requests(samples: int = 12) -> dict[str, tuple[list[int], list[float]]]:
    """Drive the service objects (what the handlers call) and record per kind of request
    the DynamoDB calls it made and its latency."""
    figures: dict[str, tuple[list[int], list[float]]] = defaultdict(lambda: ([], []))
    with moto_backend():
        from blackjack_service import factories
        from blackjack_service.identity import Identity
        from blackjack_service.models import RegisterRequest, SessionRequest, StartRoundRequest

        counter = CallCounter()
        factories.store().client.meta.events.register("before-call.dynamodb", counter)

        def timed(kind: str, call: Callable[..., Any], *args: Any) -> Any:
            counter.take()
            start = time.perf_counter()
            result = call(*args)
            elapsed = time.perf_counter() - start
            figures[kind][0].append(len(counter.take()))
            figures[kind][1].append(elapsed)
            return result

        accounts, game = factories.accounts(), factories.game()
        a_bet = StartRoundRequest.model_validate({"bets": [{"box": 0, "amount": 10}]}, strict=False)
        for index in range(samples):
            login = f"bench{index:04d}"
            identity = Identity(login=login, nick="bench")
            timed(
                "register",
                accounts.register,
                RegisterRequest(login=login, nick="bench", password="password1"),
            )
            timed("login", accounts.login, SessionRequest(login=login, password="password1"))
            timed("me", accounts.me, identity)
            for first_action in ("hit", "stand", "double", "hint"):
                timed("seat", game.seat, identity, "european")
                outcome = timed("bet", game.start_round, identity, "european", a_bet)
                while outcome.round["status"] == "settled":  # a natural: bet again
                    outcome = timed("bet", game.start_round, identity, "european", a_bet)
                if first_action == "hint":
                    timed("hint", game.hint, identity, "european", "hard")
                action = first_action
                if action not in outcome.round["legal_actions"]:
                    action = "stand"
                round_ = timed(action, game.act, identity, "european", _action(action), None).round
                while round_["status"] != "settled":
                    round_ = timed(
                        "stand", game.act, identity, "european", _action("stand"), None
                    ).round
            timed("history", game.history, identity, None, 20, None)
    return dict(figures)


def _action(name: str) -> Any:
    from blackjack_service.models import ActionRequest

    return ActionRequest.model_validate({"action": name}, strict=False)


# ---- imports ------------------------------------------------------------------------------


def _run(code: str) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["POWERTOOLS_TRACE_DISABLED"] = "true"
    # The settings the template gives every function, read at start (no call to AWS).
    env["TABLE_NAME"] = "GameTable"
    env["TOKEN_SECRET_ARN"] = "arn:aws:secretsmanager:us-east-1:123456789012:secret:token"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    return float(output.strip().splitlines()[-1])


def _code_dirs() -> dict[str, Path]:
    """Each function's module and its folder, in template.yaml's order."""
    from local_stack.template import Template

    return Template.from_file(ROOT / "template.yaml").handler_modules()


def measure_imports(runs: int = IMPORT_RUNS) -> dict[str, list[float]]:
    """Samples of each import, interleaved so that the machine's load hits all alike."""
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        samples["boto3"].append(_run(_IMPORT_PROBE.format(paths=[], module="boto3")))
        for module, code_dir in _code_dirs().items():
            paths = [str(code_dir), str(LAYER)]
            samples[module].append(_run(_IMPORT_PROBE.format(paths=paths, module=module)))
    return dict(samples)


def measure_first_request(runs: int = 3) -> list[float]:
    """Import plus the first request (GET /v1/health), which pays what imports defer."""
    paths = [str(_code_dirs()[HEALTH_MODULE]), str(LAYER)]
    probe = _FIRST_REQUEST_PROBE.format(paths=paths, event=str(HEALTH_EVENT), module=HEALTH_MODULE)
    return [_run(probe) for _ in range(runs)]


# ---- report -------------------------------------------------------------------------------


def main() -> None:
    requests = measure_requests()
    print("DynamoDB calls and in-process latency per request (moto):")
    print(f"  {'request':<12} {'calls max':>9} {'calls mean':>10} {'ms median':>10}  target")
    failures = []
    for kind, (calls, seconds) in sorted(requests.items()):
        target = TARGET_CALLS.get(kind)
        verdict = (
            "" if target is None else (f"<= {target} ok" if max(calls) <= target else "MISSED")
        )
        if verdict == "MISSED":
            failures.append(kind)
        print(
            f"  {kind:<12} {max(calls):>9} {statistics.mean(calls):>10.2f} "
            f"{statistics.median(seconds) * 1000:>10.2f}  {verdict}"
        )
    imports = measure_imports()
    # The best of several fresh interpreters: the machine's other load only ever adds time.
    baseline = min(imports["boto3"])
    print(
        f"Import time, best of {IMPORT_RUNS} fresh interpreters (import boto3 alone: "
        f"{baseline * 1000:.0f} ms):"
    )
    for module in _code_dirs():
        best = min(imports[module])
        ratio = best / baseline
        verdict = "ok" if ratio < IMPORT_TARGET_RATIO else "MISSED"
        if verdict == "MISSED":
            failures.append(f"import {module}")
        print(f"  {module:<12} {best * 1000:>7.0f} ms  {ratio:>5.2f}x boto3  {verdict}")
    first = min(measure_first_request())
    print(f"  import + first request (health): {first * 1000:.0f} ms")
    print(f"  targets missed: {', '.join(failures) or 'none'}")


if __name__ == "__main__":
    main()
