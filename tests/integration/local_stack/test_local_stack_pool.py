"""Functions run side by side as Lambda runs them: a pool of execution environments per
function, each a process of its own (its modules, its os.environ), one invocation at a
time each, throttling past the function's cap, and the timeout enforced; INIT with a limit
of its own, and no more cold starts at once than the machine warms (issue 30, item 4)."""

from __future__ import annotations

import logging
import os
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from local_stack.execution_environment import FunctionError
from local_stack.runtime import COLD_STARTS_AT_ONCE, INIT_TIMEOUT_S, LambdaFunction, Throttled
from local_stack.worker import EnvironmentSetup, StackCall
from tests.integration.local_stack.harness import FIXTURES, stack_workers

CODE_DIR = FIXTURES / "functions" / "pool"
LAYER_DIR = FIXTURES / "layers" / "shared"
ARRIVAL_S = 120  # for every overlapping invocation to be running (cold starts, a busy machine)

Factory = Callable[..., LambdaFunction]


@pytest.fixture
def pool_function() -> Iterator[Factory]:
    """Makes the fixture's pool function; every one is stopped at the end."""
    made: list[LambdaFunction] = []

    def make(
        concurrency: int = 3,
        handler: str = "pool.handler",
        timeout_s: int = 10,
        environment: dict[str, str] | None = None,
    ) -> Any:
        function = LambdaFunction(
            logical_id="PoolFunction",
            name="PoolFunction",
            code_dir=CODE_DIR,
            handler=handler,
            layer_dirs=[LAYER_DIR],
            environment={"WHO": "pool", **(environment or {})},
            concurrency=concurrency,
            timeout_s=timeout_s,
        )
        made.append(function)
        return function

    yield make
    for function in made:
        function.stop()
    assert not [pid for f in made for pid in stack_workers(f.stack_id)], (
        "every environment ended with its function"
    )


