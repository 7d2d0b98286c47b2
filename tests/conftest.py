from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from local_stack import document

if TYPE_CHECKING:
    from tests.e2e.environment import Stack


def pytest_configure(config: pytest.Config) -> None:
    """The document the meta function serves, put together from this checkout's routes,
    once per run: by pytest-xdist's controller before it starts its workers (a worker has
    `workerinput`), else by the one process of a plain run. It takes a subprocess of some
    5 s that imports every function, and every worker reads the same file."""
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        document.write()


# The scopes whose fixture is set up again on each worker that runs one of its tests.
_SHARED_SCOPES = ("module", "class")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup`, the tests of a module that share a module-scoped fixture
    (a local stack and its DynamoDB Local JVM, a built layer, one moto account) run on one
    worker, so the fixture is set up once; the other tests go wherever a worker is free.
    The stack of the browser and contract tests is per session: each worker that runs one
    of them starts it once, for its share of them."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        definitions = item._fixtureinfo.name2fixturedefs.values()
        if any(d.scope in _SHARED_SCOPES for defs in definitions for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


@pytest.hookimpl(wrapper=True, trylast=True)  # inside pytest-cov's own pause
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test marked `no_cover` runs with no trace function, in its thread or in those it
    starts. pytest-cov (7.1) pauses its coverage for such a test, but in a pytest-xdist
    worker it has started a second coverage too (it reads the worker's options as a plain
    run's), and the pause resumes that one: the marked tests ran 3 times slower."""
    if item.get_closest_marker("no_cover") is None:
        return (yield)
    tracing = sys.gettrace(), threading.gettrace()
    sys.settrace(None)
    threading.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracing[0])
        threading.settrace(tracing[1])


# The signals that stop a run: SIGTERM (make sends its recipe's process one), Ctrl-C's
# SIGINT, a closed terminal's SIGHUP.
_STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@pytest.fixture(autouse=True)
def stopping_signals_kept() -> Iterator[None]:
    """No test leaves a handler of its own behind for a signal that stops the run: issue 30,
    local_stack's command run in process kept its handlers, and `make test` ran on after
    SIGTERM and Ctrl-C."""
    before = [signal.getsignal(signum) for signum in _STOPPING]
    yield
    after = [signal.getsignal(signum) for signum in _STOPPING]
    assert after == before, f"a test left handlers for SIGINT, SIGTERM, SIGHUP: {after}"


@pytest.fixture(scope="session")
def shared_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The local stack (repository's template.yaml and web/) on a free loopback port, in
    this process (a test may fix its seeds), started once per worker for the browser tests
    and the contract test alike: a stack and its DynamoDB Local JVM cost seconds to start,
    and each of its functions its first environment."""
    from local_stack.server import start_server, stop_server
    from local_stack.stack import LocalStack
    from local_stack.template import rate_limits_lifted
    from tests.e2e.environment import Stack
    from tests.integration.harness import ROOT

    # Every user of the shared stack calls from 127.0.0.1: the web ACL's per-address and
    # per-token limits stay on, raised past what the browser tests and the contract's
    # fuzzer send together (the limits' own tests are apart).
    template = ROOT / "template.yaml"
    local = LocalStack(
        template,
        tmp_path_factory.mktemp("shared_stack_data"),
        parameters=rate_limits_lifted(template),
    )
    local.start()
    try:
        server, thread = start_server(local, "127.0.0.1", 0, ROOT / "web")
        try:
            running = Stack(local, server.url, int(server.server_address[1]))
            running.api.warm_up()
            yield running
        finally:
            stop_server(server, thread)
    finally:
        local.stop()
