"""Running a template's Lambda functions as Lambda runs them: in execution environments
that are processes of their own (local_stack.execution_environment).

Lambda puts a function's CodeUri at the root of sys.path, its layers' code beside it,
imports `module` from `Handler: module.function` (its INIT phase) and calls it per event
with a context, in an execution environment that serves one invocation at a time. Here
each function keeps a pool of execution environments: an invocation takes the most
recently used free environment or starts a new one (a cold start), up to the function's
concurrency cap, past which it is throttled.

Lambda gives each environment cores of its own; here every environment shares this
machine's, so no more environments are in INIT at once, over every function, than it has
cores (COLD_STARTS_AT_ONCE): an invocation that finds no warm environment and no start
slot waits for the first of the two, its function's cap counting it meanwhile.

As Lambda does, INIT has a limit of its own (INIT_TIMEOUT_S), apart from the handler's
Timeout: past it the environment is started again as part of the invocation, that INIT
and the handler within the Timeout. An environment whose INIT fails is discarded, one
past its Timeout is stopped (the invocation fails, API Gateway answers 502), one whose
handler raised is kept.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from local_stack.execution_environment import ExecutionEnvironment, PastDeadline
from local_stack.template import ACCOUNT_ID, REGION
from local_stack.worker import EnvironmentSetup, WorkerSpec

log = logging.getLogger("local_stack")

DEFAULT_TIMEOUT_S = 3
DEFAULT_MEMORY_MB = 128
DEFAULT_CONCURRENCY = 10  # execution environments per function; then 429 throttled
INIT_TIMEOUT_S = 10  # Lambda's limit on INIT, before it tries INIT again within the Timeout
# INIT is an interpreter importing code, one core's work: more at once than there are cores
# only share them out, so that each takes longer and none is warm sooner (25 at once on
# 2 busy cores took 13-15 s each, against about 1 s alone, and timed out).
COLD_STARTS_AT_ONCE = (
    len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
)


def new_stack_id() -> str:
    """An id for a stack, unique on this machine: its workers' command lines carry it."""
    return uuid.uuid4().hex[:12]


class Throttled(Exception):
    """Every execution environment of the function is busy and the cap is reached."""


# Every function's pool, under one lock, for the start slots are the machine's, not a
# function's; its waiters are the invocations waiting for a warm environment or a slot.
_pools = threading.Condition()
_cold_starts = 0  # environments in INIT now, over every function: under _pools


