"""One execution environment's process: Lambda's INIT, then one invocation at a time.

The stack (execution_environment.py) starts it as a fresh interpreter with its end of a
pipe; the first message is its `WorkerSpec`. It puts the function's CodeUri first on
sys.path, its layers' folders next and the stack's own path (the installed libraries) last,
sets os.environ, imports the handler (INIT, timed) and answers the stack's messages until
the stack closes the pipe, or its process is gone. Each message is a tuple whose first item
says what it is:

- stack to worker: (WorkerSpec,) first; ("invoke", request_id, event as JSON),
  ("setup", "module.function", args): run function(*args) here (tests fix seeds so);
- worker to stack: ("ready", init ms) or ("failed", error) once INIT is over; then per
  invocation ("result", result as JSON, duration ms, max memory MB) or ("failed", error,
  duration ms, max memory MB), per setup ("done", None) or ("failed", error); meanwhile
  ("call", key, args) for each `StackCall` the environment's code makes, which the stack
  answers with ("answer", value) or ("refused", message).

An error is Lambda's document (errorMessage, errorType, stackTrace) with the traceback as
text. This module imports only the standard library: whatever else the environment holds
is the function's.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

# The stack's connection, for StackCall: set once the handler is imported.
_stack: Connection | None = None
PARENT_CHECK_S = 0.5  # how often a worker checks that the stack's process still runs


@dataclass(frozen=True)
class WorkerSpec:
    """What an environment is made of: the function's code, layers, variables and facts."""

    logical_id: str
    name: str
    arn: str
    code_dir: str
    handler: str
    layer_dirs: list[str]
    stack_path: list[str]
    environment: dict[str, str]
    memory_mb: int
    timeout_s: int
    stack_pid: int


@dataclass(frozen=True)
class EnvironmentSetup:
    """What each execution environment runs in itself after INIT: `function(*args)`.

    function is "module.function", imported by the environment (its CodeUri, its layers,
    then the stack's sys.path); args are pickled to it, and a StackCall among them calls
    back into the stack's process."""

    function: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class StackCall:
    """A function of the stack's process, callable from an environment's code: the stack
    runs it when the worker asks over its pipe (`LambdaFunction.stack_calls[key]`)."""

    key: str

    def __call__(self, *args: Any) -> Any:
        if _stack is None:
            raise RuntimeError(f"stack call {self.key} outside an execution environment")
        _stack.send(("call", self.key, args))
        kind, value = _stack.recv()
        if kind == "refused":
            raise RuntimeError(f"stack call {self.key}: {value}")
        return value


class LambdaContext:
    """The context object the Python runtime passes to a handler (local_stack.in_process
    makes one too)."""

    def __init__(
        self, name: str, arn: str, request_id: str, memory_mb: int, timeout_s: float
    ) -> None:
        self.function_name = name
        self.function_version = "$LATEST"
        self.invoked_function_arn = arn
        self.memory_limit_in_mb = memory_mb
        self.aws_request_id = request_id
        self.log_group_name = f"/aws/lambda/{name}"
        self.log_stream_name = f"local/[$LATEST]{request_id.replace('-', '')}"
        self.identity: Any = None
        self.client_context: Any = None
        self._deadline = time.monotonic() + timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def main() -> None:
    """The worker's command: its end of the stack's pipe is file descriptor argv[1] (the
    function's logical id and its stack's id follow, for `ps`); the first message is its
    WorkerSpec."""
    connection = Connection(int(sys.argv[1]))
    try:
        (spec,) = connection.recv()
    except EOFError:  # the stack has gone already
        return
    threading.Thread(target=_end_with, args=(spec.stack_pid,), daemon=True).start()
    serve(connection, spec)


def _end_with(stack_pid: int) -> None:
    """Exit once the stack's process is gone (killed: it stopped no environment), even
    in the middle of an invocation, as an environment ends with its host."""
    while os.getppid() == stack_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(1)


def serve(connection: Connection, spec: WorkerSpec) -> None:
    """The worker's life: INIT, then the stack's messages until it closes the pipe."""
    global _stack
    # Ctrl-C reaches the whole process group: the stack stops its environments itself,
    # once the requests in flight are answered.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a log's lines
    started = time.perf_counter()
    sys.path[:] = [spec.code_dir, *spec.layer_dirs, *spec.stack_path]
    os.environ.update(spec.environment)
    try:
        handler = _import_handler(spec)
    except Exception as exc:
        connection.send(("failed", _error(exc, *_init_error(exc, spec))))
        return
    connection.send(("ready", (time.perf_counter() - started) * 1000))
    _stack = connection
    while True:
        try:
            message = connection.recv()
        except EOFError:  # the stack is gone, or has stopped this environment
            return
        if message[0] == "invoke":
            connection.send(_invoke(handler, spec, message[1], message[2]))
        else:
            connection.send(_set_up(message[1], message[2]))


def _import_handler(spec: WorkerSpec) -> Any:
    module_name, _, attribute = spec.handler.rpartition(".")
    if not module_name:
        raise ValueError(f"Bad handler '{spec.handler}': not module.function")
    module = importlib.import_module(module_name)
    if not str(getattr(module, "__file__", "")).startswith(spec.code_dir + os.sep):
        raise ImportError(f"{module_name} was imported from {module.__file__}, not its CodeUri")
    return getattr(module, attribute)


def _init_error(exc: Exception, spec: WorkerSpec) -> tuple[str, str]:
    """Lambda's errorType and errorMessage for a failed INIT (its Python runtime's words)."""
    module_name, _, attribute = spec.handler.rpartition(".")
    if isinstance(exc, ImportError):
        return "Runtime.ImportModuleError", f"Unable to import module '{module_name}': {exc}"
    if isinstance(exc, SyntaxError):
        return "Runtime.UserCodeSyntaxError", f"Syntax error in module '{module_name}': {exc}"
    if isinstance(exc, AttributeError) and exc.name == attribute:
        return "Runtime.HandlerNotFound", f"Handler '{attribute}' missing on module '{module_name}'"
    return type(exc).__name__, str(exc)


def _invoke(handler: Any, spec: WorkerSpec, request_id: str, event: str) -> tuple[Any, ...]:
    started = time.perf_counter()
    try:
        context = LambdaContext(spec.name, spec.arn, request_id, spec.memory_mb, spec.timeout_s)
        result = handler(json.loads(event), context)
    except Exception as exc:
        answer: tuple[Any, ...] = ("failed", _error(exc, type(exc).__name__, str(exc)))
    else:
        try:
            answer = ("result", json.dumps(result))
        except (TypeError, ValueError) as exc:  # what Lambda cannot send back either
            message = f"Unable to marshal response: {exc}"
            answer = ("failed", _error(exc, "Runtime.MarshalError", message))
    duration_ms = (time.perf_counter() - started) * 1000
    max_memory_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # KiB on Linux
    return (*answer, duration_ms, max_memory_mb)


def _set_up(target: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
    module_name, _, attribute = target.rpartition(".")
    try:
        getattr(importlib.import_module(module_name), attribute)(*args)
    except Exception as exc:
        return ("failed", _error(exc, type(exc).__name__, str(exc)))
    return ("done", None)


def _error(exc: BaseException, error_type: str, message: str) -> dict[str, Any]:
    """Lambda's error document, and the traceback as text, without this module's frames."""
    report = traceback.TracebackException.from_exception(exc)
    report.stack = traceback.StackSummary.from_list(
        [frame for frame in report.stack if frame.filename != __file__]
    )
    return {
        "errorMessage": message,
        "errorType": error_type,
        "stackTrace": report.stack.format(),
        "traceback": "".join(report.format()),
    }
