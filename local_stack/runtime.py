"""Running a template's Lambda functions in this process, side by side, as Lambda runs them.

Lambda puts a function's CodeUri at the root of sys.path, its layers' code beside it,
imports `module` from `Handler: module.function` and calls it per event with a context,
in an execution environment that serves one invocation at a time. Here each function
keeps a pool of execution environments: an invocation takes a free one or starts a new
one (a cold start), up to the function's concurrency cap, past which it is throttled.

Each environment has its own memory, as far as one process allows:
- its own copies of the modules of its code and layers (module-level caches, clients,
  counters), imported through its own `__import__`: every such module gets builtins
  whose `__import__` finds the environment's copies, so a lazy `from .x import y` at
  call time stays within the environment, and nothing of theirs is left in sys.modules.
  Installed libraries (boto3, pydantic, ...) are shared, but for OWN_LIBRARIES.
- its own os.environ: `os.environ` is replaced, once, by a mapping that reads and writes
  the environment of the invocation running in the current thread (the process's own
  elsewhere), so concurrent functions each see their template variables.
Invocations run in the HTTP server's threads with no lock between them; only imports
(cold starts and first lazy imports) take the process's import lock.
"""

from __future__ import annotations

import builtins
import contextvars
import importlib.machinery
import importlib.util
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3

from local_stack.template import ACCOUNT_ID, REGION

log = logging.getLogger("local_stack")

DEFAULT_TIMEOUT_S = 3
DEFAULT_MEMORY_MB = 128
DEFAULT_CONCURRENCY = 10  # execution environments per function; then 429 throttled
# Installed libraries each environment imports for itself, as each Lambda environment has
# its own copy of its layer's libraries: these keep a request's state in class attributes
# (Powertools' event handler sets `BaseRouter.current_event` on the class), which
# environments side by side must not share. Pure Python; others are shared.
OWN_LIBRARIES = frozenset({"aws_lambda_powertools"})

_builtin_import = builtins.__import__
# Imports change sys.modules, shared by every thread: one at a time (Python's own is per
# module, and ours briefly lends a module to sys.modules while it runs, see `load`).
_import_lock = threading.RLock()


class Throttled(Exception):
    """Every execution environment of the function is busy and the cap is reached."""


# -- os.environ per execution environment -------------------------------------------

_current_environ: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "local_stack_environ", default=None
)


class _EnvironmentVariables(MutableMapping[str, str]):
    """os.environ as the running invocation's environment sees it."""

    def __init__(self, process: MutableMapping[str, str]) -> None:
        self.process = process

    def _target(self) -> MutableMapping[str, str]:
        own = _current_environ.get()
        return self.process if own is None else own

    def __getitem__(self, key: str) -> str:
        return self._target()[key]

    def __setitem__(self, key: str, value: str) -> None:
        self._target()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._target()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._target()))

    def __len__(self) -> int:
        return len(self._target())

    def copy(self) -> dict[str, str]:
        return dict(self._target())


def _install_environment_variables() -> None:
    """Give each execution environment its own os.environ (see the module's doc)."""
    with _import_lock:
        if isinstance(os.environ, _EnvironmentVariables):
            return
        os.environ = _EnvironmentVariables(os.environ)  # type: ignore[assignment]  # noqa: B003
        # boto3's default session, if made before, read the process's variables, not the
        # invocation's (the region, the endpoints): the functions' clients make a new one.
        boto3.DEFAULT_SESSION = None


# -- modules per execution environment ----------------------------------------------


class ModuleSpace:
    """One execution environment's own modules, imported from its code and layer folders."""

    def __init__(self, folders: list[Path], top_names: frozenset[str]) -> None:
        self.folders = [str(folder) for folder in folders]
        self.top_names = top_names
        self.modules: dict[str, ModuleType] = {}
        self.builtins = {**builtins.__dict__, "__import__": self._import}

    def load(self, name: str) -> ModuleType:
        """The environment's module `name`, imported on first use."""
        module = self.modules.get(name)
        if module is not None:
            return module
        with _import_lock:
            module = self.modules.get(name)  # another thread's import, or a circular one
            if module is not None:
                return module
            parent_name, _, child = name.rpartition(".")
            parent = self.load(parent_name) if parent_name else None
            top_search = [*self.folders, *sys.path]  # own code first; OWN_LIBRARIES after
            search = top_search if parent is None else getattr(parent, "__path__", None)
            finder = importlib.machinery.PathFinder
            spec = None if search is None else finder.find_spec(name, search)
            if spec is None or spec.loader is None:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            module = importlib.util.module_from_spec(spec)
            module.__dict__["__builtins__"] = self.builtins  # its imports come back here
            self.modules[name] = module
            # Libraries look the module up by name while its classes are made (pydantic
            # resolves annotations in sys.modules[cls.__module__]): lend it meanwhile.
            lent = sys.modules.get(name)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del self.modules[name]
                raise
            finally:
                if lent is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = lent
            if parent is not None:
                setattr(parent, child, module)
            return module

    def _import(
        self,
        name: str,
        globals: dict[str, Any] | None = None,
        locals: Any = None,
        fromlist: tuple[str, ...] | list[str] | None = (),
        level: int = 0,
    ) -> ModuleType:
        """`__import__` for the environment's modules; libraries come from sys.modules."""
        if level:
            package = (globals or {}).get("__package__") or ""
            name = importlib.util.resolve_name("." * level + name, package)
        elif name.partition(".")[0] not in self.top_names:
            return _builtin_import(name, globals, locals, fromlist or (), level)
        module = self.load(name)
        if not fromlist:
            return self.modules[name.partition(".")[0]]
        if hasattr(module, "__path__"):
            wanted = list(getattr(module, "__all__", ())) if "*" in fromlist else fromlist
            for item in wanted:
                if item != "*" and not hasattr(module, item):
                    try:
                        self.load(f"{name}.{item}")
                    except ModuleNotFoundError as missing:
                        if missing.name != f"{name}.{item}":
                            raise
        return module


