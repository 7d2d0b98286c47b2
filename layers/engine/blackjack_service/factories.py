"""The factories of the objects a function uses (the store; the account, game, shoe,
drill, edge, live and room services; the deadlines' queue), each built once per Lambda
environment from settings. Each factory imports its service when first called, so a
function imports only what its routes use (argon2 for accounts, the engine for the game)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .settings import settings
from .store import Store

if TYPE_CHECKING:
    from .accounts import AccountService
    from .drills import DrillService
    from .edge import EdgeService
    from .game import GameService
    from .live import LiveService
    from .rooms import DeadlineQueue, RoomService
    from .shoes import FairShoes


@functools.cache
def store() -> Store:
    return Store(settings().table_name)


@functools.cache
def accounts() -> AccountService:
    from .accounts import AccountService

    return AccountService(store())


@functools.cache
def game() -> GameService:
    from .game import GameService
    from .shoes import SystemSeeds

    return GameService(store(), seeds=SystemSeeds())


@functools.cache
def shoes() -> FairShoes:
    from .shoes import FairShoes, SystemSeeds

    return FairShoes(store(), seeds=SystemSeeds())


@functools.cache
def drills() -> DrillService:
    from .drills import DrillService

    return DrillService(store())


@functools.cache
def edge() -> EdgeService:
    from .edge import EdgeService

    return EdgeService(store())


@functools.cache
def live() -> LiveService:
    from .live import LiveService

    return LiveService(store())


@functools.cache
def deadlines() -> DeadlineQueue:
    from .deadlines import SqsDeadlines

    return SqsDeadlines()


@functools.cache
def rooms() -> RoomService:
    from .rooms import RoomService
    from .shoes import SystemSeeds

    return RoomService(store(), deadlines(), seeds=SystemSeeds())


def reset() -> None:
    """Forget the built objects (a new environment: tests start each case afresh)."""
    for factory in (store, accounts, game, shoes, drills, edge, live, deadlines, rooms):
        factory.cache_clear()
    settings.cache_clear()
