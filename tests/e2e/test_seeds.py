"""Known shoes end with the test that asked for them: the stack's execution environments,
each a process, go back to the system's seeds (a later test sharing the source would deal
its seeds again, and a user's shoes, and so round ids, would repeat)."""

from __future__ import annotations

from blackjack.fairness import seed_hash
from tests.integration.seeds import FixedSeeds, use_stack_seeds

from .environment import Stack
from .helpers import new_login

COUNTED = [f"{10**6 + n:064x}" for n in range(1, 6)]  # what FixedSeeds gives past its list


def committed_hash(stack: Stack) -> str:
    """The commitment of a new user's first shoe at classic."""
    login = new_login("seed")
    stack.api.register(login)
    token = stack.api.login(login)
    return str(stack.api.table(token, "classic")["shoe"]["server_seed_hash"])


def test_an_environment_deals_from_the_system_once_the_seeds_stop(stack: Stack) -> None:
    stop = use_stack_seeds(stack.stack, FixedSeeds([]))
    assert committed_hash(stack) == seed_hash(COUNTED[0])
    stop()
    assert committed_hash(stack) not in {seed_hash(seed) for seed in COUNTED}