# -- functions ----------------------------------------------------------------------


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


class ExecutionEnvironment:
    """One environment of a function: its modules, its os.environ, one call at a time."""

    def __init__(self, function: LambdaFunction) -> None:
        _install_environment_variables()
        self.function = function
        self.space = ModuleSpace([function.code_dir, *function.layer_dirs], function.top_names)
        self.environ = {**os.environ, **function.lambda_environment()}
        self._handler: Callable[[Any, Any], Any] | None = None

    @property
    def modules(self) -> dict[str, ModuleType]:
        return self.space.modules

    def load(self, name: str) -> ModuleType:
        """The environment's copy of module `name` (imported now if it was not yet)."""
        token = _current_environ.set(self.environ)
        try:
            return self.space.load(name)
        finally:
            _current_environ.reset(token)

    @property
    def started(self) -> bool:
        return self._handler is not None

    def invoke(self, event: Any, request_id: str) -> Any:
        token = _current_environ.set(self.environ)
        try:
            if self._handler is None:  # Lambda's init phase: not timed
                self._handler = self._import_handler()
                for setup in list(self.function.setups):
                    setup(self)
            context = LambdaContext(self.function, request_id)
            return self._handler(event, context)
        finally:
            _current_environ.reset(token)

    def _import_handler(self) -> Callable[[Any, Any], Any]:
        function = self.function
        module_name, _, attribute = function.handler.rpartition(".")
        if not module_name:
            raise RuntimeError(
                f"{function.logical_id}: Handler {function.handler!r} is not module.function"
            )
        module = self.space.load(module_name)
        if not str(getattr(module, "__file__", "")).startswith(str(function.code_dir) + os.sep):
            raise RuntimeError(
                f"{function.logical_id}: {module_name} was imported from {module.__file__}, "
                f"not from its CodeUri {function.code_dir}"
            )
        handler: Callable[[Any, Any], Any] = getattr(module, attribute)
        return handler


EnvironmentSetup = Callable[[ExecutionEnvironment], None]


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
    # run in each environment once its handler is imported (tests fix seeds this way)
    setups: list[EnvironmentSetup] = field(default_factory=list)
    aws_environment: dict[str, str] = field(default_factory=dict)
    _environments: list[ExecutionEnvironment] = field(default_factory=list)
    _free: list[ExecutionEnvironment] = field(default_factory=list)
    _pool_lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{self.name}"

    def environments(self) -> list[ExecutionEnvironment]:
        """The environments started so far (their handler imported)."""
        with self._pool_lock:
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

    def invoke(self, event: Any, request_id: str | None = None) -> Any:
        """Call the handler in a free environment (or a new one); exceptions propagate.

        Raises Throttled when `concurrency` invocations are already running."""
        environment = self._acquire()
        started = time.monotonic()
        keep = True
        try:
            return environment.invoke(event, request_id or str(uuid.uuid4()))
        except BaseException:
            keep = environment.started  # an environment whose init failed is discarded
            raise
        finally:
            self._release(environment, keep)
            elapsed = time.monotonic() - started
            if elapsed > self.timeout_s:
                # Not enforced here, but Lambda would have stopped it (API Gateway: 502).
                log.warning(
                    "%s took %.1f s, over its Timeout of %d s",
                    self.logical_id,
                    elapsed,
                    self.timeout_s,
                )

    def _acquire(self) -> ExecutionEnvironment:
        with self._pool_lock:
            if self._free:
                return self._free.pop()  # the most recently used: the warmest
            if len(self._environments) >= self.concurrency:
                raise Throttled(f"{self.logical_id}: {self.concurrency} invocations running")
            environment = ExecutionEnvironment(self)
            self._environments.append(environment)
            return environment

    def _release(self, environment: ExecutionEnvironment, keep: bool) -> None:
        with self._pool_lock:
            if keep:
                self._free.append(environment)
            else:
                self._environments.remove(environment)

    @cached_property
    def top_names(self) -> frozenset[str]:
        """The top-level module names the code and layer folders provide, and OWN_LIBRARIES."""
        names: set[str] = set(OWN_LIBRARIES)
        for folder in (self.code_dir, *self.layer_dirs):
            if folder.is_dir():
                names.update(p.stem if p.suffix == ".py" else p.name for p in folder.iterdir())
        return frozenset(names)
