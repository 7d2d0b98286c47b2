"""Known shoes for scenario tests: a seed source the tests hand to their own GameService
(the deployed functions always use the system's generator)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

from blackjack.fairness import shuffled_shoe
from blackjack_service import factories
from blackjack_service.game import GameService
from local_stack.worker import EnvironmentSetup

if TYPE_CHECKING:
    from local_stack.stack import LocalStack

CLIENT_SEED = "tests"


class FixedSeeds:
    def __init__(self, server_seeds: list[str]) -> None:
        self._seeds: Iterator[str] = iter(server_seeds)
        self._counter = 10**6

    def server_seed(self) -> str:
        try:
            return next(self._seeds)
        except StopIteration:
            self._counter += 1
            return f"{self._counter:064x}"

    def client_seed(self) -> str:
        return CLIENT_SEED


def find_seed(decks: int, wanted: Callable[[list[str]], bool], nonce: int = 1) -> str:
    """The first counter seed whose shoe (client seed `tests`) satisfies `wanted`."""
    return find_seeds(1, decks, wanted, nonce)[0]


def find_seeds(
    count: int, decks: int, wanted: Callable[[list[str]], bool], nonce: int = 1
) -> list[str]:
    """The first `count` counter seeds whose shoes (client seed `tests`) satisfy `wanted`:
    one for each shoe a test commits, so that no two of them share a shoe id."""
    found: list[str] = []
    for counter in range(200_000):
        seed = f"{counter:064x}"
        if wanted(shuffled_shoe(seed, CLIENT_SEED, nonce, decks)):
            found.append(seed)
            if len(found) == count:
                return found
    raise AssertionError("no seed found")


def no_natural_nor_ace_up(shoe: list[str]) -> bool:
    """One box's deal (its cards 1st and 3rd, the dealer's up card 2nd) that asks the
    player to play: two cards of 2 to 9 (no natural), against a 2 to 9 (no insurance)."""
    return all(card[0] in "23456789" for card in shoe[:3])


def use_seeds(monkeypatch: pytest.MonkeyPatch, *server_seeds: str) -> None:
    game = GameService(factories.store(), seeds=FixedSeeds(list(server_seeds)))
    monkeypatch.setattr(factories, "game", lambda: game)


class SeedsFromStack:
    """An execution environment's seeds: each server seed is the next of the stack's
    process (a StackCall), so that environments side by side never deal one twice."""

    def __init__(self, server_seed: Callable[[], str]) -> None:
        self.server_seed = server_seed

    def client_seed(self) -> str:
        return CLIENT_SEED


# The environment's own game service, as its function built it: put back when a test ends.
_SYSTEM_GAME = factories.game


def deal_from_stack(server_seed: Callable[[], str]) -> None:
    """An environment setup, run in the environment's own process: its game service deals
    from the stack's seeds."""
    seeds = SeedsFromStack(server_seed)
    pytest.MonkeyPatch().setattr(
        factories, "game", lambda: GameService(factories.store(), seeds=seeds)
    )


def deal_from_system() -> None:
    """An environment setup: its game service deals from the system's seeds again."""
    pytest.MonkeyPatch().setattr(factories, "game", _SYSTEM_GAME)


def use_stack_seeds(stack: LocalStack, source: FixedSeeds) -> Callable[[], None]:
    """`use_seeds` for a local stack, whose execution environments are processes with
    their own game service: those started so far (from their next invocation) and each
    one started later deal from `source`, each of its seeds once across them. Returns
    what stops it: every environment deals from the system's seeds again, so that no
    later test shares `source` (its seeds would repeat another source's, and a user's
    shoes, and so their round ids, with them)."""
    next_seed = stack.stack_call(source.server_seed)
    setup = EnvironmentSetup(f"{__name__}.{deal_from_stack.__name__}", (next_seed,))
    stop_dealing = stack.add_environment_setup(setup)

    def stop() -> None:
        stop_dealing()
        restore = EnvironmentSetup(f"{__name__}.{deal_from_system.__name__}", ())
        stack.add_environment_setup(restore)()  # the environments started so far only

    return stop


def value(card: str) -> int:
    return {"A": 11, "T": 10, "J": 10, "Q": 10, "K": 10}.get(card[0]) or int(card[0])
