import signal
from collections.abc import Iterator

import pytest

from local_stack import document


@pytest.fixture(scope="session", autouse=True)
def openapi_document() -> None:
    """The document the meta function serves, put together from this checkout's routes."""
    document.write()


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
