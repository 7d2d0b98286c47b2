"""Known drills for the e2e tests: the drills `next` deals with a `random.Random` the test
seeds, in every execution environment of the local stack (each one a process with its own
drill service), as `tests/integration/seeds.py` fixes the shoes' seeds."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from blackjack import drills
from blackjack.drills import Schedule, Section
from blackjack.rules import TABLES
from blackjack_service import factories
from blackjack_service.drills import DrillService
from local_stack.worker import EnvironmentSetup

if TYPE_CHECKING:
    from local_stack.stack import LocalStack


def first_pairs_drill(table_id: str, seed: int) -> tuple[tuple[str, str], str]:
    """The hand and up card a new user's first `next?section=pairs` deals with `seed`."""
    rng = random.Random(seed)
    cell = Schedule().draw(drills.section_cells(table_id, Section.PAIRS), rng)
    return drills.deal(TABLES[table_id], cell, rng)


def seeded(seed: int) -> None:
    """An environment setup, run in the environment's own process: its drill service deals
    from `random.Random(seed)`."""
    service = DrillService(factories.store(), rng=random.Random(seed))
    pytest.MonkeyPatch().setattr(factories, "drills", lambda: service)


def unseeded() -> None:
    """An environment setup: its drill service is the system's again (built anew)."""
    pytest.MonkeyPatch().setattr(factories, "drills", _SYSTEM_DRILLS)


_SYSTEM_DRILLS = factories.drills


def use_drill_seed(stack: LocalStack, seed: int) -> Callable[[], None]:
    """Every environment deals drills from `seed` (from its next invocation); returns what
    puts the system's randomness back."""
    stop = stack.add_environment_setup(EnvironmentSetup(f"{__name__}.{seeded.__name__}", (seed,)))

    def restore() -> None:
        stop()
        stack.add_environment_setup(EnvironmentSetup(f"{__name__}.{unseeded.__name__}", ()))()

    return restore