def _overlapping(function: LambdaFunction, count: int, folder: Path) -> tuple[list[Any], Any]:
    """count invocations running at once; what one more gets meanwhile; their answers."""
    answers: list[Any] = []

    def invoke(n: int) -> None:
        answers.append(function.invoke({"n": n, "hold": str(folder)}))

    threads = [threading.Thread(target=invoke, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + ARRIVAL_S
    while len(list(folder.glob("arrived-*"))) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        one_more: Any = function.invoke({"n": "extra"})
    except Throttled as exc:
        one_more = exc
    (folder / "release").touch()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == count
    return answers, one_more


def test_overlapping_invocations_get_environments_of_their_own_up_to_the_cap(
    pool_function: Factory, tmp_path: Path
) -> None:
    function = pool_function(concurrency=3)
    set_up_in: list[int] = []
    function.stack_calls["report"] = set_up_in.append
    function.add_setup(EnvironmentSetup("pool.set_up", (StackCall("report"),)))
    answers, one_more = _overlapping(function, 3, tmp_path)
    assert isinstance(one_more, Throttled)  # a fourth at once: throttled, as Lambda does
    # three processes, none the stack's, each with its own modules and os.environ
    pids = {a["pid"] for a in answers}
    assert len(pids) == 3 and os.getpid() not in pids
    assert sorted(a["seen"][0] for a in answers) == [0, 1, 2]
    assert all(len(a["seen"]) == 1 and a["invocations"] == 1 for a in answers)
    assert sorted(a["last_n"] for a in answers) == ["0", "1", "2"]
    assert {(a["who"], a["function_name"]) for a in answers} == {("pool", "PoolFunction")}
    assert "WHO" not in os.environ and "LAST_N" not in os.environ
    # Lambda's path: the CodeUri, then the layer's folder
    assert all(a["path"] == [str(CODE_DIR), str(LAYER_DIR)] for a in answers)
    assert all(Path(a["layer_file"]).is_relative_to(LAYER_DIR) for a in answers)
    # each environment ran the setup in itself once, before serving
    assert all(a["set_up"] for a in answers)
    assert len(set_up_in) == 3 and set(set_up_in) == pids
    assert {e.pid for e in function.environments()} == pids
    inits = [e.init_ms for e in function.environments()]
    print("INIT ms of the pool's environments:", inits)

    # one at a time: the warmest environment serves, its module state lives on
    first = function.invoke({"n": "a"})
    second = function.invoke({"n": "b"})
    assert first["pid"] == second["pid"]
    assert second["invocations"] == first["invocations"] + 1
    assert second["seen"][-2:] == ["a", "b"]
    assert len(function.environments()) == 3
    assert sorted(set_up_in) == sorted(pids), "a setup runs once per environment"


def test_a_setup_added_later_runs_in_the_warm_environments_before_their_next_invocation(
    pool_function: Factory,
) -> None:
    function = pool_function(concurrency=1)
    assert function.invoke({"n": 1})["set_up"] is False
    set_up_in: list[int] = []
    function.stack_calls["report"] = set_up_in.append
    function.add_setup(EnvironmentSetup("pool.set_up", (StackCall("report"),)))
    answer = function.invoke({"n": 2})
    assert answer["set_up"] is True and answer["invocations"] == 2  # the same environment
    assert set_up_in == [answer["pid"]]


def test_a_handler_error_comes_back_with_its_type_and_traceback_and_keeps_the_environment(
    pool_function: Factory,
) -> None:
    function = pool_function(concurrency=1)
    with pytest.raises(FunctionError) as raised:
        function.invoke({"n": 1, "raise": "Unauthorized"})
    assert str(raised.value) == "Unauthorized"  # what the gateway reads of an authorizer
    assert raised.value.error_type == "ValueError"
    assert raised.value.document["stackTrace"][-1].startswith(f'  File "{CODE_DIR}/pool.py"')
    logged = "".join(traceback.format_exception(raised.value))
    assert f'{CODE_DIR}/pool.py", line' in logged and "ValueError: Unauthorized" in logged
    assert "worker.py" not in logged  # the runtime's own frames are not the function's
    # Lambda keeps an environment whose handler raised
    assert function.invoke({"n": 2})["invocations"] == 2


def test_an_environment_whose_init_fails_is_discarded(pool_function: Factory) -> None:
    function = pool_function(concurrency=2, handler="pool.missing")
    for _ in range(3):  # a failed init leaves no environment behind to count against the cap
        with pytest.raises(FunctionError) as raised:
            function.invoke({})
        assert raised.value.error_type == "Runtime.HandlerNotFound"
        assert str(raised.value) == "Handler 'missing' missing on module 'pool'"
    assert function.environments() == []
    assert not stack_workers(function.stack_id)


def test_an_invocation_past_its_timeout_is_stopped_with_its_environment(
    pool_function: Factory,
) -> None:
    function = pool_function(concurrency=1, timeout_s=1)
    warm = function.invoke({"n": 1})["pid"]
    with pytest.raises(FunctionError) as raised:
        function.invoke({"n": 2, "sleep": 30})
    assert raised.value.error_type == "Sandbox.Timedout"
    assert "Task timed out after 1.00 seconds" in str(raised.value)
    assert not stack_workers(function.stack_id)
    # the next invocation is a cold start in a new environment
    assert function.invoke({"n": 3})["pid"] != warm
    assert [e.pid for e in function.environments()] != [warm]


def test_stop_ends_every_environment(pool_function: Factory, tmp_path: Path) -> None:
    function = pool_function(concurrency=2)
    _overlapping(function, 2, tmp_path)
    assert len(stack_workers(function.stack_id)) == 2
    function.stop()
    assert not stack_workers(function.stack_id)
    with pytest.raises(RuntimeError, match="stopped"):
        function.invoke({})


def _slow_init(folder: Path, sleeps: str) -> dict[str, str]:
    """The environment of fixtures/functions/pool/cold.py: its INIT's marks, its sleeps."""
    folder.mkdir()
    return {"INIT_FOLDER": str(folder), "INIT_S": sleeps}


def _pids(folder: Path, mark: str) -> set[int]:
    return {int(path.name.rpartition("-")[2]) for path in folder.glob(f"{mark}-*")}


def test_no_more_environments_start_at_once_than_the_machine_warms(
    pool_function: Factory, tmp_path: Path
) -> None:
    """INIT is one core's work: the stack starts COLD_STARTS_AT_ONCE at a time, and an
    invocation that finds no warm environment waits for a start slot, within the cap."""
    count = COLD_STARTS_AT_ONCE + 2
    inits = tmp_path / "inits"
    environment = _slow_init(inits, "1")
    function = pool_function(concurrency=count, handler="cold.handler", environment=environment)
    (tmp_path / "hold").mkdir()
    answers, one_more = _overlapping(function, count, tmp_path / "hold")
    assert isinstance(one_more, Throttled)  # the invocations that waited counted toward the cap
    assert len({a["pid"] for a in answers}) == count  # each served, in an environment of its own
    beside = [int(path.read_text()) for path in inits.glob("beside-*")]
    assert len(beside) == count
    assert max(beside) <= COLD_STARTS_AT_ONCE, beside  # INITs running at once, at most


def test_init_does_not_count_toward_the_handlers_timeout(
    pool_function: Factory, tmp_path: Path
) -> None:
    function = pool_function(
        timeout_s=1, handler="cold.handler", environment=_slow_init(tmp_path / "i", "2")
    )
    assert function.invoke({"n": 1})["invocations"] == 1


def test_an_init_past_its_limit_is_run_again_within_the_invocations_timeout(
    pool_function: Factory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """As on Lambda: INIT has INIT_TIMEOUT_S of its own; past it, the environment starts
    again as part of the invocation, and that INIT and the handler share its Timeout."""
    inits = tmp_path / "inits"
    environment = _slow_init(inits, f"{INIT_TIMEOUT_S + 5},0")
    function = pool_function(timeout_s=5, handler="cold.handler", environment=environment)
    with caplog.at_level(logging.WARNING, "local_stack"):
        answer = function.invoke({"n": 1})
    started = _pids(inits, "started")
    assert len(started) == 2 and answer["pid"] in started  # the second INIT's serves
    assert _pids(inits, "beside") == {answer["pid"]}  # the first never ended
    assert [e.pid for e in function.environments()] == [answer["pid"]]
    assert "PoolFunction INIT_REPORT" in caplog.text and "Status: timeout" in caplog.text


def test_an_init_that_never_ends_in_time_times_the_invocation_out(
    pool_function: Factory, tmp_path: Path
) -> None:
    inits = tmp_path / "inits"
    function = pool_function(
        timeout_s=2, handler="cold.handler", environment=_slow_init(inits, f"{INIT_TIMEOUT_S + 5}")
    )
    with pytest.raises(FunctionError) as raised:
        function.invoke({"n": 1})
    assert raised.value.error_type == "Sandbox.Timedout"
    assert "Task timed out after 2.00 seconds" in str(raised.value)
    assert len(_pids(inits, "started")) == 2 and not _pids(inits, "beside")
    assert function.environments() == [] and not stack_workers(function.stack_id)