@dataclass
class LambdaFunction:
    """One AWS::Serverless::Function and its pool of execution environments."""

    logical_id: str
    name: str
    code_dir: Path
    handler: str
    layer_dirs: list[Path]
    environment: dict[str, str]
    timeout_s: int = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    concurrency: int = DEFAULT_CONCURRENCY
    # run by each environment after INIT (tests fix the shoes' seeds so): see add_setup
    setups: list[EnvironmentSetup] = field(default_factory=list)
    # what the environments' StackCalls call, by key (LocalStack.stack_call)
    stack_calls: dict[str, Callable[..., Any]] = field(default_factory=dict)
    aws_environment: dict[str, str] = field(default_factory=dict)
    # the stack it belongs to, on its workers' command lines: `ps` shows which stack each
    # worker is of, and a stack's tests find its workers among the machine's (a function
    # made alone is a stack of its own)
    stack_id: str = field(default_factory=new_stack_id)
    _environments: list[ExecutionEnvironment] = field(default_factory=list)
    _free: list[ExecutionEnvironment] = field(default_factory=list)
    _waiting: int = 0  # invocations waiting for an environment, counted toward the cap
    _stopped: bool = False

    @property
    def arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{self.name}"

    def environments(self) -> list[ExecutionEnvironment]:
        """The environments started so far (their handler imported)."""
        with _pools:
            return [e for e in self._environments if e.started]

    def lambda_environment(self) -> dict[str, str]:
        """The template's variables over what the Lambda runtime itself sets."""
        return {
            **self.aws_environment,
            "AWS_LAMBDA_FUNCTION_NAME": self.name,
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(self.memory_mb),
            "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{self.name}",
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
            "LAMBDA_TASK_ROOT": str(self.code_dir),
            # as `sam local` does: libraries (Powertools' tracer) see they are not in AWS
            "AWS_SAM_LOCAL": "true",
            "POWERTOOLS_TRACE_DISABLED": "true",
            # EMF metrics would be printed to the console on every request
            "POWERTOOLS_METRICS_DISABLED": "true",
            **self.environment,
        }

    def worker_spec(self) -> WorkerSpec:
        """What a new environment is made of: the code, layers and variables of now; the
        stack's process's own variables come with the worker."""
        return WorkerSpec(
            logical_id=self.logical_id,
            name=self.name,
            arn=self.arn,
            code_dir=str(self.code_dir),
            handler=self.handler,
            layer_dirs=[str(folder) for folder in self.layer_dirs],
            stack_path=list(sys.path),
            environment=self.lambda_environment(),
            memory_mb=self.memory_mb,
            timeout_s=self.timeout_s,
            stack_pid=os.getpid(),
        )

    def add_setup(self, setup: EnvironmentSetup) -> None:
        """Have each environment started so far run setup before its next invocation,
        and each one started later after its INIT."""
        with _pools:
            self.setups.append(setup)
            for environment in self._environments:
                environment.pending.append(setup)

    def invoke(self, event: Any, request_id: str | None = None) -> Any:
        """Call the handler in a free environment (or a new one): its result, or the
        FunctionError of what it raised.

        Raises Throttled when `concurrency` invocations are already running or waiting."""
        request_id = request_id or str(uuid.uuid4())
        environment = self._acquire()
        try:
            deadline = None if environment.started else self._cold_start(environment, request_id)
            return environment.invoke(event, request_id, deadline)
        finally:
            self._release(environment)

    def stop(self) -> None:
        """End every environment (Lambda's SHUTDOWN): the free ones exit, the busy ones are
        killed (their invocations fail); none is started afterwards."""
        with _pools:
            self._stopped = True
            free, self._free = self._free, []
            busy = [e for e in self._environments if e not in free]
            self._environments = busy
            _pools.notify_all()  # the invocations waiting for an environment fail
        for environment in busy:
            environment.kill()
        for environment in free:
            environment.close()  # all of them first: they exit side by side
        for environment in free:
            environment.stop()

    def _acquire(self) -> ExecutionEnvironment:
        """A free environment (the most recently used: the warmest), else a new one, not
        started yet, once a start slot is free (taken here, given back by _cold_start)."""
        global _cold_starts
        with _pools:
            busy = len(self._environments) - len(self._free)
            if not self._stopped and busy + self._waiting >= self.concurrency:
                raise Throttled(f"{self.logical_id}: {self.concurrency} invocations running")
            while True:
                if self._stopped:
                    raise RuntimeError(f"{self.logical_id}: the stack has stopped")
                if self._free:
                    return self._free.pop()
                if _cold_starts < COLD_STARTS_AT_ONCE:
                    _cold_starts += 1
                    environment = ExecutionEnvironment(self, self.setups)
                    self._environments.append(environment)
                    return environment
                self._waiting += 1
                try:
                    _pools.wait()
                finally:
                    self._waiting -= 1

    def _cold_start(self, environment: ExecutionEnvironment, request_id: str) -> float | None:
        """INIT within INIT_TIMEOUT_S; past it, as Lambda does, INIT again in a fresh worker
        as part of the invocation: then the deadline that INIT and the handler share."""
        global _cold_starts
        try:
            try:
                environment.start(time.monotonic() + INIT_TIMEOUT_S)
                return None
            except PastDeadline:
                log.warning(
                    "%s INIT_REPORT Init Duration: %.2f ms\tPhase: init\tStatus: timeout",
                    self.logical_id,
                    INIT_TIMEOUT_S * 1000,
                )
                environment.stop()
            with _pools:
                if self._stopped:  # stop() found no worker of it to kill: start none
                    raise RuntimeError(f"{self.logical_id}: the stack has stopped")
            deadline = time.monotonic() + self.timeout_s
            try:
                environment.start(deadline)
            except PastDeadline:
                raise environment.timed_out(request_id) from None
            return deadline
        finally:
            with _pools:
                _cold_starts -= 1
                _pools.notify_all()  # a start slot is free

    def _release(self, environment: ExecutionEnvironment) -> None:
        with _pools:
            keep = environment.started and not environment.broken and not self._stopped
            if keep:
                self._free.append(environment)
            else:
                self._environments.remove(environment)
            _pools.notify_all()  # a warm environment, or room under the cap
        if not keep:
            environment.stop()
