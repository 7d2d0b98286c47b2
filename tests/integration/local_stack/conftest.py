"""Fixtures: one local stack on the fixture template per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.local_stack.harness import Client, Running, running_stack


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_stack(tmp_path_factory.mktemp("local_stack_data")) as stack:
        yield stack


@pytest.fixture(scope="module")
def client(running: Running) -> Client:
    return running.client
