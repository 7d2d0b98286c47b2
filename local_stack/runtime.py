"""Running a template's Lambda functions in this process, each as Lambda would load it.

Lambda puts a function's CodeUri at the root of sys.path, its layers' code beside it,
imports `module` from `Handler: module.function` and calls it per event with a context.
Here every function shares the process, so each one keeps its own modules, as each
Lambda function has its own memory: the modules imported from its CodeUri and from
its layers are held aside between its invocations and put back in sys.modules only
while it runs (two functions may both have `app.py`; module-level caches in a layer
are not shared between functions, nor kept across restarts of the stack). Libraries
installed in the environment are shared. Its environment (template Globals merged with
its own, plus what Lambda sets) is applied for its import and for each invocation.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from local_stack.store import AWS_ENVIRONMENT
from local_stack.template import ACCOUNT_ID, REGION

log = logging.getLogger("local_stack")

DEFAULT_TIMEOUT_S = 3
DEFAULT_MEMORY_MB = 128


class LambdaContext:
    """The context object the Python runtime passes to a handler."""

    def __init__(self, function: LambdaFunction, request_id: str) -> None:
        self.function_name = function.name
        self.function_version = "$LATEST"
        self.invoked_function_arn = function.arn
        self.memory_limit_in_mb = function.memory_mb
        self.aws_request_id = request_id
        self.log_group_name = f"/aws/lambda/{function.name}"
        self.log_stream_name = f"local/[$LATEST]{request_id.replace('-', '')}"
        self.identity: Any = None
        self.client_context: Any = None
        self._deadline = time.monotonic() + function.timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


@dataclass
class LambdaFunction:
    """One AWS::Serverless::Function, loadable and invocable in-process."""

    logical_id: str
    name: str
    code_dir: Path
    handler: str
    layer_dirs: list[Path]
    environment: dict[str, str]
    timeout_s: int = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    _handler_fn: Any = None
    _own_modules: dict[str, ModuleType] = field(default_factory=dict)

    def modules(self) -> dict[str, ModuleType]:
        """This function's own modules (its code's and its layers' copies), by name."""
        return dict(self._own_modules)

    @property
    def arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{self.name}"

    def lambda_environment(self) -> dict[str, str]:
        """The template's variables over what the Lambda runtime itself sets."""
        return {
            **AWS_ENVIRONMENT,
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

    def invoke(self, event: dict[str, Any], request_id: str | None = None) -> Any:
        """Call the handler (importing it on first use); exceptions propagate."""
        with self._activated():
            if self._handler_fn is None:
                self._handler_fn = self._import_handler()  # Lambda's init phase: not timed
            context = LambdaContext(self, request_id or str(uuid.uuid4()))
            started = time.monotonic()
            try:
                return self._handler_fn(event, context)
            finally:
                elapsed = time.monotonic() - started
                if elapsed > self.timeout_s:
                    # Not enforced here, but Lambda would have stopped it (API Gateway: 502).
                    log.warning(
                        "%s took %.1f s, over its Timeout of %d s",
                        self.logical_id,
                        elapsed,
                        self.timeout_s,
                    )

    def _import_handler(self) -> Any:
        module_name, _, attribute = self.handler.rpartition(".")
        if not module_name:
            raise RuntimeError(
                f"{self.logical_id}: Handler {self.handler!r} is not module.function"
            )
        module = importlib.import_module(module_name)
        if not str(getattr(module, "__file__", "")).startswith(str(self.code_dir) + os.sep):
            raise RuntimeError(
                f"{self.logical_id}: {module_name} was imported from {module.__file__}, "
                f"not from its CodeUri {self.code_dir}"
            )
        return getattr(module, attribute)

    @contextmanager
    def _activated(self) -> Iterator[None]:
        """sys.path, sys.modules and os.environ as this function's own, for a while."""
        paths = [str(self.code_dir), *(str(p) for p in self.layer_dirs)]
        saved_path = list(sys.path)
        environment = self.lambda_environment()
        saved_environ = {key: os.environ.get(key) for key in environment}
        # What the host or another function left under our names would shadow ours.
        top = self.handler.rpartition(".")[0].split(".")[0]
        tops = self._top_names
        displaced = {
            name: module
            for name, module in list(sys.modules.items())
            if name.partition(".")[0] in tops and (name == top or self._is_own(module))
        }
        displaced.update((n, sys.modules[n]) for n in self._own_modules if n in sys.modules)
        for name in displaced:
            del sys.modules[name]
        sys.modules.update(self._own_modules)
        before = set(sys.modules)
        sys.path[:0] = paths
        os.environ.update(environment)
        try:
            yield
        finally:
            for module_name in (sys.modules.keys() - before) | self._own_modules.keys():
                module = sys.modules.pop(module_name, None)
                if module is None:
                    continue
                if self._is_own(module):
                    self._own_modules[module_name] = module
                else:
                    sys.modules[module_name] = module  # a library it imported: shared
            sys.modules.update(displaced)
            sys.path[:] = saved_path
            for key, value in saved_environ.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    @cached_property
    def _top_names(self) -> frozenset[str]:
        """The top-level module names the code and layer folders provide."""
        names: set[str] = set()
        for folder in (self.code_dir, *self.layer_dirs):
            if folder.is_dir():
                names.update(p.stem if p.suffix == ".py" else p.name for p in folder.iterdir())
        return frozenset(names)

    @cached_property
    def _own_prefixes(self) -> tuple[str, ...]:
        return tuple(str(d) + os.sep for d in (self.code_dir, *self.layer_dirs))

    def _is_own(self, module: ModuleType | None) -> bool:
        """Whether a module was loaded from this function's code or its layers."""
        file = getattr(module, "__file__", None)
        return isinstance(file, str) and file.startswith(self._own_prefixes)
