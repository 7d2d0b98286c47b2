"""Known shoes for scenario tests: a seed source the tests hand to their own GameService
(the deployed functions always use the system's generator)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

from blackjack.fairness import shuffled_shoe
from blackjack_service import factories
from blackjack_service.game import GameService

if TYPE_CHECKING:
    from local_stack.runtime import ExecutionEnvironment
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
    for counter in range(200_000):
        seed = f"{counter:064x}"
        if wanted(shuffled_shoe(seed, CLIENT_SEED, nonce, decks)):
            return seed
    raise AssertionError("no seed found")


def use_seeds(monkeypatch: pytest.MonkeyPatch, *server_seeds: str) -> None:
    game = GameService(factories.store(), seeds=FixedSeeds(list(server_seeds)))
    monkeypatch.setattr(factories, "game", lambda: game)


def use_stack_seeds(
    stack: LocalStack, monkeypatch: pytest.MonkeyPatch, source: FixedSeeds
) -> Callable[[], None]:
    """`use_seeds` for a local stack, whose execution environments each have their own copy
    of the game service: those started so far and each one started later deal from
    `source`. Returns what stops it for environments started afterwards."""

    def setup(environment: ExecutionEnvironment) -> None:
        if "blackjack_service.factories" not in environment.modules:
            return  # not a function of the game
        own = environment.load("blackjack_service.factories")
        game = environment.load("blackjack_service.game")
        monkeypatch.setattr(own, "game", lambda: game.GameService(own.store(), seeds=source))

    return stack.add_environment_setup(setup)


def value(card: str) -> int:
    return {"A": 11, "T": 10, "J": 10, "Q": 10, "K": 10}.get(card[0]) or int(card[0])
