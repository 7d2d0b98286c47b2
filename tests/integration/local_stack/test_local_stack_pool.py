"""Functions run side by side as Lambda runs them: a pool of execution environments per
function, each with its own modules and os.environ, one invocation at a time each, and
throttling past the function's cap."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import pytest

from local_stack.runtime import ExecutionEnvironment, LambdaFunction, Throttled
from tests.integration.local_stack.harness import FIXTURES


def _pool_function(concurrency: int, handler: str = "pool.handler") -> LambdaFunction:
    return LambdaFunction(
        logical_id="PoolFunction",
        name="PoolFunction",
        code_dir=FIXTURES / "functions" / "pool",
        handler=handler,
        layer_dirs=[FIXTURES / "layers" / "shared"],
        environment={"WHO": "pool"},
        concurrency=concurrency,
    )


def _overlapping(function: LambdaFunction, count: int) -> tuple[list[Any], Any]:
    """count invocations running at once; what one more gets meanwhile; their answers."""
    arrived = threading.Barrier(count + 1, timeout=30)
    release = threading.Event()
    answers: list[Any] = []

    def invoke(n: int) -> None:
        answers.append(function.invoke({"n": n, "arrived": arrived, "release": release}))

    threads = [threading.Thread(target=invoke, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    arrived.wait()
    try:
        one_more: Any = function.invoke({"n": "extra"})
    except Throttled as exc:
        one_more = exc
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == count
    return answers, one_more


def test_overlapping_invocations_get_their_own_environments_up_to_the_cap() -> None:
    setups: list[ExecutionEnvironment] = []
    function = _pool_function(concurrency=3)
    function.setups.append(setups.append)
    answers, one_more = _overlapping(function, 3)
    assert isinstance(one_more, Throttled)  # a fourth at once: throttled, as Lambda does
    assert len({a["environment"] for a in answers}) == 3
    # each its own modules, also those imported at call time, and its own os.environ
    assert len({a["layer_module"] for a in answers}) == 3
    assert len({a["lazy_mark"] for a in answers}) == 3
    assert all(a["lazy_is_own"] for a in answers)
    assert sorted(a["last_n"] for a in answers) == ["0", "1", "2"]
    assert {(a["who"], a["function_name"]) for a in answers} == {("pool", "PoolFunction")}
    assert "WHO" not in os.environ and "LAST_N" not in os.environ
    assert not [name for name in sys.modules if name.startswith("fixture_shared")]
    # each environment was set up once, when it started
    assert sorted(map(id, setups)) == sorted(map(id, function.environments()))

    # one at a time: the warmest environment serves, its module state lives on
    first = function.invoke({"n": "a"})
    second = function.invoke({"n": "b"})
    assert first["environment"] == second["environment"]
    assert second["invocations"] == first["invocations"] + 1
    assert len(function.environments()) == 3


def test_an_environment_whose_init_fails_is_discarded() -> None:
    function = _pool_function(concurrency=2, handler="pool.missing")
    for _ in range(3):  # a failed init leaves no environment behind to count against the cap
        with pytest.raises(AttributeError):
            function.invoke({})
    assert function.environments() == []
