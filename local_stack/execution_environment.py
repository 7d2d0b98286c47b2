"""One execution environment of a Lambda function: a worker process with a fresh
interpreter (local_stack/worker.py), its own modules, its own os.environ, a core of its
own, which imports the handler at its cold start (INIT) and serves one invocation at a
time. Events and results cross the worker's pipe as JSON, as they cross Lambda's runtime
API; which environment serves an invocation is its function's pool's choice
(local_stack.runtime).

Each invocation's REPORT line is logged as Lambda writes it, with `Init Duration` on an
environment's first; at INFO for that one, at DEBUG for the others (the server's request
line already gives their time).
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from local_stack import worker
from local_stack.worker import EnvironmentSetup

if TYPE_CHECKING:  # the function whose environment this is, which imports this module
    from local_stack.runtime import LambdaFunction

log = logging.getLogger("local_stack")

# Each worker is a fresh interpreter: the stack's process has threads (the HTTP
# server's), which a fork would copy in the middle of whatever they hold. It is started
# as a plain command, not by multiprocessing, whose spawn would first import the main
# module of the stack's process again (a script without its `__main__` guard starts
# the stack again, one with it fills the environment with the script's imports).
_WORKER = (
    f"import sys; sys.path.insert(0, {str(Path(worker.__file__).resolve().parents[1])!r}); "
    "from local_stack.worker import main; main()"
)
STOP_TIMEOUT_S = 5  # for a worker to end once its pipe is closed, before it is killed


class PastDeadline(Exception):
    """The worker did not answer in time; it has been killed."""


class FunctionError(Exception):
    """The function failed, as Lambda reports it: str() is its errorMessage, `document`
    Lambda's error document; the cause is the traceback in the environment's process."""

    def __init__(self, document: dict[str, Any]) -> None:
        super().__init__(document["errorMessage"])
        self.document = document

    @property
    def error_type(self) -> str:
        return str(self.document["errorType"])


class EnvironmentTraceback(Exception):
    """An execution environment's traceback, the cause of its FunctionError in logs."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]).rstrip("\n")


def _function_error(error: dict[str, Any]) -> FunctionError:
    document = {key: value for key, value in error.items() if key != "traceback"}
    failure = FunctionError(document)
    failure.__cause__ = EnvironmentTraceback(error["traceback"])
    return failure


class ExecutionEnvironment:
    """One environment of a function: a worker process, one invocation at a time."""

    def __init__(self, function: LambdaFunction, setups: list[EnvironmentSetup]) -> None:
        self.function = function
        self.pending = list(setups)  # run before its next invocation, in this order
        self.init_ms: float | None = None  # INIT's duration, once the handler is imported
        self.broken = False  # its worker exited, was killed or failed a setup
        self._process: subprocess.Popen[bytes] | None = None
        self._connection: Connection | None = None
        self._init_reported = False

    @property
    def started(self) -> bool:
        return self.init_ms is not None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def start(self, deadline: float) -> None:
        """A cold start: a fresh worker imports the handler. FunctionError if INIT fails,
        PastDeadline if it is not over by deadline."""
        self.broken = False
        connection, child = multiprocessing.Pipe()
        self._connection = connection
        self._process = subprocess.Popen(
            # the function's name and its stack's id are for `ps`: which function of
            # which stack each worker serves
            [
                sys.executable,
                "-c",
                _WORKER,
                str(child.fileno()),
                self.function.logical_id,
                self.function.stack_id,
            ],
            stdin=subprocess.DEVNULL,
            stdout=2,  # the function's output is its log: on stderr, as `sam local` has it
            pass_fds=[child.fileno()],
        )
        child.close()  # the worker's end: when it exits, this end reads EOF
        self._send((self.function.worker_spec(),))
        kind, value = self._reply(deadline)
        if kind == "failed":
            raise _function_error(value)
        self.init_ms = float(value)

    def invoke(self, event: Any, request_id: str, deadline: float | None = None) -> Any:
        """The handler's result; its deadline is the Timeout's from now unless given."""
        while self.pending:  # setups added since the last invocation, or since INIT
            self._set_up(self.pending[0])
            self.pending.pop(0)
        if deadline is None:
            deadline = time.monotonic() + self.function.timeout_s
        self._send(("invoke", request_id, json.dumps(event)))
        try:
            kind, value, duration_ms, memory_mb = self._reply(deadline)
        except PastDeadline:
            raise self.timed_out(request_id) from None
        self._report(request_id, duration_ms, memory_mb)
        if kind == "failed":
            raise _function_error(value)
        return json.loads(value)

    def _set_up(self, setup: EnvironmentSetup) -> None:
        self._send(("setup", setup.function, setup.args))
        kind, value = self._reply()
        if kind == "failed":
            self.broken = True
            raise _function_error(value)

    def _send(self, message: tuple[Any, ...]) -> None:
        assert self._connection is not None
        with contextlib.suppress(OSError):  # its worker is gone: _reply says why
            self._connection.send(message)

    def _reply(self, deadline: float | None = None) -> tuple[Any, ...]:
        """The worker's answer to the last message; what it asks the stack meanwhile
        (StackCall) is answered. Raises FunctionError if it exits, PastDeadline (once it
        is killed) if it has not answered by deadline."""
        connection = self._connection
        assert connection is not None
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                if not connection.poll(wait):
                    self.kill()
                    raise PastDeadline
                message = connection.recv()
            except (EOFError, OSError):
                raise self._exited() from None
            if message[0] != "call":
                return tuple(message)
            _, key, args = message
            try:
                answer = ("answer", self.function.stack_calls[key](*args))
            except Exception as exc:
                answer = ("refused", f"{type(exc).__name__}: {exc}")
            connection.send(answer)

    def timed_out(self, request_id: str) -> FunctionError:
        """Lambda's error for an invocation past its Timeout."""
        timeout = self.function.timeout_s
        log.warning("%s: task timed out after %d s", self.function.logical_id, timeout)
        return FunctionError(
            {
                "errorMessage": f"RequestId: {request_id} Error: Task timed out after "
                f"{timeout:.2f} seconds",
                "errorType": "Sandbox.Timedout",
                "stackTrace": [],
            }
        )

    def _exited(self) -> FunctionError:
        self.broken = True
        self.stop()
        assert self._process is not None
        return FunctionError(
            {
                "errorMessage": "Runtime exited with error: exit status "
                f"{self._process.returncode}",
                "errorType": "Runtime.ExitError",
                "stackTrace": [],
            }
        )

    def _report(self, request_id: str, duration_ms: float, memory_mb: int) -> None:
        init = ""
        if not self._init_reported:
            init = f"\tInit Duration: {self.init_ms:.2f} ms"
            self._init_reported = True
        log.log(
            logging.INFO if init else logging.DEBUG,
            "%s REPORT RequestId: %s\tDuration: %.2f ms\tMemory Size: %d MB"
            "\tMax Memory Used: %d MB%s",
            self.function.logical_id,
            request_id,
            duration_ms,
            self.function.memory_mb,
            memory_mb,
            init,
        )

    def kill(self) -> None:
        """End the worker at once (an invocation past its Timeout, or the stack stopping
        while it runs one); the thread waiting for it sees it exit."""
        self.broken = True
        if self._process is not None:
            self._process.kill()

    def close(self) -> None:
        """Close the worker's pipe, when it is idle: it exits."""
        if self._connection is not None:
            self._connection.close()

    def stop(self) -> None:
        """End the worker when it is idle: its pipe closed, it exits; killed if it does not."""
        self.close()
        if self._process is not None:
            try:
                self._process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
